/* .npz archives: the member numpy.load gives for a name (the last of
 * duplicates), members added to an archive keeping the others byte for
 * byte, deflated members inflated by zlib within the budget whatever size
 * the directory states, and a deflate stream with an incomplete Huffman
 * code refused as zlib refuses it. */
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

#include "bcast/bcast.h"
#include "test.h"

static const char *npz_path(const char *name) {
  static char dir[64], buf[256];
  if (!dir[0]) {
    strcpy(dir, "/tmp/bcast-npz-test-XXXXXX");
    if (!mkdtemp(dir)) return NULL;
  }
  snprintf(buf, sizeof buf, "%s/%s", dir, name);
  return buf;
}

/* The file's bytes (malloc'ed, *len 0 when unreadable). */
static unsigned char *file_bytes(const char *path, size_t *len) {
  unsigned char *buf = calloc(1, 1 << 20);
  FILE *f = fopen(path, "rb");
  *len = f && buf ? fread(buf, 1, 1 << 20, f) : 0;
  if (f) fclose(f);
  return buf;
}

static int put_file(const char *path, const void *bytes, size_t len) {
  FILE *f = fopen(path, "wb");
  int ok = f && fwrite(bytes, 1, len, f) == len;
  if (f) ok = fclose(f) == 0 && ok;
  return ok;
}

static void put16(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint32_t v) {
  put16(p, v & 0xffff);
  put16(p + 2, v >> 16);
}

/* A one-member archive "a.npy" of the packed bytes (method 0 or 8) of
 * plain[0..plain_len), its directory stating usize; *len its length. */
static unsigned char *one_member(int method, const void *packed, size_t packed_len,
                                 const void *plain, size_t plain_len,
                                 uint32_t usize, size_t *len) {
  unsigned char *z = calloc(1, 30 + 5 + packed_len + 46 + 5 + 22);
  const uint32_t crc = (uint32_t)crc32(0, plain, (uInt)plain_len);
  unsigned char *p = z;
  for (int central = 0; central < 2; central++) {
    const size_t h = central ? 46 : 30;
    unsigned char *v = p + (central ? 2 : 0); /* fields after "made by" */
    put32(p, central ? 0x02014b50u : 0x04034b50u);
    put16(v + 4, 20);
    put16(v + 8, (uint32_t)method);
    put32(v + 14, crc);
    put32(v + 18, (uint32_t)packed_len);
    put32(v + 22, usize);
    put16(v + 26, 5);
    memcpy(p + h, "a.npy", 5);
    p += h + 5;
    if (!central) {
      memcpy(p, packed, packed_len);
      p += packed_len;
    }
  }
  const uint32_t dir_at = (uint32_t)(30 + 5 + packed_len);
  put32(p, 0x06054b50u);
  put16(p + 8, 1);
  put16(p + 10, 1);
  put32(p + 12, 46 + 5);
  put32(p + 16, dir_at);
  *len = (size_t)(p + 22 - z);
  return z;
}

/* The .npy bytes of t. */
static unsigned char *npy_of(const bcast_tensor *t, size_t *len) {
  const char *path = npz_path("t.npy");
  bcast_diag diag;
  if (bcast_npy_write(path, t, NULL, &diag) != BCAST_OK) return NULL;
  unsigned char *b = file_bytes(path, len);
  unlink(path);
  return b;
}

TEST(npz_duplicate_name_reads_the_last_copy) {
  bcast_diag diag;
  bcast_tensor x[2], y;
  int32_t first[2] = {1, 2}, last[2] = {3, 4};
  int64_t shape[1] = {2};
  CHECK_INT(bcast_tensor_wrap(&x[0], BCAST_INT32, 1, shape, NULL, first, &diag), BCAST_OK);
  CHECK_INT(bcast_tensor_wrap(&x[1], BCAST_INT32, 1, shape, NULL, last, &diag), BCAST_OK);
  const char *names[2] = {"a", "a"};
  const char *path = npz_path("dup.npz");
  CHECK_INT(bcast_npz_write(path, 2, names, x, NULL, &diag), BCAST_OK);
  /* numpy.load's dict of names keeps the last entry of a name. */
  CHECK_INT(bcast_npz_read(path, "a", &y, NULL, 1 << 20, &diag), BCAST_OK);
  CHECK(y.data && memcmp(y.data, last, sizeof last) == 0);
  bcast_tensor_release(&y);
  unlink(path);
}

