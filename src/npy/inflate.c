/* Inflate (RFC 1951 deflate decoding) for np.savez_compressed members.
 *
 * The whole compressed member is in memory and decodes into a buffer of the
 * size the zip directory states, so every read and write is bounds-checked
 * against two known lengths and nothing else is allocated.  Huffman codes
 * are canonical: a code is described by how many symbols have each length,
 * and the symbols in code order; decoding reads one bit at a time and
 * compares against the first code of each length (the method of zlib's
 * puff.c reference decoder, written here from RFC 1951).  Slower than
 * table-driven inflate, but short and easy to check, and it never reads or
 * writes out of bounds whatever the input. */
#include <string.h>

#include "core/diag.h"
#include "npy/npy_common.h"

#define MAX_BITS 15     /* longest code */
#define MAX_LIT 288     /* literal/length symbols */
#define MAX_DIST 30     /* distance symbols */
#define MAX_CODELEN 19  /* code length symbols */

typedef struct inflater {
  const unsigned char *in;
  size_t in_len, in_pos;
  unsigned char *out;
  size_t out_len, out_pos;
  uint32_t bitbuf; /* bits not yet used, lowest first */
  int bitcnt;
} inflater;

/* A canonical Huffman code: count[len] symbols of each length and the
 * symbols ordered by code. */
typedef struct huffman {
  short count[MAX_BITS + 1];
  short symbol[MAX_LIT];
} huffman;

typedef enum {
  INF_OK,
  INF_END_OF_INPUT, /* the data end inside a block */
  INF_OUTPUT_FULL,  /* more output than the directory says */
  INF_BAD           /* invalid deflate data */
} inf_result;

/* Takes n (0..16) bits, lowest first. */
static inf_result take_bits(inflater *s, int n, int *out) {
  while (s->bitcnt < n) {
    if (s->in_pos == s->in_len) return INF_END_OF_INPUT;
    s->bitbuf |= (uint32_t)s->in[s->in_pos++] << s->bitcnt;
    s->bitcnt += 8;
  }
  *out = (int)(s->bitbuf & ((1u << n) - 1));
  s->bitbuf >>= n;
  s->bitcnt -= n;
  return INF_OK;
}

/* Builds h from length[0..n).  Returns INF_BAD for an over-subscribed set
 * of lengths; an incomplete set is allowed (its unused codes fail when
 * met). */
static inf_result build(huffman *h, const short *length, int n) {
  memset(h->count, 0, sizeof h->count);
  for (int s = 0; s < n; s++) h->count[length[s]]++;
  int left = 1;
  for (int len = 1; len <= MAX_BITS; len++) {
    left <<= 1;
    left -= h->count[len];
    if (left < 0) return INF_BAD;
  }
  short offs[MAX_BITS + 1];
  offs[1] = 0;
  for (int len = 1; len < MAX_BITS; len++) offs[len + 1] = offs[len] + h->count[len];
  for (int s = 0; s < n; s++)
    if (length[s] != 0) h->symbol[offs[length[s]]++] = (short)s;
  return INF_OK;
}

/* Decodes one symbol: codes of each length are consecutive integers
 * starting at `first`, read most significant bit first. */
static inf_result decode(inflater *s, const huffman *h, int *sym) {
  int code = 0, first = 0, index = 0;
  for (int len = 1; len <= MAX_BITS; len++) {
    int bit;
    inf_result r = take_bits(s, 1, &bit);
    if (r) return r;
    code |= bit;
    const int count = h->count[len];
    if (code - count < first) {
      *sym = h->symbol[index + (code - first)];
      return INF_OK;
    }
    index += count;
    first += count;
    first <<= 1;
    code <<= 1;
  }
  return INF_BAD; /* an unused code of an incomplete set */
}

static const short length_base[29] = {3,  4,  5,  6,   7,   8,   9,   10,  11, 13,
                                      15, 17, 19, 23,  27,  31,  35,  43,  51, 59,
                                      67, 83, 99, 115, 131, 163, 195, 227, 258};
