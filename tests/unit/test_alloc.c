/* The replaceable allocator: a counting allocator sees every allocation of
 * the calls that allocate and gets every block back, and failing the Nth
 * allocation for N = 1, 2, ... (SQLite's out-of-memory test) makes each
 * call return BCAST_NO_MEMORY, or succeed without an allocation it only
 * wanted for a message, never crashing or leaking a block. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bcast/bcast.h"
#include "test.h"

/* Each block carries a header with its size, so the counter knows the live
 * bytes and a block freed twice or not ours is noticed (magic). */
enum { HEADER = 32 };
#define BLOCK_MAGIC 0x62636173u

typedef struct counter {
  long calls;     /* malloc_fn and realloc_fn calls */
  long fail_at;   /* fail call number fail_at (1-based); 0: never */
  int fail_all;   /* fail every call */
  long live;      /* blocks allocated and not yet freed */
  long bad_frees; /* frees of blocks without the header */
} counter;

static int should_fail(counter *c) {
  c->calls++;
  return c->fail_all || c->calls == c->fail_at;
}

static void *count_malloc(size_t size, void *ctx) {
  counter *c = ctx;
  if (should_fail(c) || size > SIZE_MAX - HEADER) return NULL;
  unsigned char *p = malloc(size + HEADER);
  if (!p) return NULL;
  uint32_t magic = BLOCK_MAGIC;
  memcpy(p, &magic, sizeof magic);
  memcpy(p + 8, &size, sizeof size);
  c->live++;
  return p + HEADER;
}

static void *count_realloc(void *ptr, size_t size, void *ctx) {
  counter *c = ctx;
  if (should_fail(c) || size > SIZE_MAX - HEADER) return NULL;
  unsigned char *p = realloc((unsigned char *)ptr - HEADER, size + HEADER);
  if (!p) return NULL;
  memcpy(p + 8, &size, sizeof size);
  return p + HEADER;
}

static void count_free(void *ptr, void *ctx) {
  counter *c = ctx;
  unsigned char *p = (unsigned char *)ptr - HEADER;
  uint32_t magic;
  memcpy(&magic, p, sizeof magic);
  if (magic != BLOCK_MAGIC) {
    c->bad_frees++;
    return;
  }
  memset(p, 0, sizeof magic);
  c->live--;
  free(p);
}

static void use_counter(test_ctx *t, counter *c) {
  memset(c, 0, sizeof *c);
  bcast_allocator a = {count_malloc, count_realloc, count_free, c};
  CHECK_INT(bcast_set_allocator(&a), BCAST_OK);
}

/* One allocating call, run under the counter; releases what it made. */
typedef bcast_status (*alloc_case)(bcast_diag *diag);

static bcast_status case_materialize(bcast_diag *diag) {
  float src_data[3] = {1, 2, 3};
  int64_t src_shape[2] = {1, 3}, dst_shape[2] = {4, 3};
  bcast_tensor src, view, dst;
  memset(&dst, 0, sizeof dst);
  bcast_status st = bcast_tensor_wrap(&src, BCAST_FLOAT32, 2, src_shape, NULL,
                                      src_data, diag);
  if (st != BCAST_OK) return st;
  st = bcast_broadcast_to(&view, &src, 2, dst_shape, diag);
  if (st != BCAST_OK) return st;
  st = bcast_materialize(&dst, &view, BCAST_DEFAULT_MAX_BYTES, 1, diag);
  if (st == BCAST_OK && ((const float *)dst.data)[11] != 3) st = BCAST_CHECKED;
  bcast_tensor_release(&dst);
  bcast_tensor_release(&view);
  return st;
}

