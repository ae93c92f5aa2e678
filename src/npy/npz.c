/* .npz archives: zip files whose members are .npy files.
 *
 * numpy.savez writes stored members (method 0) with a zip64 extra field
 * in the local headers; numpy.savez_compressed deflates them (method 8).
 * The archive's directory is read as numpy.load reads it (zip.c), so a
 * name means the member numpy.load gives for it.
 *
 * Reading streams the member through the .npy reader: a stored member
 * straight from the file, a deflated one through zlib's inflate (raw
 * deflate, as zipfile's zlib.decompressobj(-15)), so the data inflate into
 * the tensor's own buffer, allocated once the .npy header has given its
 * size and the budget allowed it.  Like zipfile, a member gives at most its
 * stated uncompressed size and ends where its deflate stream or its
 * compressed bytes end; its CRC-32 is checked over all of it.
 *
 * Writing emits stored members, patching each local header's CRC and
 * sizes once the member is written (or, when the output is a FIFO or
 * device, measuring each member in a first pass), dated 1980-01-01 so
 * output is reproducible.  Updating an archive copies the members it
 * keeps byte for byte (local header, data, any data descriptor) and their
 * directory entries with the new offsets. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/alloc.h"
#include "core/diag.h"
#include "core/output.h"
#include "npy/npy_common.h"
#include "npy/zip.h"

#define ZIP_VERSION 20         /* 2.0: what a stored member needs */
#define ZIP_DOS_DATE 0x0021    /* 1980-01-01 */
#define ZIP_MAX_ENTRIES 0xfffe /* more needs a zip64 end record */
/* Compressed bytes read from the file at a time, and bytes copied at a
 * time from a kept member. */
#define ZIP_CHUNK ((size_t)64 << 10)

/* "PATH:NAME" for messages, NAME without ".npy" as numpy.load names it;
 * NULL when out of memory. */
static char *member_label(const char *path, const char *name, size_t len) {
  if (len >= 4 && memcmp(name + len - 4, ".npy", 4) == 0) len -= 4;
  char *label = bcast__malloc(strlen(path) + len + 2);
  if (label) sprintf(label, "%s:%.*s", path, (int)len, name);
  return label;
}

static bcast_status no_memory(const char *path, bcast_diag *diag) {
  return bcast__fail(diag, BCAST_NO_MEMORY, "%s: out of memory", path);
}

/* ------------------------------------------------------------------------ */
/* Reading. */

/* zlib's allocations go through bcast's allocator. */
static voidpf zlib_alloc(voidpf opaque, uInt items, uInt size) {
  (void)opaque;
  if (size && items > SIZE_MAX / size) return Z_NULL;
  return bcast__malloc((size_t)items * size);
}

static void zlib_free(voidpf opaque, voidpf p) {
  (void)opaque;
  bcast__free(p);
}

/* The member being read: in_left more bytes of the file, giving at most
 * out_left more bytes, summed into crc as they pass.  A failure that is
 * not the operating system's leaves its reason in error. */
typedef struct member_reader {
  FILE *file;
  uint64_t in_left, out_left;
  uint32_t crc;
  int deflated, ended;
  z_stream zs;
  unsigned char *in;
  const char *error;
  bcast_status error_status;
} member_reader;

static ptrdiff_t member_fail(member_reader *m, bcast_status status,
                             const char *why) {
  m->error = why;
  m->error_status = status;
  errno = EIO;
  return -1;
}

/* Reads up to cap more compressed bytes into m->in. */
static ptrdiff_t member_fill(member_reader *m) {
  const size_t want = m->in_left < ZIP_CHUNK ? (size_t)m->in_left : ZIP_CHUNK;
  const size_t got = fread(m->in, 1, want, m->file);
  if (got == 0) {
    if (ferror(m->file)) return -1;
    return member_fail(m, BCAST_PARSE, "the archive ends inside the member");
  }
  m->in_left -= got;
  m->zs.next_in = m->in;
  m->zs.avail_in = (uInt)got;
  return (ptrdiff_t)got;
}

