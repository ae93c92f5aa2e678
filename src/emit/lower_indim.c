/* Lowering broadcast_in_dim to linalg: StableHLO's broadcast_in_dim,
 * dynamic_broadcast_in_dim and broadcast, and PyTensor's partial form.
 *
 * All four reduce to one description (emit_indim): an operand of shape
 * `in`, a result of shape `out`, operand dim i landing on result dim
 * dims[i], and for every dynamic result dim the SSA value of its size.
 * Each op's own part only says where those sizes come from:
 *   broadcast_in_dim          tensor.dim of the operand dim that lands on
 *                             the result dim (a new dynamic dim has no
 *                             size: refused);
 *   dynamic_broadcast_in_dim  tensor.extract of output_dimensions[o]
 *                             (arith.index_cast unless it holds index);
 *   broadcast                 dims = [n .. n + rank), the broadcast_sizes
 *                             first (static), the operand's dims after;
 *   the partial form          tensor.dim for the dims the operand gives,
 *                             an index argument for each size given '?'.
 *
 * Invariant of the common part (indim_emit): operand dim i is read at
 * result index dims[i], or at 0 when it expands.  It expands for certain
 * when it is a static 1 under a result dim that is not (or is listed in
 * known_expanding_dimensions), never when it is a static size other than
 * 1, a dynamic dim whose size the result dim takes, or one listed in
 * known_nonexpanding_dimensions; any other dynamic dim expands exactly
 * when its runtime size is 1.  Without such runtime dims the IR is one
 * linalg.broadcast (dims increasing, nothing expands, every operand dim's
 * type equals its result dim's) or one linalg.generic reading the operand
 * through an affine map (d_dims[i], or 0 where it expands); with them, one
 * linalg.generic over the result whose body computes each operand index
 * with linalg.index and arith.select and reads the element with
 * tensor.extract.  --assert-broadcast adds a cf.assert per operand dim
 * whose size is not known to fit: 1 or the result dim's size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit_internal.h"
#include "type/mlir_internal.h"

#define NM 128
#define TYPE_MAX 1600
#define MAP_MAX 2048
/* Every index constant an op can need: its dim numbers and static sizes
 * (operand and result), 0 and 1. */
#define MAX_CONSTS (4 * BCAST_MAX_RANK + 2)

/* What the lowering of one broadcast_in_dim needs; see the file comment. */
typedef struct emit_indim {
  emit_site site;
  char prefix[48];
  char operand[NM];   /* the operand's SSA name */
  char result[NM];    /* the SSA name the lowering defines */
  char elem[64];      /* the element type as MLIR writes it */
  bcast_shape in, out;
  int64_t dims[BCAST_MAX_RANK];
  uint64_t expanding[BCAST_MAX_RANK / 64], nonexpanding[BCAST_MAX_RANK / 64];
  /* Per dynamic result dim: its size's SSA value, and the operand dim
   * whose tensor.dim that value is (-1: another source). */
  char size[BCAST_MAX_RANK][NM];
  int32_t size_from[BCAST_MAX_RANK];
  /* tensor.dim of operand dims, "" until read. */
  char in_dim[BCAST_MAX_RANK][NM];
  /* Index constants written so far ("<prefix>_c<V>"). */
  int64_t consts[MAX_CONSTS];
  size_t n_consts;
} emit_indim;

static int bit(const uint64_t *set, int32_t i) {
  return (int)((set[i / 64] >> (i % 64)) & 1u);
}

static void set_bit(uint64_t *set, int32_t i) {
  set[i / 64] |= (uint64_t)1 << (i % 64);
}

/* The index constant v, written on first use ("%bc3_c5"); every use is
 * in the op's straight-line code, after it. */
static const char *index_const(emit_ctx *c, emit_indim *l, int64_t v,
                               char *buf, size_t size) {
  snprintf(buf, size, "%s_c%lld", l->prefix, (long long)v);
  for (size_t k = 0; k < l->n_consts; k++)
    if (l->consts[k] == v) return buf;
  if (l->n_consts < MAX_CONSTS) l->consts[l->n_consts++] = v;
  bcast__emit_line(c, 0, "%s = arith.constant %lld : index", buf,
                   (long long)v);
  return buf;
}

/* The runtime size of operand dim i: tensor.dim, read once, or the index
 * constant of a static dim. */
static const char *operand_size(emit_ctx *c, emit_indim *l, int32_t i) {
  if (l->in_dim[i][0]) return l->in_dim[i];
  char ci[NM], type[TYPE_MAX];
  if (!BCAST_DIM_IS_DYNAMIC(l->in.dims[i])) {
    index_const(c, l, l->in.dims[i], l->in_dim[i], NM);
    return l->in_dim[i];
  }
  index_const(c, l, i, ci, sizeof ci);
  bcast__emit_tensor_type_of(&l->in, l->elem, type, sizeof type);
  snprintf(l->in_dim[i], NM, "%s_d%d", l->prefix, (int)i);
  bcast__emit_line(c, 0, "%s = tensor.dim %s, %s : %s", l->in_dim[i],
                   l->operand, ci, type);
  return l->in_dim[i];
}

