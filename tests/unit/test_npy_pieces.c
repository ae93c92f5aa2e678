/* .npy in pieces: bcast_npy_header followed by the data is byte for byte
 * what bcast_npy_write_stream writes, and bcast_npy_map views a file's
 * data in place (or refuses what cannot be used in place). */
#include <stdlib.h>
#include <unistd.h>

#include "bcast/bcast.h"
#include "test.h"

typedef struct membuf {
  unsigned char *p;
  size_t len, cap;
} membuf;

static bcast_status mem_write(void *ctx, const void *bytes, size_t len) {
  membuf *m = ctx;
  if (m->len + len > m->cap) {
    m->cap = (m->len + len) * 2;
    m->p = realloc(m->p, m->cap);
  }
  memcpy(m->p + m->len, bytes, len);
  m->len += len;
  return BCAST_OK;
}

TEST(npy_header_then_data_equals_the_whole_write) {
  uint64_t rng = test_seed();
  static const bcast_dtype types[] = {
      BCAST_BOOL,    BCAST_INT8,     BCAST_UINT16,  BCAST_INT32,
      BCAST_FLOAT16, BCAST_BFLOAT16, BCAST_FLOAT32, BCAST_FLOAT64};
  for (int iter = 0; iter < 200; iter++) {
    bcast_dtype dt = types[test_rand_range(&rng, 0, 7)];
    int32_t rank = (int32_t)test_rand_range(&rng, 0, 4);
    int64_t shape[4];
    for (int32_t d = 0; d < rank; d++) shape[d] = test_rand_range(&rng, 0, 5);
    bcast_tensor x;
    bcast_diag diag;
    CHECK_INT(bcast_tensor_alloc(&x, dt, rank, shape, 1 << 20, &diag),
              BCAST_OK);
    int64_t n;
    bcast_tensor_elem_count(&x, &n, NULL);
    size_t bytes = (size_t)n * bcast_dtype_size(dt);
    for (size_t i = 0; i < bytes; i++)
      ((unsigned char *)x.data)[i] = (unsigned char)test_rand(&rng);
    if (dt == BCAST_BOOL)
      for (size_t i = 0; i < bytes; i++) ((unsigned char *)x.data)[i] &= 1;
    bcast_npy_write_opts opts = {0, 0, 0, 0};
    membuf whole = {0}, pieces = {0};
    CHECK_INT(bcast_npy_write_stream(mem_write, &whole, "t", &x, &opts, &diag),
              BCAST_OK);
    unsigned char head[BCAST_NPY_HEADER_MAX];
    size_t len = 0;
    CHECK_INT(bcast_npy_header(&x, &opts, head, sizeof head, &len, &diag),
              BCAST_OK);
    CHECK_INT(len % 64, 0);
    mem_write(&pieces, head, len);
    mem_write(&pieces, x.data, bytes);
    CHECK_INT(pieces.len, whole.len);
    CHECK(pieces.len == whole.len &&
          memcmp(pieces.p, whole.p, whole.len) == 0);
    free(whole.p);
    free(pieces.p);
    bcast_tensor_release(&x);
  }
  /* A buffer too small, and strings, are refused. */
  bcast_tensor s;
  int64_t three[] = {3};
  bcast_diag diag;
  bcast_tensor_alloc(&s, BCAST_FLOAT32, 1, three, 64, NULL);
  unsigned char small[32];
  size_t len;
  CHECK_INT(bcast_npy_header(&s, NULL, small, sizeof small, &len, &diag),
            BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(diag.message, "the header needs 128 bytes");
  bcast_tensor_release(&s);
}

static void temp_path(char *buf, size_t size) {
  const char *dir = getenv("TMPDIR");
  snprintf(buf, size, "%s/bcast-map-XXXXXX", dir && *dir ? dir : "/tmp");
  int fd = mkstemp(buf);
  if (fd >= 0) close(fd);
}

TEST(npy_map_views_the_file_in_place) {
  char path[256];
  temp_path(path, sizeof path);
  int64_t shape[] = {3, 5};
  bcast_tensor x, m, r;
  bcast_diag diag;
  bcast_tensor_alloc(&x, BCAST_FLOAT32, 2, shape, 1 << 20, NULL);
  for (int i = 0; i < 15; i++) ((float *)x.data)[i] = (float)i * 1.5f;
  /* Fortran order maps as Fortran strides. */
  bcast_npy_write_opts fortran = {0, 0, 1, 0};
  CHECK_INT(bcast_npy_write(path, &x, &fortran, &diag), BCAST_OK);
  bcast_npy_info info;
  CHECK_INT(bcast_npy_map(path, &m, &info, &diag), BCAST_OK);
  CHECK_INT(bcast_npy_read(path, &r, NULL, 1 << 20, &diag), BCAST_OK);
  CHECK_INT(info.fortran_order, 1);
  CHECK_INT(m.stride_bytes[0], 4);
  CHECK_INT(m.stride_bytes[1], 12);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 5; j++) {
      float a = *(float *)((char *)m.data + i * m.stride_bytes[0] +
                           j * m.stride_bytes[1]);
      float b = *(float *)((char *)r.data + i * r.stride_bytes[0] +
                           j * r.stride_bytes[1]);
      CHECK(a == b && a == (float)(i * 5 + j) * 1.5f);
    }
  /* The mapping outlives the file's name. */
  unlink(path);
  CHECK(*(float *)((char *)m.data + 2 * m.stride_bytes[0] +
                   4 * m.stride_bytes[1]) == 14 * 1.5f);
  bcast_tensor_release(&m);
  bcast_tensor_release(&r);

  /* Big-endian data is refused, naming the descr; reading still works. */
  bcast_npy_write_opts big = {0, 0, 0, 1};
  CHECK_INT(bcast_npy_write(path, &x, &big, &diag), BCAST_OK);
  CHECK_INT(bcast_npy_map(path, &m, NULL, &diag), BCAST_UNSUPPORTED);
  CHECK_CONTAINS(diag.message, ">f4 data cannot be used in place");
  CHECK(m.data == NULL && m.owner == NULL);
  /* A truncated file is refused as when reading. */
  CHECK_INT(bcast_npy_write(path, &x, NULL, &diag), BCAST_OK);
  CHECK_INT(truncate(path, 128 + 10), 0);
  CHECK_INT(bcast_npy_map(path, &m, NULL, &diag), BCAST_PARSE);
  CHECK_CONTAINS(diag.message, "but the file has 10 data bytes");
  unlink(path);
  CHECK_INT(bcast_npy_map(path, &m, NULL, &diag), BCAST_IO);
  CHECK_INT(bcast_npy_map("/tmp", &m, NULL, &diag), BCAST_IO);
  CHECK_CONTAINS(diag.message, "is a directory");
  bcast_tensor_release(&x);
}