TEST(npz_update_keeps_the_other_members) {
  bcast_diag diag;
  bcast_tensor x[3], y;
  int32_t a[2] = {1, 2}, b[3] = {3, 4, 5}, c[1] = {6};
  int64_t s2[1] = {2}, s3[1] = {3}, s1[1] = {1};
  CHECK_INT(bcast_tensor_wrap(&x[0], BCAST_INT32, 1, s2, NULL, a, &diag), BCAST_OK);
  CHECK_INT(bcast_tensor_wrap(&x[1], BCAST_INT32, 1, s3, NULL, b, &diag), BCAST_OK);
  CHECK_INT(bcast_tensor_wrap(&x[2], BCAST_INT32, 1, s1, NULL, c, &diag), BCAST_OK);
  const char *names[3] = {"a", "b", "c"};
  const char *path = npz_path("up.npz");
  CHECK_INT(bcast_npz_write(path, 2, names, x, NULL, &diag), BCAST_OK);
  size_t len0, len1;
  unsigned char *before = file_bytes(path, &len0);
  /* c is added at the end: a and b stay byte for byte where they were. */
  CHECK_INT(bcast_npz_update(path, 1, names + 2, x + 2, NULL, &diag), BCAST_OK);
  unsigned char *after = file_bytes(path, &len1);
  const size_t members = 2 * (30 + 5) + 128 + 8 + 128 + 12; /* a and b */
  CHECK(len1 > len0 && memcmp(before, after, members) == 0);
  CHECK_INT(bcast_npz_read(path, "a", &y, NULL, 1 << 20, &diag), BCAST_OK);
  CHECK(y.shape[0] == 2 && memcmp(y.data, a, sizeof a) == 0);
  bcast_tensor_release(&y);
  CHECK_INT(bcast_npz_read(path, "c", &y, NULL, 1 << 20, &diag), BCAST_OK);
  CHECK(y.shape[0] == 1 && memcmp(y.data, c, sizeof c) == 0);
  bcast_tensor_release(&y);
  /* a again replaces a, in its place; b and c stay. */
  CHECK_INT(bcast_npz_update(path, 1, names + 1, x + 1, NULL, &diag), BCAST_OK);
  CHECK_INT(bcast_npz_update(path, 1, names, x + 1, NULL, &diag), BCAST_OK);
  CHECK_INT(bcast_npz_read(path, "a", &y, NULL, 1 << 20, &diag), BCAST_OK);
  CHECK(y.shape[0] == 3 && memcmp(y.data, b, sizeof b) == 0);
  bcast_tensor_release(&y);
  CHECK_INT(bcast_npz_read(path, "c", &y, NULL, 1 << 20, &diag), BCAST_OK);
  CHECK(y.shape[0] == 1 && memcmp(y.data, c, sizeof c) == 0);
  bcast_tensor_release(&y);
  CHECK_INT(bcast_npz_read(path, NULL, &y, NULL, 1 << 20, &diag), BCAST_IO);
  CHECK_CONTAINS(diag.message, "'a', 'b', 'c'");
  free(before);
  free(after);
  /* A file that is not an archive is refused and left as it was. */
  CHECK(put_file(path, "not a zip file", 14));
  CHECK_INT(bcast_npz_update(path, 1, names, x, NULL, &diag), BCAST_PARSE);
  CHECK_CONTAINS(diag.message, path);
  after = file_bytes(path, &len1);
  CHECK(len1 == 14 && memcmp(after, "not a zip file", 14) == 0);
  free(after);
  /* An empty file is a new archive. */
  CHECK(put_file(path, "", 0));
  CHECK_INT(bcast_npz_update(path, 1, names, x, NULL, &diag), BCAST_OK);
  CHECK_INT(bcast_npz_read(path, NULL, &y, NULL, 1 << 20, &diag), BCAST_OK);
  bcast_tensor_release(&y);
  unlink(path);
}

