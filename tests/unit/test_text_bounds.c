/* Every API that takes (text, len) reads text[0..len) and never text[len].
 *
 * Each valid input below is cut at every length and each prefix is copied
 * into a heap buffer of exactly that many bytes, with no NUL after it, so
 * an over-read lands in ASan's redzone (the sanitizer build runs these
 * tests).  The release build checks what it can without ASan: that no
 * parser crashes and that the whole input still parses.  Also here: the
 * .npy header's strings refuse embedded NULs, as NumPy does, and quoted
 * attribute names must close. */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "bcast/bcast.h"

/* A copy of text[0..n) in a buffer of exactly n bytes (free it). */
static char *exact_copy(const char *text, size_t n) {
  char *p = malloc(n ? n : 1);
  if (p && n) memcpy(p, text, n);
  return p;
}

static int accept_all(const char *name, size_t len, void *ctx) {
  (void)name, (void)len, (void)ctx;
  return 1;
}

static const char *const MODULES[] = {
    "func.func @f(%a: tensor<1x2xf32>, %b: tensor<2xf32>) -> tensor<1x2xf32> "
    "{\n"
    "  %0 = \"tosa.add\"(%a, %b) : (tensor<1x2xf32>, tensor<2xf32>) -> "
    "tensor<1x2xf32>\n"
    "  %1 = tosa.sub %0, %a : (tensor<1x2xf32>, tensor<1x2xf32>) -> "
    "tensor<1x2xf32>\n"
    "  %2 = tosa.clamp %1 {min_val = 0.0 : f32, max_val = 6.0 : f32} : "
    "(tensor<1x2xf32>) -> tensor<1x2xf32>\n"
    "  return %2 : tensor<1x2xf32>\n}\n",
    "// a comment %0 = \"tosa.add\"\n"
    "%r:2 = \"test.broadcastable\"(%x, %y) <{p = \"x: y\"}> {a = "
    "affine_map<(d0) -> (d0)>, \"q\" = 1}"
    " : (tensor<?x2xf32>, tensor<*xf32>) -> (tensor<?x2xf32>)\n"
    "%s = chlo.broadcast_add %a, %b {broadcast_dimensions = array<i64: 1>} : "
    "(tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>\n"
    "%t = stablehlo.add %a, %b {broadcast_dimensions = dense<[0, 1]> : "
    "tensor<2xi64>} : (vector<[4]x2xf16>, tensor<4x2xf16>) -> "
    "tensor<4x2xf16>\n",
    "func.func @g(%a: tensor<?xi32>, %b: tensor<?xi32>) -> tensor<?xi32> {\n"
    "  %0 = tosa.add %a, %b : (tensor<?xi32>, tensor<?xi32>) -> "
    "tensor<?xi32>\n"
    "  %1 = tosa.mul %0, %b, %s : (tensor<?xi32>, tensor<?xi32>, "
    "tensor<1xi8>) -> tensor<?xi32>\n"
    "  %2 = tosa.select %c, %0, %1 : (tensor<?xi1>, tensor<?xi32>, "
    "tensor<?xi32>) -> tensor<?xi32>\n"
    "  return %2 : tensor<?xi32>\n}\n",
    "%0 = tosa.add %a, %b : tensor<2xf32>",
    /* StableHLO's pretty forms, aliases, encodings, quantized types. */
    "!b = tensor<?x5xf32, #e>\n#e = #stablehlo.bounds<10, ?>\n"
    "  !q = !quant.uniform<i8:f32:1, {0.1:-30, 0.5:-20}>\n"
    "%0 = stablehlo.broadcast_in_dim %a, dims = [0, 1] : (!b) -> "
    "tensor<2x?x5xf32, #stablehlo.bounds<?, 10, ?>>\n"
    "%1 = stablehlo.dynamic_broadcast_in_dim %a, %s, dims = [1] {"
    "known_expanding_dimensions = array<i64: 0>} : (tensor<2x!q>, "
    "tensor<2xi64>) -> tensor<?x2x!q>\n"
    "%2 = stablehlo.broadcast %x, sizes = [2] : (tensor<*xi1>) -> "
    "!stablehlo.token\n",
};

static const char *const TYPES[] = {
    "tensor<1x?x3xf32>",           "tensor<*xi8>",
    "vector<[4]x2xf16>",           "tensor<2xcomplex<f32>>",
    "tensor<4xf32, #enc<\"a\">>",  "index",
    "!quant.uniform<i8:f32, 0.5>", "tensor<2x-3xf32>",
};

static const char *const SHAPES[] = {
    "[2,?,1]",
    "[]",
    "*",
    "2x?x1",
    "(3,)",
    " [ n , batch , 4 ] ",
    "tensor<2x?xf32>",
    "vector<4xf16>",
    "tensor<*xi32>",
    "[n,1]",
};

static const char *const LISTS[] = {
    "array<i64: 0, 2>",
    "array<i64>",
    "dense<[0, 2]> : tensor<2xi64>",
    "dense<1> : tensor<3xi64>",
    "dense<> : tensor<0xi64>",
    "array<i64: -1, 2>",
};

