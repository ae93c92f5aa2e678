/* .npy reading and writing: exact bytes against numpy's, every dtype and
 * byte order, Fortran order, strings, malformed files, and a fuzz loop that
 * mutates valid files and must never crash (run it under ASan).  .npz
 * archives: the member numpy.load gives for a name (the last of
 * duplicates), members added to an archive keeping the others byte for
 * byte, deflated members inflated by zlib within the budget whatever size
 * the directory states, and a deflate stream with an incomplete Huffman
 * code refused as zlib refuses it. */
#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

#include "bcast/npy.h"
#include "npy/npy_common.h"
#include "tensor/buffer.h"
#include "test.h"
#include "test_shapes.h"

/* Builds a .npy file in memory: prefix, header dict as given (padded the
 * way numpy pads), then data.  Returns the size; out must hold 4096 + n. */
static size_t make_npy(unsigned char *out, int major, const char *dict,
                       const void *data, size_t data_len) {
  size_t prefix = major == 1 ? 10 : 12;
  size_t len = strlen(dict);
  size_t hlen = len + 1;
  size_t pad = 64 - (prefix + hlen) % 64;
  size_t total = hlen + pad;
  memcpy(out, "\x93NUMPY", 6);
  out[6] = (unsigned char)major;
  out[7] = 0;
  for (size_t i = 0; i < prefix - 8; i++)
    out[8 + i] = (unsigned char)(total >> (8 * i));
  memcpy(out + prefix, dict, len);
  memset(out + prefix + len, ' ', pad);
  out[prefix + len + pad] = '\n';
  if (data_len) memcpy(out + prefix + total, data, data_len);
  return prefix + total + data_len;
}

static char tmp_dir[64];

static const char *tmp_path(const char *name) {
  static char buf[256];
  if (!tmp_dir[0]) {
    strcpy(tmp_dir, "/tmp/bcast-npy-test-XXXXXX");
    if (!mkdtemp(tmp_dir)) return NULL;
  }
  snprintf(buf, sizeof buf, "%s/%s", tmp_dir, name);
  return buf;
}

/* The file's bytes in a zeroed 1 MiB buffer (length 0 if unreadable), so
 * a missing file fails checks instead of crashing the runner. */
static unsigned char *slurp(const char *path, size_t *len) {
  unsigned char *buf = calloc(1, 1 << 20);
  *len = 0;
  FILE *f = fopen(path, "rb");
  if (!f || !buf) {
    if (f) fclose(f);
    return buf;
  }
  *len = fread(buf, 1, 1 << 20, f);
  fclose(f);
  return buf;
}

/* Writes x to path with opts, which must succeed, and returns the file's
 * bytes as slurp() does; a failure names the caller's line. */
static unsigned char *write_slurp(test_ctx *t, int line, const char *path,
                                  const bcast_tensor *x,
                                  const bcast_npy_write_opts *opts,
                                  size_t *len) {
  bcast_diag diag;
  bcast_status st = bcast_npy_write(path, x, opts, &diag);
  if (st != BCAST_OK)
    test_fail(t, __FILE__, line, "bcast_npy_write: status %d (%s)", (int)st,
              diag.message);
  return slurp(path, len);
}
#define WRITE_SLURP(path, x, opts, len)                                       \
  write_slurp(t, __LINE__, path, x, opts, len)

/* Counts directory entries other than . and .. (to spot leftover temps). */
static int dir_entries(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
  closedir(d);
  return n;
}

TEST(npy_shape_text) {
  int64_t dims[3] = {3, 4, 0};
  CHECK_DIMS_TEXT(0, dims, BCAST_SHAPE_STYLE_NUMPY, "()");
  CHECK_DIMS_TEXT(1, dims, BCAST_SHAPE_STYLE_NUMPY, "(3,)");
  CHECK_DIMS_TEXT(3, dims, BCAST_SHAPE_STYLE_NUMPY, "(3, 4, 0)");
}

/* numpy.save(np.arange(12, dtype='<f4').reshape(3, 4)) header, verbatim. */
TEST(npy_write_matches_numpy_header) {
  float data[12];
  for (int i = 0; i < 12; i++) data[i] = (float)i;
  bcast_tensor x;
  int64_t shape[2] = {3, 4};
  bcast_diag diag;
  CHECK_INT(bcast_tensor_wrap(&x, BCAST_FLOAT32, 2, shape, NULL, data, &diag),
            BCAST_OK);
  const char *path = tmp_path("a.npy");
  size_t len = 0;
  unsigned char *bytes = WRITE_SLURP(path, &x, NULL, &len);
  CHECK(bytes != NULL);
  if (!bytes) return;
  CHECK_INT(len, 128 + 48);
  const char *want =
      "\x93NUMPY\x01\x00v\x00{'descr': '<f4', 'fortran_order': False, "
      "'shape': (3, 4), }";
  size_t want_len = 10 + strlen(want + 10); /* the prefix holds a NUL */
  CHECK(memcmp(bytes, want, want_len) == 0);
  for (size_t i = want_len; i < 127; i++) CHECK_INT(bytes[i], ' ');
  CHECK_INT(bytes[127], '\n');
  CHECK(memcmp(bytes + 128, data, 48) == 0);

  /* Read back. */
  bcast_tensor r;
  bcast_npy_info info;
  CHECK_INT(bcast_npy_read(path, &r, &info, BCAST_DEFAULT_MAX_BYTES, &diag),
            BCAST_OK);
  CHECK_INT(r.dtype, BCAST_FLOAT32);
  CHECK_INT(r.rank, 2);
  CHECK_INT(r.shape[0], 3);
  CHECK_INT(r.shape[1], 4);
  CHECK_INT(r.stride_bytes[0], 16);
  CHECK_INT(info.version_major, 1);
  CHECK_STR(info.descr, "<f4");
  CHECK(memcmp(r.data, data, 48) == 0);
  bcast_tensor_release(&r);

  /* Fortran order: numpy writes the transpose's bytes and True. */
  bcast_npy_write_opts opts = {0, 0, 1, 0};
  free(bytes);
  bytes = WRITE_SLURP(path, &x, &opts, &len);
  const char *want_f =
      "{'descr': '<f4', 'fortran_order': True, 'shape': (3, 4), }";
  CHECK(memcmp(bytes + 10, want_f, strlen(want_f)) == 0);
  CHECK_INT(((float *)(void *)(bytes + 128))[1], 4);
  CHECK_INT(bcast_npy_read(path, &r, &info, BCAST_DEFAULT_MAX_BYTES, &diag),
            BCAST_OK);
  CHECK_INT(info.fortran_order, 1);
  CHECK_INT(r.stride_bytes[0], 4);
  CHECK_INT(r.stride_bytes[1], 12);
  CHECK(((float *)r.data)[2 + 3 * 1] == 9.0f); /* element [2][1] */
  bcast_tensor_release(&r);
  free(bytes);
  unlink(path);
}

