/* Zip archives as Python's zipfile reads them (see zip.h).
 *
 * A zip file is a sequence of members, each a local header (signature
 * PK\3\4, flags, method, CRC-32, sizes, name, extra field) followed by its
 * bytes, then a central directory repeating each member's header with the
 * offset of its local header, then the end-of-central-directory record
 * (PK\5\6: entry counts, directory size and offset, a comment of up to
 * 65535 bytes).  Zip64 archives put a zip64 end record (PK\6\6) and its
 * locator (PK\6\7) before it, and sizes and offsets of 0xFFFFFFFF in a
 * zip64 extra field (id 1) of the entry.
 *
 * What an archive means is what numpy.load makes of it (NumPy 1.24 on
 * CPython 3.11's zipfile), since that is what wrote the archive or what
 * its user will read it with:
 *  - the file starts with PK\3\4 or PK\5\6 (numpy.load's test);
 *  - the end record is the last 22 bytes when they hold one with no
 *    comment, else the last PK\5\6 in the final 64 KiB + 22 bytes, which
 *    must have its 22 bytes;
 *  - a zip64 locator just before it must name disk 0 of 1, and then a
 *    zip64 end record before that, if present, gives the directory;
 *  - the directory is the `size` bytes just before the end record (or the
 *    zip64 one): whatever precedes the archive moves every offset; the
 *    entry counts and disk numbers of the plain end record are not used;
 *  - every entry is parsed: its fixed part complete with its signature, a
 *    "version needed to extract" of at most 6.3, a name valid in its
 *    encoding, extra fields within their bounds and zip64 fields where
 *    the sizes or offset say 0xFFFFFFFF;
 *  - a member is read by checking its local header's signature, that the
 *    header's name decodes to the directory's, and that its data end by
 *    the next local header or the directory (zipfile's "overlapped
 *    entries"); flags and methods are the reader's concern (npz.c). */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "core/alloc.h"
#include "core/diag.h"
#include "npy/npy_common.h"
#include "npy/zip.h"

#define ZIP64_LOCATOR_SIG 0x07064b50u
#define ZIP64_END_SIG 0x06064b50u
#define ZIP64_LOCATOR_LEN 20
#define ZIP64_END_LEN 56
#define ZIP_SEARCH_LEN (ZIP_END_LEN + 65536) /* zipfile's (1 << 16) + 22 */
#define ZIP_MAX_EXTRACT_VERSION 63 /* zipfile's MAX_EXTRACT_VERSION */
#define ZIP_EXTRA_ZIP64 1

bcast_status bcast__zip_bad(const char *path, const char *what,
                            bcast_diag *diag) {
  return bcast__fail(diag, BCAST_PARSE, "%s: not a valid .npz (zip) file: %s",
                     path, what);
}

uint32_t bcast__zip_crc(uint32_t crc, const void *bytes, size_t n) {
  const unsigned char *p = bytes;
  while (n > 0) {
    const uInt step = n > (1u << 30) ? 1u << 30 : (uInt)n;
    crc = (uint32_t)crc32(crc, p, step);
    p += step;
    n -= step;
  }
  return crc;
}

bcast_status bcast__zip_read_at(FILE *f, uint64_t offset, void *dst, size_t n,
                                const char *path, bcast_diag *diag) {
  if (offset > INT64_MAX || fseeko(f, (off_t)offset, SEEK_SET) != 0)
    return bcast__fail(diag, BCAST_IO, "%s: seek failed: %s", path,
                       strerror(errno));
  if (n && fread(dst, 1, n, f) != n)
    return bcast__fail(diag, BCAST_IO, "%s: read failed: %s", path,
                       ferror(f) ? strerror(errno) : "unexpected end of file");
  return BCAST_OK;
}

/* ------------------------------------------------------------------------ */
/* Names: UTF-8 when flagged (checked as strictly as Python decodes it),
 * else code page 437, whose upper half is this table. */