static bcast_status case_ew_compute(bcast_diag *diag) {
  int64_t shape_a[2] = {2, 1}, shape_b[2] = {1, 3};
  bcast_tensor in[2], out;
  memset(&out, 0, sizeof out);
  bcast_status st = bcast_tensor_alloc(&in[0], BCAST_FLOAT32, 2, shape_a,
                                       BCAST_DEFAULT_MAX_BYTES, diag);
  if (st != BCAST_OK) return st;
  st = bcast_tensor_alloc(&in[1], BCAST_FLOAT32, 2, shape_b,
                          BCAST_DEFAULT_MAX_BYTES, diag);
  if (st == BCAST_OK) {
    ((float *)in[0].data)[1] = 10;
    ((float *)in[1].data)[2] = 2;
    st = bcast_ew_compute(BCAST_OP_ADD, NULL, 2, in, &out, NULL, diag);
  }
  if (st == BCAST_OK && ((const float *)out.data)[5] != 12) st = BCAST_CHECKED;
  bcast_tensor_release(&out);
  bcast_tensor_release(&in[1]);
  bcast_tensor_release(&in[0]);
  return st;
}

/* A sink that keeps only the length: the output is the emitter's. */
static bcast_status count_write(void *ctx, const char *data, size_t len) {
  (void)data;
  *(size_t *)ctx += len;
  return BCAST_OK;
}

static bcast_status case_lower(bcast_diag *diag) {
  static const char *text =
      "func.func @f(%a: tensor<?x3xf32>, %b: tensor<3xf32>) -> "
      "tensor<?x3xf32> {\n"
      "  %0 = tosa.add %a, %b : (tensor<?x3xf32>, tensor<3xf32>) -> "
      "tensor<?x3xf32>\n"
      "  %1 = tosa.exp %0 : (tensor<?x3xf32>) -> tensor<?x3xf32>\n"
      "  return %1 : tensor<?x3xf32>\n}\n";
  bcast_emit_options o;
  bcast_emit_options_init(&o);
  static const bcast_mlir_op_profile numpy_rule = {"tosa.*", 6,
                                                   BCAST_PROFILE_NUMPY};
  o.rules = &numpy_rule;
  o.n_rules = 1;
  size_t written = 0;
  bcast_status st = bcast_emit_lower_module(text, strlen(text), &o,
                                            count_write, &written, NULL, diag);
  if (st == BCAST_OK && written == 0) st = BCAST_CHECKED;
  return st;
}

/* Two float32 inputs (2,1) and (1,3) with a[1] = 10 and b[2] = 2, or the
 * first failure. */
static bcast_status alloc_pair(bcast_tensor in[2], bcast_dtype b_type,
                               bcast_diag *diag) {
  int64_t shape_a[2] = {2, 1}, shape_b[2] = {1, 3};
  memset(in, 0, 2 * sizeof *in);
  bcast_status st = bcast_tensor_alloc(&in[0], BCAST_FLOAT32, 2, shape_a,
                                       BCAST_DEFAULT_MAX_BYTES, diag);
  if (st == BCAST_OK)
    st = bcast_tensor_alloc(&in[1], b_type, 2, shape_b,
                            BCAST_DEFAULT_MAX_BYTES, diag);
  if (st == BCAST_OK) {
    ((float *)in[0].data)[1] = 10;
    if (b_type == BCAST_FLOAT32)
      ((float *)in[1].data)[2] = 2;
    else
      ((int64_t *)in[1].data)[2] = 2;
  }
  return st;
}

/* A plan with a new output, executed, under the numpy profile. */
static bcast_status case_ew_plan(bcast_diag *diag) {
  bcast_tensor in[2], out;
  memset(&out, 0, sizeof out);
  bcast_ew_plan *plan = NULL;
  bcast_ew_options o;
  bcast_ew_options_init(&o);
  o.profile = BCAST_PROFILE_NUMPY;
  bcast_status st = alloc_pair(in, BCAST_FLOAT32, diag);
  if (st == BCAST_OK)
    st =
        bcast_ew_plan_create(&plan, BCAST_OP_ADD, NULL, 2, in, NULL, &o, diag);
  if (st == BCAST_OK) st = bcast_ew_plan_alloc_output(plan, &out, diag);
  if (st == BCAST_OK) {
    const void *data[2] = {in[0].data, in[1].data};
    st = bcast_ew_plan_execute(plan, out.data, data, diag);
  }
  if (st == BCAST_OK && ((const float *)out.data)[5] != 12) st = BCAST_CHECKED;
  bcast_ew_plan_destroy(plan);
  bcast_tensor_release(&out);
  bcast_tensor_release(&in[1]);
  bcast_tensor_release(&in[0]);
  return st;
}