TEST(npy_read_every_dtype_and_byte_order) {
  static const struct {
    const char *descr;
    bcast_dtype dtype;
    size_t size;
  } cases[] = {
      {"|b1", BCAST_BOOL, 1},    {"?", BCAST_BOOL, 1},
      {"|i1", BCAST_INT8, 1},    {"<i2", BCAST_INT16, 2},
      {">i2", BCAST_INT16, 2},   {"<i4", BCAST_INT32, 4},
      {">i4", BCAST_INT32, 4},   {"=i8", BCAST_INT64, 8},
      {">i8", BCAST_INT64, 8},   {"|u1", BCAST_UINT8, 1},
      {">u2", BCAST_UINT16, 2},  {"<u4", BCAST_UINT32, 4},
      {">u8", BCAST_UINT64, 8},  {"<f2", BCAST_FLOAT16, 2},
      {">f2", BCAST_FLOAT16, 2}, {">f4", BCAST_FLOAT32, 4},
      {"f8", BCAST_FLOAT64, 8},  {">f8", BCAST_FLOAT64, 8},
  };
  unsigned char file[8192];
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    unsigned char data[3 * 8];
    for (size_t i = 0; i < sizeof data; i++) data[i] = (unsigned char)(i + 1);
    char dict[128];
    snprintf(dict, sizeof dict,
             "{'descr': '%s', 'fortran_order': False, 'shape': (3,), }",
             cases[c].descr);
    for (int major = 1; major <= 3; major++) {
      size_t n = make_npy(file, major, dict, data, 3 * cases[c].size);
      bcast_tensor x;
      bcast_npy_info info;
      bcast_diag diag;
      bcast_status st =
          bcast_npy_read_mem(file, n, "x.npy", &x, &info, 1 << 20, &diag);
      if (st) {
        test_fail(t, __FILE__, __LINE__, "%s: %s", cases[c].descr,
                  diag.message);
        continue;
      }
      CHECK_INT(x.dtype, cases[c].dtype);
      CHECK_INT(info.version_major, major);
      int big = cases[c].descr[0] == '>';
      CHECK_INT(info.big_endian, big);
      const unsigned char *got = x.data;
      for (size_t e = 0; e < 3; e++)
        for (size_t b = 0; b < cases[c].size; b++) {
          size_t src = big ? cases[c].size - 1 - b : b;
          CHECK_INT(got[e * cases[c].size + b], data[e * cases[c].size + src]);
        }
      bcast_tensor_release(&x);
    }
  }
}

static bcast_status read_dict(const char *dict, const void *data,
                              size_t data_len, bcast_tensor *x,
                              bcast_npy_info *info, bcast_diag *diag) {
  static unsigned char file[1 << 16];
  size_t n = make_npy(file, 1, dict, data, data_len);
  return bcast_npy_read_mem(file, n, "x.npy", x, info, 1 << 20, diag);
}

