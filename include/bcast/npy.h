/* bcast/npy.h - NumPy .npy files.
 *
 * Reads format versions 1.0, 2.0 and 3.0: dtypes b1, i1..i8, u1..u8, f2, f4,
 * f8 in either byte order (big-endian data is byte-swapped on read), C or
 * Fortran order (Fortran data is read as a strided view of the owned
 * buffer), fixed-width strings |S<n> and <U<n> / >U<n> (converted to UTF-8
 * string elements), rank 0 and size-0 arrays.  Writes exactly the bytes
 * numpy.save writes for the same array (little-endian unless asked for
 * big-endian), so round trips are byte-identical.
 * Writing goes through a durable output (bcast/output.h): a temporary
 * file in the target's directory, synced and renamed over the target only
 * when complete; devices and FIFOs are written through.
 *
 * bfloat16: NumPy has no bfloat16 type.  ml_dtypes (the bfloat16 of JAX
 * and TensorFlow) registers one without a type character, so numpy.save
 * of an ml_dtypes.bfloat16 array writes descr '<V2' (two raw bytes), and
 * numpy.load gives back a '|V2' array that .view(ml_dtypes.bfloat16) or
 * .view(np.uint16) reinterprets.  bcast writes bfloat16 the same way,
 * '<V2' holding the bits little-endian (ml_dtypes' own files load back
 * unchanged), and reads '<V2', '|V2' and '>V2' as bfloat16.  ('<u2' would
 * also load, but then reads back as uint16: the type would be lost.)
 *
 * The 8-bit floats (float8_e4m3fn, float8_e5m2): ml_dtypes saves both as
 * a 1-byte void, '|V1', so the file does not say which it holds.  bcast
 * writes them so (np.load(f).view(ml_dtypes.float8_e4m3fn), or
 * .view(np.uint8) for the bits) and refuses '|V1' when reading, naming
 * the ambiguity, rather than guess.
 *
 * Streams: the reader needs no seek and no file (bcast_npy_read_stream),
 * the writer emits through a callback (bcast_npy_write_stream), so pipes
 * and archive members work; .npz archives are bcast/npz below.
 */
#ifndef BCAST_NPY_H
#define BCAST_NPY_H

#include <stddef.h>

#include "bcast/export.h"
#include "bcast/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bcast_npy_info {
  int version_major;
  int version_minor;
  int fortran_order;
  int big_endian;
  char descr[32];       /* the file's descr, e.g. "<f4", "|S5", "<U3" */
  char string_kind;     /* 'S' or 'U' for string files, else 0 */
  int64_t string_width; /* n of |S<n> / <U<n> */
} bcast_npy_info;

/* Reads path into a new owned tensor.  info may be NULL.  The data size is
 * checked against max_bytes before anything is allocated. */
BCAST_API bcast_status bcast_npy_read(const char *path, bcast_tensor *out,
                                      bcast_npy_info *info, int64_t max_bytes,
                                      bcast_diag *diag);
/* The same from memory; name is used in messages only. */
BCAST_API bcast_status bcast_npy_read_mem(const void *bytes, size_t size,
                                          const char *name, bcast_tensor *out,
                                          bcast_npy_info *info,
                                          int64_t max_bytes, bcast_diag *diag);

/* Maps path read-only instead of reading it: *out views the file's data
 * in place (its buffer unmaps with the last reference), so an array larger
 * than memory can be an input, and only the pages a computation touches
 * are read.  The file must hold numbers in the host's byte order at an
 * offset aligned to their size (what numpy.save writes on this machine);
 * other files are refused with BCAST_UNSUPPORTED (read them with
 * bcast_npy_read).  The memory is read-only: the file is never written. */
BCAST_API bcast_status bcast_npy_map(const char *path, bcast_tensor *out,
                                     bcast_npy_info *info, bcast_diag *diag);

/* A source of bytes: copies up to cap bytes into buf and returns how many
 * (fewer is fine), 0 at the end, or -1 after an error (errno set). */
typedef ptrdiff_t (*bcast_npy_read_fn)(void *ctx, void *buf, size_t cap);

/* Reads one .npy from read in a single pass (prefix, header, data; no
 * seeking), then checks the source ends there.  name is used in messages
 * only.  A header longer than 16 MiB is refused before anything is
 * allocated for it; the data size is checked against max_bytes first. */
BCAST_API bcast_status bcast_npy_read_stream(
    bcast_npy_read_fn read, void *ctx, const char *name, bcast_tensor *out,
    bcast_npy_info *info, int64_t max_bytes, bcast_diag *diag);

typedef struct bcast_npy_write_opts {
  char string_kind;     /* 'S' or 'U' for string tensors; 0 means 'U' */
  int64_t string_width; /* 0: the smallest width that holds every element */
  int fortran_order;    /* write Fortran order (data transposed) */
  int big_endian;       /* write '>' data, as numpy saves a big-endian array;
                           multi-byte numbers and 'U' strings only */
} bcast_npy_write_opts;