typedef enum read_kind { READ_SAME, READ_ZERO, READ_RUNTIME } read_kind;

/* How operand dim i is read (the file comment's rule). */
static read_kind read_of(const emit_indim *l, int32_t i) {
  int64_t in = l->in.dims[i], out = l->out.dims[l->dims[i]];
  if (bit(l->expanding, i)) return READ_ZERO;
  if (!BCAST_DIM_IS_DYNAMIC(in))
    return in == 1 && out != 1 ? READ_ZERO : READ_SAME;
  if (bit(l->nonexpanding, i) || out == 1 ||
      (BCAST_DIM_IS_DYNAMIC(out) && l->size_from[l->dims[i]] == i))
    return READ_SAME;
  return READ_RUNTIME;
}

/* With --assert-broadcast: a cf.assert per operand dim that might not fit
 * its result dim (neither both static nor sized from that very dim). */
static void assert_sizes(emit_ctx *c, emit_indim *l) {
  char want[NM], want_text[48];
  for (int32_t i = 0; i < l->in.rank; i++) {
    int32_t o = (int32_t)l->dims[i];
    int64_t in = l->in.dims[i], out = l->out.dims[o];
    if ((!BCAST_DIM_IS_DYNAMIC(in) &&
         (in == 1 || !BCAST_DIM_IS_DYNAMIC(out))) ||
        (BCAST_DIM_IS_DYNAMIC(out) && l->size_from[o] == i))
      continue;
    const char *size = operand_size(c, l, i);
    index_const(c, l, 1, want, sizeof want);
    if (BCAST_DIM_IS_DYNAMIC(out)) {
      snprintf(want, sizeof want, "%s", l->size[o]);
      snprintf(want_text, sizeof want_text, "the result size");
    } else {
      index_const(c, l, out, want, sizeof want);
      snprintf(want_text, sizeof want_text, "%lld", (long long)out);
    }
    bcast__emit_assert_dim(c, &l->site, 0, i, size, want, want_text);
  }
}

/* tensor.empty of the result shape into name; type gets its type. */
static void empty_result(emit_ctx *c, const emit_indim *l, char *name,
                         size_t name_size, char *type, size_t type_size) {
  emit_buf sizes = {0};
  for (int32_t o = 0; o < l->out.rank; o++)
    if (BCAST_DIM_IS_DYNAMIC(l->out.dims[o]))
      bcast__emit_buf_printf(&sizes, "%s%s", sizes.len ? ", " : "",
                             l->size[o]);
  bcast__emit_tensor_type_of(&l->out, l->elem, type, type_size);
  snprintf(name, name_size, "%s_empty", l->prefix);
  bcast__emit_line(c, 0, "%s = tensor.empty(%s) : %s", name,
                   sizes.data ? sizes.data : "", type);
  if (sizes.err != BCAST_OK && c->out.err == BCAST_OK) c->out.err = sizes.err;
  bcast__emit_buf_free(&sizes);
}

/* Whether the plain linalg.broadcast says it: dims increasing, nothing
 * expands and every operand dim's type is its result dim's. */
static int plain_broadcast(const emit_indim *l) {
  for (int32_t i = 0; i < l->in.rank; i++) {
    int64_t in = l->in.dims[i], out = l->out.dims[l->dims[i]];
    if ((i > 0 && l->dims[i] <= l->dims[i - 1]) ||
        read_of(l, i) != READ_SAME ||
        BCAST_DIM_IS_DYNAMIC(in) != BCAST_DIM_IS_DYNAMIC(out) ||
        (!BCAST_DIM_IS_DYNAMIC(in) && in != out))
      return 0;
  }
  return 1;
}

/* The linalg.generic line and its block's arguments, over the result's
 * dims: with from, reading the operand through the map d_from[i] (0 where
 * negative); without, writing only the output. */
static void generic_head(emit_ctx *c, const emit_indim *l,
                         const int32_t *from, const char *in_type,
                         const char *empty, const char *out_type) {
  char map[MAP_MAX], alias_in[48] = "", alias_out[48], iters[MAP_MAX],
                     ins[NM + TYPE_MAX + 16] = "";
  if (from) {
    bcast__emit_affine_map(l->out.rank, l->in.rank, from, map, sizeof map);
    bcast__emit_map(c, map, alias_in, sizeof alias_in - 2);
    strcat(alias_in, ", ");
    snprintf(ins, sizeof ins, "ins(%s : %s) ", l->operand, in_type);
  }
  bcast__emit_affine_map(l->out.rank, l->out.rank, NULL, map, sizeof map);
  bcast__emit_map(c, map, alias_out, sizeof alias_out);
  bcast__emit_iterators(l->out.rank, iters, sizeof iters);
  bcast__emit_line(c, 0,
                   "%s = linalg.generic {indexing_maps = [%s%s], "
                   "iterator_types = %s} %souts(%s : %s) {",
                   l->result, alias_in, alias_out, iters, ins, empty,
                   out_type);
  if (from)
    bcast__emit_line(c, 0, "^bb0(%s_in: %s, %s_out: %s):", l->prefix, l->elem,
                     l->prefix, l->elem);
  else
    bcast__emit_line(c, 0, "^bb0(%s_out: %s):", l->prefix, l->elem);
}