TEST(npy_read_strings) {
  bcast_tensor x;
  bcast_npy_info info;
  bcast_diag diag;
  /* |S3: trailing NULs dropped, embedded ones kept. */
  const char sdata[] = "ab\0a\0b\0\0\0xyz";
  CHECK_INT(
      read_dict("{'descr': '|S3', 'fortran_order': False, 'shape': (4,), }",
                sdata, 12, &x, &info, &diag),
      BCAST_OK);
  CHECK_INT(x.dtype, BCAST_STRING);
  CHECK_INT(info.string_kind, 'S');
  CHECK_INT(info.string_width, 3);
  const bcast_string *s = x.data;
  CHECK_INT(s[0].len, 2);
  CHECK(memcmp(s[0].ptr, "ab", 2) == 0);
  CHECK_INT(s[1].len, 3);
  CHECK(memcmp(s[1].ptr, "a\0b", 3) == 0);
  CHECK_INT(s[2].len, 0);
  CHECK_INT(s[3].len, 3);
  bcast_tensor_release(&x);

  /* <U2 and >U2: UCS4 to UTF-8. */
  uint32_t le[4] = {0x41, 0xe9, 0x1f600, 0};
  CHECK_INT(
      read_dict("{'descr': '<U2', 'fortran_order': False, 'shape': (2,), }",
                le, 16, &x, &info, &diag),
      BCAST_OK);
  s = x.data;
  CHECK_INT(s[0].len, 3);
  CHECK(memcmp(s[0].ptr, "A\xc3\xa9", 3) == 0);
  CHECK_INT(s[1].len, 4);
  CHECK(memcmp(s[1].ptr, "\xf0\x9f\x98\x80", 4) == 0);
  bcast_tensor_release(&x);
  unsigned char be[8] = {0, 0, 0, 0x41, 0, 0, 0, 0};
  CHECK_INT(
      read_dict("{'descr': '>U2', 'fortran_order': False, 'shape': (1,), }",
                be, 8, &x, &info, &diag),
      BCAST_OK);
  s = x.data;
  CHECK_INT(s[0].len, 1);
  CHECK_INT(s[0].ptr[0], 'A');
  bcast_tensor_release(&x);

  /* Invalid code points. */
  uint32_t bad[2] = {0x110000, 0xd800};
  CHECK_INT(
      read_dict("{'descr': '<U1', 'fortran_order': False, 'shape': (2,), }",
                bad, 8, &x, &info, &diag),
      BCAST_PARSE);
  CHECK_CONTAINS(diag.message, "x.npy: element 0 holds code point 0x110000");
  CHECK_INT(
      read_dict("{'descr': '<U1', 'fortran_order': False, 'shape': (1,), }",
                bad + 1, 4, &x, &info, &diag),
      BCAST_PARSE);

  /* Width 0 and size 0. */
  CHECK_INT(
      read_dict("{'descr': '|S0', 'fortran_order': False, 'shape': (5,), }",
                NULL, 0, &x, &info, &diag),
      BCAST_OK);
  CHECK_INT(((const bcast_string *)x.data)[4].len, 0);
  bcast_tensor_release(&x);
  CHECK_INT(
      read_dict("{'descr': '<U7', 'fortran_order': True, 'shape': (0, 3), }",
                NULL, 0, &x, &info, &diag),
      BCAST_OK);
  CHECK_INT(x.shape[0], 0);
  bcast_tensor_release(&x);
  /* A huge count of zero-width strings is refused by the budget. */
  CHECK_INT(read_dict("{'descr': '|S0', 'fortran_order': False, 'shape': "
                      "(1000000000000,), }",
                      NULL, 0, &x, &info, &diag),
            BCAST_BUDGET);
}