/* Room for any header bcast_npy_header writes. */
#define BCAST_NPY_HEADER_MAX 4096

/* The .npy prefix and header for an array of t's dtype and shape (t's data
 * is not read), into buf of cap bytes; *len is its length, a multiple of
 * 64.  The data to follow is the elements in C order (Fortran order with
 * opts->fortran_order), in the byte order opts asks for.  For writing an
 * array in pieces, e.g. tile by tile (bcast/tile.h); string arrays, whose
 * width depends on their strings, are refused (BCAST_UNSUPPORTED). */
BCAST_API bcast_status bcast_npy_header(const bcast_tensor *t,
                                        const bcast_npy_write_opts *opts,
                                        void *buf, size_t cap, size_t *len,
                                        bcast_diag *diag);

/* Writes t (any strides) to path; opts may be NULL, which is the same
 * as a zeroed bcast_npy_write_opts (every default is 0). */
BCAST_API bcast_status bcast_npy_write(const char *path, const bcast_tensor *t,
                                       const bcast_npy_write_opts *opts,
                                       bcast_diag *diag);

/* Receives output bytes.  Returns BCAST_OK, or an error that stops the
 * writer and is returned (BCAST_IO with errno set for a failed write). */
typedef bcast_status (*bcast_npy_write_fn)(void *ctx, const void *bytes,
                                           size_t len);

/* Writes the .npy bytes of t through write (in pieces of up to 1 MiB);
 * name is used in messages only.  Nothing is written when t or opts are
 * refused. */
BCAST_API bcast_status bcast_npy_write_stream(bcast_npy_write_fn write,
                                              void *ctx, const char *name,
                                              const bcast_tensor *t,
                                              const bcast_npy_write_opts *opts,
                                              bcast_diag *diag);

/* ------------------------------------------------------------------------ */
/* .npz archives: zip files of .npy members, as numpy.savez writes them.
 *
 * An archive means what numpy.load makes of it (through Python's zipfile):
 * the file must start with a zip signature; every central directory entry
 * is checked before a member is read (a broken one refuses the archive, as
 * zipfile does); zip64 end records and extra fields are read; names are
 * UTF-8 when flagged, else code page 437, cut at a NUL; of several entries
 * of one name the last counts; the local header must repeat the
 * directory's name and end before the next member.  Members may be stored
 * (np.savez) or deflated (np.savez_compressed; inflated with zlib straight
 * into the tensor's buffer, so reading needs the array's bytes within
 * max_bytes and little more).  Encrypted members and other compression
 * methods (bzip2 and LZMA, which zipfile also reads, among them) are
 * BCAST_UNSUPPORTED.  The CRC-32 of a member is checked after reading it;
 * a member whose bytes go on after the array (which numpy.load ignores,
 * unchecked) is refused.  Writing stores members and refuses what would
 * need zip64 (4 GiB, 65535 members). */

/* Reads the member named member of the archive at path: what
 * numpy.load(path)[member] gives, i.e. the member of that exact name, else
 * the one named member + ".npy".  member NULL reads the only member of a
 * one-member archive.  An unknown member is BCAST_IO (like a missing
 * file), its message listing the members. */
BCAST_API bcast_status bcast_npz_read(const char *path, const char *member,
                                      bcast_tensor *out, bcast_npy_info *info,
                                      int64_t max_bytes, bcast_diag *diag);

/* Writes a new archive of n tensors as members names[k] + ".npy" (stored,
 * like numpy.savez, which also replaces any file at path;
 * numpy.load(path)[names[k]] gives tensor k).  names NULL means numpy's
 * "arr_0", "arr_1", ...; opts NULL or an array of n.  Written to a
 * temporary file renamed over path when complete. */
BCAST_API bcast_status bcast_npz_write(const char *path, size_t n,
                                       const char *const *names,
                                       const bcast_tensor *tensors,
                                       const bcast_npy_write_opts *opts,
                                       bcast_diag *diag);

/* Like bcast_npz_write, but an archive already at path keeps its other
 * members: each tensor k replaces whatever numpy.load(path)[names[k]]
 * gave (the entries named names[k] and names[k] + ".npy"), in the place
 * of the first of them, or is added at the end; every other member is
 * copied as it is (compressed members stay compressed, their CRC-32s and
 * the archive comment kept).  The new archive is written to a temporary
 * file renamed over path when complete, so path may be an archive the
 * tensors were read from.  No file, an empty file, or a FIFO or device
 * (written through) get a new archive; an existing file that numpy.load
 * would not read as an archive, or a member that cannot be copied, is
 * refused and the file left as it was. */
BCAST_API bcast_status bcast_npz_update(const char *path, size_t n,
                                        const char *const *names,
                                        const bcast_tensor *tensors,
                                        const bcast_npy_write_opts *opts,
                                        bcast_diag *diag);

#ifdef __cplusplus
}
#endif

#endif /* BCAST_NPY_H */