/* The result as linalg.broadcast, or as a linalg.generic through a map. */
static void emit_static_read(emit_ctx *c, emit_indim *l, const char *empty,
                             const char *out_type) {
  char in_type[TYPE_MAX];
  bcast__emit_tensor_type_of(&l->in, l->elem, in_type, sizeof in_type);
  if (plain_broadcast(l)) {
    int mapped[BCAST_MAX_RANK] = {0};
    emit_buf added = {0};
    for (int32_t i = 0; i < l->in.rank; i++) mapped[l->dims[i]] = 1;
    for (int32_t o = 0; o < l->out.rank; o++)
      if (!mapped[o])
        bcast__emit_buf_printf(&added, "%s%d", added.len ? ", " : "", (int)o);
    bcast__emit_line(c, 0,
                     "%s = linalg.broadcast ins(%s : %s) outs(%s : %s) "
                     "dimensions = [%s]",
                     l->result, l->operand, in_type, empty, out_type,
                     added.data ? added.data : "");
    if (added.err != BCAST_OK && c->out.err == BCAST_OK)
      c->out.err = added.err;
    bcast__emit_buf_free(&added);
    return;
  }
  int32_t from[BCAST_MAX_RANK];
  for (int32_t i = 0; i < l->in.rank; i++)
    from[i] = read_of(l, i) == READ_ZERO ? -1 : (int32_t)l->dims[i];
  generic_head(c, l, from, in_type, empty, out_type);
  bcast__emit_line(c, 1, "linalg.yield %s_in : %s", l->prefix, l->elem);
  bcast__emit_line(c, 0, "} -> %s", out_type);
}

/* The result as a linalg.generic that computes each operand index, for
 * operand dims that expand only when their runtime size is 1. */
static void emit_runtime_read(emit_ctx *c, emit_indim *l, const char *empty,
                              const char *out_type) {
  char in_type[TYPE_MAX], name[NM], zero[NM], one[NM];
  const char *p = l->prefix;
  bcast__emit_tensor_type_of(&l->in, l->elem, in_type, sizeof in_type);
  index_const(c, l, 0, zero, sizeof zero);
  index_const(c, l, 1, one, sizeof one);
  for (int32_t i = 0; i < l->in.rank; i++)
    if (read_of(l, i) == READ_RUNTIME)
      bcast__emit_line(c, 0, "%s_one%d = arith.cmpi eq, %s, %s : index", p,
                       (int)i, operand_size(c, l, i), one);
  generic_head(c, l, NULL, in_type, empty, out_type);
  emit_buf idx = {0};
  for (int32_t i = 0; i < l->in.rank; i++) {
    read_kind k = read_of(l, i);
    if (k == READ_ZERO) {
      bcast__emit_buf_printf(&idx, "%s%s", i ? ", " : "", zero);
      continue;
    }
    snprintf(name, sizeof name, "%s_i%d", p, (int)i);
    bcast__emit_line(c, 1, "%s = linalg.index %d : index", name,
                     (int)l->dims[i]);
    if (k == READ_RUNTIME) {
      bcast__emit_line(c, 1, "%s_s%d = arith.select %s_one%d, %s, %s : index",
                       p, (int)i, p, (int)i, zero, name);
      snprintf(name, sizeof name, "%s_s%d", p, (int)i);
    }
    bcast__emit_buf_printf(&idx, "%s%s", i ? ", " : "", name);
  }
  bcast__emit_line(c, 1, "%s_v = tensor.extract %s[%s] : %s", p, l->operand,
                   idx.data ? idx.data : "", in_type);
  bcast__emit_line(c, 1, "linalg.yield %s_v : %s", p, l->elem);
  bcast__emit_line(c, 0, "} -> %s", out_type);
  if (idx.err != BCAST_OK && c->out.err == BCAST_OK) c->out.err = idx.err;
  bcast__emit_buf_free(&idx);
}

/* The common part, after the op's own part has named the dynamic result
 * sizes. */
static void indim_emit(emit_ctx *c, emit_indim *l) {
  char empty[NM], out_type[TYPE_MAX];
  int runtime = 0;
  if (c->opts->assert_broadcast) assert_sizes(c, l);
  for (int32_t i = 0; i < l->in.rank; i++)
    runtime |= read_of(l, i) == READ_RUNTIME;
  empty_result(c, l, empty, sizeof empty, out_type, sizeof out_type);
  if (runtime)
    emit_runtime_read(c, l, empty, out_type);
  else
    emit_static_read(c, l, empty, out_type);
}

/* ------------------------------------------------------------------------ */
/* StableHLO's three ops, as the scanner reads them. */

typedef enum indim_op_kind {
  INDIM_NONE,
  INDIM_BROADCAST_IN_DIM,
  INDIM_DYNAMIC,
  INDIM_BROADCAST
} indim_op_kind;