/* The numpy profile's one-call form converting an int64 input (a scratch
 * buffer): float32 + int64 is float64 in NumPy, into a caller's output. */
static bcast_status case_ew_compute_into_converting(bcast_diag *diag) {
  bcast_tensor in[2], out;
  double out_data[6] = {0};
  int64_t out_shape[2] = {2, 3};
  bcast_ew_options o;
  bcast_ew_options_init(&o);
  o.profile = BCAST_PROFILE_NUMPY;
  bcast_status st = alloc_pair(in, BCAST_INT64, diag);
  if (st == BCAST_OK)
    st = bcast_tensor_wrap(&out, BCAST_FLOAT64, 2, out_shape, NULL, out_data,
                           diag);
  if (st == BCAST_OK)
    st = bcast_ew_compute_into(BCAST_OP_ADD, NULL, 2, in, &out, &o, diag);
  if (st == BCAST_OK && out_data[5] != 12) st = BCAST_CHECKED;
  bcast_tensor_release(&in[1]);
  bcast_tensor_release(&in[0]);
  return st;
}

/* Copies of two tensors into two new ones, budgeted together: broadcast
 * against each other (ONNX Broadcast) or each at its own shape. */
static bcast_status materialize_pair(bcast_diag *diag, int broadcast) {
  bcast_tensor in[2], z[2];
  memset(z, 0, sizeof z);
  bcast_status st = alloc_pair(in, BCAST_FLOAT32, diag);
  if (st == BCAST_OK)
    st = broadcast ? bcast_broadcast_materialize(
                         2, z, in, BCAST_DEFAULT_MAX_BYTES, 1, diag)
                   : bcast_materialize_all(2, z, in, BCAST_DEFAULT_MAX_BYTES,
                                           1, diag);
  /* alloc_pair's 10 and 2, at their places in [2,3] or in [2,1], [1,3]. */
  if (st == BCAST_OK && (((const float *)z[0].data)[broadcast ? 5 : 1] != 10 ||
                         ((const float *)z[1].data)[broadcast ? 5 : 2] != 2))
    st = BCAST_CHECKED;
  for (int k = 0; k < 2; k++) {
    bcast_tensor_release(&z[k]);
    bcast_tensor_release(&in[k]);
  }
  return st;
}

static bcast_status case_broadcast_materialize(bcast_diag *diag) {
  return materialize_pair(diag, 1);
}

static bcast_status case_materialize_all(bcast_diag *diag) {
  return materialize_pair(diag, 0);
}

/* A .npy of every byte order and layout question the reader asks: written
 * to memory by the writer, read back, compared. */
typedef struct mem_sink {
  char bytes[4096];
  size_t len;
} mem_sink;

static bcast_status mem_write(void *ctx, const void *bytes, size_t len) {
  mem_sink *m = ctx;
  if (len > sizeof m->bytes - m->len) return BCAST_IO;
  memcpy(m->bytes + m->len, bytes, len);
  m->len += len;
  return BCAST_OK;
}

