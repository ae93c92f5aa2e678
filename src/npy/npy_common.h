/* Internal helpers shared by the .npy reader and writer. */
#ifndef BCAST_NPY_COMMON_H
#define BCAST_NPY_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bcast/npy.h"

/* "\x93NUMPY": the six magic bytes every .npy file starts with. */
#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
/* numpy aligns the start of the data to this many bytes. */
#define NPY_ALIGN 64
/* numpy leaves room for the growing axis to reach this many digits. */
#define NPY_GROWTH_AXIS_MAX_DIGITS 21

/* The longest header read from a stream of unknown size: numpy never
 * writes one near it. */
#define NPY_STREAM_HEADER_MAX ((size_t)1 << 24)

/* The descr kind of the floats NumPy has no type for, as ml_dtypes saves
 * them: a void of their size ('<V2' bfloat16, '|V1' both 8-bit floats). */
#define NPY_VOID_KIND 'V'

/* Decodes one UTF-8 scalar value from s[0..len); strict (no overlongs,
 * surrogates or values above U+10FFFF).  Returns the bytes used, 0 if
 * invalid. */
size_t bcast__utf8_decode(const unsigned char *s, size_t len, uint32_t *cp);
/* Bytes needed to encode cp (a valid scalar value) in UTF-8. */
size_t bcast__utf8_length(uint32_t cp);
/* Encodes a valid scalar value; returns the bytes written (1..4). */
size_t bcast__utf8_encode(uint32_t cp, unsigned char *out);

/* 1 on a big-endian host. */
int bcast__host_big_endian(void);
/* Reverses the bytes of each of count items of item_bytes bytes. */
void bcast__swap_items(void *data, size_t count, size_t item_bytes);

#endif
