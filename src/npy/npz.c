/* .npz archives: zip files whose members are .npy files.
 *
 * A zip file is a sequence of members, each a local header (signature
 * PK\3\4, method, CRC-32, sizes, name, extra field) followed by its bytes,
 * then a central directory repeating each member's header with its offset,
 * then the end-of-central-directory record (PK\5\6: entry count, directory
 * size and offset, a comment of up to 65535 bytes).  numpy.savez writes
 * stored members (method 0) with a zip64 extra field in the local headers
 * only; numpy.savez_compressed deflates them (method 8).
 *
 * The reader trusts the central directory for sizes and offsets (a local
 * header may defer them to a data descriptor), checks every offset against
 * the file size, streams a stored member through the .npy reader (a
 * deflated one is inflated in memory first: inflate.c) and checks its
 * CRC-32.  The writer emits stored members, patches each local header's
 * CRC and sizes once the member is written (or, when the output is a
 * FIFO or device, measures each member in a first pass), and dates
 * everything 1980-01-01 so output is reproducible. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "core/diag.h"
#include "core/output.h"
#include "npy/npy_common.h"

#define ZIP_LOCAL_SIG 0x04034b50u
#define ZIP_CENTRAL_SIG 0x02014b50u
#define ZIP_END_SIG 0x06054b50u
#define ZIP_LOCAL_LEN 30
#define ZIP_CENTRAL_LEN 46
#define ZIP_END_LEN 22
#define ZIP_MAX_COMMENT 65535
#define ZIP_VERSION 20      /* 2.0: what a stored member needs */
#define ZIP_DOS_DATE 0x0021 /* 1980-01-01 */
#define ZIP_U32_MAX 0xffffffffu

/* ------------------------------------------------------------------------ */
/* CRC-32 (ISO-HDLC, reflected polynomial 0xEDB88320), table-driven.  The
 * table is built per archive: 256 entries cost nothing next to the data,
 * and no static state is shared between threads. */

typedef struct crc_table {
  uint32_t entry[256];
} crc_table;

static void crc_table_init(crc_table *t) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
    t->entry[i] = c;
  }
}

