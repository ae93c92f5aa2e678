/* Internal: zip archives read as Python's zipfile reads them (zip.c), for
 * the .npz reader and writer (npz.c).
 *
 * numpy.load opens an .npz with zipfile, so an archive means what zipfile
 * makes of it: the end record found as zipfile finds it, zip64 records
 * and extra fields, every central directory entry checked before any
 * member is read, names decoded (UTF-8 when flagged, else code page 437)
 * and cut at a NUL, the last of several entries of one name, and the
 * checks zipfile.open makes before it reads a member. */
#ifndef BCAST_NPY_ZIP_H
#define BCAST_NPY_ZIP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bcast/status.h"

#define ZIP_LOCAL_SIG 0x04034b50u
#define ZIP_CENTRAL_SIG 0x02014b50u
#define ZIP_END_SIG 0x06054b50u
#define ZIP_LOCAL_LEN 30
#define ZIP_CENTRAL_LEN 46
#define ZIP_END_LEN 22
#define ZIP_U32_MAX 0xffffffffu
#define ZIP_U64_MAX UINT64_MAX

/* General purpose flag bits zipfile acts on. */
#define ZIP_FLAG_ENCRYPTED 0x0001u
#define ZIP_FLAG_PATCHED 0x0020u /* compressed patched data */
#define ZIP_FLAG_STRONG 0x0040u  /* strong encryption */
#define ZIP_FLAG_UTF8 0x0800u    /* the name is UTF-8, not code page 437 */

#define ZIP_STORED 0
#define ZIP_DEFLATED 8

/* One central directory entry, as zipfile's ZipInfo holds it. */
typedef struct zip_entry {
  uint32_t flags, method, crc;
  uint64_t csize, usize;
  /* The local header's offset as the directory gives it, and in the file
   * (zipfile's header_offset: moved by whatever precedes the archive), -1
   * when that falls before the file and file_size + 1 when past its end.
   * All entries move alike, so they compare as their raw offsets. */
  uint64_t raw_offset;
  int64_t header_offset;
  size_t raw_pos, raw_len; /* the entry's bytes in the directory */
  size_t offset_field;     /* where in them its header offset is stored */
  int offset_is64;         /* 8 bytes in the zip64 extra field, else 4 */
  int truncated;           /* its name, extra or comment is cut short by
                              the end of the directory (zipfile reads what
                              there is) */
  const char *name;        /* decoded to UTF-8, NUL-terminated */
  size_t name_len;         /* its bytes, NULs inside included */
  size_t key_len;          /* up to the first NUL: numpy.load's name */
} zip_entry;

typedef struct zip_archive {
  FILE *file;
  const char *path;
  uint64_t file_size;
  uint64_t start_dir;  /* where the central directory starts */
  uint64_t dir_offset; /* where the end record says it starts */
  unsigned char *dir;  /* its bytes */
  size_t dir_len;
  zip_entry *entries;
  size_t count;
  char *names; /* the decoded names, back to back */
  uint64_t comment_at;
  size_t comment_len;
} zip_archive;

/* Reads the directory of the archive open as f (path for messages), as
 * numpy.load and zipfile.ZipFile do, refusing what they refuse.  z is
 * zeroed first; release it with bcast__zip_release also after a
 * failure.  f stays the caller's. */
bcast_status bcast__zip_open(FILE *f, const char *path, zip_archive *z,
                             bcast_diag *diag);
void bcast__zip_release(zip_archive *z);

/* Whether entry e is what numpy.load(path)[key] opens by the name it
 * tries: key itself (exact) or key + ".npy". */
int bcast__zip_key_is(const zip_entry *e, const char *key, int exact);

/* The entry numpy.load(path)[key] reads: the last one named key, else the
 * last named key + ".npy"; -1 for none. */
ptrdiff_t bcast__zip_find(const zip_archive *z, const char *key);

/* zipfile.open's checks of entry k's local header (signature, the same
 * name as the directory's, its data ending before the next member's
 * header); *data_at is where its data starts, *end_at where the next
 * member (or the directory) starts, at most file_size + 1.  name for
 * messages. */
bcast_status bcast__zip_locate(const zip_archive *z, size_t k,
                               const char *name, uint64_t *data_at,
                               uint64_t *end_at, bcast_diag *diag);

/* "PATH: not a valid .npz (zip) file: WHAT", BCAST_PARSE. */
bcast_status bcast__zip_bad(const char *path, const char *what,
                            bcast_diag *diag);

/* CRC-32 of n bytes continued from crc (0 to start). */
uint32_t bcast__zip_crc(uint32_t crc, const void *bytes, size_t n);

/* Reads n bytes at offset: BCAST_IO naming path, "unexpected end of file"
 * when the file is shorter. */
bcast_status bcast__zip_read_at(FILE *f, uint64_t offset, void *dst, size_t n,
                                const char *path, bcast_diag *diag);

static inline uint32_t bcast__get16(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}
static inline uint32_t bcast__get32(const unsigned char *p) {
  return bcast__get16(p) | bcast__get16(p + 2) << 16;
}
static inline uint64_t bcast__get64(const unsigned char *p) {
  return (uint64_t)bcast__get32(p) | (uint64_t)bcast__get32(p + 4) << 32;
}
static inline void bcast__put16(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
}
static inline void bcast__put32(unsigned char *p, uint32_t v) {
  bcast__put16(p, v & 0xffff);
  bcast__put16(p + 2, v >> 16);
}
static inline void bcast__put64(unsigned char *p, uint64_t v) {
  bcast__put32(p, (uint32_t)v);
  bcast__put32(p + 4, (uint32_t)(v >> 32));
}

#endif