static bcast_status case_npy_round_trip(bcast_diag *diag) {
  bcast_tensor in[2], back;
  memset(&back, 0, sizeof back);
  static mem_sink sink;
  sink.len = 0;
  bcast_npy_write_opts w;
  memset(&w, 0, sizeof w);
  w.fortran_order = 1;
  w.big_endian = 1;
  bcast_status st = alloc_pair(in, BCAST_FLOAT32, diag);
  if (st == BCAST_OK)
    st =
        bcast_npy_write_stream(mem_write, &sink, "pair.npy", &in[1], &w, diag);
  if (st == BCAST_OK)
    st = bcast_npy_read_mem(sink.bytes, sink.len, "pair.npy", &back, NULL,
                            BCAST_DEFAULT_MAX_BYTES, diag);
  if (st == BCAST_OK && ((const float *)back.data)[2] != 2) st = BCAST_CHECKED;
  bcast_tensor_release(&back);
  bcast_tensor_release(&in[1]);
  bcast_tensor_release(&in[0]);
  return st;
}

/* The same through a file: bcast_npy_write's temporary file and rename,
 * and bcast_npy_read. */
static bcast_status case_npy_file(bcast_diag *diag) {
  char path[] = "/tmp/bcast-test-alloc-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return BCAST_IO;
  close(fd);
  bcast_tensor in[2], back;
  memset(&back, 0, sizeof back);
  bcast_status st = alloc_pair(in, BCAST_FLOAT32, diag);
  if (st == BCAST_OK) {
    st = bcast_npy_write(path, &in[0], NULL, diag);
    /* A failed write leaves the target as it was (empty). */
    struct stat info;
    if (st != BCAST_OK && (stat(path, &info) != 0 || info.st_size != 0))
      st = BCAST_CHECKED;
  }
  if (st == BCAST_OK)
    st = bcast_npy_read(path, &back, NULL, BCAST_DEFAULT_MAX_BYTES, diag);
  if (st == BCAST_OK && ((const float *)back.data)[1] != 10)
    st = BCAST_CHECKED;
  bcast_tensor_release(&back);
  bcast_tensor_release(&in[1]);
  bcast_tensor_release(&in[0]);
  unlink(path);
  return st;
}

/* An .npz of two members written and one read back, one replaced and
 * read back; then the file mapped (bcast_npy_map) after a plain .npy
 * write. */
static bcast_status case_npz_and_map(bcast_diag *diag) {
  char path[] = "/tmp/bcast-test-alloc-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return BCAST_IO;
  close(fd);
  bcast_tensor in[2], back, mapped;
  memset(&back, 0, sizeof back);
  memset(&mapped, 0, sizeof mapped);
  const char *names[2] = {"a", "b"};
  bcast_status st = alloc_pair(in, BCAST_FLOAT32, diag);
  if (st == BCAST_OK) st = bcast_npz_write(path, 2, names, in, NULL, diag);
  if (st == BCAST_OK)
    st = bcast_npz_read(path, "b", &back, NULL, BCAST_DEFAULT_MAX_BYTES, diag);
  if (st == BCAST_OK && ((const float *)back.data)[2] != 2) st = BCAST_CHECKED;
  bcast_tensor_release(&back);
  /* a replaced by b's tensor, the member b copied. */
  if (st == BCAST_OK)
    st = bcast_npz_update(path, 1, names, &in[1], NULL, diag);
  if (st == BCAST_OK)
    st = bcast_npz_read(path, "a", &back, NULL, BCAST_DEFAULT_MAX_BYTES, diag);
  if (st == BCAST_OK && ((const float *)back.data)[2] != 2) st = BCAST_CHECKED;
  if (st == BCAST_OK) st = bcast_npy_write(path, &in[0], NULL, diag);
  if (st == BCAST_OK) st = bcast_npy_map(path, &mapped, NULL, diag);
  if (st == BCAST_OK && ((const float *)mapped.data)[1] != 10)
    st = BCAST_CHECKED;
  bcast_tensor_release(&mapped);
  bcast_tensor_release(&back);
  bcast_tensor_release(&in[1]);
  bcast_tensor_release(&in[0]);
  unlink(path);
  return st;
}