TEST(npz_deflated_member_within_the_budget_whatever_its_stated_size) {
  bcast_diag diag;
  bcast_tensor x, y;
  static float v[1000];
  int64_t shape[1] = {1000};
  for (int i = 0; i < 1000; i++) v[i] = (float)(i % 7);
  CHECK_INT(bcast_tensor_wrap(&x, BCAST_FLOAT32, 1, shape, NULL, v, &diag), BCAST_OK);
  size_t plain_len = 0, len = 0;
  unsigned char *plain = npy_of(&x, &plain_len);
  CHECK(plain && plain_len == 128 + sizeof v);
  if (!plain) return;
  /* Raw deflate, as zip members hold it. */
  unsigned char packed[8192];
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  CHECK_INT(deflateInit2(&zs, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY), Z_OK);
  zs.next_in = plain;
  zs.avail_in = (uInt)plain_len;
  zs.next_out = packed;
  zs.avail_out = sizeof packed;
  CHECK_INT(deflate(&zs, Z_FINISH), Z_STREAM_END);
  const size_t packed_len = sizeof packed - zs.avail_out;
  deflateEnd(&zs);
  const char *path = npz_path("deflated.npz");
  /* The directory states 4 GiB - 2 uncompressed bytes: the member ends
   * with its deflate stream (as zipfile reads it), and only the array's
   * 4000 bytes count against the budget. */
  const uint32_t stated[2] = {(uint32_t)plain_len, 0xfffffffeu};
  for (int k = 0; k < 2; k++) {
    unsigned char *z = one_member(8, packed, packed_len, plain, plain_len,
                                  stated[k], &len);
    CHECK(put_file(path, z, len));
    free(z);
    CHECK_INT(bcast_npz_read(path, "a", &y, NULL, 4000, &diag), BCAST_OK);
    CHECK(y.shape[0] == 1000 && y.data && memcmp(y.data, v, sizeof v) == 0);
    bcast_tensor_release(&y);
    CHECK_INT(bcast_npz_read(path, "a", &y, NULL, 3999, &diag), BCAST_BUDGET);
  }
  free(plain);
  unlink(path);
}

/* Bits of a deflate stream: fields least bit first, Huffman codes most
 * bit first. */
typedef struct bit_writer {
  unsigned char *out;
  size_t bits;
} bit_writer;

static void put_bits(bit_writer *w, uint32_t value, int n, int code) {
  for (int i = 0; i < n; i++, w->bits++) {
    const uint32_t bit = code ? value >> (n - 1 - i) & 1 : value >> i & 1;
    w->out[w->bits / 8] |= (unsigned char)(bit << (w->bits % 8));
  }
}

TEST(npz_incomplete_huffman_code_is_refused) {
  bcast_diag diag;
  bcast_tensor x, y;
  int32_t v[4] = {1, 2, 3, 4};
  int64_t shape[1] = {4};
  CHECK_INT(bcast_tensor_wrap(&x, BCAST_INT32, 1, shape, NULL, v, &diag), BCAST_OK);
  size_t plain_len = 0, len = 0;
  unsigned char *plain = npy_of(&x, &plain_len);
  if (!plain) return;
  /* One dynamic block whose 257 literal/length codes all have 9 bits:
   * half the code space unused, an incomplete code zlib refuses (RFC 1951
   * allows one only for a lone distance code); bcast's own inflater
   * decoded it. */
  unsigned char *packed = calloc(1, 64 + 2 * plain_len);
  bit_writer w = {packed, 0};
  put_bits(&w, 1, 1, 0);  /* BFINAL */
  put_bits(&w, 2, 2, 0);  /* dynamic codes */
  put_bits(&w, 0, 5, 0);  /* 257 literal/length codes */
  put_bits(&w, 0, 5, 0);  /* 1 distance code */
  put_bits(&w, 3, 4, 0);  /* 7 code length codes: 16 17 18 0 8 7 9 */
  const uint32_t code_lengths[7] = {0, 0, 0, 1, 0, 0, 1};
  for (int i = 0; i < 7; i++) put_bits(&w, code_lengths[i], 3, 0);
  for (int i = 0; i < 257; i++) put_bits(&w, 1, 1, 1); /* length 9 */
  put_bits(&w, 0, 1, 1);                               /* length 0 */
  for (size_t i = 0; i < plain_len; i++) put_bits(&w, plain[i], 9, 1);
  put_bits(&w, 256, 9, 1);                             /* end of block */
  unsigned char *z = one_member(8, packed, (w.bits + 7) / 8, plain, plain_len,
                                (uint32_t)plain_len, &len);
  const char *path = npz_path("huffman.npz");
  CHECK(put_file(path, z, len));
  CHECK_INT(bcast_npz_read(path, "a", &y, NULL, 1 << 20, &diag), BCAST_PARSE);
  CHECK_CONTAINS(diag.message, "invalid literal/lengths set");
  CHECK_CONTAINS(diag.message, path);
  free(z);
  free(packed);
  free(plain);
  unlink(path);
}