TEST(npy_write_strings) {
  bcast_string elems[3] = {{"ab", 2}, {"\xc3\xa9", 2}, {"", 0}};
  bcast_tensor x;
  int64_t shape[1] = {3};
  bcast_diag diag;
  CHECK_INT(bcast_tensor_wrap(&x, BCAST_STRING, 1, shape, NULL, elems, &diag),
            BCAST_OK);
  const char *path = tmp_path("s.npy");
  size_t len = 0;
  unsigned char *bytes = WRITE_SLURP(path, &x, NULL, &len);
  CHECK(memcmp(bytes + 10, "{'descr': '<U2',", 16) == 0);
  CHECK_INT(len, 128 + 3 * 8);
  CHECK_INT(bytes[128 + 8], 0xe9);
  free(bytes);
  bcast_npy_write_opts opts = {'S', 0, 0, 0};
  bytes = WRITE_SLURP(path, &x, &opts, &len);
  CHECK(memcmp(bytes + 10, "{'descr': '|S2',", 16) == 0);
  CHECK_INT(len, 128 + 6);
  free(bytes);
  opts.string_width = 1;
  CHECK_INT(bcast_npy_write(path, &x, &opts, &diag), BCAST_INVALID_ARGUMENT);
  /* All empty: numpy writes width 1, never 0. */
  int64_t one[1] = {1};
  CHECK_INT(
      bcast_tensor_wrap(&x, BCAST_STRING, 1, one, NULL, elems + 2, &diag),
      BCAST_OK);
  bytes = WRITE_SLURP(path, &x, NULL, &len);
  CHECK(memcmp(bytes + 10, "{'descr': '<U1',", 16) == 0);
  free(bytes);
  /* Invalid UTF-8 cannot become U, and the old file stays as it was. */
  bcast_string bad[1] = {{"\xff", 1}};
  CHECK_INT(bcast_tensor_wrap(&x, BCAST_STRING, 1, one, NULL, bad, &diag),
            BCAST_OK);
  CHECK_INT(bcast_npy_write(path, &x, NULL, &diag), BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(diag.message, "not valid UTF-8");
  bytes = slurp(path, &len);
  CHECK(memcmp(bytes + 10, "{'descr': '<U1',", 16) == 0);
  free(bytes);
  CHECK_INT(dir_entries(tmp_dir), 1);
  unlink(path);
}

TEST(npy_write_errors_leave_nothing) {
  float v = 1;
  bcast_tensor x;
  bcast_diag diag;
  tmp_path("unused");
  CHECK_INT(bcast_tensor_wrap(&x, BCAST_FLOAT32, 0, NULL, NULL, &v, &diag),
            BCAST_OK);
  CHECK_INT(bcast_npy_write("/nonexistent-dir/x.npy", &x, NULL, &diag),
            BCAST_IO);
  CHECK_CONTAINS(diag.message, "/nonexistent-dir/x.npy");
  /* A directory as the target: rename fails, the temp is removed. */
  CHECK_INT(bcast_npy_write(tmp_dir, &x, NULL, &diag), BCAST_IO);
  CHECK_INT(dir_entries(tmp_dir), 0);
}

TEST(npy_bfloat16_is_void2_and_reads_back) {
  /* ml_dtypes' numpy.save writes bfloat16 as '<V2'; so does bcast, and
   * reads it back as bfloat16 with the same bits. */
  bcast_diag diag;
  bcast_tensor x, y;
  int64_t shape[1] = {3};
  uint16_t b[3] = {0x3f80, 0xc049, 0x7fc0};
  CHECK_INT(bcast_tensor_wrap(&x, BCAST_BFLOAT16, 1, shape, NULL, b, &diag),
            BCAST_OK);
  size_t len;
  const char *path = tmp_path("b.npy");
  unsigned char *bytes = WRITE_SLURP(path, &x, NULL, &len);
  CHECK(memcmp(bytes + 10, "{'descr': '<V2',", 16) == 0);
  CHECK_INT(len, 128 + 6);
  CHECK_INT(bytes[128] | bytes[129] << 8, 0x3f80);
  CHECK_INT(bcast_npy_read_mem(bytes, len, "b", &y, NULL, 1 << 20, &diag),
            BCAST_OK);
  CHECK_INT(y.dtype, BCAST_BFLOAT16);
  CHECK(memcmp(y.data, b, sizeof b) == 0);
  bcast_tensor_release(&y);
  /* A big-endian void reads byte-swapped; other void widths are refused. */
  bytes[21] = '>';
  CHECK_INT(bcast_npy_read_mem(bytes, len, "b", &y, NULL, 1 << 20, &diag),
            BCAST_OK);
  CHECK_INT(((const uint16_t *)y.data)[0], 0x803f);
  bcast_tensor_release(&y);
  bytes[21] = '|';
  bytes[23] = '4';
  CHECK_INT(bcast_npy_read_mem(bytes, len, "b", &y, NULL, 1 << 20, &diag),
            BCAST_UNSUPPORTED);
  free(bytes);
  unlink(path);
}

TEST(npy_write_rank0_and_growth_padding) {
  /* Expected headers from numpy.save, checked byte for byte. */
  static const struct {
    int32_t rank;
    int64_t shape[3];
    int fortran;
    const char *dict;
  } cases[] = {
      {0, {0}, 0, "{'descr': '<f8', 'fortran_order': False, 'shape': (), }"},
      {1,
       {7},
       0,
       "{'descr': '<f8', 'fortran_order': False, 'shape': (7,), }             "
       "       "},
      {2,
       {123456, 0},
       0,
       "{'descr': '<f8', 'fortran_order': False, 'shape': (123456, 0), }      "
       "         "},
      {2,
       {2, 12345},
       1,
       "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 12345), }        "
       "        "},
  };
  double zero = 0;
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    bcast_tensor x;
    bcast_diag diag;
    int64_t strides[3] = {0, 0, 0}; /* a broadcast view of one value */
    CHECK_INT(bcast_tensor_wrap(&x, BCAST_FLOAT64, cases[c].rank,
                                cases[c].shape, strides, &zero, &diag),
              BCAST_OK);
    bcast_npy_write_opts opts = {0, 0, cases[c].fortran, 0};
    const char *path = tmp_path("g.npy");
    size_t len = 0;
    unsigned char *bytes = WRITE_SLURP(path, &x, &opts, &len);
    size_t dl = strlen(cases[c].dict);
    CHECK(memcmp(bytes + 10, cases[c].dict, dl) == 0);
    size_t header = bytes[8] | (size_t)bytes[9] << 8;
    CHECK_INT((10 + header) % 64, 0);
    CHECK_INT(header - dl, 64 - (10 + dl + 1) % 64 + 1);
    CHECK_INT(bytes[10 + header - 1], '\n');
    free(bytes);
    unlink(path);
  }
}