/* Continues crc (0 to start) over n bytes. */
static uint32_t crc_update(const crc_table *t, uint32_t crc, const void *data,
                           size_t n) {
  const unsigned char *p = data;
  crc = ~crc;
  for (size_t i = 0; i < n; i++) crc = t->entry[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
  return ~crc;
}

static uint32_t get16(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t get32(const unsigned char *p) {
  return get16(p) | get16(p + 2) << 16;
}

static void put16(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint32_t v) {
  put16(p, v & 0xffff);
  put16(p + 2, v >> 16);
}

/* ------------------------------------------------------------------------ */
/* Reading. */

/* The member being streamed: at most remaining more bytes of the file,
 * summed into crc as they pass. */
typedef struct member_reader {
  FILE *file;
  uint64_t remaining;
  uint32_t crc;
  const crc_table *table;
} member_reader;

static ptrdiff_t member_read(void *ctx, void *buf, size_t cap) {
  member_reader *m = ctx;
  if (cap > m->remaining) cap = (size_t)m->remaining;
  if (cap > PTRDIFF_MAX) cap = PTRDIFF_MAX;
  if (cap == 0) return 0;
  size_t n = fread(buf, 1, cap, m->file);
  if (n == 0) {
    if (!ferror(m->file)) errno = 0;
    return ferror(m->file) ? -1 : 0;
  }
  m->remaining -= n;
  m->crc = crc_update(m->table, m->crc, buf, n);
  return (ptrdiff_t)n;
}

/* Reads n bytes at offset. */
static bcast_status read_at(FILE *f, uint64_t offset, void *dst, size_t n,
                            const char *path, bcast_diag *diag) {
  if (offset > INT64_MAX || fseeko(f, (off_t)offset, SEEK_SET) != 0)
    return bcast__fail(diag, BCAST_IO, "%s: seek failed: %s", path,
                       strerror(errno));
  if (n && fread(dst, 1, n, f) != n)
    return bcast__fail(diag, BCAST_IO, "%s: read failed: %s", path,
                       ferror(f) ? strerror(errno) : "unexpected end of file");
  return BCAST_OK;
}

static bcast_status bad_zip(const char *path, const char *what,
                            bcast_diag *diag) {
  return bcast__fail(diag, BCAST_PARSE, "%s: not a valid .npz (zip) file: %s",
                     path, what);
}

/* Finds the end-of-central-directory record in the file's last
 * ZIP_END_LEN + 65535 bytes: the last signature whose comment length runs
 * exactly to the end.  *at is the record's offset. */
static bcast_status find_end_record(FILE *f, uint64_t size, const char *path,
                                    unsigned char *end, uint64_t *at,
                                    bcast_diag *diag) {
  if (size < ZIP_END_LEN)
    return bad_zip(path, "shorter than a zip end record", diag);
  size_t tail = size < ZIP_END_LEN + ZIP_MAX_COMMENT
                    ? (size_t)size
                    : ZIP_END_LEN + ZIP_MAX_COMMENT;
  unsigned char *buf = bcast__malloc(tail);
  if (!buf) return bcast__fail(diag, BCAST_NO_MEMORY, "%s: out of memory", path);
  bcast_status st = read_at(f, size - tail, buf, tail, path, diag);
  if (st == BCAST_OK) {
    st = bad_zip(path, "no end-of-central-directory record", diag);
    for (size_t i = tail - ZIP_END_LEN + 1; i-- > 0;) {
      if (get32(buf + i) == ZIP_END_SIG &&
          i + ZIP_END_LEN + get16(buf + i + 20) == tail) {
        memcpy(end, buf + i, ZIP_END_LEN);
        *at = size - tail + i;
        st = BCAST_OK;
        break;
      }
    }
  }
  bcast__free(buf);
  return st;
}

/* One central directory entry, its fields checked against the file. */
typedef struct zip_entry {
  uint32_t flags, method, crc;
  uint64_t csize, usize, local_offset;
  const unsigned char *name;
  size_t name_len;
} zip_entry;

/* Parses the entry at dir[*pos] (dir_len bytes in all), advancing *pos. */
static bcast_status parse_entry(const unsigned char *dir, size_t dir_len,
                                size_t *pos, const char *path, zip_entry *e,
                                bcast_diag *diag) {
  const unsigned char *p = dir + *pos;
  memset(e, 0, sizeof *e);
  if (dir_len - *pos < ZIP_CENTRAL_LEN || get32(p) != ZIP_CENTRAL_SIG)
    return bad_zip(path, "a broken central directory entry", diag);
  e->flags = get16(p + 8);
  e->method = get16(p + 10);
  e->crc = get32(p + 16);
  e->csize = get32(p + 20);
  e->usize = get32(p + 24);
  e->name_len = get16(p + 28);
  size_t extra = get16(p + 30), comment = get16(p + 32);
  e->local_offset = get32(p + 42);
  if (dir_len - *pos - ZIP_CENTRAL_LEN < e->name_len + extra + comment)
    return bad_zip(path, "a central directory entry runs past its end",
                   diag);
  e->name = p + ZIP_CENTRAL_LEN;
  *pos += ZIP_CENTRAL_LEN + e->name_len + extra + comment;
  return BCAST_OK;
}

/* Whether entry e is member: "member.npy", or exactly "member". */
static int entry_is(const zip_entry *e, const char *member) {
  size_t n = strlen(member);
  if (e->name_len == n + 4 && memcmp(e->name + n, ".npy", 4) == 0)
    return memcmp(e->name, member, n) == 0;
  return e->name_len == n && memcmp(e->name, member, n) == 0;
}

/* "x, y, z": the member names as numpy.load lists them, cut to fit. */
static void list_members(const unsigned char *dir, size_t dir_len,
                         size_t count, char *buf, size_t cap) {
  size_t len = 0, pos = 0;
  buf[0] = '\0';
  for (size_t k = 0; k < count; k++) {
    zip_entry e;
    if (parse_entry(dir, dir_len, &pos, "", &e, NULL) != BCAST_OK) break;
    size_t n = e.name_len;
    if (n >= 4 && memcmp(e.name + n - 4, ".npy", 4) == 0) n -= 4;
    bcast__append(buf, cap, &len, "%s'%.*s'", k ? ", " : "", (int)n,
                  (const char *)e.name);
  }
}

/* A deflated member: inflated whole into memory (its size is in the
 * directory, checked against the budget plus room for a header first),
 * CRC-checked, then parsed from memory. */
static bcast_status read_deflated(FILE *f, const zip_entry *e,
                                  const crc_table *table, const char *name,
                                  bcast_tensor *out, bcast_npy_info *info,
                                  int64_t max_bytes, bcast_diag *diag) {
  const uint64_t limit = (uint64_t)max_bytes + NPY_STREAM_HEADER_MAX;
  if (e->usize > limit || e->csize > limit)
    return bcast__fail(diag, BCAST_BUDGET,
                       "%s: reading needs %" PRIu64 " bytes, more than the "
                       "budget of %" PRId64 " bytes",
                       name, e->usize > e->csize ? e->usize : e->csize,
                       max_bytes);
  unsigned char *packed = bcast__malloc(e->csize ? (size_t)e->csize : 1);
  unsigned char *plain = bcast__malloc(e->usize ? (size_t)e->usize : 1);
  bcast_status st = BCAST_OK;
  if (!packed || !plain)
    st = bcast__fail(diag, BCAST_NO_MEMORY, "%s: out of memory", name);
  if (st == BCAST_OK && e->csize && fread(packed, 1, (size_t)e->csize, f) != e->csize)
    st = bcast__fail(diag, BCAST_IO, "%s: read failed: %s", name,
                     ferror(f) ? strerror(errno) : "unexpected end of file");
  if (st == BCAST_OK)
    st = bcast__inflate(packed, (size_t)e->csize, plain, (size_t)e->usize,
                        name, diag);
  bcast__free(packed);
  if (st == BCAST_OK) {
    const uint32_t crc = crc_update(table, 0, plain, (size_t)e->usize);
    if (crc != e->crc)
      st = bcast__fail(diag, BCAST_PARSE,
                       "%s: CRC-32 mismatch (the archive says %08" PRIx32
                       ", the data give %08" PRIx32 ")",
                       name, e->crc, crc);
  }
  if (st == BCAST_OK)
    st = bcast_npy_read_mem(plain, (size_t)e->usize, name, out, info,
                            max_bytes, diag);
  bcast__free(plain);
  return st;
}

/* Streams the stored member e through the .npy reader; name for
 * messages. */
static bcast_status read_member(FILE *f, uint64_t file_size,
                                uint64_t dir_offset, const zip_entry *e,
                                const char *name, bcast_tensor *out,
                                bcast_npy_info *info, int64_t max_bytes,
                                bcast_diag *diag) {
  if (e->flags & 1)
    return bcast__fail(diag, BCAST_UNSUPPORTED,
                       "%s: the member is encrypted", name);
  if (e->csize == ZIP_U32_MAX || e->usize == ZIP_U32_MAX ||
      e->local_offset == ZIP_U32_MAX)
    return bcast__fail(diag, BCAST_UNSUPPORTED,
                       "%s: zip64 members (4 GiB or more) are not supported",
                       name);
  if (e->method != 0 && e->method != 8)
    return bcast__fail(diag, BCAST_UNSUPPORTED,
                       "%s: zip compression method %" PRIu32
                       " is not supported (stored and deflate, as np.savez "
                       "and np.savez_compressed write)",
                       name, e->method);
  if (e->method == 0 && e->csize != e->usize)
    return bad_zip(name, "a stored member's sizes differ", diag);
  unsigned char local[ZIP_LOCAL_LEN];
  if (e->local_offset > dir_offset ||
      dir_offset - e->local_offset < ZIP_LOCAL_LEN)
    return bad_zip(name, "a member's offset is outside the archive", diag);
  bcast_status st = read_at(f, e->local_offset, local, sizeof local, name, diag);
  if (st) return st;
  if (get32(local) != ZIP_LOCAL_SIG)
    return bad_zip(name, "no local header at the member's offset", diag);
  uint64_t data = e->local_offset + ZIP_LOCAL_LEN + get16(local + 26) +
                  get16(local + 28);
  if (data > dir_offset || dir_offset - data < e->csize || data > file_size)
    return bad_zip(name, "the member's data run past the archive", diag);
  if (fseeko(f, (off_t)data, SEEK_SET) != 0)
    return bcast__fail(diag, BCAST_IO, "%s: seek failed: %s", name,
                       strerror(errno));
  crc_table table;
  crc_table_init(&table);
  if (e->method == 8)
    return read_deflated(f, e, &table, name, out, info, max_bytes, diag);
  member_reader m = {f, e->csize, 0, &table};
  st = bcast_npy_read_stream(member_read, &m, name, out, info, max_bytes, diag);
  if (st) return st;
  if (m.crc != e->crc) {
    bcast_tensor_release(out);
    return bcast__fail(diag, BCAST_PARSE,
                       "%s: CRC-32 mismatch (the archive says %08" PRIx32
                       ", the data give %08" PRIx32 ")",
                       name, e->crc, m.crc);
  }
  return BCAST_OK;
}

/* The archive's central directory: read whole (it is bounded by the file
 * and small: about 50 bytes per member). */
static bcast_status read_directory(FILE *f, const char *path,
                                   unsigned char **dir, size_t *dir_len,
                                   size_t *count, uint64_t *dir_offset,
                                   uint64_t *file_size, bcast_diag *diag) {
  struct stat sb;
  if (fstat(fileno(f), &sb) != 0)
    return bcast__fail(diag, BCAST_IO, "%s: cannot stat: %s", path,
                       strerror(errno));
  if (!S_ISREG(sb.st_mode))
    return bcast__fail(diag, BCAST_IO,
                       "%s: a .npz archive must be a regular file", path);
  *file_size = (uint64_t)sb.st_size;
  unsigned char end[ZIP_END_LEN] = {0};
  uint64_t end_at = 0;
  bcast_status st = find_end_record(f, *file_size, path, end, &end_at, diag);
  if (st) return st;
  const uint32_t disk = get16(end + 4), dir_disk = get16(end + 6);
  const uint32_t here = get16(end + 8), total = get16(end + 10);
  const uint64_t size = get32(end + 12), offset = get32(end + 16);
  if (total == 0xffff || size == ZIP_U32_MAX || offset == ZIP_U32_MAX)
    return bcast__fail(diag, BCAST_UNSUPPORTED,
                       "%s: zip64 archives are not supported", path);
  if (disk != 0 || dir_disk != 0 || here != total)
    return bcast__fail(diag, BCAST_UNSUPPORTED,
                       "%s: multi-disk zip archives are not supported", path);
  if (offset > end_at || end_at - offset != size)
    return bad_zip(path, "the central directory is not where the end record "
                         "says",
                   diag);
  *dir = bcast__malloc(size ? (size_t)size : 1);
  if (!*dir) return bcast__fail(diag, BCAST_NO_MEMORY, "%s: out of memory", path);
  st = read_at(f, offset, *dir, (size_t)size, path, diag);
  if (st) {
    bcast__free(*dir);
    return st;
  }
  *dir_len = (size_t)size;
  *count = total;
  *dir_offset = offset;
  return BCAST_OK;
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
  unsigned char *dir = NULL;
  size_t dir_len = 0, count = 0;
  uint64_t dir_offset = 0, file_size = 0;
  bcast_status st = read_directory(f, path, &dir, &dir_len, &count,
                                   &dir_offset, &file_size, diag);
  if (st) {
    fclose(f);
    return st;
  }
  zip_entry e;
  size_t pos = 0;
  int found = 0;
  for (size_t k = 0; k < count && st == BCAST_OK && !found; k++) {
    st = parse_entry(dir, dir_len, &pos, path, &e, diag);
    found = st == BCAST_OK && (member ? entry_is(&e, member) : count == 1);
  }
  if (st == BCAST_OK && !found) {
    char names[512];
    list_members(dir, dir_len, count, names, sizeof names);
    st = member ? bcast__fail(diag, BCAST_IO,
                              "%s: no member '%s' (the archive has %s%s)",
                              path, member, count ? "" : "no members",
                              names)
                : bcast__fail(diag, BCAST_IO,
                              "%s: the archive has %zu members (%s); name "
                              "one as %s:NAME",
                              path, count, names, path);
  }
  if (st == BCAST_OK) {
    char *name = bcast__malloc(strlen(path) + e.name_len + 2);
    if (!name) {
      st = bcast__fail(diag, BCAST_NO_MEMORY, "%s: out of memory", path);
    } else {
      size_t n = e.name_len;
      if (n >= 4 && memcmp(e.name + n - 4, ".npy", 4) == 0) n -= 4;
      sprintf(name, "%s:%.*s", path, (int)n, (const char *)e.name);
      st = read_member(f, file_size, dir_offset, &e, name, out, info,
                       max_bytes, diag);
      bcast__free(name);
    }
  }
  bcast__free(dir);
  fclose(f);
  return st;
}

/* ------------------------------------------------------------------------ */
/* Writing. */

/* The member being written: its bytes go to the output (unless out is
 * NULL: a pass that only measures) and into crc. */
typedef struct member_writer {
  bcast_output *out;
  uint64_t size;
  uint32_t crc;
  const crc_table *table;
} member_writer;

static bcast_status member_write(void *ctx, const void *bytes, size_t len) {
  member_writer *m = ctx;
  m->crc = crc_update(m->table, m->crc, bytes, len);
  m->size += len;
  return m->out ? bcast_output_write(m->out, bytes, len) : BCAST_OK;
}

/* A local header (csize = usize = size) or, with central set, a central
 * directory entry at offset; returns its fixed length. */
static size_t zip_header(unsigned char *h, int central, size_t name_len,
                         uint32_t crc, uint32_t size, uint32_t offset) {
  memset(h, 0, ZIP_CENTRAL_LEN);
  unsigned char *p = h;
  if (central) {
    put32(p, ZIP_CENTRAL_SIG);
    put16(p + 4, 3 << 8 | ZIP_VERSION); /* made by: Unix, 2.0 */
    p += 2;
  } else {
    put32(p, ZIP_LOCAL_SIG);
  }
  put16(p + 4, ZIP_VERSION); /* needed to extract */
  put16(p + 12, ZIP_DOS_DATE);
  put32(p + 14, crc);
  put32(p + 18, size);
  put32(p + 22, size);
  put16(p + 26, (uint32_t)name_len);
  if (!central) return ZIP_LOCAL_LEN;
  put32(h + 38, 0644u << 16); /* external attributes: a -rw-r--r-- file */
  put32(h + 42, offset);
  return ZIP_CENTRAL_LEN;
}

/* Member k's file name "<name>.npy", or numpy's "arr_<k>.npy". */
static void member_name(const char *const *names, size_t k, char *buf,
                        size_t cap) {
  if (names) snprintf(buf, cap, "%s.npy", names[k]);
  else snprintf(buf, cap, "arr_%zu.npy", k);
}

typedef struct written_member {
  uint32_t crc, size, offset;
} written_member;

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

static bcast_status write_failed(const char *path, bcast_diag *diag) {
  return bcast__fail(diag, BCAST_IO, "%s: write failed: %s", path,
                     strerror(errno));
}

/* Writes the members, then the directory, to out.  A member's local header
 * is written with zero CRC and sizes and patched once the member is
 * written; where out cannot seek (a FIFO), a first pass over the member
 * measures them instead. */
static bcast_status write_archive(bcast_output *out, const char *path, size_t n,
                                  const char *const *names,
                                  const bcast_tensor *tensors,
                                  const bcast_npy_write_opts *opts,
                                  written_member *w, bcast_diag *diag) {
  crc_table table;
  crc_table_init(&table);
  const int seekable = bcast__output_seekable(out);
  unsigned char h[ZIP_CENTRAL_LEN];
  char name[300];
  uint64_t at = 0;
  for (size_t k = 0; k < n; k++) {
    member_name(names, k, name, sizeof name);
    const size_t name_len = strlen(name);
    if (at > ZIP_U32_MAX)
      return bcast__fail(diag, BCAST_UNSUPPORTED,
                         "%s: the archive passes 4 GiB, which needs zip64",
                         path);
    w[k].offset = (uint32_t)at;
    const bcast_npy_write_opts *o = opts ? &opts[k] : NULL;
    member_writer m = {NULL, 0, 0, &table};
    bcast_status st = BCAST_OK;
    if (!seekable) st = bcast_npy_write_stream(member_write, &m, path,
                                               &tensors[k], o, diag);
    if (st == BCAST_OK) st = member_fits(path, name, m.size, diag);
    if (st) return st;
    size_t len = zip_header(h, 0, name_len, m.crc, (uint32_t)m.size, 0);
    if (bcast_output_write(out, h, len) ||
        bcast_output_write(out, name, name_len))
      return write_failed(path, diag);
    if (seekable) {
      m.out = out;
      st = bcast_npy_write_stream(member_write, &m, path, &tensors[k], o,
                                  diag);
    } else {
      st = bcast_npy_write_stream(bcast_output_write, out, path, &tensors[k],
                                  o, diag);
    }
    if (st == BCAST_OK) st = member_fits(path, name, m.size, diag);
    if (st) return st;
    w[k].crc = m.crc;
    w[k].size = (uint32_t)m.size;
    if (seekable) {
      /* Patch the local header's CRC and sizes. */
      unsigned char patch[12];
      put32(patch, m.crc);
      put32(patch + 4, w[k].size);
      put32(patch + 8, w[k].size);
      if (bcast__output_pwrite(out, at + 14, patch, sizeof patch))
        return write_failed(path, diag);
    }
    at += len + name_len + m.size;
  }
  if (at > ZIP_U32_MAX)
    return bcast__fail(diag, BCAST_UNSUPPORTED,
                       "%s: the archive passes 4 GiB, which needs zip64", path);
  uint64_t dir_size = 0;
  for (size_t k = 0; k < n; k++) {
    member_name(names, k, name, sizeof name);
    const size_t name_len = strlen(name);
    size_t len = zip_header(h, 1, name_len, w[k].crc, w[k].size, w[k].offset);
    if (bcast_output_write(out, h, len) ||
        bcast_output_write(out, name, name_len))
      return write_failed(path, diag);
    dir_size += len + name_len;
  }
  unsigned char end[ZIP_END_LEN];
  memset(end, 0, sizeof end);
  put32(end, ZIP_END_SIG);
  put16(end + 8, (uint32_t)n);
  put16(end + 10, (uint32_t)n);
  put32(end + 12, (uint32_t)dir_size);
  put32(end + 16, (uint32_t)at);
  if (bcast_output_write(out, end, sizeof end)) return write_failed(path, diag);
  return BCAST_OK;
}

bcast_status bcast_npz_write(const char *path, size_t n,
                             const char *const *names,
                             const bcast_tensor *tensors,
                             const bcast_npy_write_opts *opts,
                             bcast_diag *diag) {
  if (!path || (n && !tensors))
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_npz_write: invalid argument");
  if (n >= 0xffff)
    return bcast__fail(diag, BCAST_UNSUPPORTED,
                       "%s: %zu members need zip64 (at most 65534)", path, n);
  for (size_t k = 0; names && k < n; k++) {
    size_t len = names[k] ? strlen(names[k]) : 0;
    if (len == 0 || len > 255)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "%s: member name %zu must have 1 to 255 bytes", path,
                         k);
  }
  written_member *w = bcast__malloc(n ? n * sizeof *w : 1);
  if (!w) return bcast__fail(diag, BCAST_NO_MEMORY, "%s: out of memory", path);
  bcast_output *out = NULL;
  bcast_status st = bcast_output_open(path, &out, diag);
  if (st == BCAST_OK) {
    st = write_archive(out, path, n, names, tensors, opts, w, diag);
    if (st == BCAST_OK) st = bcast_output_commit(out, diag);
    else bcast_output_discard(out);
  }
  bcast__free(w);
  return st;
}