/* Two durable outputs committed together, the second reserved first. */
static bcast_status case_outputs(bcast_diag *diag) {
  char dir[] = "/tmp/bcast-test-alloc-XXXXXX";
  if (!mkdtemp(dir)) return BCAST_IO;
  char a[64], b[64];
  snprintf(a, sizeof a, "%s/a", dir);
  snprintf(b, sizeof b, "%s/b", dir);
  bcast_output *o[2] = {NULL, NULL};
  bcast_status st = bcast_output_open(a, &o[0], diag);
  if (st == BCAST_OK) st = bcast_output_open(b, &o[1], diag);
  if (st == BCAST_OK) st = bcast_output_reserve(o[1], 4096, diag);
  if (st == BCAST_OK) st = bcast_output_write(o[0], "a", 1);
  if (st == BCAST_OK) st = bcast_output_write(o[1], "b", 1);
  if (st == BCAST_OK) {
    st = bcast_output_commit_all(2, o, diag);
  } else {
    bcast_output_discard(o[0]);
    bcast_output_discard(o[1]);
  }
  /* All or none, whatever failed. */
  const int have_a = access(a, F_OK) == 0, have_b = access(b, F_OK) == 0;
  if (have_a != have_b || (st == BCAST_OK) != have_a) st = BCAST_CHECKED;
  unlink(a);
  unlink(b);
  rmdir(dir);
  return st;
}

static const struct {
  const char *name;
  alloc_case run;
} cases[] = {
    {"bcast_materialize", case_materialize},
    {"bcast_ew_compute", case_ew_compute},
    {"bcast_ew_plan_create/alloc_output/execute", case_ew_plan},
    {"bcast_ew_compute_into (converting)", case_ew_compute_into_converting},
    {"bcast_broadcast_materialize", case_broadcast_materialize},
    {"bcast_materialize_all", case_materialize_all},
    {"bcast_npy_write_stream/read_mem", case_npy_round_trip},
    {"bcast_npy_write/read", case_npy_file},
    {"bcast_npz_write/npz_read/npz_update/npy_map", case_npz_and_map},
    {"bcast_output_open/reserve/write/commit_all", case_outputs},
    {"bcast_emit_lower_module", case_lower},
};
enum { N_CASES = sizeof cases / sizeof cases[0] };

TEST(alloc_counting_allocator_sees_every_block) {
  for (int k = 0; k < N_CASES; k++) {
    counter c;
    use_counter(t, &c);
    bcast_diag d;
    bcast_status st = cases[k].run(&d);
    bcast_set_allocator(NULL);
    if (st != BCAST_OK)
      test_fail(t, __FILE__, __LINE__, "%s: %s: %s", cases[k].name,
                bcast_status_name(st), d.message);
    if (c.calls == 0)
      test_fail(t, __FILE__, __LINE__, "%s: no allocation was seen",
                cases[k].name);
    if (c.live != 0 || c.bad_frees != 0)
      test_fail(t, __FILE__, __LINE__, "%s: %ld blocks leaked, %ld bad frees",
                cases[k].name, c.live, c.bad_frees);
  }
}