TEST(npy_malformed_files) {
  static const struct {
    const char *dict;
    bcast_status status;
    const char *message;
  } cases[] = {
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }",
       BCAST_PARSE,
       "x.npy: header says shape (3, 4) of <f4 = 48 bytes but the file has 40 "
       "data bytes"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (10), }",
       BCAST_PARSE, "not a tuple"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }",
       BCAST_PARSE, "negative"},
      {"{'descr': '<f4', 'fortran_order': 0, 'shape': (10,), }", BCAST_PARSE,
       "True or False"},
      {"{'descr': '<f4', 'shape': (10,), }", BCAST_PARSE,
       "missing key 'fortran_order'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (10,), 'x': 1}",
       BCAST_PARSE, "unexpected key 'x'"},
      {"{'descr': '<c8', 'fortran_order': False, 'shape': (5,), }",
       BCAST_UNSUPPORTED, "unsupported dtype '<c8'"},
      {"{'descr': '|O', 'fortran_order': False, 'shape': (10,), }",
       BCAST_UNSUPPORTED, "unsupported dtype"},
      {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (10,), }",
       BCAST_UNSUPPORTED, "structured"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (10,), } x",
       BCAST_PARSE, "after the header"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999, "
       "99999999999, 99999999999), }",
       BCAST_OVERFLOW, "2^63"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (10,)", BCAST_PARSE,
       "ends"},
      {"{'descr': '<f4, 'fortran_order': False, 'shape': (10,), }",
       BCAST_PARSE, "expected"},
  };
  unsigned char data[40] = {0};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    bcast_tensor x;
    bcast_npy_info info;
    bcast_diag diag;
    bcast_status st = read_dict(cases[c].dict, data, 40, &x, &info, &diag);
    CHECK_INT(st, cases[c].status);
    if (st == cases[c].status) CHECK_CONTAINS(diag.message, cases[c].message);
    CHECK_CONTAINS(diag.message, "x.npy");
    if (st == BCAST_OK) bcast_tensor_release(&x);
  }
  /* Prefix problems. */
  unsigned char file[256];
  size_t n = make_npy(
      file, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (10,), }",
      data, 40);
  bcast_tensor x;
  bcast_diag diag;
  CHECK_INT(bcast_npy_read_mem("PK\3\4", 4, "x.npy", &x, NULL, 1 << 20, &diag),
            BCAST_PARSE);
  CHECK_CONTAINS(diag.message, "x.npy: not a .npy file");
  CHECK_INT(bcast_npy_read_mem(file, 0, "x.npy", &x, NULL, 1 << 20, &diag),
            BCAST_PARSE);
  for (size_t cut = 1; cut < n; cut++) {
    bcast_status st =
        bcast_npy_read_mem(file, cut, "x.npy", &x, NULL, 1 << 20, &diag);
    CHECK(st != BCAST_OK);
    CHECK_CONTAINS(diag.message, "x.npy");
  }
  file[6] = 4;
  CHECK_INT(bcast_npy_read_mem(file, n, "x.npy", &x, NULL, 1 << 20, &diag),
            BCAST_UNSUPPORTED);
  CHECK_CONTAINS(diag.message, "version 4.0");
  file[6] = 1;
  CHECK_INT(bcast_npy_read_mem(file, n, "x.npy", &x, NULL, 39, &diag),
            BCAST_BUDGET);
  CHECK_INT(bcast_npy_read_mem(file, n, "x.npy", &x, NULL, 40, &diag),
            BCAST_OK);
  bcast_tensor_release(&x);
  /* Files: missing, a directory, truncated on disk. */
  CHECK_INT(bcast_npy_read(tmp_path("missing.npy"), &x, NULL, 1 << 20, &diag),
            BCAST_IO);
  CHECK_CONTAINS(diag.message, "missing.npy: cannot open");
  CHECK_INT(bcast_npy_read(tmp_dir, &x, NULL, 1 << 20, &diag), BCAST_IO);
  const char *path = tmp_path("trunc.npy");
  for (size_t cut = 0; cut <= n; cut += 7) {
    FILE *f = fopen(path, "wb");
    fwrite(file, 1, cut, f);
    fclose(f);
    bcast_status st = bcast_npy_read(path, &x, NULL, 1 << 20, &diag);
    if (cut == n) {
      CHECK_INT(st, BCAST_OK);
      bcast_tensor_release(&x);
    } else {
      CHECK(st != BCAST_OK);
      CHECK_CONTAINS(diag.message, "trunc.npy");
    }
  }
  FILE *f = fopen(path, "wb");
  fwrite(file, 1, n, f);
  fwrite("xx", 1, 2, f);
  fclose(f);
  CHECK_INT(bcast_npy_read(path, &x, NULL, 1 << 20, &diag), BCAST_PARSE);
  CHECK_CONTAINS(diag.message, "the file has 42 data bytes");
  unlink(path);
}

TEST(npy_header_variants) {
  /* Spacing, key order, double quotes, 'L' suffixes and version 2/3 are all
   * what Python's literal parser accepts. */
  static const char *const dicts[] = {
      "{\"shape\":(2,3),\"fortran_order\":False,\"descr\":\"<i2\"}",
      ("{ 'descr' : '<i2' ,\n 'fortran_order' : False , 'shape' : ( 2 , 3 , ) "
       "}"),
      "{'descr': '<i2', 'fortran_order': False, 'shape': (2L, 3L), }",
  };
  int16_t data[6] = {1, 2, 3, 4, 5, 6};
  for (size_t c = 0; c < 3; c++) {
    bcast_tensor x;
    bcast_diag diag;
    bcast_status st = read_dict(dicts[c], data, 12, &x, NULL, &diag);
    CHECK_INT(st, BCAST_OK);
    if (st) {
      test_fail(t, __FILE__, __LINE__, "%s", diag.message);
      continue;
    }
    CHECK_INT(x.rank, 2);
    CHECK_INT(x.shape[1], 3);
    CHECK_INT(((int16_t *)x.data)[5], 6);
    bcast_tensor_release(&x);
  }
}

/* Random mutations of valid files: every outcome is fine except a crash, a
 * leak or a success that disagrees with the file size. */
TEST(npy_fuzz_headers) {
  static const char *const seeds[] = {
      "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }",
      "{'descr': '>U3', 'fortran_order': True, 'shape': (2, 2), }",
      "{'descr': '|S2', 'fortran_order': False, 'shape': (), }",
      "{'descr': '<f2', 'fortran_order': False, 'shape': (0, 5), }",
  };
  static const size_t data_len[] = {48, 48, 2, 0};
  static const char alphabet[] =
      "{}()[],:' \"\n0123456789-LTrueFalsdcp<>|=?SUfiub\\\x93\xff";
  uint64_t state = test_seed() ^ 0xf022u;
  unsigned char file[4096], mutant[4096];
  unsigned char data[64];
  for (size_t i = 0; i < sizeof data; i++)
    data[i] = (unsigned char)(0x41 + i % 26);
  int ok = 0;
  for (int iter = 0; iter < 200000; iter++) {
    size_t s = (size_t)test_rand_range(&state, 0, 3);
    int major = (int)test_rand_range(&state, 1, 3);
    size_t n = make_npy(file, major, seeds[s], data, data_len[s]);
    memcpy(mutant, file, n);
    int edits = (int)test_rand_range(&state, 1, 4);
    for (int e = 0; e < edits; e++) {
      size_t pos = (size_t)test_rand_range(&state, 0, (int64_t)n - 1);
      switch (test_rand_range(&state, 0, 4)) {
      case 0:
        mutant[pos] = (unsigned char)test_rand(&state);
        break;
      case 1:
        mutant[pos] =
            (unsigned char)alphabet[test_rand(&state) % (sizeof alphabet - 1)];
        break;
      case 2:
        mutant[pos] ^= (unsigned char)(1u << (test_rand(&state) % 8));
        break;
      case 3: /* delete a byte */
        memmove(mutant + pos, mutant + pos + 1, n - pos - 1);
        n--;
        break;
      default:
        n = pos;
        break; /* truncate */
      }
      if (n == 0) break;
    }
    bcast_tensor x;
    bcast_npy_info info;
    bcast_diag diag;
    bcast_status st =
        bcast_npy_read_mem(mutant, n, "fuzz.npy", &x, &info, 1 << 16, &diag);
    if (st == BCAST_OK) {
      ok++;
      int64_t count = 0;
      CHECK_INT(bcast_tensor_elem_count(&x, &count, NULL), BCAST_OK);
      CHECK(count >= 0);
      bcast_tensor_release(&x);
    } else {
      CHECK_CONTAINS(diag.message, "fuzz.npy");
    }
  }
  CHECK(ok > 0);
}