static const struct {
  const char *name;
  indim_op_kind kind;
} indim_ops[] = {
    {"stablehlo.broadcast_in_dim", INDIM_BROADCAST_IN_DIM},
    {"stablehlo.dynamic_broadcast_in_dim", INDIM_DYNAMIC},
    {"stablehlo.broadcast", INDIM_BROADCAST},
};

static indim_op_kind indim_kind(const char *name, size_t len) {
  for (size_t k = 0; k < sizeof indim_ops / sizeof *indim_ops; k++)
    if (strlen(indim_ops[k].name) == len &&
        memcmp(indim_ops[k].name, name, len) == 0)
      return indim_ops[k].kind;
  return INDIM_NONE;
}

int bcast__emit_is_indim_op(const char *name, size_t len) {
  return indim_kind(name, len) != INDIM_NONE;
}

/* What one StableHLO op statement says, read before any output. */
struct emit_indim_stmt {
  emit_indim l;
  indim_op_kind kind;
  char shape[NM];           /* dynamic_broadcast_in_dim's output_dimensions */
  char shape_type[TYPE_MAX];
  char shape_elem[64];
};

size_t bcast__emit_indim_stmt_size(void) { return sizeof(emit_indim_stmt); }

static bcast_status stmt_fail(const bcast_mlir_op *m, bcast_diag *diag,
                              bcast_status st, const char *fmt, ...)
    BCAST_PRINTF(4, 5);
static bcast_status stmt_fail(const bcast_mlir_op *m, bcast_diag *diag,
                              bcast_status st, const char *fmt, ...) {
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return bcast__fail(diag, st, "%u:%u: '%.*s' op %s", m->line, m->col,
                     (int)m->name_len, m->name, what);
}

/* Reads an i64 list attribute (as a dictionary entry or the pretty
 * form's keyword, "dims = [1]") into out; *n = 0 and BCAST_OK when absent
 * and not required. */
static bcast_status read_list(const bcast_mlir_op *m, const char *name,
                              int required, int64_t *out, size_t *n,
                              bcast_diag *diag) {
  bcast_mlir_span key, value;
  *n = 0;
  if (!bcast_mlir_op_attr(m, name, &key, &value))
    return required ? stmt_fail(m, diag, BCAST_PARSE,
                                "needs a '%s' attribute", name)
                    : BCAST_OK;
  bcast_diag d;
  if (bcast__mlir_i64_list_read(value.text, value.len,
                                bcast__mlir_attr_is_keyword(m, key), out,
                                BCAST_MAX_RANK, n, diag ? &d : NULL) != BCAST_OK)
    return stmt_fail(m, diag, BCAST_PARSE, "attribute '%s': %s", name,
                     diag ? d.message : "malformed");
  return BCAST_OK;
}

/* A ranked tensor type of the op with a plain element type. */
static bcast_status ranked(const bcast_mlir_op *m, const bcast_mlir_type *t,
                           const char *what, char *elem, size_t elem_size,
                           bcast_diag *diag) {
  if (t->container != BCAST_CONTAINER_TENSOR || t->shape.rank < 0)
    return stmt_fail(m, diag, BCAST_UNSUPPORTED,
                     "%s: lowers ranked tensors only", what);
  if (t->encoding)
    return stmt_fail(m, diag, BCAST_UNSUPPORTED,
                     "%s: a tensor with an encoding (%.*s) is not lowered",
                     what, (int)t->encoding_len, t->encoding);
  bcast_dtype dt;
  if (!t->elem || bcast_dtype_parse(t->elem, t->elem_len, &dt) != BCAST_OK ||
      bcast_dtype_kind_of(dt) == BCAST_KIND_UNSIGNED)
    return stmt_fail(m, diag, BCAST_TYPE,
                     "%s: unsupported element type '%.*s' (bcast lowers "
                     "bool, signless integer and float elements)",
                     what, t->elem ? (int)t->elem_len : 0,
                     t->elem ? t->elem : "");
  if (strlen(bcast_dtype_mlir_name(dt)) >= elem_size)
    return stmt_fail(m, diag, BCAST_TYPE, "%s: element type too long", what);
  snprintf(elem, elem_size, "%s", bcast_dtype_mlir_name(dt));
  return BCAST_OK;
}

/* The map's constraints a correct lowering needs (StableHLO's
 * broadcast_in_dim C2-C6 and dynamic_broadcast_in_dim's): one entry per
 * operand dim, each a result dim, no repeats, and each operand dim 1 or
 * its result dim's size where both are static. */