static const char *const ATTR_DICTS[] = {
    "{min_val = 0.0 : f32, max_val = 6.0 : f32}",
    "{\"min_val\" = -1 : i32, max_val = 0x7F : i8, nan_mode = \"IGNORE\"}",
    ("{min_val = 0xFFC00000 : f32, max_val = 1.5e3 : f32, x = affine_map<(d0) "
     "-> (d0)>}"),
    "{}",
};

static const char *const ATTR_PAIRS[] = {
    "min_val=0",
    "max_val = 6.5",
    "nan_mode=PROPAGATE",
    " min_val = -inf ",
};

/* Scans text[0..n) to the end, verifying and looking up attributes of
 * every op found, as bcast verify does. */
static void scan_prefix(const char *text, size_t n) {
  bcast_mlir_op *op = malloc(sizeof *op);
  bcast_mlir_scanner s;
  bcast_mlir_scanner_init(&s, text, n, accept_all, NULL);
  for (int guard = 0; guard < 1000; guard++) {
    int found;
    bcast_diag d;
    bcast_status st = bcast_mlir_scan_next(&s, op, &found, &d);
    if (!found) break;
    if (st != BCAST_OK) continue;
    bcast_mlir_span key, value;
    if (bcast_mlir_op_attr(op, "broadcast_dimensions", &key, &value)) {
      int64_t dims[BCAST_MAX_RANK];
      size_t nd;
      bcast_mlir_i64_list_parse(value.text, value.len, dims, BCAST_MAX_RANK,
                                &nd, &d);
    }
    bcast_mlir_op_attr(op, "q", &key, &value);
    bcast_mlir_verdict verdict;
    bcast_mlir_verify(op, NULL, &verdict, &d);
  }
  free(op);
}

static bcast_status null_write(void *ctx, const char *data, size_t len) {
  (void)data;
  *(size_t *)ctx += len;
  return BCAST_OK;
}

/* What a test does with one prefix p = text[0..n) of an input of length
 * len, p in a buffer of exactly n bytes. */
typedef void (*prefix_check)(test_ctx *t, const char *p, size_t n, size_t len);

/* Cuts each of texts[0..count) at every length and hands the exact copy of
 * each prefix to check. */
static void each_prefix(test_ctx *t, const char *const *texts, size_t count,
                        prefix_check check) {
  for (size_t k = 0; k < count; k++) {
    size_t len = strlen(texts[k]);
    for (size_t n = 0; n <= len; n++) {
      char *p = exact_copy(texts[k], n);
      check(t, p, n, len);
      free(p);
    }
  }
}

#define EACH_PREFIX(table, check)                                             \
  each_prefix(t, table, sizeof table / sizeof table[0], check)

static void scan_and_lower(test_ctx *t, const char *p, size_t n, size_t len) {
  (void)t, (void)len;
  scan_prefix(p, n);
  bcast_emit_options o;
  bcast_emit_options_init(&o);
  size_t written = 0;
  bcast_diag d;
  bcast_emit_lower_module(p, n, &o, null_write, &written, NULL, &d);
}

TEST(text_bounds_mlir_scanner_and_emitter) {
  EACH_PREFIX(MODULES, scan_and_lower);
  /* The whole of the first module lowers. */
  bcast_emit_options o;
  bcast_emit_options_init(&o);
  size_t written = 0;
  CHECK_INT(bcast_emit_lower_module(MODULES[2], strlen(MODULES[2]), &o,
                                    null_write, &written, NULL, NULL),
            BCAST_OK);
  CHECK(written > 0);
}

static void parse_type(test_ctx *t, const char *p, size_t n, size_t len) {
  (void)len;
  bcast_mlir_type type;
  size_t used;
  bcast_diag d;
  bcast_status st = bcast_mlir_type_parse(p, n, &type, &used, &d);
  if (st == BCAST_OK) CHECK(used <= n);
}

static void parse_shape(test_ctx *t, const char *p, size_t n, size_t len) {
  bcast_shape shape;
  bcast_symbols symbols;
  bcast_symbols_init(&symbols);
  bcast_diag d;
  bcast_status plain = bcast_shape_parse(p, n, &shape, &d);
  bcast_status named = bcast_shape_parse_symbolic(p, n, &symbols, &shape, &d);
  if (n == len) CHECK_INT(named, BCAST_OK);
  (void)plain;
}

static void parse_list(test_ctx *t, const char *p, size_t n, size_t len) {
  int64_t dims[BCAST_MAX_RANK];
  size_t nd;
  bcast_diag d;
  bcast_status st =
      bcast_mlir_i64_list_parse(p, n, dims, BCAST_MAX_RANK, &nd, &d);
  if (n == len) CHECK_INT(st, BCAST_OK);
  bcast_mlir_op_profile rule;
  bcast_mlir_op_profile_parse(p, n, &rule, &d);
  bcast_dtype dtype;
  bcast_dtype_parse(p, n, &dtype);
}

