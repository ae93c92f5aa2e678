/* bcast/npy.h - NumPy .npy files.
 *
 * Reads format versions 1.0, 2.0 and 3.0: dtypes b1, i1..i8, u1..u8, f2, f4,
 * f8 in either byte order (big-endian data is byte-swapped on read), C or
 * Fortran order (Fortran data is read as a strided view of the owned
 * buffer), fixed-width strings |S<n> and <U<n> / >U<n> (converted to UTF-8
 * string elements), rank 0 and size-0 arrays.  Writes exactly the bytes
 * numpy.save writes for the same array (little-endian unless asked for
 * big-endian), so round trips are byte-identical.
 * Writing goes to a temporary file in the target's directory which is
 * renamed over the target only when complete.
 */
#ifndef BCAST_NPY_H
#define BCAST_NPY_H

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
  char descr[32];     /* the file's descr, e.g. "<f4", "|S5", "<U3" */
  char string_kind;   /* 'S' or 'U' for string files, else 0 */
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
                                bcast_npy_info *info, int64_t max_bytes,
                                bcast_diag *diag);

typedef struct bcast_npy_write_opts {
  char string_kind;     /* 'S' or 'U' for string tensors; 0 means 'U' */
  int64_t string_width; /* 0: the smallest width that holds every element */
  int fortran_order;    /* write Fortran order (data transposed) */
  int big_endian;       /* write '>' data, as numpy saves a big-endian array;
                           multi-byte numbers and 'U' strings only */
} bcast_npy_write_opts;

/* Writes t (any strides) to path; opts may be NULL, which is the same
 * as a zeroed bcast_npy_write_opts (every default is 0). */
BCAST_API bcast_status bcast_npy_write(const char *path, const bcast_tensor *t,
                             const bcast_npy_write_opts *opts,
                             bcast_diag *diag);

#ifdef __cplusplus
}
#endif

#endif /* BCAST_NPY_H */