static bcast_status check_map(const bcast_mlir_op *m, const emit_indim *l,
                              size_t n_dims, bcast_diag *diag) {
  if (n_dims != (size_t)l->in.rank)
    return stmt_fail(m, diag, BCAST_INVALID_ARGUMENT,
                     "broadcast_dimensions has %zu entries; the operand has "
                     "rank %d",
                     n_dims, (int)l->in.rank);
  int used[BCAST_MAX_RANK] = {0};
  for (int32_t i = 0; i < l->in.rank; i++) {
    int64_t o = l->dims[i];
    if (o < 0 || o >= l->out.rank)
      return stmt_fail(m, diag, BCAST_INVALID_ARGUMENT,
                       "broadcast_dimensions[%d] = %lld is not a dim of the "
                       "rank-%d result",
                       (int)i, (long long)o, (int)l->out.rank);
    if (used[o]++)
      return stmt_fail(m, diag, BCAST_INVALID_ARGUMENT,
                       "broadcast_dimensions names result dim %lld twice",
                       (long long)o);
    int64_t in = l->in.dims[i], out = l->out.dims[o];
    if (!BCAST_DIM_IS_DYNAMIC(in) && in != 1 && !BCAST_DIM_IS_DYNAMIC(out) &&
        in != out)
      return stmt_fail(m, diag, BCAST_INCOMPATIBLE,
                       "operand dim %d (size %lld) is neither 1 nor the size "
                       "of result dim %lld (%lld)",
                       (int)i, (long long)in, (long long)o, (long long)out);
  }
  return BCAST_OK;
}

static void copy_span(char *buf, size_t size, const bcast_mlir_span *s) {
  snprintf(buf, size, "%.*s", (int)s->len, s->text);
}

bcast_status bcast__emit_indim_describe(const bcast_mlir_op *m,
                                        emit_indim_stmt *st,
                                        bcast_diag *diag) {
  memset(st, 0, sizeof *st);
  emit_indim *l = &st->l;
  st->kind = indim_kind(m->name, m->name_len);
  l->site.op_name = m->name;
  l->site.op_name_len = m->name_len;
  l->site.line = m->line;
  l->site.col = m->col;
  size_t want = st->kind == INDIM_DYNAMIC ? 2 : 1;
  if (m->n_operand_names != want || m->n_operands != want)
    return stmt_fail(m, diag, BCAST_PARSE, "needs %zu operand%s", want,
                     want == 1 ? "" : "s");
  if (m->n_results != 1 || memchr(m->results.text, ':', m->results.len) ||
      m->results.len >= NM || m->operand_names[0].len >= NM)
    return stmt_fail(m, diag, BCAST_UNSUPPORTED,
                     "bcast lowers ops with one named result");
  copy_span(l->operand, NM, &m->operand_names[0]);
  copy_span(l->result, NM, &m->results);
  bcast_mlir_type in, out;
  bcast_mlir_op_type(m, &m->operands[0], &in);
  bcast_mlir_op_type(m, &m->result, &out);
  char out_elem[64];
  bcast_status s;
  if ((s = ranked(m, &in, "operand", l->elem, sizeof l->elem, diag)) !=
          BCAST_OK ||
      (s = ranked(m, &out, "result", out_elem, sizeof out_elem, diag)) !=
          BCAST_OK)
    return s;
  if (strcmp(l->elem, out_elem) != 0)
    return stmt_fail(m, diag, BCAST_TYPE,
                     "the result's element type (%s) is not the operand's "
                     "(%s)",
                     out_elem, l->elem);
  l->in = in.shape;
  l->out = out.shape;
  size_t n_dims = 0;
  if (st->kind == INDIM_BROADCAST) {
    int64_t sizes[BCAST_MAX_RANK];
    size_t n_sizes;
    if ((s = read_list(m, "broadcast_sizes", 1, sizes, &n_sizes, diag)) != BCAST_OK)
      return s;
    if (n_sizes + (size_t)l->in.rank != (size_t)l->out.rank)
      return stmt_fail(m, diag, BCAST_INVALID_ARGUMENT,
                       "the result has rank %d, not %zu broadcast_sizes plus "
                       "the operand's rank %d",
                       (int)l->out.rank, n_sizes, (int)l->in.rank);
    for (size_t k = 0; k < n_sizes; k++)
      if (sizes[k] < 0 || l->out.dims[k] != sizes[k])
        return stmt_fail(m, diag, BCAST_INVALID_ARGUMENT,
                         "result dim %zu is not broadcast_sizes[%zu] = %lld",
                         k, k, (long long)sizes[k]);
    for (int32_t i = 0; i < l->in.rank; i++) l->dims[i] = (int64_t)n_sizes + i;
    n_dims = (size_t)l->in.rank;
  } else if ((s = read_list(m, "broadcast_dimensions", 1, l->dims, &n_dims, diag)) !=
             BCAST_OK) {
    return s;
  }
  if ((s = check_map(m, l, n_dims, diag)) != BCAST_OK) return s;
  if (st->kind == INDIM_BROADCAST)
    for (int32_t i = 0; i < l->in.rank; i++)
      if (l->in.dims[i] != l->out.dims[l->dims[i]])
        return stmt_fail(m, diag, BCAST_INVALID_ARGUMENT,
                         "result dim %lld is not operand dim %d",
                         (long long)l->dims[i], (int)i);

  for (int32_t o = 0; o < l->out.rank; o++) l->size_from[o] = -1;
  if (st->kind == INDIM_DYNAMIC) {
    int64_t list[BCAST_MAX_RANK];
    size_t n;
    const char *names[2] = {"known_expanding_dimensions",
                            "known_nonexpanding_dimensions"};
    uint64_t *sets[2] = {l->expanding, l->nonexpanding};
    for (int j = 0; j < 2; j++) {
      if ((s = read_list(m, names[j], 0, list, &n, diag)) != BCAST_OK)
        return s;
      for (size_t k = 0; k < n; k++) {
        if (list[k] < 0 || list[k] >= l->in.rank)
          return stmt_fail(m, diag, BCAST_INVALID_ARGUMENT,
                           "%s names %lld, not an operand dim", names[j],
                           (long long)list[k]);
        if (j == 0 && l->in.dims[list[k]] != 1 &&
            !BCAST_DIM_IS_DYNAMIC(l->in.dims[list[k]]))
          return stmt_fail(m, diag, BCAST_INVALID_ARGUMENT,
                           "known_expanding_dimensions names operand dim "
                           "%lld, whose size is %lld, not 1",
                           (long long)list[k], (long long)l->in.dims[list[k]]);
        if (j == 1 && bit(l->expanding, (int32_t)list[k]))
          return stmt_fail(m, diag, BCAST_INVALID_ARGUMENT,
                           "operand dim %lld is both known expanding and "
                           "known nonexpanding",
                           (long long)list[k]);
        set_bit(sets[j], (int32_t)list[k]);
      }
    }
    bcast_mlir_type shape;
    bcast_mlir_op_type(m, &m->operands[1], &shape);
    if (shape.container != BCAST_CONTAINER_TENSOR || shape.shape.rank != 1 ||
        !shape.elem || shape.elem_len >= sizeof st->shape_elem ||
        (shape.shape.dims[0] != l->out.rank &&
         !BCAST_DIM_IS_DYNAMIC(shape.shape.dims[0])))
      return stmt_fail(m, diag, BCAST_INVALID_ARGUMENT,
                       "output_dimensions must be a 1-D tensor of %d sizes",
                       (int)l->out.rank);
    snprintf(st->shape_elem, sizeof st->shape_elem, "%.*s",
             (int)shape.elem_len, shape.elem);
    if (strcmp(st->shape_elem, "index") != 0 &&
        strcmp(st->shape_elem, "i64") != 0 &&
        strcmp(st->shape_elem, "i32") != 0)
      return stmt_fail(m, diag, BCAST_TYPE,
                       "output_dimensions holds %s; bcast lowers index, i64 "
                       "and i32",
                       st->shape_elem);
    if (m->operand_names[1].len >= NM || shape.text_len >= TYPE_MAX)
      return stmt_fail(m, diag, BCAST_UNSUPPORTED, "names too long");
    copy_span(st->shape, NM, &m->operand_names[1]);
    snprintf(st->shape_type, TYPE_MAX, "%.*s", (int)shape.text_len,
             shape.text);
  } else {
    /* A dynamic result dim takes its size from the operand dim on it. */
    for (int32_t i = 0; i < l->in.rank; i++)
      if (BCAST_DIM_IS_DYNAMIC(l->out.dims[l->dims[i]]))
        l->size_from[l->dims[i]] = i;
    for (int32_t o = 0; o < l->out.rank; o++)
      if (BCAST_DIM_IS_DYNAMIC(l->out.dims[o]) && l->size_from[o] < 0)
        return stmt_fail(m, diag, BCAST_UNSUPPORTED,
                         "result dim %d is dynamic but no operand dim lands "
                         "on it: its size is unknown (dynamic_broadcast_in_dim "
                         "gives it)",
                         (int)o);
  }
  return BCAST_OK;
}