static const uint16_t cp437_high[128] = {
    0x00c7, 0x00fc, 0x00e9, 0x00e2, 0x00e4, 0x00e0, 0x00e5, 0x00e7, 0x00ea,
    0x00eb, 0x00e8, 0x00ef, 0x00ee, 0x00ec, 0x00c4, 0x00c5, 0x00c9, 0x00e6,
    0x00c6, 0x00f4, 0x00f6, 0x00f2, 0x00fb, 0x00f9, 0x00ff, 0x00d6, 0x00dc,
    0x00a2, 0x00a3, 0x00a5, 0x20a7, 0x0192, 0x00e1, 0x00ed, 0x00f3, 0x00fa,
    0x00f1, 0x00d1, 0x00aa, 0x00ba, 0x00bf, 0x2310, 0x00ac, 0x00bd, 0x00bc,
    0x00a1, 0x00ab, 0x00bb, 0x2591, 0x2592, 0x2593, 0x2502, 0x2524, 0x2561,
    0x2562, 0x2556, 0x2555, 0x2563, 0x2551, 0x2557, 0x255d, 0x255c, 0x255b,
    0x2510, 0x2514, 0x2534, 0x252c, 0x251c, 0x2500, 0x253c, 0x255e, 0x255f,
    0x255a, 0x2554, 0x2569, 0x2566, 0x2560, 0x2550, 0x256c, 0x2567, 0x2568,
    0x2564, 0x2565, 0x2559, 0x2558, 0x2552, 0x2553, 0x256b, 0x256a, 0x2518,
    0x250c, 0x2588, 0x2584, 0x258c, 0x2590, 0x2580, 0x03b1, 0x00df, 0x0393,
    0x03c0, 0x03a3, 0x03c3, 0x00b5, 0x03c4, 0x03a6, 0x0398, 0x03a9, 0x03b4,
    0x221e, 0x03c6, 0x03b5, 0x2229, 0x2261, 0x00b1, 0x2265, 0x2264, 0x2320,
    0x2321, 0x00f7, 0x2248, 0x00b0, 0x2219, 0x00b7, 0x221a, 0x207f, 0x00b2,
    0x25a0, 0x00a0,
};

/* The most UTF-8 bytes one name byte decodes to (a cp437 letter). */
#define NAME_EXPANSION 3

/* Decodes raw[0..len) into out (room for NAME_EXPANSION * len + 1 bytes,
 * NUL-terminated); *out_len its length.  0 for invalid UTF-8. */
static int decode_name(const unsigned char *raw, size_t len, int utf8,
                       char *out, size_t *out_len) {
  size_t n = 0;
  for (size_t i = 0; i < len;) {
    uint32_t cp;
    size_t used = 1;
    if (utf8) {
      used = bcast__utf8_decode(raw + i, len - i, &cp);
      if (used == 0) return 0;
    } else {
      cp = raw[i] < 0x80 ? raw[i] : cp437_high[raw[i] - 0x80];
    }
    n += bcast__utf8_encode(cp, (unsigned char *)out + n);
    i += used;
  }
  out[n] = '\0';
  *out_len = n;
  return 1;
}

/* ------------------------------------------------------------------------ */
/* The end record. */

/* Where the directory is: zipfile's _EndRecData and _EndRecData64. */
typedef struct end_record {
  uint64_t at; /* the plain end record's offset */
  uint64_t dir_size, dir_offset;
  int zip64; /* a zip64 end record gave them */
  uint64_t comment_at;
  size_t comment_len;
} end_record;