/* Inflates into buf[0..cap): the bytes made, 0 at the end of the stream or
 * of the compressed bytes (where zipfile stops too), -1 after an error. */
static ptrdiff_t member_inflate(member_reader *m, void *buf, size_t cap) {
  const uInt room = cap > UINT_MAX ? UINT_MAX : (uInt)cap;
  m->zs.next_out = buf;
  m->zs.avail_out = room;
  for (;;) {
    if (m->zs.avail_in == 0 && m->in_left > 0 && member_fill(m) < 0) return -1;
    const int rc = inflate(&m->zs, Z_NO_FLUSH);
    const size_t made = room - m->zs.avail_out;
    if (rc == Z_STREAM_END) {
      m->ended = 1;
      return (ptrdiff_t)made;
    }
    if (rc == Z_MEM_ERROR)
      return member_fail(m, BCAST_NO_MEMORY, "out of memory inflating");
    if (rc != Z_OK && rc != Z_BUF_ERROR)
      return member_fail(m, BCAST_PARSE,
                         m->zs.msg ? m->zs.msg : "invalid deflate data");
    if (made > 0) return (ptrdiff_t)made;
    if (m->zs.avail_in == 0 && m->in_left == 0) {
      m->ended = 1;
      return 0;
    }
  }
}

static ptrdiff_t member_read(void *ctx, void *buf, size_t cap) {
  member_reader *m = ctx;
  if (cap > m->out_left) cap = (size_t)m->out_left;
  if (cap > PTRDIFF_MAX) cap = PTRDIFF_MAX;
  if (cap == 0 || m->ended) return 0;
  ptrdiff_t n;
  if (m->deflated) {
    n = member_inflate(m, buf, cap);
  } else {
    if (cap > m->in_left) cap = (size_t)m->in_left;
    if (cap == 0) return 0;
    n = (ptrdiff_t)fread(buf, 1, cap, m->file);
    if (n == 0)
      return ferror(m->file) ? -1
                             : member_fail(m, BCAST_PARSE,
                                           "the archive ends inside the "
                                           "member");
    m->in_left -= (uint64_t)n;
  }
  if (n <= 0) return n;
  m->out_left -= (uint64_t)n;
  m->crc = bcast__zip_crc(m->crc, buf, (size_t)n);
  return n;
}

/* What zipfile.open refuses in an entry's flags and method, or 0. */
static const char *unsupported_entry(const zip_entry *e) {
  if (e->flags & ZIP_FLAG_PATCHED)
    return "compressed patched data (flag bit 5)";
  if (e->flags & ZIP_FLAG_STRONG) return "strong encryption (flag bit 6)";
  if (e->flags & ZIP_FLAG_ENCRYPTED) return "encryption";
  if (e->method == 12) return "bzip2 compression (method 12)";
  if (e->method == 14) return "LZMA compression (method 14)";
  if (e->method != ZIP_STORED && e->method != ZIP_DEFLATED)
    return "this compression method";
  return NULL;
}