bcast_status bcast__emit_lower_indim(emit_ctx *c, emit_indim_stmt *st,
                                     bcast_diag *diag) {
  emit_indim *l = &st->l;
  snprintf(l->prefix, sizeof l->prefix, "%%%s%zu", c->prefix, c->op_number);
  l->site.prefix = l->prefix;
  for (int32_t o = 0; o < l->out.rank; o++) {
    if (!BCAST_DIM_IS_DYNAMIC(l->out.dims[o])) continue;
    if (l->size_from[o] >= 0) {
      snprintf(l->size[o], NM, "%s", operand_size(c, l, l->size_from[o]));
      continue;
    }
    /* dynamic_broadcast_in_dim: output_dimensions[o]. */
    char co[NM];
    index_const(c, l, o, co, sizeof co);
    int cast = strcmp(st->shape_elem, "index") != 0;
    snprintf(l->size[o], NM, "%s_%s%d", l->prefix, cast ? "x" : "n", (int)o);
    bcast__emit_line(c, 0, "%s = tensor.extract %s[%s] : %s", l->size[o],
                     st->shape, co, st->shape_type);
    if (cast) {
      char from[NM];
      snprintf(from, sizeof from, "%s", l->size[o]);
      snprintf(l->size[o], NM, "%s_n%d", l->prefix, (int)o);
      bcast__emit_line(c, 0, "%s = arith.index_cast %s : %s to index",
                       l->size[o], from, st->shape_elem);
    }
  }
  indim_emit(c, l);
  if (c->out.err != BCAST_OK)
    return bcast__fail(diag, c->out.err, "%s", bcast_status_text(c->out.err));
  return BCAST_OK;
}