static bcast_status find_end(zip_archive *z, end_record *r, bcast_diag *diag) {
  const uint64_t size = z->file_size;
  if (size < ZIP_END_LEN)
    return bcast__zip_bad(z->path, "shorter than a zip end record", diag);
  unsigned char last[ZIP_END_LEN];
  bcast_status st = bcast__zip_read_at(z->file, size - ZIP_END_LEN, last,
                                       ZIP_END_LEN, z->path, diag);
  if (st) return st;
  unsigned char rec[ZIP_END_LEN] = {0};
  if (bcast__get32(last) == ZIP_END_SIG && bcast__get16(last + 20) == 0) {
    memcpy(rec, last, ZIP_END_LEN);
    r->at = size - ZIP_END_LEN;
  } else {
    /* A comment follows: the last signature in the final 64 KiB. */
    const size_t tail = size < ZIP_SEARCH_LEN ? (size_t)size : ZIP_SEARCH_LEN;
    unsigned char *buf = bcast__malloc(tail);
    if (!buf)
      return bcast__fail(diag, BCAST_NO_MEMORY, "%s: out of memory", z->path);
    st = bcast__zip_read_at(z->file, size - tail, buf, tail, z->path, diag);
    size_t i = tail - 3;
    while (st == BCAST_OK && i-- > 0 && bcast__get32(buf + i) != ZIP_END_SIG) {
    }
    if (st == BCAST_OK) {
      if (i == (size_t)-1 || tail - i < ZIP_END_LEN)
        st = bcast__zip_bad(z->path, "no end-of-central-directory record",
                            diag);
      else
        memcpy(rec, buf + i, ZIP_END_LEN);
    }
    bcast__free(buf);
    if (st) return st;
    r->at = size - tail + i;
  }
  r->dir_size = bcast__get32(rec + 12);
  r->dir_offset = bcast__get32(rec + 16);
  r->comment_at = r->at + ZIP_END_LEN;
  const uint64_t after = size - r->comment_at;
  const uint32_t stated = bcast__get16(rec + 20);
  r->comment_len = stated < after ? stated : (size_t)after;
  r->zip64 = 0;
  if (r->at < ZIP64_LOCATOR_LEN) return BCAST_OK;
  unsigned char loc[ZIP64_LOCATOR_LEN];
  st = bcast__zip_read_at(z->file, r->at - ZIP64_LOCATOR_LEN, loc, sizeof loc,
                          z->path, diag);
  if (st) return st;
  if (bcast__get32(loc) != ZIP64_LOCATOR_SIG) return BCAST_OK;
  if (bcast__get32(loc + 4) != 0 || bcast__get32(loc + 16) > 1)
    return bcast__fail(diag, BCAST_UNSUPPORTED,
                       "%s: zip archives that span several disks are not "
                       "supported",
                       z->path);
  if (r->at < ZIP64_LOCATOR_LEN + ZIP64_END_LEN)
    return bcast__zip_bad(z->path,
                          "a zip64 locator without room for its "
                          "end record",
                          diag);
  unsigned char end64[ZIP64_END_LEN];
  st = bcast__zip_read_at(z->file, r->at - ZIP64_LOCATOR_LEN - ZIP64_END_LEN,
                          end64, sizeof end64, z->path, diag);
  if (st) return st;
  if (bcast__get32(end64) != ZIP64_END_SIG) return BCAST_OK;
  r->dir_size = bcast__get64(end64 + 40);
  r->dir_offset = bcast__get64(end64 + 48);
  r->zip64 = 1;
  return BCAST_OK;
}

/* ------------------------------------------------------------------------ */
/* The central directory. */

/* The bounds of the entry at dir[pos]: its fixed part must be complete;
 * its name, extra field and comment are cut at the end of the directory,
 * as zipfile reads them.  *next is where zipfile looks for the next one
 * (perhaps past the end, which ends the directory). */
typedef struct entry_bounds {
  size_t name, extra, comment; /* the lengths present */
  size_t next;
  int truncated;
} entry_bounds;

static bcast_status bound_entry(const zip_archive *z, size_t pos,
                                entry_bounds *b, bcast_diag *diag) {
  const unsigned char *p = z->dir + pos;
  if (z->dir_len - pos < ZIP_CENTRAL_LEN)
    return bcast__zip_bad(z->path, "a truncated central directory", diag);
  if (bcast__get32(p) != ZIP_CENTRAL_SIG)
    return bcast__zip_bad(z->path, "a bad central directory signature", diag);
  size_t left = z->dir_len - pos - ZIP_CENTRAL_LEN;
  const size_t stated[3] = {bcast__get16(p + 28), bcast__get16(p + 30),
                            bcast__get16(p + 32)};
  size_t got[3];
  b->truncated = 0;
  for (int i = 0; i < 3; i++) {
    got[i] = stated[i] < left ? stated[i] : left;
    left -= got[i];
    b->truncated |= got[i] != stated[i];
  }
  b->name = got[0];
  b->extra = got[1];
  b->comment = got[2];
  b->next = pos + ZIP_CENTRAL_LEN + stated[0] + stated[1] + stated[2];
  return BCAST_OK;
}