/* Reads entry k through the .npy reader; name for messages. */
static bcast_status read_entry(const zip_archive *z, size_t k,
                               const char *name, bcast_tensor *out,
                               bcast_npy_info *info, int64_t max_bytes,
                               bcast_diag *diag) {
  const zip_entry *e = &z->entries[k];
  uint64_t data_at, end_at;
  bcast_status st = bcast__zip_locate(z, k, name, &data_at, &end_at, diag);
  if (st) return st;
  const char *refused = unsupported_entry(e);
  if (refused)
    return bcast__fail(diag, BCAST_UNSUPPORTED,
                       "%s: the member uses %s, which bcast does not read "
                       "(stored and deflated members are read, as np.savez "
                       "and np.savez_compressed write them)",
                       name, refused);
  if (data_at > INT64_MAX || fseeko(z->file, (off_t)data_at, SEEK_SET) != 0)
    return bcast__fail(diag, BCAST_IO, "%s: seek failed: %s", name,
                       strerror(errno));
  member_reader m;
  memset(&m, 0, sizeof m);
  m.file = z->file;
  m.in_left = e->csize;
  m.out_left = e->usize;
  m.deflated = e->method == ZIP_DEFLATED;
  if (m.deflated) {
    m.zs.zalloc = zlib_alloc;
    m.zs.zfree = zlib_free;
    m.in = bcast__malloc(ZIP_CHUNK);
    if (!m.in) return no_memory(name, diag);
    const int rc = inflateInit2(&m.zs, -MAX_WBITS);
    if (rc != Z_OK) {
      bcast__free(m.in);
      return rc == Z_MEM_ERROR
                 ? no_memory(name, diag)
                 : bcast__fail(diag, BCAST_IO,
                               "%s: zlib cannot start inflating", name);
    }
  }
  st =
      bcast_npy_read_stream(member_read, &m, name, out, info, max_bytes, diag);
  if (m.error) {
    if (st == BCAST_OK) bcast_tensor_release(out);
    st = m.error_status == BCAST_NO_MEMORY
             ? no_memory(name, diag)
             : bcast__fail(diag, m.error_status, "%s: %s", name, m.error);
  } else if (st == BCAST_OK && m.crc != e->crc) {
    bcast_tensor_release(out);
    st = bcast__fail(diag, BCAST_PARSE,
                     "%s: CRC-32 mismatch (the archive says %08" PRIx32
                     ", the data give %08" PRIx32 ")",
                     name, e->crc, m.crc);
  }
  if (m.deflated) {
    inflateEnd(&m.zs);
    bcast__free(m.in);
  }
  return st;
}

/* "'x', 'y', 'z'": the member names as numpy.load lists them, cut to
 * fit. */
static void list_members(const zip_archive *z, char *buf, size_t cap) {
  size_t len = 0;
  buf[0] = '\0';
  for (size_t k = 0; k < z->count; k++) {
    const zip_entry *e = &z->entries[k];
    size_t n = e->key_len;
    if (n >= 4 && memcmp(e->name + n - 4, ".npy", 4) == 0) n -= 4;
    bcast__append(buf, cap, &len, "%s'%.*s'", k ? ", " : "", (int)n, e->name);
  }
}

bcast_status bcast_npz_read(const char *path, const char *member,
                            bcast_tensor *out, bcast_npy_info *info,
                            int64_t max_bytes, bcast_diag *diag) {
  if (!path || !out || max_bytes < 0)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_npz_read: invalid argument");
  memset(out, 0, sizeof *out);
  FILE *f = fopen(path, "rb");
  if (!f)
    return bcast__fail(diag, BCAST_IO, "%s: cannot open: %s", path,
                       strerror(errno));
  zip_archive z;
  bcast_status st = bcast__zip_open(f, path, &z, diag);
  ptrdiff_t k = -1;
  if (st == BCAST_OK) {
    k = member ? bcast__zip_find(&z, member) : z.count == 1 ? 0 : -1;
    if (k < 0) {
      char names[512];
      list_members(&z, names, sizeof names);
      st = member
               ? bcast__fail(diag, BCAST_IO,
                             "%s: no member '%s' (the archive has %s%s)", path,
                             member, z.count ? "" : "no members", names)
               : bcast__fail(diag, BCAST_IO,
                             "%s: the archive has %zu members (%s); name "
                             "one as %s:NAME",
                             path, z.count, names, path);
    }
  }
  if (st == BCAST_OK) {
    const zip_entry *e = &z.entries[k];
    char *name = member_label(path, e->name, e->key_len);
    st = name ? read_entry(&z, (size_t)k, name, out, info, max_bytes, diag)
              : no_memory(path, diag);
    bcast__free(name);
  }
  bcast__zip_release(&z);
  fclose(f);
  return st;
}

/* ------------------------------------------------------------------------ */
/* Writing. */

/* The archive being written: at bytes so far, the directory entries
 * gathered in central. */
typedef struct archive_writer {
  bcast_output *out;
  const char *path;
  int seekable;
  uint64_t at;
  unsigned char *central;
  size_t central_len, central_cap;
  size_t count;
  unsigned char *copy_buf;
} archive_writer;