TEST(npy_write_big_endian) {
  /* numpy saves a '>' array as '>' data; the writer can do the same. */
  uint32_t v[2] = {0x01020304u, 0x0a0b0c0du};
  bcast_tensor x;
  int64_t shape[1] = {2};
  bcast_diag diag;
  CHECK_INT(bcast_tensor_wrap(&x, BCAST_UINT32, 1, shape, NULL, v, &diag),
            BCAST_OK);
  bcast_npy_write_opts opts = {0, 0, 0, 1};
  const char *path = tmp_path("be.npy");
  size_t len = 0;
  unsigned char *bytes = WRITE_SLURP(path, &x, &opts, &len);
  CHECK(memcmp(bytes + 10, "{'descr': '>u4',", 16) == 0);
  CHECK_INT(bytes[128], 0x01);
  CHECK_INT(bytes[131], 0x04);
  free(bytes);
  bcast_tensor r;
  bcast_npy_info info;
  CHECK_INT(bcast_npy_read(path, &r, &info, 1 << 20, &diag), BCAST_OK);
  CHECK_INT(info.big_endian, 1);
  CHECK_INT(((uint32_t *)r.data)[1], 0x0a0b0c0du);
  bcast_tensor_release(&r);
  /* One-byte types stay '|' whatever the order asked for. */
  uint8_t b[1] = {7};
  CHECK_INT(bcast_tensor_wrap(&x, BCAST_UINT8, 1, shape, NULL, b, &diag),
            BCAST_OK);
  x.shape[0] = 1;
  bytes = WRITE_SLURP(path, &x, &opts, &len);
  CHECK(memcmp(bytes + 10, "{'descr': '|u1',", 16) == 0);
  free(bytes);
  unlink(path);
}

/* A reader that hands out at most `step` bytes per call, like a pipe. */
typedef struct trickle {
  const unsigned char *bytes;
  size_t len, pos, step;
} trickle;

static ptrdiff_t trickle_read(void *ctx, void *buf, size_t cap) {
  trickle *r = ctx;
  size_t n = r->len - r->pos;
  if (n > cap) n = cap;
  if (n > r->step) n = r->step;
  memcpy(buf, r->bytes + r->pos, n);
  r->pos += n;
  return (ptrdiff_t)n;
}

TEST(npy_read_stream_short_reads_and_every_truncation) {
  bcast_diag diag;
  bcast_tensor x, y;
  int64_t shape[2] = {2, 3};
  int32_t v[6] = {1, -2, 3, -4, 5, -6};
  CHECK_INT(bcast_tensor_wrap(&x, BCAST_INT32, 2, shape, NULL, v, &diag),
            BCAST_OK);
  size_t len;
  const char *path = tmp_path("s.npy");
  unsigned char *bytes = WRITE_SLURP(path, &x, NULL, &len);
  unlink(path);
  for (size_t step = 1; step <= 7; step += 3) {
    trickle r = {bytes, len, 0, step};
    CHECK_INT(
        bcast_npy_read_stream(trickle_read, &r, "s", &y, NULL, 1 << 20, &diag),
        BCAST_OK);
    CHECK(y.dtype == BCAST_INT32 && y.rank == 2 &&
          memcmp(y.data, v, sizeof v) == 0);
    bcast_tensor_release(&y);
  }
  /* Every proper prefix is refused with a message naming the stream; one
   * byte more than the data is refused too. */
  for (size_t cut = 0; cut < len; cut++) {
    trickle r = {bytes, cut, 0, 5};
    bcast_status st = bcast_npy_read_stream(trickle_read, &r, "cut", &y, NULL,
                                            1 << 20, &diag);
    CHECK(st == BCAST_PARSE);
    CHECK_CONTAINS(diag.message, "cut");
    CHECK(y.data == NULL && y.owner == NULL);
  }
  bytes[len] = 0;
  trickle r = {bytes, len + 1, 0, 64};
  CHECK_INT(bcast_npy_read_stream(trickle_read, &r, "long", &y, NULL, 1 << 20,
                                  &diag),
            BCAST_PARSE);
  CHECK_CONTAINS(diag.message, "goes on after");
  /* The budget is checked before the data are read. */
  r.len = len;
  r.pos = 0;
  CHECK_INT(bcast_npy_read_stream(trickle_read, &r, "big", &y, NULL, 8, &diag),
            BCAST_BUDGET);
  CHECK_CONTAINS(diag.message, "24 bytes");
  free(bytes);
}