/* zipfile's _decodeExtra: each zip64 field (id 1) gives, in this order,
 * the uncompressed size, the compressed size and the header offset where
 * the fixed fields say 0xFFFFFFFF.  field_base is the extra field's
 * position in the entry, for e->offset_field. */
static bcast_status decode_extra(const zip_archive *z, const unsigned char *x,
                                 size_t len, size_t field_base, zip_entry *e,
                                 uint64_t *offset, bcast_diag *diag) {
  size_t pos = 0;
  while (len - pos >= 4) {
    const uint32_t id = bcast__get16(x + pos), n = bcast__get16(x + pos + 2);
    if (n > len - pos - 4)
      return bcast__zip_bad(z->path,
                            "a corrupt extra field in the central "
                            "directory",
                            diag);
    if (id == ZIP_EXTRA_ZIP64) {
      size_t at = pos + 4;
      const size_t end = at + n;
      uint64_t *fields[3] = {&e->usize, &e->csize, offset};
      for (int i = 0; i < 3; i++) {
        const uint64_t v = *fields[i];
        if (!(v == ZIP_U32_MAX || (i == 0 && v == ZIP_U64_MAX))) continue;
        if (end - at < 8)
          return bcast__zip_bad(z->path, "a corrupt zip64 extra field", diag);
        *fields[i] = bcast__get64(x + at);
        if (i == 2) {
          e->offset_field = field_base + at;
          e->offset_is64 = 1;
        }
        at += 8;
      }
    }
    pos += 4 + n;
  }
  return BCAST_OK;
}

/* Where a directory offset points once the bytes before the archive are
 * counted: the directory says it starts at dir_offset and really starts
 * at start_dir.  Clamped to -1 and file_size + 1 outside the file. */
static int64_t moved_offset(const zip_archive *z, uint64_t raw) {
  if (raw >= z->dir_offset) {
    const uint64_t d = raw - z->dir_offset;
    return d > z->file_size - z->start_dir ? (int64_t)z->file_size + 1
                                           : (int64_t)(z->start_dir + d);
  }
  const uint64_t d = z->dir_offset - raw;
  return d > z->start_dir ? -1 : (int64_t)(z->start_dir - d);
}

/* Parses entry e at dir[pos] with bounds b; its decoded name goes to
 * *names, which advances. */
static bcast_status parse_entry(zip_archive *z, size_t pos,
                                const entry_bounds *b, zip_entry *e,
                                char **names, bcast_diag *diag) {
  const unsigned char *p = z->dir + pos;
  memset(e, 0, sizeof *e);
  if (p[6] > ZIP_MAX_EXTRACT_VERSION)
    return bcast__fail(diag, BCAST_UNSUPPORTED,
                       "%s: a member needs zip version %u.%u to extract "
                       "(zipfile reads up to 6.3)",
                       z->path, p[6] / 10u, p[6] % 10u);
  e->flags = bcast__get16(p + 8);
  e->method = bcast__get16(p + 10);
  e->crc = bcast__get32(p + 16);
  e->csize = bcast__get32(p + 20);
  e->usize = bcast__get32(p + 24);
  e->raw_pos = pos;
  e->raw_len = ZIP_CENTRAL_LEN + b->name + b->extra + b->comment;
  e->truncated = b->truncated;
  e->offset_field = 42;
  if (!decode_name(p + ZIP_CENTRAL_LEN, b->name,
                   (e->flags & ZIP_FLAG_UTF8) != 0, *names, &e->name_len))
    return bcast__zip_bad(z->path, "a member name flagged UTF-8 is not UTF-8",
                          diag);
  e->name = *names;
  e->key_len = strlen(e->name);
  *names += e->name_len + 1;
  uint64_t offset = bcast__get32(p + 42);
  bcast_status st = decode_extra(z, p + ZIP_CENTRAL_LEN + b->name, b->extra,
                                 ZIP_CENTRAL_LEN + b->name, e, &offset, diag);
  if (st) return st;
  e->raw_offset = offset;
  e->header_offset = moved_offset(z, offset);
  return BCAST_OK;
}