static bcast_status write_failed(const char *path, bcast_diag *diag) {
  return bcast__fail(diag, BCAST_IO, "%s: write failed: %s", path,
                     strerror(errno));
}

static bcast_status needs_zip64(const char *path, bcast_diag *diag) {
  return bcast__fail(diag, BCAST_UNSUPPORTED,
                     "%s: the archive passes 4 GiB, which needs zip64", path);
}

/* Adds len bytes to the directory being gathered. */
static bcast_status central_add(archive_writer *w, const void *bytes,
                                size_t len, bcast_diag *diag) {
  if (w->central_cap - w->central_len < len) {
    size_t cap = w->central_cap ? w->central_cap : 1024;
    while (cap - w->central_len < len) {
      if (cap > SIZE_MAX / 2) return no_memory(w->path, diag);
      cap *= 2;
    }
    unsigned char *grown = bcast__realloc(w->central, cap);
    if (!grown) return no_memory(w->path, diag);
    w->central = grown;
    w->central_cap = cap;
  }
  memcpy(w->central + w->central_len, bytes, len);
  w->central_len += len;
  return BCAST_OK;
}

/* The member being written: its bytes go to the output (unless out is
 * NULL: a pass that only measures) and into crc. */
typedef struct member_writer {
  bcast_output *out;
  uint64_t size;
  uint32_t crc;
} member_writer;

static bcast_status member_write(void *ctx, const void *bytes, size_t len) {
  member_writer *m = ctx;
  m->crc = bcast__zip_crc(m->crc, bytes, len);
  m->size += len;
  return m->out ? bcast_output_write(m->out, bytes, len) : BCAST_OK;
}

/* A local header (csize = usize = size) or, with central set, a central
 * directory entry at offset; returns its fixed length.  A name with bytes
 * past ASCII is flagged UTF-8, as zipfile flags it (else readers take it
 * for code page 437). */
static size_t zip_header(unsigned char *h, int central, const char *name,
                         size_t name_len, uint32_t crc, uint32_t size,
                         uint32_t offset) {
  uint32_t flags = 0;
  for (size_t i = 0; i < name_len; i++)
    if ((unsigned char)name[i] >= 0x80) flags = ZIP_FLAG_UTF8;
  memset(h, 0, ZIP_CENTRAL_LEN);
  unsigned char *p = h;
  if (central) {
    bcast__put32(p, ZIP_CENTRAL_SIG);
    bcast__put16(p + 4, 3 << 8 | ZIP_VERSION); /* made by: Unix, 2.0 */
    p += 2;
  } else {
    bcast__put32(p, ZIP_LOCAL_SIG);
  }
  bcast__put16(p + 4, ZIP_VERSION); /* needed to extract */
  bcast__put16(p + 6, flags);
  bcast__put16(p + 12, ZIP_DOS_DATE);
  bcast__put32(p + 14, crc);
  bcast__put32(p + 18, size);
  bcast__put32(p + 22, size);
  bcast__put16(p + 26, (uint32_t)name_len);
  if (!central) return ZIP_LOCAL_LEN;
  bcast__put32(h + 38, 0644u << 16); /* external attributes: -rw-r--r-- */
  bcast__put32(h + 42, offset);
  return ZIP_CENTRAL_LEN;
}

/* Member k's base name: names[k], or numpy's "arr_<k>". */
static const char *member_base(const char *const *names, size_t k, char *buf,
                               size_t cap) {
  if (names) return names[k];
  snprintf(buf, cap, "arr_%zu", k);
  return buf;
}

/* A member's size as a zip without zip64 can hold it. */
static bcast_status member_fits(const char *path, const char *name,
                                uint64_t size, bcast_diag *diag) {
  if (size > ZIP_U32_MAX - 1)
    return bcast__fail(diag, BCAST_UNSUPPORTED,
                       "%s: member %s has %" PRIu64 " bytes, which needs "
                       "zip64",
                       path, name, size);
  return BCAST_OK;
}