/* ------------------------------------------------------------------------ */
/* PyTensor's partial form, as a function of its own. */

void bcast_emit_partial_init(bcast_emit_partial *p) {
  memset(p, 0, sizeof *p);
}

/* An MLIR bare identifier: a letter or '_', then letters, digits, '_',
 * '$' and '.'. */
static int bare_id(const char *s) {
  if (!s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              *s == '_'))
    return 0;
  size_t n = 0;
  for (; *s; s++, n++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
          (*s >= '0' && *s <= '9') || *s == '_' || *s == '$' || *s == '.'))
      return 0;
  return n < 64;
}

/* "array<i64: 0, 2>" of the set bits below rank, or of dims when set is
 * NULL. */
static void i64_array(emit_buf *b, const uint64_t *set, const int64_t *dims,
                      int32_t rank) {
  int first = 1;
  bcast__emit_buf_put(b, "array<i64", 9);
  for (int32_t i = 0; i < rank; i++) {
    if (set && !bit(set, i)) continue;
    bcast__emit_buf_printf(b, "%s%lld", first ? ": " : ", ",
                           (long long)(set ? i : dims[i]));
    first = 0;
  }
  bcast__emit_buf_put(b, ">", 1);
}

/* The stablehlo form's body: the output_dimensions tensor from tensor.dim
 * and the size arguments, then the op in generic form. */
static void partial_stablehlo(emit_ctx *c, emit_indim *l,
                              const char *in_type, const char *out_type) {
  emit_buf elems = {0}, attrs = {0};
  char name[NM], shape_type[64];
  for (int32_t o = 0; o < l->out.rank; o++) {
    const char *v = BCAST_DIM_IS_DYNAMIC(l->out.dims[o])
                        ? l->size[o]
                        : index_const(c, l, l->out.dims[o], name, sizeof name);
    bcast__emit_buf_printf(&elems, "%s%s", o ? ", " : "", v);
  }
  snprintf(shape_type, sizeof shape_type, "tensor<%dxindex>",
           (int)l->out.rank);
  bcast__emit_line(c, 0, "%s_shape = tensor.from_elements %s : %s", l->prefix,
                   elems.data ? elems.data : "", shape_type);
  bcast__emit_buf_put(&attrs, "{broadcast_dimensions = ", 24);
  i64_array(&attrs, NULL, l->dims, l->in.rank);
  const char *names[2] = {"known_expanding_dimensions",
                          "known_nonexpanding_dimensions"};
  const uint64_t *sets[2] = {l->expanding, l->nonexpanding};
  for (int j = 0; j < 2; j++) {
    int any = 0;
    for (int32_t i = 0; i < l->in.rank; i++) any |= bit(sets[j], i);
    if (!any) continue;
    bcast__emit_buf_printf(&attrs, ", %s = ", names[j]);
    i64_array(&attrs, sets[j], NULL, l->in.rank);
  }
  bcast__emit_buf_put(&attrs, "}", 1);
  bcast__emit_line(c, 0,
                   "%s = \"stablehlo.dynamic_broadcast_in_dim\"(%s, %s_shape) "
                   "%s : (%s, %s) -> %s",
                   l->result, l->operand, l->prefix,
                   attrs.data ? attrs.data : "", in_type, shape_type,
                   out_type);
  if (elems.err != BCAST_OK || attrs.err != BCAST_OK)
    c->out.err = elems.err != BCAST_OK ? elems.err : attrs.err;
  bcast__emit_buf_free(&elems);
  bcast__emit_buf_free(&attrs);
}