/* Reads and parses the directory of end record r: a first pass bounds the
 * entries (their number and name bytes), a second fills them. */
static bcast_status read_directory(zip_archive *z, const end_record *r,
                                   bcast_diag *diag) {
  const uint64_t before = r->zip64 ? ZIP64_LOCATOR_LEN + ZIP64_END_LEN : 0;
  if (r->dir_size > r->at || r->at - r->dir_size < before)
    return bcast__zip_bad(z->path,
                          "the central directory would start "
                          "before the file",
                          diag);
  z->start_dir = r->at - before - r->dir_size;
  z->dir_offset = r->dir_offset;
  if (r->dir_size > SIZE_MAX - 1)
    return bcast__fail(diag, BCAST_NO_MEMORY, "%s: out of memory", z->path);
  z->dir_len = (size_t)r->dir_size;
  z->dir = bcast__malloc(z->dir_len);
  if (!z->dir)
    return bcast__fail(diag, BCAST_NO_MEMORY, "%s: out of memory", z->path);
  bcast_status st = bcast__zip_read_at(z->file, z->start_dir, z->dir,
                                       z->dir_len, z->path, diag);
  if (st) return st;
  size_t count = 0, name_bytes = 0;
  entry_bounds b;
  for (size_t pos = 0; pos < z->dir_len; pos = b.next, count++) {
    st = bound_entry(z, pos, &b, diag);
    if (st) return st;
    name_bytes += NAME_EXPANSION * b.name + 1;
  }
  z->entries = bcast__calloc(count ? count : 1, sizeof *z->entries);
  z->names = bcast__malloc(name_bytes);
  if (!z->entries || !z->names)
    return bcast__fail(diag, BCAST_NO_MEMORY, "%s: out of memory", z->path);
  char *names = z->names;
  size_t k = 0;
  for (size_t pos = 0; pos < z->dir_len; pos = b.next, k++) {
    bound_entry(z, pos, &b, NULL);
    st = parse_entry(z, pos, &b, &z->entries[k], &names, diag);
    if (st) return st;
  }
  z->count = count;
  return BCAST_OK;
}

bcast_status bcast__zip_open(FILE *f, const char *path, zip_archive *z,
                             bcast_diag *diag) {
  memset(z, 0, sizeof *z);
  z->file = f;
  z->path = path;
  struct stat sb;
  if (fstat(fileno(f), &sb) != 0)
    return bcast__fail(diag, BCAST_IO, "%s: cannot stat: %s", path,
                       strerror(errno));
  if (!S_ISREG(sb.st_mode))
    return bcast__fail(diag, BCAST_IO,
                       "%s: a .npz archive must be a regular file", path);
  z->file_size = (uint64_t)sb.st_size;
  /* numpy.load takes a file for an archive by its first bytes. */
  unsigned char magic[4] = {0};
  if (z->file_size < sizeof magic ||
      bcast__zip_read_at(f, 0, magic, sizeof magic, path, NULL) != BCAST_OK ||
      (bcast__get32(magic) != ZIP_LOCAL_SIG &&
       bcast__get32(magic) != ZIP_END_SIG))
    return bcast__zip_bad(path,
                          "it does not start with a zip signature "
                          "(PK\\3\\4, or PK\\5\\6 when empty)",
                          diag);
  end_record r;
  memset(&r, 0, sizeof r);
  bcast_status st = find_end(z, &r, diag);
  if (st) return st;
  z->comment_at = r.comment_at;
  z->comment_len = r.comment_len;
  return read_directory(z, &r, diag);
}

void bcast__zip_release(zip_archive *z) {
  bcast__free(z->dir);
  bcast__free(z->entries);
  bcast__free(z->names);
  memset(z, 0, sizeof *z);
}

/* ------------------------------------------------------------------------ */
/* Members. */