/* Writes t as the stored member "<base>.npy" and gathers its directory
 * entry.  Its local header is written with zero CRC and sizes and patched
 * once the member is written; where the output cannot seek (a FIFO), a
 * first pass over the member measures it instead. */
static bcast_status write_member(archive_writer *w, const char *base,
                                 const bcast_tensor *t,
                                 const bcast_npy_write_opts *o,
                                 bcast_diag *diag) {
  char name[300];
  snprintf(name, sizeof name, "%s.npy", base);
  const size_t name_len = strlen(name);
  if (w->at >= ZIP_U32_MAX) return needs_zip64(w->path, diag);
  const uint32_t offset = (uint32_t)w->at;
  member_writer m = {NULL, 0, 0};
  bcast_status st = BCAST_OK;
  if (!w->seekable)
    st = bcast_npy_write_stream(member_write, &m, w->path, t, o, diag);
  if (st == BCAST_OK) st = member_fits(w->path, name, m.size, diag);
  if (st) return st;
  unsigned char h[ZIP_CENTRAL_LEN];
  const size_t len =
      zip_header(h, 0, name, name_len, m.crc, (uint32_t)m.size, 0);
  if (bcast_output_write(w->out, h, len) ||
      bcast_output_write(w->out, name, name_len))
    return write_failed(w->path, diag);
  if (w->seekable) {
    m.out = w->out;
    st = bcast_npy_write_stream(member_write, &m, w->path, t, o, diag);
  } else {
    st = bcast_npy_write_stream(bcast_output_write, w->out, w->path, t, o,
                                diag);
  }
  if (st == BCAST_OK) st = member_fits(w->path, name, m.size, diag);
  if (st) return st;
  if (w->seekable) {
    unsigned char patch[12];
    bcast__put32(patch, m.crc);
    bcast__put32(patch + 4, (uint32_t)m.size);
    bcast__put32(patch + 8, (uint32_t)m.size);
    if (bcast__output_pwrite(w->out, w->at + 14, patch, sizeof patch))
      return write_failed(w->path, diag);
  }
  w->at += len + name_len + m.size;
  const size_t clen =
      zip_header(h, 1, name, name_len, m.crc, (uint32_t)m.size, offset);
  st = central_add(w, h, clen, diag);
  if (st == BCAST_OK) st = central_add(w, name, name_len, diag);
  if (st == BCAST_OK) w->count++;
  return st;
}

/* Copies bytes [from, from + len) of the file f to the output. */
static bcast_status copy_bytes(archive_writer *w, FILE *f, const char *src,
                               uint64_t from, uint64_t len, bcast_diag *diag) {
  if (len && !w->copy_buf && !(w->copy_buf = bcast__malloc(ZIP_CHUNK)))
    return no_memory(w->path, diag);
  while (len > 0) {
    const size_t step = len < ZIP_CHUNK ? (size_t)len : ZIP_CHUNK;
    bcast_status st =
        bcast__zip_read_at(f, from, w->copy_buf, step, src, diag);
    if (st) return st;
    if (bcast_output_write(w->out, w->copy_buf, step))
      return write_failed(w->path, diag);
    from += step;
    len -= step;
  }
  return BCAST_OK;
}

/* Copies entry k of z as it is: its local header, data and whatever
 * follows them up to the next member (a data descriptor), and its
 * directory entry with the new offset. */
static bcast_status copy_member(archive_writer *w, const zip_archive *z,
                                size_t k, bcast_diag *diag) {
  const zip_entry *e = &z->entries[k];
  char *name = member_label(z->path, e->name, e->key_len);
  if (!name) return no_memory(z->path, diag);
  uint64_t data_at = 0, end_at = 0;
  bcast_status st =
      e->truncated
          ? bcast__zip_bad(name, "its directory entry runs past the directory",
                           diag)
          : bcast__zip_locate(z, k, name, &data_at, &end_at, diag);
  bcast__free(name);
  if (st) return st;
  if (w->at >= ZIP_U32_MAX) return needs_zip64(w->path, diag);
  const uint64_t from = (uint64_t)e->header_offset;
  const uint64_t data_end = data_at + e->csize;
  const uint64_t next = end_at < z->start_dir ? end_at : z->start_dir;
  const uint64_t to = data_end > next ? data_end : next;
  unsigned char *raw = z->dir + e->raw_pos;
  const size_t before = w->central_len;
  st = central_add(w, raw, e->raw_len, diag);
  if (st) return st;
  unsigned char *offset = w->central + before + e->offset_field;
  if (e->offset_is64)
    bcast__put64(offset, w->at);
  else
    bcast__put32(offset, (uint32_t)w->at);
  st = copy_bytes(w, z->file, z->path, from, to - from, diag);
  if (st) return st;
  w->at += to - from;
  w->count++;
  return BCAST_OK;
}