bcast_status bcast_emit_broadcast_in_dim_partial(const bcast_emit_partial *p,
                                                 bcast_emit_write_fn write,
                                                 void *wctx,
                                                 bcast_diag *diag) {
  if (!p || !write || (p->n_dims && !p->dims) || (p->n_sizes && !p->sizes))
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_emit_broadcast_in_dim_partial: NULL argument");
  const char *fname = p->func_name ? p->func_name : "broadcast_in_dim";
  if (!bare_id(fname))
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "function name '%.64s' is not an MLIR identifier "
                       "(a letter or '_', then letters, digits, '_', '$', "
                       "'.'; under 64 characters)",
                       fname);
  bcast_dtype dt = BCAST_FLOAT32;
  if (p->elem && (bcast_dtype_parse(p->elem, strlen(p->elem), &dt) !=
                      BCAST_OK ||
                  bcast_dtype_kind_of(dt) == BCAST_KIND_UNSIGNED))
    return bcast__fail(diag, BCAST_TYPE,
                       "element type '%.64s': bcast lowers bool, signless "
                       "integer and float elements",
                       p->elem);
  if (p->form != BCAST_EMIT_LINALG && p->form != BCAST_EMIT_STABLEHLO)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT, "unknown output form %d",
                       (int)p->form);
  for (int32_t i = 0; i < p->operand.rank; i++)
    if (p->operand.dims[i] < BCAST_DIM_DYNAMIC)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "operand dim %d: a symbolic size; give '?' or a "
                         "number",
                         (int)i);
  for (size_t k = 0; k < p->n_sizes; k++)
    if (p->sizes[k].size < BCAST_DIM_DYNAMIC)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "output dim %d: a symbolic size; give '?' or a "
                         "number",
                         (int)p->sizes[k].dim);
  emit_ctx *c = bcast__calloc(1, sizeof *c);
  emit_indim *l = bcast__calloc(1, sizeof *l);
  bcast_status st = BCAST_OK;
  if (!c || !l) {
    st = bcast__fail(diag, BCAST_NO_MEMORY, "out of memory");
    goto done;
  }
  st = bcast_broadcast_in_dim_partial(&p->operand, p->dims, p->n_dims,
                                      p->sizes, p->n_sizes, &l->out, NULL,
                                      diag);
  if (st != BCAST_OK) goto done;

  bcast_emit_options opts;
  bcast_emit_options_init(&opts);
  opts.assert_broadcast = p->assert_broadcast;
  char source_name[80];
  snprintf(source_name, sizeof source_name, "@%s", fname);
  opts.source_name = source_name;
  c->opts = &opts;
  snprintf(c->prefix, sizeof c->prefix, "bc");
  snprintf(c->map_prefix, sizeof c->map_prefix, "bcast_map");
  c->indent = "  ";
  c->indent_len = 2;
  c->first_line = 1;

  l->in = p->operand;
  for (size_t i = 0; i < p->n_dims; i++) l->dims[i] = p->dims[i];
  snprintf(l->prefix, sizeof l->prefix, "%%bc");
  snprintf(l->operand, NM, "%%operand");
  snprintf(l->result, NM, "%%result");
  snprintf(l->elem, sizeof l->elem, "%s", bcast_dtype_mlir_name(dt));
  l->site = (emit_site){l->prefix, "broadcast_in_dim", 16, 0, 0};
  /* Known from the form: a dim the operand gives (no size given) never
   * expands, an operand dim of static size 1 given a size always does; a
   * dynamic one given a size expands when it is 1 at run time. */
  int32_t mapped_from[BCAST_MAX_RANK];
  int sized[BCAST_MAX_RANK] = {0};
  for (int32_t o = 0; o < l->out.rank; o++) mapped_from[o] = -1;
  for (int32_t i = 0; i < l->in.rank; i++)
    mapped_from[l->dims[i]] = i;
  for (size_t k = 0; k < p->n_sizes; k++) sized[p->sizes[k].dim] = 1;
  char in_type[TYPE_MAX], out_type[TYPE_MAX];
  bcast__emit_tensor_type_of(&l->in, l->elem, in_type, sizeof in_type);
  bcast__emit_tensor_type_of(&l->out, l->elem, out_type, sizeof out_type);
  emit_buf args = {0};
  bcast__emit_buf_printf(&args, "%%operand: %s", in_type);
  for (int32_t o = 0; o < l->out.rank; o++) {
    int32_t i = mapped_from[o];
    l->size_from[o] = -1;
    if (i >= 0 && !sized[o]) {
      set_bit(l->nonexpanding, i);
      l->size_from[o] = i;
    } else if (i >= 0 && l->in.dims[i] == 1) {
      set_bit(l->expanding, i);
    } else if (i >= 0 && !BCAST_DIM_IS_DYNAMIC(l->in.dims[i])) {
      set_bit(l->nonexpanding, i); /* a static size equal to the given */
    }
    if (BCAST_DIM_IS_DYNAMIC(l->out.dims[o]) && l->size_from[o] < 0) {
      snprintf(l->size[o], NM, "%%size%d", (int)o);
      bcast__emit_buf_printf(&args, ", %s: index", l->size[o]);
    }
  }
  bcast__emit_buf_printf(&c->out, "func.func @%s(%s) -> %s {\n  ", fname,
                         args.data ? args.data : "", out_type);
  if (args.err != BCAST_OK) c->out.err = args.err;
  bcast__emit_buf_free(&args);
  for (int32_t o = 0; o < l->out.rank; o++)
    if (l->size_from[o] >= 0 && BCAST_DIM_IS_DYNAMIC(l->out.dims[o]))
      snprintf(l->size[o], NM, "%s", operand_size(c, l, l->size_from[o]));
  if (p->form == BCAST_EMIT_STABLEHLO)
    partial_stablehlo(c, l, in_type, out_type);
  else
    indim_emit(c, l);
  bcast__emit_buf_printf(&c->out, "\n  return %%result : %s\n}\n", out_type);
  st = bcast__emit_finish(c, write, wctx, diag);
done:
  if (c) bcast__emit_ctx_release(c);
  bcast__free(c);
  bcast__free(l);
  return st;
}