TEST(npz_write_then_read_members_by_name) {
  bcast_diag diag;
  bcast_tensor x[2], y;
  int64_t s0[1] = {3}, s1[2] = {2, 2};
  double a[3] = {0.5, -1, 2};
  uint8_t b[4] = {1, 2, 3, 250};
  CHECK_INT(bcast_tensor_wrap(&x[0], BCAST_FLOAT64, 1, s0, NULL, a, &diag),
            BCAST_OK);
  CHECK_INT(bcast_tensor_wrap(&x[1], BCAST_UINT8, 2, s1, NULL, b, &diag),
            BCAST_OK);
  const char *names[2] = {"first", "second"};
  char path[256];
  snprintf(path, sizeof path, "%s", tmp_path("z.npz"));
  CHECK_INT(bcast_npz_write(path, 2, names, x, NULL, &diag), BCAST_OK);
  CHECK_INT(bcast_npz_read(path, "second", &y, NULL, 1 << 20, &diag),
            BCAST_OK);
  CHECK(y.dtype == BCAST_UINT8 && y.rank == 2 && memcmp(y.data, b, 4) == 0);
  bcast_tensor_release(&y);
  CHECK_INT(bcast_npz_read(path, "first", &y, NULL, 1 << 20, &diag), BCAST_OK);
  CHECK(y.dtype == BCAST_FLOAT64 && memcmp(y.data, a, sizeof a) == 0);
  bcast_tensor_release(&y);
  CHECK_INT(bcast_npz_read(path, "third", &y, NULL, 1 << 20, &diag), BCAST_IO);
  CHECK_CONTAINS(diag.message, "'first', 'second'");
  CHECK_INT(bcast_npz_read(path, NULL, &y, NULL, 1 << 20, &diag), BCAST_IO);
  /* Default names are numpy's arr_0, arr_1. */
  CHECK_INT(bcast_npz_write(path, 2, NULL, x, NULL, &diag), BCAST_OK);
  CHECK_INT(bcast_npz_read(path, "arr_1", &y, NULL, 1 << 20, &diag), BCAST_OK);
  bcast_tensor_release(&y);
  /* A byte changed in member data fails the CRC check. */
  size_t len;
  unsigned char *bytes = slurp(path, &len);
  for (size_t i = 0; i + 8 <= len; i++) {
    if (memcmp(bytes + i, a, 8) == 0) {
      bytes[i] ^= 1;
      break;
    }
  }
  FILE *f = fopen(path, "wb");
  CHECK(f && fwrite(bytes, 1, len, f) == len);
  if (f) fclose(f);
  free(bytes);
  CHECK_INT(bcast_npz_read(path, "arr_0", &y, NULL, 1 << 20, &diag),
            BCAST_PARSE);
  CHECK_CONTAINS(diag.message, "CRC-32");
  unlink(path);
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
static unsigned char *one_member(int method, const void *packed,
                                 size_t packed_len, const void *plain,
                                 size_t plain_len, uint32_t usize,
                                 size_t *len) {
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
static unsigned char *npy_of(test_ctx *t, int line, const bcast_tensor *x,
                             size_t *len) {
  const char *path = tmp_path("t.npy");
  unsigned char *b = write_slurp(t, line, path, x, NULL, len);
  unlink(path);
  return b;
}

/* Member key of the archive at path must read as the n int32 values
 * want; a failure names the caller's line. */
static void check_member(test_ctx *t, int line, const char *path,
                         const char *key, const int32_t *want, int64_t n) {
  bcast_diag diag;
  bcast_tensor y;
  bcast_status st = bcast_npz_read(path, key, &y, NULL, 1 << 20, &diag);
  if (st != BCAST_OK)
    test_fail(t, __FILE__, line, "bcast_npz_read %s: status %d (%s)", key,
              (int)st, diag.message);
  else if (y.dtype != BCAST_INT32 || y.rank != 1 || y.shape[0] != n ||
           memcmp(y.data, want, (size_t)n * sizeof *want) != 0)
    test_fail(t, __FILE__, line, "member %s holds other values", key);
  bcast_tensor_release(&y);
}
#define CHECK_MEMBER(path, key, want)                                         \
  check_member(t, __LINE__, path, key, want, sizeof want / sizeof *want)

TEST(npz_duplicate_name_reads_the_last_copy) {
  bcast_diag diag;
  bcast_tensor x[2];
  int32_t first[2] = {1, 2}, last[2] = {3, 4};
  int64_t shape[1] = {2};
  CHECK_INT(
      bcast_tensor_wrap(&x[0], BCAST_INT32, 1, shape, NULL, first, &diag),
      BCAST_OK);
  CHECK_INT(bcast_tensor_wrap(&x[1], BCAST_INT32, 1, shape, NULL, last, &diag),
            BCAST_OK);
  const char *names[2] = {"a", "a"};
  const char *path = tmp_path("dup.npz");
  CHECK_INT(bcast_npz_write(path, 2, names, x, NULL, &diag), BCAST_OK);
  /* numpy.load's dict of names keeps the last entry of a name. */
  CHECK_MEMBER(path, "a", last);
  unlink(path);
}

TEST(npz_update_keeps_the_other_members) {
  bcast_diag diag;
  bcast_tensor x[3], y;
  int32_t a[2] = {1, 2}, b[3] = {3, 4, 5}, c[1] = {6};
  int64_t s2[1] = {2}, s3[1] = {3}, s1[1] = {1};
  CHECK_INT(bcast_tensor_wrap(&x[0], BCAST_INT32, 1, s2, NULL, a, &diag),
            BCAST_OK);
  CHECK_INT(bcast_tensor_wrap(&x[1], BCAST_INT32, 1, s3, NULL, b, &diag),
            BCAST_OK);
  CHECK_INT(bcast_tensor_wrap(&x[2], BCAST_INT32, 1, s1, NULL, c, &diag),
            BCAST_OK);
  const char *names[3] = {"a", "b", "c"};
  const char *path = tmp_path("up.npz");
  CHECK_INT(bcast_npz_write(path, 2, names, x, NULL, &diag), BCAST_OK);
  size_t len0, len1;
  unsigned char *before = slurp(path, &len0);
  /* c is added at the end: a and b stay byte for byte where they were. */
  CHECK_INT(bcast_npz_update(path, 1, names + 2, x + 2, NULL, &diag),
            BCAST_OK);
  unsigned char *after = slurp(path, &len1);
  const size_t members = 2 * (30 + 5) + 128 + 8 + 128 + 12; /* a and b */
  CHECK(len1 > len0 && memcmp(before, after, members) == 0);
  CHECK_MEMBER(path, "a", a);
  CHECK_MEMBER(path, "b", b);
  CHECK_MEMBER(path, "c", c);
  /* a again gets b's values, in its place; b and c stay. */
  CHECK_INT(bcast_npz_update(path, 1, names, x + 1, NULL, &diag), BCAST_OK);
  CHECK_MEMBER(path, "a", b);
  CHECK_MEMBER(path, "b", b);
  CHECK_MEMBER(path, "c", c);
  CHECK_INT(bcast_npz_read(path, NULL, &y, NULL, 1 << 20, &diag), BCAST_IO);
  CHECK_CONTAINS(diag.message, "'a', 'b', 'c'");
  free(before);
  free(after);
  /* A file that is not an archive is refused and left as it was. */
  CHECK(put_file(path, "not a zip file", 14));
  CHECK_INT(bcast_npz_update(path, 1, names, x, NULL, &diag), BCAST_PARSE);
  CHECK_CONTAINS(diag.message, path);
  after = slurp(path, &len1);
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
  CHECK_INT(bcast_tensor_wrap(&x, BCAST_FLOAT32, 1, shape, NULL, v, &diag),
            BCAST_OK);
  size_t plain_len = 0, len = 0;
  unsigned char *plain = npy_of(t, __LINE__, &x, &plain_len);
  CHECK(plain && plain_len == 128 + sizeof v);
  if (!plain) return;
  /* Raw deflate, as zip members hold it. */
  unsigned char packed[8192];
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  CHECK_INT(deflateInit2(&zs, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY),
            Z_OK);
  zs.next_in = plain;
  zs.avail_in = (uInt)plain_len;
  zs.next_out = packed;
  zs.avail_out = sizeof packed;
  CHECK_INT(deflate(&zs, Z_FINISH), Z_STREAM_END);
  const size_t packed_len = sizeof packed - zs.avail_out;
  deflateEnd(&zs);
  const char *path = tmp_path("deflated.npz");
  /* The directory states 4 GiB - 2 uncompressed bytes: the member ends
   * with its deflate stream (as zipfile reads it), and only the array's
   * 4000 bytes count against the budget. */
  const uint32_t stated[2] = {(uint32_t)plain_len, 0xfffffffeu};
  for (int k = 0; k < 2; k++) {
    unsigned char *z =
        one_member(8, packed, packed_len, plain, plain_len, stated[k], &len);
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
  CHECK_INT(bcast_tensor_wrap(&x, BCAST_INT32, 1, shape, NULL, v, &diag),
            BCAST_OK);
  size_t plain_len = 0, len = 0;
  unsigned char *plain = npy_of(t, __LINE__, &x, &plain_len);
  if (!plain) return;
  /* One dynamic block whose 257 literal/length codes all have 9 bits:
   * half the code space unused, an incomplete code zlib refuses (RFC 1951
   * allows one only for a lone distance code); bcast's own inflater
   * decoded it. */
  unsigned char *packed = calloc(1, 64 + 2 * plain_len);
  bit_writer w = {packed, 0};
  put_bits(&w, 1, 1, 0); /* BFINAL */
  put_bits(&w, 2, 2, 0); /* dynamic codes */
  put_bits(&w, 0, 5, 0); /* 257 literal/length codes */
  put_bits(&w, 0, 5, 0); /* 1 distance code */
  put_bits(&w, 3, 4, 0); /* 7 code length codes: 16 17 18 0 8 7 9 */
  const uint32_t code_lengths[7] = {0, 0, 0, 1, 0, 0, 1};
  for (int i = 0; i < 7; i++) put_bits(&w, code_lengths[i], 3, 0);
  for (int i = 0; i < 257; i++) put_bits(&w, 1, 1, 1); /* length 9 */
  put_bits(&w, 0, 1, 1);                               /* length 0 */
  for (size_t i = 0; i < plain_len; i++) put_bits(&w, plain[i], 9, 1);
  put_bits(&w, 256, 9, 1); /* end of block */
  unsigned char *z = one_member(8, packed, (w.bits + 7) / 8, plain, plain_len,
                                (uint32_t)plain_len, &len);
  const char *path = tmp_path("huffman.npz");
  CHECK(put_file(path, z, len));
  CHECK_INT(bcast_npz_read(path, "a", &y, NULL, 1 << 20, &diag), BCAST_PARSE);
  CHECK_CONTAINS(diag.message, "invalid literal/lengths set");
  CHECK_CONTAINS(diag.message, path);
  free(z);
  free(packed);
  free(plain);
  unlink(path);
}