/* The directory and end record (with z's comment, if any). */
static bcast_status finish_archive(archive_writer *w, const zip_archive *z,
                                   bcast_diag *diag) {
  if (w->count > ZIP_MAX_ENTRIES)
    return bcast__fail(diag, BCAST_UNSUPPORTED,
                       "%s: %zu members need zip64 (at most %d)", w->path,
                       w->count, ZIP_MAX_ENTRIES);
  if (w->at >= ZIP_U32_MAX || w->central_len >= ZIP_U32_MAX - w->at)
    return needs_zip64(w->path, diag);
  if (w->central_len && bcast_output_write(w->out, w->central, w->central_len))
    return write_failed(w->path, diag);
  unsigned char end[ZIP_END_LEN];
  memset(end, 0, sizeof end);
  bcast__put32(end, ZIP_END_SIG);
  bcast__put16(end + 8, (uint32_t)w->count);
  bcast__put16(end + 10, (uint32_t)w->count);
  bcast__put32(end + 12, (uint32_t)w->central_len);
  bcast__put32(end + 16, (uint32_t)w->at);
  const size_t comment = z ? z->comment_len : 0;
  bcast__put16(end + 20, (uint32_t)comment);
  if (bcast_output_write(w->out, end, sizeof end))
    return write_failed(w->path, diag);
  return comment
             ? copy_bytes(w, z->file, z->path, z->comment_at, comment, diag)
             : BCAST_OK;
}

/* The new member that replaces entry e (numpy.load would give e for its
 * name), or -1. */
static ptrdiff_t replacement(const zip_entry *e, size_t n,
                             const char *const *names) {
  char buf[32];
  for (size_t k = 0; k < n; k++) {
    const char *base = member_base(names, k, buf, sizeof buf);
    if (bcast__zip_key_is(e, base, 1) || bcast__zip_key_is(e, base, 0))
      return (ptrdiff_t)k;
  }
  return -1;
}

/* Writes the archive: z's members in their order (each one a new member
 * replaces written in its place instead), then the new members not
 * written yet. */
static bcast_status write_archive(archive_writer *w, const zip_archive *z,
                                  size_t n, const char *const *names,
                                  const bcast_tensor *tensors,
                                  const bcast_npy_write_opts *opts,
                                  unsigned char *written, bcast_diag *diag) {
  char buf[32];
  bcast_status st = BCAST_OK;
  for (size_t k = 0; z && k < z->count && st == BCAST_OK; k++) {
    const ptrdiff_t r = replacement(&z->entries[k], n, names);
    if (r < 0) {
      st = copy_member(w, z, k, diag);
    } else if (!written[r]) {
      written[r] = 1;
      st = write_member(w, member_base(names, (size_t)r, buf, sizeof buf),
                        &tensors[r], opts ? &opts[r] : NULL, diag);
    }
  }
  for (size_t k = 0; k < n && st == BCAST_OK; k++) {
    if (written[k]) continue;
    st = write_member(w, member_base(names, k, buf, sizeof buf), &tensors[k],
                      opts ? &opts[k] : NULL, diag);
  }
  return st == BCAST_OK ? finish_archive(w, z, diag) : st;
}

/* Opens the archive already at path, if any, for its members to be kept:
 * *have 0 when there is none (no file, or an empty one). */