int bcast__zip_key_is(const zip_entry *e, const char *key, int exact) {
  const size_t n = strlen(key), want = exact ? n : n + 4;
  return e->key_len == want && memcmp(e->name, key, n) == 0 &&
         (exact || memcmp(e->name + n, ".npy", 4) == 0);
}

ptrdiff_t bcast__zip_find(const zip_archive *z, const char *key) {
  for (int exact = 1; exact >= 0; exact--) {
    for (size_t k = z->count; k-- > 0;)
      if (bcast__zip_key_is(&z->entries[k], key, exact)) return (ptrdiff_t)k;
  }
  return -1;
}

/* Where entry k's bytes must end, as a raw offset: zipfile sorts the
 * entries by header offset (stably, from the last) and ends each at the
 * header after it, the last at the directory; of several at one offset,
 * all but the first in directory order end where they start. */
static uint64_t entry_end(const zip_archive *z, size_t k) {
  const uint64_t at = z->entries[k].raw_offset;
  uint64_t end = z->dir_offset;
  int found = 0;
  for (size_t j = 0; j < z->count; j++) {
    const uint64_t o = z->entries[j].raw_offset;
    if (o == at && j < k) return at;
    if (o > at && (!found || o < end)) {
      end = o;
      found = 1;
    }
  }
  return end;
}

bcast_status bcast__zip_locate(const zip_archive *z, size_t k,
                               const char *name, uint64_t *data_at,
                               uint64_t *end_at, bcast_diag *diag) {
  const zip_entry *e = &z->entries[k];
  if (e->header_offset < 0 ||
      (uint64_t)e->header_offset + ZIP_LOCAL_LEN > z->file_size)
    return bcast__zip_bad(name,
                          "the member's local header is outside the "
                          "file",
                          diag);
  const uint64_t h = (uint64_t)e->header_offset;
  unsigned char local[ZIP_LOCAL_LEN];
  bcast_status st =
      bcast__zip_read_at(z->file, h, local, sizeof local, name, diag);
  if (st) return st;
  if (bcast__get32(local) != ZIP_LOCAL_SIG)
    return bcast__zip_bad(name, "no local header at the member's offset",
                          diag);
  /* The header's name and extra field, as much of them as the file has. */
  const uint64_t room = z->file_size - h - ZIP_LOCAL_LEN;
  const size_t stated = bcast__get16(local + 26),
               extra = bcast__get16(local + 28);
  const size_t name_len = stated < room ? stated : (size_t)room;
  const size_t extra_len =
      extra < room - name_len ? extra : (size_t)(room - name_len);
  unsigned char *raw = bcast__malloc(name_len + NAME_EXPANSION * name_len + 1);
  if (!raw)
    return bcast__fail(diag, BCAST_NO_MEMORY, "%s: out of memory", name);
  char *decoded = (char *)raw + name_len;
  size_t decoded_len = 0;
  st = bcast__zip_read_at(z->file, h + ZIP_LOCAL_LEN, raw, name_len, name,
                          diag);
  if (st == BCAST_OK &&
      (!decode_name(raw, name_len,
                    (bcast__get16(local + 6) & ZIP_FLAG_UTF8) != 0, decoded,
                    &decoded_len) ||
       decoded_len != e->name_len ||
       memcmp(decoded, e->name, decoded_len) != 0))
    st = bcast__zip_bad(name, "the member's local header names another file",
                        diag);
  bcast__free(raw);
  if (st) return st;
  /* zipfile's overlap check, among raw offsets (a member's compressed
   * size may pass the end of the file when it is larger than the bytes
   * read, the uncompressed size of a stored member). */
  const uint64_t header_len = ZIP_LOCAL_LEN + name_len + extra_len;
  const uint64_t end = entry_end(z, k);
  *data_at = h + header_len;
  *end_at = (uint64_t)moved_offset(z, end);
  if (e->raw_offset > end || header_len > end - e->raw_offset ||
      e->csize > end - e->raw_offset - header_len)
    return bcast__zip_bad(name,
                          "the member's data overlap the next member "
                          "or the directory",
                          diag);
  return BCAST_OK;
}