TEST(text_bounds_types_shapes_lists) {
  EACH_PREFIX(TYPES, parse_type);
  EACH_PREFIX(SHAPES, parse_shape);
  EACH_PREFIX(LISTS, parse_list);
}

static void parse_attr_dict(test_ctx *t, const char *p, size_t n, size_t len) {
  bcast_op_attrs a;
  bcast_op_attrs_init(&a);
  size_t used = 0;
  bcast_diag d;
  bcast_status st =
      bcast_op_attrs_parse_mlir(&a, BCAST_OP_CLAMP, p, n, &used, &d);
  if (n == len) CHECK_INT(st, BCAST_OK);
  if (st == BCAST_OK) CHECK(used <= n);
}

static void parse_attr_pair(test_ctx *t, const char *p, size_t n, size_t len) {
  bcast_op_attrs a;
  bcast_op_attrs_init(&a);
  bcast_diag d;
  bcast_status st = bcast_op_attr_parse(&a, BCAST_OP_CLAMP, p, n, &d);
  if (n == len) CHECK_INT(st, BCAST_OK);
}

TEST(text_bounds_attributes) {
  EACH_PREFIX(ATTR_DICTS, parse_attr_dict);
  EACH_PREFIX(ATTR_PAIRS, parse_attr_pair);
}

/* A version 1.0 .npy file with the given header dict and data; *size gets
 * its length (free it). */
static unsigned char *make_npy(const char *dict, size_t dict_len,
                               const void *data, size_t data_len,
                               size_t *size) {
  size_t header = (10 + dict_len + 1 + 63) / 64 * 64 - 10;
  *size = 10 + header + data_len;
  unsigned char *p = malloc(*size);
  memcpy(p, "\x93NUMPY\x01\x00", 8);
  p[8] = (unsigned char)(header & 0xFF);
  p[9] = (unsigned char)(header >> 8);
  memcpy(p + 10, dict, dict_len);
  memset(p + 10 + dict_len, ' ', header - dict_len - 1);
  p[10 + header - 1] = '\n';
  if (data_len) memcpy(p + 10 + header, data, data_len);
  return p;
}

TEST(text_bounds_npy_prefixes) {
  const float values[6] = {1, 2, 3, 4, 5, 6};
  size_t size;
  unsigned char *file =
      make_npy("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }",
               58, values, sizeof values, &size);
  for (size_t n = 0; n <= size; n++) {
    char *p = exact_copy((const char *)file, n);
    bcast_tensor x;
    bcast_diag d;
    bcast_status st = bcast_npy_read_mem(p, n, "t.npy", &x, NULL, 1 << 20, &d);
    if (st == BCAST_OK) bcast_tensor_release(&x);
    CHECK_INT(st == BCAST_OK, n == size);
    free(p);
  }
  free(file);
}

TEST(npy_header_strings_refuse_nul) {
  static const char *const dicts[] = {
      "{'descr': '<f4\0junk', 'fortran_order': False, 'shape': (1,), }",
      "{'descr\0': '<f4', 'fortran_order': False, 'shape': (1,), }",
      "{'descr': '<f4\0', 'fortran_order': False, 'shape': (1,), }",
  };
  static const size_t dict_lens[] = {62, 58, 58};
  const float one = 1;
  for (size_t k = 0; k < 3; k++) {
    size_t size;
    unsigned char *file =
        make_npy(dicts[k], dict_lens[k], &one, sizeof one, &size);
    bcast_tensor x;
    bcast_diag d;
    bcast_status st =
        bcast_npy_read_mem(file, size, "nul.npy", &x, NULL, 1 << 20, &d);
    CHECK_INT(st, BCAST_PARSE);
    if (st == BCAST_OK)
      bcast_tensor_release(&x);
    else
      CHECK_CONTAINS(d.message, "NUL");
    free(file);
  }
}

TEST(attr_dict_unterminated_quoted_name) {
  /* The scanner's dictionary lookup and the element-wise attribute parser
   * both refuse a quoted name that does not close. */
  const char *text = "%0 = tosa.clamp %a {\"abc";
  bcast_mlir_op *op = malloc(sizeof *op);
  bcast_mlir_scanner s;
  bcast_mlir_scanner_init(&s, text, strlen(text), accept_all, NULL);
  int found = 0;
  bcast_diag d;
  bcast_mlir_scan_next(&s, op, &found, &d);
  CHECK(found);
  bcast_mlir_span key, value;
  if (found) {
    CHECK(!bcast_mlir_op_attr(op, "abc", &key, &value));
    CHECK(!bcast_mlir_op_attr(op, "ab", &key, &value));
  }
  free(op);
  const char *dict = "{\"min_val = 0 : i32}";
  bcast_op_attrs a;
  bcast_op_attrs_init(&a);
  CHECK_INT(bcast_op_attrs_parse_mlir(&a, BCAST_OP_CLAMP, dict, strlen(dict),
                                      NULL, &d),
            BCAST_PARSE);
  CHECK_CONTAINS(d.message, "unterminated");
}