static const short length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                       2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const short dist_base[30] = {
    1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
    193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const short dist_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                     6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

/* Decodes literals and length/distance pairs until the end-of-block
 * symbol. */
static inf_result codes(inflater *s, const huffman *lit, const huffman *dist) {
  for (;;) {
    int sym;
    inf_result r = decode(s, lit, &sym);
    if (r) return r;
    if (sym < 256) {
      if (s->out_pos == s->out_len) return INF_OUTPUT_FULL;
      s->out[s->out_pos++] = (unsigned char)sym;
      continue;
    }
    if (sym == 256) return INF_OK;
    sym -= 257;
    if (sym >= 29) return INF_BAD;
    int extra;
    if ((r = take_bits(s, length_extra[sym], &extra))) return r;
    const size_t len = (size_t)(length_base[sym] + extra);
    if ((r = decode(s, dist, &sym))) return r;
    if (sym >= 30) return INF_BAD;
    if ((r = take_bits(s, dist_extra[sym], &extra))) return r;
    const size_t d = (size_t)(dist_base[sym] + extra);
    if (d > s->out_pos) return INF_BAD; /* before the start of the output */
    if (len > s->out_len - s->out_pos) return INF_OUTPUT_FULL;
    /* Byte by byte: the copy may overlap its own output (d < len). */
    for (size_t i = 0; i < len; i++, s->out_pos++)
      s->out[s->out_pos] = s->out[s->out_pos - d];
  }
}

static inf_result stored(inflater *s) {
  s->bitbuf = 0; /* to a byte boundary */
  s->bitcnt = 0;
  if (s->in_len - s->in_pos < 4) return INF_END_OF_INPUT;
  const unsigned char *p = s->in + s->in_pos;
  const size_t len = (size_t)p[0] | (size_t)p[1] << 8;
  if ((size_t)(p[2] | p[3] << 8) != (~len & 0xffff)) return INF_BAD;
  s->in_pos += 4;
  if (s->in_len - s->in_pos < len) return INF_END_OF_INPUT;
  if (s->out_len - s->out_pos < len) return INF_OUTPUT_FULL;
  memcpy(s->out + s->out_pos, s->in + s->in_pos, len);
  s->in_pos += len;
  s->out_pos += len;
  return INF_OK;
}

static inf_result fixed(inflater *s) {
  short length[MAX_LIT];
  huffman lit, dist;
  int sym = 0;
  for (; sym < 144; sym++) length[sym] = 8;
  for (; sym < 256; sym++) length[sym] = 9;
  for (; sym < 280; sym++) length[sym] = 7;
  for (; sym < MAX_LIT; sym++) length[sym] = 8;
  build(&lit, length, MAX_LIT);
  for (sym = 0; sym < MAX_DIST; sym++) length[sym] = 5;
  build(&dist, length, MAX_DIST);
  return codes(s, &lit, &dist);
}

static inf_result dynamic(inflater *s) {
  static const short order[MAX_CODELEN] = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                           11, 4,  12, 3, 13, 2, 14, 1, 15};
  int nlen, ndist, ncode;
  inf_result r;
  if ((r = take_bits(s, 5, &nlen)) || (r = take_bits(s, 5, &ndist)) ||
      (r = take_bits(s, 4, &ncode)))
    return r;
  nlen += 257;
  ndist += 1;
  ncode += 4;
  if (nlen > 286 || ndist > MAX_DIST) return INF_BAD;
  short length[MAX_LIT + MAX_DIST];
  memset(length, 0, sizeof length);
  for (int k = 0; k < ncode; k++) {
    int v;
    if ((r = take_bits(s, 3, &v))) return r;
    length[order[k]] = (short)v;
  }
  huffman lencode, lit, dist;
  if (build(&lencode, length, MAX_CODELEN)) return INF_BAD;
  /* The literal/length and distance lengths, run-length coded together. */
  int index = 0;
  while (index < nlen + ndist) {
    int sym;
    if ((r = decode(s, &lencode, &sym))) return r;
    if (sym < 16) {
      length[index++] = (short)sym;
      continue;
    }
    short value = 0;
    int repeat;
    if (sym == 16) {
      if (index == 0) return INF_BAD; /* nothing to repeat */
      value = length[index - 1];
      if ((r = take_bits(s, 2, &repeat))) return r;
      repeat += 3;
    } else if (sym == 17) {
      if ((r = take_bits(s, 3, &repeat))) return r;
      repeat += 3;
    } else {
      if ((r = take_bits(s, 7, &repeat))) return r;
      repeat += 11;
    }
    if (index + repeat > nlen + ndist) return INF_BAD;
    while (repeat--) length[index++] = value;
  }
  if (length[256] == 0) return INF_BAD; /* no end-of-block code */
  if (build(&lit, length, nlen) || build(&dist, length + nlen, ndist))
    return INF_BAD;
  return codes(s, &lit, &dist);
}

bcast_status bcast__inflate(const unsigned char *in, size_t in_len,
                            unsigned char *out, size_t out_len,
                            const char *name, bcast_diag *diag) {
  inflater s = {in, in_len, 0, out, out_len, 0, 0, 0};
  inf_result r = INF_OK;
  int last = 0;
  while (!last && r == INF_OK) {
    int type;
    if ((r = take_bits(&s, 1, &last)) || (r = take_bits(&s, 2, &type))) break;
    r = type == 0 ? stored(&s) : type == 1 ? fixed(&s) : type == 2 ? dynamic(&s)
                                                                   : INF_BAD;
  }
  if (r == INF_OK && s.out_pos != out_len)
    return bcast__fail(diag, BCAST_PARSE,
                       "%s: the compressed member holds %zu bytes, not the "
                       "%zu the archive says",
                       name, s.out_pos, out_len);
  switch (r) {
  case INF_OK:
    return BCAST_OK;
  case INF_END_OF_INPUT:
    return bcast__fail(diag, BCAST_PARSE,
                       "%s: the compressed data end early", name);
  case INF_OUTPUT_FULL:
    return bcast__fail(diag, BCAST_PARSE,
                       "%s: the compressed member holds more than the %zu "
                       "bytes the archive says",
                       name, out_len);
  case INF_BAD:
    break;
  }
  return bcast__fail(diag, BCAST_PARSE,
                     "%s: invalid deflate data (at compressed byte %zu)", name,
                     s.in_pos);
}