static bcast_status open_existing(const char *path, FILE **f, zip_archive *z,
                                  int *have, bcast_diag *diag) {
  *have = 0;
  *f = NULL;
  /* O_NONBLOCK: opening a FIFO must not wait for a writer. */
  const int fd = open(path, O_RDONLY | O_NONBLOCK);
  if (fd < 0) {
    if (errno == ENOENT) return BCAST_OK;
    return bcast__fail(diag, BCAST_IO,
                       "%s: cannot read the existing archive, whose members "
                       "would be kept: %s",
                       path, strerror(errno));
  }
  struct stat sb;
  if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size == 0) {
    close(fd);
    return BCAST_OK;
  }
  if (!(*f = fdopen(fd, "rb"))) {
    close(fd);
    return no_memory(path, diag);
  }
  *have = 1;
  return bcast__zip_open(*f, path, z, diag);
}

static bcast_status check_write_args(const char *path, size_t n,
                                     const char *const *names,
                                     const bcast_tensor *tensors,
                                     bcast_diag *diag) {
  if (!path || (n && !tensors))
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_npz_write: invalid argument");
  if (n > ZIP_MAX_ENTRIES)
    return bcast__fail(diag, BCAST_UNSUPPORTED,
                       "%s: %zu members need zip64 (at most %d)", path, n,
                       ZIP_MAX_ENTRIES);
  for (size_t k = 0; names && k < n; k++) {
    size_t len = names[k] ? strlen(names[k]) : 0;
    if (len == 0 || len > 255)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "%s: member name %zu must have 1 to 255 bytes", path,
                         k);
    /* A name is written as UTF-8, which zipfile decodes strictly. */
    uint32_t cp;
    for (size_t i = 0, used; i < len; i += used) {
      used = bcast__utf8_decode((const unsigned char *)names[k] + i, len - i,
                                &cp);
      if (used == 0)
        return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                           "%s: member name '%s' is not UTF-8", path,
                           names[k]);
    }
  }
  return BCAST_OK;
}

/* bcast_npz_write (keep 0) and bcast_npz_update (keep 1). */
static bcast_status write_npz(const char *path, size_t n,
                              const char *const *names,
                              const bcast_tensor *tensors,
                              const bcast_npy_write_opts *opts, int keep,
                              bcast_diag *diag) {
  bcast_status st = check_write_args(path, n, names, tensors, diag);
  if (st) return st;
  FILE *f = NULL;
  zip_archive z;
  int have = 0;
  archive_writer w;
  memset(&w, 0, sizeof w);
  w.path = path;
  unsigned char *written = bcast__calloc(n ? n : 1, 1);
  if (!written) st = no_memory(path, diag);
  if (st == BCAST_OK) st = bcast_output_open(path, &w.out, diag);
  if (st == BCAST_OK) {
    /* A file replaced by a temporary one keeps its members; what is
     * written through (a FIFO, a device, /dev/stdout) gets a new archive. */
    w.seekable = bcast__output_seekable(w.out);
    if (keep && w.seekable) st = open_existing(path, &f, &z, &have, diag);
    if (st == BCAST_OK)
      st = write_archive(&w, have ? &z : NULL, n, names, tensors, opts,
                         written, diag);
    if (st == BCAST_OK)
      st = bcast_output_commit(w.out, diag);
    else
      bcast_output_discard(w.out);
  }
  bcast__free(w.central);
  bcast__free(w.copy_buf);
  bcast__free(written);
  if (have) bcast__zip_release(&z);
  if (f) fclose(f);
  return st;
}

bcast_status bcast_npz_write(const char *path, size_t n,
                             const char *const *names,
                             const bcast_tensor *tensors,
                             const bcast_npy_write_opts *opts,
                             bcast_diag *diag) {
  return write_npz(path, n, names, tensors, opts, 0, diag);
}

bcast_status bcast_npz_update(const char *path, size_t n,
                              const char *const *names,
                              const bcast_tensor *tensors,
                              const bcast_npy_write_opts *opts,
                              bcast_diag *diag) {
  return write_npz(path, n, names, tensors, opts, 1, diag);
}