TEST(alloc_failing_each_allocation_returns_no_memory) {
  for (int k = 0; k < N_CASES; k++) {
    /* How many allocations the call makes when all succeed. */
    counter c;
    use_counter(t, &c);
    bcast_diag d;
    CHECK_INT(cases[k].run(&d), BCAST_OK);
    long total = c.calls, optional = 0;
    for (long n = 1; n <= total; n++) {
      use_counter(t, &c);
      c.fail_at = n;
      bcast_status st = cases[k].run(&d);
      bcast_set_allocator(NULL);
      /* A call may also do without an allocation that only serves a
       * message (the emitter's scratch diagnostic), and then succeeds. */
      if (st == BCAST_OK) {
        optional++;
      } else if (st != BCAST_NO_MEMORY) {
        test_fail(t, __FILE__, __LINE__,
                  "%s, allocation %ld of %ld failing: %s, not BCAST_NO_MEMORY",
                  cases[k].name, n, total, bcast_status_name(st));
      } else if (d.status != BCAST_NO_MEMORY || d.message[0] == '\0') {
        test_fail(t, __FILE__, __LINE__, "%s, allocation %ld: no diagnostic",
                  cases[k].name, n);
      }
      if (c.live != 0 || c.bad_frees != 0)
        test_fail(
            t, __FILE__, __LINE__,
            "%s, allocation %ld failing: %ld blocks leaked, %ld bad frees",
            cases[k].name, n, c.live, c.bad_frees);
    }
    if (optional * 2 > total)
      test_fail(t, __FILE__, __LINE__,
                "%s: %ld of %ld allocations could fail unnoticed",
                cases[k].name, optional, total);
    if (getenv("BCAST_TEST_VERBOSE"))
      printf("  %-45s %3ld allocations failed in turn\n", cases[k].name,
             total);
    /* And with every allocation failing, without a diagnostic too. */
    use_counter(t, &c);
    c.fail_all = 1;
    CHECK_INT(cases[k].run(NULL), BCAST_NO_MEMORY);
    bcast_set_allocator(NULL);
    CHECK_INT(c.live, 0);
  }
}

TEST(alloc_large_tensor_data_keeps_huge_page_alignment) {
  counter c;
  use_counter(t, &c);
  int64_t shape[1] = {(int64_t)32 << 20};
  bcast_tensor x;
  CHECK_INT(bcast_tensor_alloc(&x, BCAST_INT8, 1, shape,
                               BCAST_DEFAULT_MAX_BYTES, NULL),
            BCAST_OK);
  CHECK_INT((uintptr_t)x.data % ((uintptr_t)2 << 20), 0);
  CHECK_INT(((const signed char *)x.data)[shape[0] - 1], 0);
  shape[0] = 5;
  bcast_tensor y;
  CHECK_INT(bcast_tensor_alloc(&y, BCAST_INT8, 1, shape,
                               BCAST_DEFAULT_MAX_BYTES, NULL),
            BCAST_OK);
  CHECK_INT((uintptr_t)y.data % 64, 0);
  bcast_tensor_release(&x);
  bcast_tensor_release(&y);
  bcast_set_allocator(NULL);
  CHECK_INT(c.live, 0);
  CHECK_INT(c.bad_frees, 0);
}

TEST(alloc_set_allocator_refuses_missing_functions) {
  counter c;
  memset(&c, 0, sizeof c);
  bcast_allocator a = {count_malloc, NULL, count_free, &c};
  CHECK_INT(bcast_set_allocator(&a), BCAST_INVALID_ARGUMENT);
  /* The refused allocator was not installed: this allocation is malloc's. */
  int64_t shape[1] = {4};
  bcast_tensor x;
  CHECK_INT(bcast_tensor_alloc(&x, BCAST_FLOAT32, 1, shape, 1024, NULL),
            BCAST_OK);
  bcast_tensor_release(&x);
  CHECK_INT(c.calls, 0);
  CHECK_INT(bcast_set_allocator(NULL), BCAST_OK);
}

/* A 1-D int8 tensor of n bytes from the allocator in force. */
static bcast_status alloc_bytes(bcast_tensor *x, int64_t n) {
  int64_t shape[1] = {n};
  return bcast_tensor_alloc(x, BCAST_INT8, 1, shape, BCAST_DEFAULT_MAX_BYTES,
                            NULL);
}

