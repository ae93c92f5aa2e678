/* Shape text, UTF-8 and byte order helpers for the .npy reader and writer. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/diag.h"
#include "npy/npy_common.h"

size_t bcast__utf8_decode(const unsigned char *s, size_t len, uint32_t *cp) {
  if (len == 0) return 0;
  unsigned char c = s[0];
  if (c < 0x80) {
    *cp = c;
    return 1;
  }
  size_t need;
  uint32_t value, min;
  if (c >= 0xc2 && c <= 0xdf) {
    need = 2, value = c & 0x1fu, min = 0x80;
  } else if (c >= 0xe0 && c <= 0xef) {
    need = 3, value = c & 0x0fu, min = 0x800;
  } else if (c >= 0xf0 && c <= 0xf4) {
    need = 4, value = c & 0x07u, min = 0x10000;
  } else {
    return 0;
  }
  if (len < need) return 0;
  for (size_t i = 1; i < need; i++) {
    if ((s[i] & 0xc0) != 0x80) return 0;
    value = (value << 6) | (s[i] & 0x3fu);
  }
  if (value < min || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff))
    return 0;
  *cp = value;
  return need;
}

size_t bcast__utf8_length(uint32_t cp) {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

size_t bcast__utf8_encode(uint32_t cp, unsigned char *out) {
  if (cp < 0x80) {
    out[0] = (unsigned char)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (unsigned char)(0xc0 | (cp >> 6));
    out[1] = (unsigned char)(0x80 | (cp & 0x3f));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = (unsigned char)(0xe0 | (cp >> 12));
    out[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
    out[2] = (unsigned char)(0x80 | (cp & 0x3f));
    return 3;
  }
  out[0] = (unsigned char)(0xf0 | (cp >> 18));
  out[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
  out[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
  out[3] = (unsigned char)(0x80 | (cp & 0x3f));
  return 4;
}

int bcast__host_big_endian(void) {
  const uint16_t one = 1;
  unsigned char first;
  memcpy(&first, &one, 1);
  return first == 0;
}

void bcast__swap_items(void *data, size_t count, size_t item_bytes) {
  unsigned char *p = data;
  for (size_t i = 0; i < count; i++, p += item_bytes) {
    for (size_t a = 0, b = item_bytes - 1; a < b; a++, b--) {
      unsigned char tmp = p[a];
      p[a] = p[b];
      p[b] = tmp;
    }
  }
}