TEST(alloc_buffer_cache_reuses_freed_large_blocks) {
  counter c;
  use_counter(t, &c);
  const int64_t mib = 1 << 20;
  CHECK_INT(bcast_set_buffer_cache((size_t)(40 * mib)), BCAST_OK);
  bcast_tensor x, y;
  CHECK_INT(alloc_bytes(&x, 33 * mib), BCAST_OK);
  void *first = x.data;
  memset(x.data, 7, (size_t)(33 * mib));
  bcast_tensor_release(&x);
  CHECK_INT(c.live, 1); /* kept by the cache */
  /* The same rounded size (34 MiB, whole 2 MiB pages) takes it back,
   * without the allocator, and bcast_tensor_alloc still zeroes it. */
  const long calls = c.calls;
  CHECK_INT(alloc_bytes(&x, 34 * mib - 5), BCAST_OK);
  CHECK(x.data == first);
  CHECK_INT(c.calls, calls + 1); /* the buffer header only */
  CHECK_INT(((const signed char *)x.data)[12345], 0);
  /* Another size is allocated afresh; of two freed blocks only the one
   * that fits the 40 MiB limit stays. */
  CHECK_INT(alloc_bytes(&y, 36 * mib), BCAST_OK);
  CHECK(y.data != first);
  bcast_tensor_release(&x);
  bcast_tensor_release(&y);
  CHECK_INT(c.live, 1);
  /* Blocks under 32 MiB are never kept. */
  CHECK_INT(alloc_bytes(&y, 8 * mib), BCAST_OK);
  bcast_tensor_release(&y);
  CHECK_INT(c.live, 1);
  /* A lower limit frees what is over it. */
  CHECK_INT(bcast_set_buffer_cache(0), BCAST_OK);
  CHECK_INT(c.live, 0);
  CHECK_INT(alloc_bytes(&x, 34 * mib), BCAST_OK);
  bcast_tensor_release(&x);
  CHECK_INT(c.live, 0); /* off: freed at once */
  bcast_set_allocator(NULL);
  CHECK_INT(c.bad_frees, 0);
}

TEST(alloc_buffer_cache_returns_blocks_to_replaced_allocator) {
  counter c;
  use_counter(t, &c);
  CHECK_INT(bcast_set_buffer_cache((size_t)64 << 20), BCAST_OK);
  bcast_tensor x;
  CHECK_INT(alloc_bytes(&x, (int64_t)32 << 20), BCAST_OK);
  bcast_tensor_release(&x);
  CHECK_INT(c.live, 1);
  /* Replacing the allocator frees the cached block through the old one;
   * the limit stays for the new allocator's blocks. */
  bcast_set_allocator(NULL);
  CHECK_INT(c.live, 0);
  CHECK_INT(c.bad_frees, 0);
  CHECK_INT(alloc_bytes(&x, (int64_t)32 << 20), BCAST_OK);
  bcast_tensor_release(&x);
  CHECK_INT(bcast_set_buffer_cache(0), BCAST_OK);
}

/* The C library's allocator here: the counter is not thread-safe.  Leaks
 * are the sanitizer build's to find. */
TEST(alloc_buffer_cache_is_thread_safe) {
  /* Two blocks' room for four threads: takes, puts and frees race. */
  CHECK_INT(bcast_set_buffer_cache((size_t)64 << 20), BCAST_OK);
  int failures = 0;
#ifdef _OPENMP
#pragma omp parallel for num_threads(4) reduction(+ : failures)
#endif
  for (int i = 0; i < 32; i++) {
    bcast_tensor x;
    if (alloc_bytes(&x, (int64_t)32 << 20) != BCAST_OK) {
      failures++;
      continue;
    }
    signed char *p = x.data;
    if (p[0] != 0 || p[((int64_t)32 << 20) - 1] != 0) failures++;
    p[0] = p[((int64_t)32 << 20) - 1] = 1;
    bcast_tensor_release(&x);
  }
  CHECK_INT(failures, 0);
  CHECK_INT(bcast_set_buffer_cache(0), BCAST_OK);
}

/* bcast/allocator.h promises that the shape algebra, the MLIR type parser,
 * scanner and verifier and a plan's execution never allocate: under a
 * counter that fails every call they still succeed and it sees none. */
static int any_op(const char *name, size_t len, void *ctx) {
  (void)name;
  (void)len;
  (void)ctx;
  return 1;
}

TEST(alloc_non_allocating_calls_make_no_allocation) {
  bcast_tensor in[2], out;
  memset(&out, 0, sizeof out);
  bcast_ew_plan *plan = NULL;
  bcast_diag d;
  CHECK_INT(alloc_pair(in, BCAST_FLOAT32, &d), BCAST_OK);
  CHECK_INT(
      bcast_ew_plan_create(&plan, BCAST_OP_ADD, NULL, 2, in, NULL, NULL, &d),
      BCAST_OK);
  CHECK_INT(bcast_ew_plan_alloc_output(plan, &out, &d), BCAST_OK);

  counter c;
  use_counter(t, &c);
  c.fail_all = 1;
  bcast_shape ops[2] = {{2, {4, 1}}, {1, {5}}}, result;
  CHECK_INT(bcast_shape_infer(2, ops, BCAST_PROFILE_NUMPY, &result, &d),
            BCAST_OK);
  static const char text[] =
      "%0 = tosa.add %a, %b : (tensor<2x1xf32>, tensor<1x3xf32>) -> "
      "tensor<2x3xf32>\n"
      "%1 = tosa.add %a, %b : (tensor<2x4xf32>, tensor<1x3xf32>) -> "
      "tensor<2x3xf32>\n";
  bcast_mlir_type type;
  size_t consumed;
  CHECK_INT(bcast_mlir_type_parse("tensor<2x?xf32>", 15, &type, &consumed, &d),
            BCAST_OK);
  bcast_mlir_scanner s;
  bcast_mlir_scanner_init(&s, text, sizeof text - 1, any_op, NULL);
  int found = 0, failed = 0, ops_seen = 0;
  static bcast_mlir_op op;
  while (bcast_mlir_scan_next(&s, &op, &found, &d) == BCAST_OK && found) {
    ops_seen++;
    if (bcast_mlir_verify(&op, NULL, NULL, &d) != BCAST_OK) failed++;
  }
  CHECK_INT(ops_seen, 2);
  CHECK_INT(failed, 1);
  const void *data[2] = {in[0].data, in[1].data};
  CHECK_INT(bcast_ew_plan_execute(plan, out.data, data, &d), BCAST_OK);
  /* explain, and a tile: its map, plan, views and the op into a box. */
  static bcast_explained explained[2];
  CHECK_INT(bcast_explain(2, ops, BCAST_PROFILE_NUMPY, &result, explained, &d),
            BCAST_OK);
  bcast_shape shapes[2], out_shape;
  bcast_tile_map maps[2];
  bcast_shape_set(&out_shape, out.rank, out.shape, NULL);
  for (int k = 0; k < 2; k++) {
    bcast_shape_set(&shapes[k], in[k].rank, in[k].shape, NULL);
    CHECK_INT(
        bcast_tile_map_init(&maps[k], &shapes[k], &out_shape, NULL, 0, &d),
        BCAST_OK);
  }
  const size_t four[2] = {4, 4};
  bcast_tiler tiler;
  bcast_box box;
  bcast_tensor views[2], window;
  CHECK_INT(bcast_tiler_init(&tiler, 2, maps, four, 4, 32, &d), BCAST_OK);
  while (bcast_tiler_next(&tiler, &box)) {
    CHECK_INT(bcast_tile_views(2, maps, in, NULL, &box, views, &d), BCAST_OK);
    CHECK_INT(bcast_tensor_box(&window, &out, NULL, &box, &d), BCAST_OK);
    CHECK_INT(
        bcast_ew_compute_into(BCAST_OP_ADD, NULL, 2, views, &window, NULL, &d),
        BCAST_OK);
    bcast_tensor_release(&window);
    bcast_tensor_release(&views[1]);
    bcast_tensor_release(&views[0]);
  }
  bcast_set_allocator(NULL);
  CHECK_INT(c.calls, 0);
  CHECK_INT(((const float *)out.data)[5], 12);
  bcast_ew_plan_destroy(plan);
  bcast_tensor_release(&out);
  bcast_tensor_release(&in[1]);
  bcast_tensor_release(&in[0]);
}
