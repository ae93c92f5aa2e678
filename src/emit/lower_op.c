/* The IR structure around one op's scalar body, driven by the shape
 * algebra.
 *
 * Invariant: after the expansion and materialization stages every operand
 * value has the inferred rank, and at every axis its runtime size is either
 * the broadcast size or a static 1 that the main linalg.generic reads
 * through a constant-0 map result.  Before any output, stage 0 infers the
 * result and asks the shape module's run-time check analysis
 * (bcast__axis_analyze) which axes need checks.  Then, one static function
 * per stage, in output order:
 *   1. index constants;
 *   2. tensor.expand_shape of lower-rank operands (leading 1s);
 *   3. tensor.dim of every dynamic operand dim, and per dynamic result dim
 *      its size (that dim, or the arith.maxui of several);
 *   4. optional cf.assert: each dynamic dim that takes part in a broadcast
 *      is 1 or the broadcast size;
 *   5. per operand and axis whose dynamic size may be 1 while the result's
 *      is not: arith.cmpi + scf.if yielding a broadcasting copy (the RFC's
 *      dynamic-to-static and fully dynamic cases);
 *   6. scalars read from tosa.mul's shift and tosa.negate's zero points;
 *   7. tensor.empty of the inferred shape and the main linalg.generic;
 *   8. tensor.cast to the declared result type when it differs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit_internal.h"
#include "op/op_attrs.h"
#include "shape/shape_internal.h"

#define TYPE_MAX 1600
#define MAP_MAX 2048
#define NM 128

typedef struct lower_state {
  char p[48];             /* the op's name prefix ("%bc3") */
  char cur[3][NM];        /* current SSA value of each operand */
  bcast_shape shape[3];   /* its shape (inferred rank after stage 2) */
  char type[3][TYPE_MAX]; /* its type text */
  char dim[3][BCAST_MAX_RANK][NM]; /* stage 3 tensor.dim values ("" if none) */
  char size[BCAST_MAX_RANK][NM];   /* dynamic result dims' sizes */
  char static_size[BCAST_MAX_RANK][NM]; /* index constants of static sizes */
  bcast_shape inferred;
  bcast__axis axes[BCAST_MAX_RANK]; /* the run-time check analysis */
  int checked[BCAST_MAX_RANK];      /* axes whose dynamic dims get stage 4/5 */
  int need_c[BCAST_MAX_RANK + 2];   /* index constants stage 1 writes */
  size_t n_extra_used;              /* extra operands read as scalars */
  char extra_name[2][NM];           /* their stage 6 scalars */
  char out_type[TYPE_MAX];          /* the main generic's result type */
  char gen[NM];                     /* its SSA name */
  /* The result axis of each operand dim (right-aligned, or the CHLO op's
   * broadcast_dimensions), and per result axis the operand dim on it
   * (-1: a 1 that stage 2 adds). */
  int32_t place[3][BCAST_MAX_RANK];
  int32_t from[3][BCAST_MAX_RANK];
  bcast_shape placed[3]; /* each operand's shape with the 1s stage 2 adds */
  int cast;                         /* stage 8 is needed */
  /* Unsigned elements: the signless view's operand names, its result name
   * and declared result type (signless_view). */
  char view_in[3][NM];
  char view_result[NM];
  char view_result_type[TYPE_MAX];
} lower_state;

/* affine_map<(d0, d1) -> (0, d1)>: identity, except constant 0 where
 * zero[a] is set. */
static void map_text(int32_t rank, const int *zero, char *buf, size_t size) {
  int32_t result[BCAST_MAX_RANK];
  for (int32_t a = 0; a < rank; a++) result[a] = zero && zero[a] ? -1 : a;
  bcast__emit_affine_map(rank, rank, result, buf, size);
}

static void iterators(int32_t rank, char *buf, size_t size) {
  bcast__emit_iterators(rank, buf, size);
}

/* "%bc3" for op number 3: every name of the op starts with it. */
static void op_prefix(const emit_ctx *c, char *buf, size_t size) {
  snprintf(buf, size, "%%%s%zu", c->prefix, c->op_number);
}

static int shapes_equal(const bcast_shape *a, const bcast_shape *b) {
  if (a->rank != b->rank) return 0;
  for (int32_t d = 0; d < a->rank; d++) {
    int da = BCAST_DIM_IS_DYNAMIC(a->dims[d]),
        db = BCAST_DIM_IS_DYNAMIC(b->dims[d]);
    if (da != db || (!da && a->dims[d] != b->dims[d])) return 0;
  }
  return 1;
}

static bcast_status unsupported(const emit_op *op, bcast_diag *diag,
                                const char *what) {
  return bcast__fail(diag, BCAST_UNSUPPORTED, "%u:%u: '%.*s' op %s", op->line,
                     op->col, (int)op->op_name_len, op->op_name, what);
}

/* Stage 5: one broadcasting copy of operand k along axis a. */
static void materialize(emit_ctx *c, lower_state *s, const emit_op *op,
                        const char *p, size_t k, int32_t a) {
  int32_t rank = s->inferred.rank;
  bcast_dtype dt = op->in[k].dtype;
  const char *et = bcast_dtype_mlir_name(dt);
  char cond[NM], res[NM], tmp[NM], copy_type[TYPE_MAX], map_in[MAP_MAX],
      map_id[MAP_MAX], alias_in[48], alias_id[48], iters[MAP_MAX];
  int zero[BCAST_MAX_RANK] = {0};
  snprintf(cond, sizeof cond, "%s_is1_%zu_%d", p, k, (int)a);
  snprintf(res, sizeof res, "%s_b%zu_%d", p, k, (int)a);
  bcast__emit_line(c, 0, "%s = arith.cmpi eq, %s, %s_c1 : index", cond,
                   s->dim[k][a], p);
  bcast__emit_line(c, 0, "%s = scf.if %s -> (%s) {", res, cond, s->type[k]);

  bcast_shape cs = s->shape[k];
  cs.dims[a] = s->inferred.dims[a];
  bcast__emit_tensor_type(&cs, dt, copy_type, sizeof copy_type);
  emit_buf sizes = {0};
  for (int32_t b = 0; b < rank; b++) {
    if (!BCAST_DIM_IS_DYNAMIC(cs.dims[b])) continue;
    if (b == a) {
      bcast__emit_buf_printf(&sizes, "%s%s", sizes.len ? ", " : "",
                             s->size[a]);
      continue;
    }
    snprintf(tmp, sizeof tmp, "%s_bd%zu_%d_%d", p, k, (int)a, (int)b);
    bcast__emit_line(c, 1, "%s = tensor.dim %s, %s_c%d : %s", tmp, s->cur[k],
                     p, (int)b, s->type[k]);
    bcast__emit_buf_printf(&sizes, "%s%s", sizes.len ? ", " : "", tmp);
  }
  bcast__emit_line(c, 1, "%s_be%zu_%d = tensor.empty(%s) : %s", p, k, (int)a,
                   sizes.data ? sizes.data : "", copy_type);
  if (sizes.err != BCAST_OK && c->out.err == BCAST_OK) c->out.err = sizes.err;
  bcast__emit_buf_free(&sizes);

  zero[a] = 1;
  map_text(rank, zero, map_in, sizeof map_in);
  map_text(rank, NULL, map_id, sizeof map_id);
  bcast__emit_map(c, map_in, alias_in, sizeof alias_in);
  bcast__emit_map(c, map_id, alias_id, sizeof alias_id);
  iterators(rank, iters, sizeof iters);
  bcast__emit_line(
      c, 1,
      "%s_bg%zu_%d = linalg.generic {indexing_maps = [%s, %s], "
      "iterator_types = %s} ins(%s : %s) outs(%s_be%zu_%d : %s) {",
      p, k, (int)a, alias_in, alias_id, iters, s->cur[k], s->type[k], p, k,
      (int)a, copy_type);
  bcast__emit_line(c, 1, "^bb0(%s_bi%zu_%d: %s, %s_bo%zu_%d: %s):", p, k,
                   (int)a, et, p, k, (int)a, et);
  bcast__emit_line(c, 2, "linalg.yield %s_bi%zu_%d : %s", p, k, (int)a, et);
  bcast__emit_line(c, 1, "} -> %s", copy_type);
  if (strcmp(copy_type, s->type[k]) != 0) {
    bcast__emit_line(c, 1, "%s_bc%zu_%d = tensor.cast %s_bg%zu_%d : %s to %s",
                     p, k, (int)a, p, k, (int)a, copy_type, s->type[k]);
    bcast__emit_line(c, 1, "scf.yield %s_bc%zu_%d : %s", p, k, (int)a,
                     s->type[k]);
  } else {
    bcast__emit_line(c, 1, "scf.yield %s_bg%zu_%d : %s", p, k, (int)a,
                     s->type[k]);
  }
  bcast__emit_line(c, 0, "} else {");
  bcast__emit_line(c, 1, "scf.yield %s : %s", s->cur[k], s->type[k]);
  bcast__emit_line(c, 0, "}");
  snprintf(s->cur[k], NM, "%s", res);
  c->stats.copies++;
}

/* Stage 4: cf.assert that operand k's size at axis a is 1 or the
 * broadcast size. */
static void assert_dim(emit_ctx *c, lower_state *s, const emit_op *op,
                       const char *p, size_t k, int32_t a) {
  char want[NM];
  const char *bsize = BCAST_DIM_IS_DYNAMIC(s->inferred.dims[a])
                          ? s->size[a]
                          : s->static_size[a];
  if (BCAST_DIM_IS_DYNAMIC(s->inferred.dims[a]))
    snprintf(want, sizeof want, "the broadcast size");
  else
    snprintf(want, sizeof want, "%lld", (long long)s->inferred.dims[a]);
  const emit_site site = {p, op->op_name, op->op_name_len, op->line, op->col};
  bcast__emit_assert_dim(c, &site, k, a, s->dim[k][a], bsize, want);
}

/* Where each operand's dims go in the result, and the inferred result.
 * Right-aligned by the op's profile; with a CHLO op's
 * broadcast_dimensions, the lower-rank operand's dims go to the listed
 * result dims (strictly increasing, as the verifier checked) and the
 * shapes, so placed, broadcast as equal ranks do. */
static bcast_status place_operands(lower_state *s, const emit_op *op,
                                   bcast_diag *diag) {
  int32_t rank = 0;
  for (size_t k = 0; k < op->n_in; k++)
    if (s->shape[k].rank > rank) rank = s->shape[k].rank;
  bcast_shape *placed = s->placed;
  for (size_t k = 0; k < op->n_in; k++) {
    int32_t r = s->shape[k].rank, off = rank - r;
    int listed = op->has_bdims && r < rank;
    if (listed && op->n_bdims != (size_t)r)
      return unsupported(op, diag,
                         "broadcast_dimensions does not name one result dim "
                         "per dim of the lower-rank operand");
    placed[k].rank = rank;
    for (int32_t a = 0; a < rank; a++) {
      s->from[k][a] = -1;
      placed[k].dims[a] = 1;
    }
    for (int32_t j = 0; j < r; j++) {
      int64_t a = listed ? op->bdims[j] : off + j;
      if (a < 0 || a >= rank || (j > 0 && a <= s->place[k][j - 1]))
        return unsupported(op, diag,
                           "broadcast_dimensions is not strictly increasing "
                           "within the result rank");
      s->place[k][j] = (int32_t)a;
      s->from[k][a] = j;
      placed[k].dims[a] = s->shape[k].dims[j];
    }
  }
  if (!op->has_bdims)
    return bcast_shape_infer(op->n_in, s->shape, op->profile, &s->inferred,
                             diag);
  return bcast_shape_infer(op->n_in, placed, BCAST_PROFILE_NUMPY, &s->inferred,
                           diag);
}

/* Stage 0, before any output: the operand shapes, the inferred result and
 * the run-time check analysis.  Invariant on success: s->shape holds every
 * broadcast operand's ranked tensor shape, s->inferred their broadcast (of
 * the declared result's rank), s->checked marks the axes whose dynamic
 * dims stages 4 and 5 handle, and s->need_c the index constants the later
 * stages use.  Nothing is written, so a refused op leaves no output. */
static bcast_status analyze(lower_state *s, const emit_op *op,
                            bcast_diag *diag) {
  for (size_t k = 0; k < op->n_in; k++) {
    const bcast_mlir_type *ty = &op->in[k].type;
    if (ty->container != BCAST_CONTAINER_TENSOR || ty->shape.rank < 0)
      return unsupported(op, diag, "lowers ranked tensors only");
    s->shape[k] = ty->shape;
  }
  if (op->result.container != BCAST_CONTAINER_TENSOR)
    return unsupported(op, diag, "lowers ranked tensors only");
  bcast_status st = place_operands(s, op, diag);
  if (st != BCAST_OK) return st;
  int32_t rank = s->inferred.rank;
  if (op->result.shape.rank >= 0 && op->result.shape.rank != rank)
    return unsupported(
        op, diag,
        "result rank differs from the inferred rank (bcast does "
        "not broadcast results)");

  /* Which (operand, axis) pairs need a run-time broadcast.  The lowering
   * sizes a dynamic result dim from the operands' dynamic dims alone, so an
   * axis where one dynamic dim meets only a static 0 stays unchecked. */
  bcast__shapes ops = bcast__shapes_of(s->placed, op->n_in);
  int any_runtime = 0;
  for (int32_t a = 0; a < rank; a++) {
    bcast__axis *ax = &s->axes[a];
    bcast__axis_analyze(ops, rank, a, s->inferred.dims[a], ax, NULL, 0, NULL);
    s->checked[a] = ax->needs_check &&
                    !(BCAST_DIM_IS_DYNAMIC(ax->dim) && ax->n_dynamic < 2);
    any_runtime |= s->checked[a];
    for (size_t k = 0; k < op->n_in; k++) {
      int32_t j = s->from[k][a];
      if (j >= 0 && BCAST_DIM_IS_DYNAMIC(s->shape[k].dims[j])) {
        s->need_c[a] = 1;
        s->need_c[j] = 1; /* for tensor.expand_shape's output_shape */
      }
    }
  }
  if (any_runtime) s->need_c[1] = 1;
  /* uint32's shift too: MLIR 22 shifts the product of its int32 view. */
  if ((op->op == BCAST_OP_MUL && op->n_extra >= 1 &&
       bcast__op_signless(op->in[0].dtype) == BCAST_INT32) ||
      (op->op == BCAST_OP_NEGATE && op->n_extra == 2 &&
       bcast_dtype_kind_of(op->in[0].dtype) == BCAST_KIND_SIGNED))
    s->n_extra_used = op->n_extra;
  if (s->n_extra_used) s->need_c[0] = 1;
  for (size_t j = 0; j < s->n_extra_used; j++)
    if (op->extra[j].type.container != BCAST_CONTAINER_TENSOR ||
        op->extra[j].type.shape.rank < 0)
      return unsupported(op, diag, "needs a ranked tensor shift / zero point");
  return BCAST_OK;
}

/* Stage 1: the index constants %p_cN that later stages name, each once,
 * in increasing N. */
static void emit_index_constants(emit_ctx *c, const lower_state *s) {
  for (int v = 0; v < BCAST_MAX_RANK + 2; v++)
    if (s->need_c[v])
      bcast__emit_line(c, 0, "%s_c%d = arith.constant %d : index", s->p, v, v);
}

/* Stage 2: every operand gets the inferred rank.  Invariant afterwards:
 * s->cur[k] names a value of type s->type[k] and shape s->shape[k], whose
 * rank is s->inferred.rank (lower-rank operands gained leading 1s through
 * tensor.expand_shape). */
static void expand_ranks(emit_ctx *c, lower_state *s, const emit_op *op) {
  int32_t rank = s->inferred.rank;
  const char *p = s->p;
  for (size_t k = 0; k < op->n_in; k++) {
    bcast_dtype dt = op->in[k].dtype;
    bcast_shape src = s->shape[k];
    char src_type[TYPE_MAX];
    bcast__emit_tensor_type(&src, dt, src_type, sizeof src_type);
    snprintf(s->cur[k], NM, "%.*s", (int)op->in[k].name_len, op->in[k].name);
    if (src.rank == rank) {
      snprintf(s->type[k], TYPE_MAX, "%s", src_type);
      continue;
    }
    const int32_t *place = s->place[k], *from = s->from[k];
    bcast_shape ex;
    ex.rank = rank;
    emit_buf assoc = {0}, outs = {0};
    /* Operand dim j's group runs from the axis after the previous dim's
     * (0 for the first) to its own (the last dim's to the last axis). */
    bcast__emit_buf_put(&assoc, "[", 1);
    for (int32_t j = 0; j < src.rank; j++) {
      bcast__emit_buf_printf(&assoc, "%s[", j ? ", " : "");
      int32_t lo = j == 0 ? 0 : place[j - 1] + 1,
              hi = j == src.rank - 1 ? rank - 1 : place[j];
      for (int32_t d = lo; d <= hi; d++)
        bcast__emit_buf_printf(&assoc, "%s%d", d > lo ? ", " : "", (int)d);
      bcast__emit_buf_put(&assoc, "]", 1);
    }
    bcast__emit_buf_put(&assoc, "]", 1);
    for (int32_t a = 0; a < rank; a++) {
      int64_t d = from[a] < 0 ? 1 : src.dims[from[a]];
      ex.dims[a] = d;
      if (!BCAST_DIM_IS_DYNAMIC(d)) {
        bcast__emit_buf_printf(&outs, "%s%lld", a ? ", " : "", (long long)d);
        continue;
      }
      bcast__emit_line(c, 0, "%s_xd%zu_%d = tensor.dim %s, %s_c%d : %s", p, k,
                       (int)from[a], s->cur[k], p, (int)from[a], src_type);
      bcast__emit_buf_printf(&outs, "%s%s_xd%zu_%d", a ? ", " : "", p, k,
                             (int)from[a]);
    }
    bcast__emit_tensor_type(&ex, dt, s->type[k], TYPE_MAX);
    bcast__emit_line(
        c, 0,
        "%s_x%zu = tensor.expand_shape %s %s output_shape [%s] : %s into %s",
        p, k, s->cur[k], assoc.data ? assoc.data : "[]",
        outs.data ? outs.data : "", src_type, s->type[k]);
    if (assoc.err != BCAST_OK || outs.err != BCAST_OK)
      c->out.err = assoc.err != BCAST_OK ? assoc.err : outs.err;
    bcast__emit_buf_free(&assoc);
    bcast__emit_buf_free(&outs);
    snprintf(s->cur[k], NM, "%s_x%zu", p, k);
    s->shape[k] = ex;
  }
}

/* Stage 3: sizes known only at run time.  Invariant afterwards: s->dim[k][a]
 * names operand k's size at axis a wherever that dim is dynamic (else ""),
 * s->size[a] names the result's size at every dynamic result axis (the
 * arith.maxui of the operands' sizes there), and with asserts on,
 * s->static_size[a] names the static result size of every axis that has a
 * dynamic operand dim. */
static void read_dynamic_sizes(emit_ctx *c, lower_state *s,
                               const emit_op *op) {
  const char *p = s->p;
  for (int32_t a = 0; a < s->inferred.rank; a++) {
    int n = 0;
    for (size_t k = 0; k < op->n_in; k++) {
      s->dim[k][a][0] = '\0';
      if (!BCAST_DIM_IS_DYNAMIC(s->shape[k].dims[a])) continue;
      snprintf(s->dim[k][a], NM, "%s_d%zu_%d", p, k, (int)a);
      bcast__emit_line(c, 0, "%s = tensor.dim %s, %s_c%d : %s", s->dim[k][a],
                       s->cur[k], p, (int)a, s->type[k]);
      if (n++ == 0) {
        snprintf(s->size[a], NM, "%s", s->dim[k][a]);
      } else if (BCAST_DIM_IS_DYNAMIC(s->inferred.dims[a])) {
        char m[NM];
        snprintf(m, sizeof m, "%s_m%d_%d", p, (int)a, n - 1);
        bcast__emit_line(c, 0, "%s = arith.maxui %s, %s : index", m,
                         s->size[a], s->dim[k][a]);
        snprintf(s->size[a], NM, "%s", m);
      }
    }
    if (n && !BCAST_DIM_IS_DYNAMIC(s->inferred.dims[a]) &&
        c->opts->assert_broadcast) {
      snprintf(s->static_size[a], NM, "%s_n%d", p, (int)a);
      bcast__emit_line(c, 0, "%s = arith.constant %lld : index",
                       s->static_size[a], (long long)s->inferred.dims[a]);
    }
  }
}

/* Stages 4 and 5, operand by operand: with asserts on, first every
 * cf.assert, then every broadcasting copy.  Invariant afterwards: at every
 * checked axis each operand's value (s->cur) has the broadcast size or a
 * static 1; unchecked dynamic dims already equal the result's size. */
static void check_and_copy(emit_ctx *c, lower_state *s, const emit_op *op) {
  for (int pass = 0; pass < 2; pass++) {
    if (pass == 0 && !c->opts->assert_broadcast) continue;
    for (size_t k = 0; k < op->n_in; k++)
      for (int32_t a = 0; a < s->inferred.rank; a++) {
        if (!BCAST_DIM_IS_DYNAMIC(s->shape[k].dims[a]) || !s->checked[a])
          continue;
        if (pass == 0)
          assert_dim(c, s, op, s->p, k, a);
        else
          materialize(c, s, op, s->p, k, a);
      }
  }
}

/* Stage 6: the scalars of tosa.mul's shift and tosa.negate's zero points,
 * read at index 0 of every dim.  Invariant afterwards: s->extra_name[j]
 * names extra operand j's scalar for every j < s->n_extra_used. */
static void extract_extra_scalars(emit_ctx *c, lower_state *s,
                                  const emit_op *op) {
  for (size_t j = 0; j < s->n_extra_used; j++) {
    char t[TYPE_MAX];
    bcast__emit_tensor_type(&op->extra[j].type.shape, op->extra[j].dtype, t,
                            sizeof t);
    emit_buf idx = {0};
    for (int32_t d = 0; d < op->extra[j].type.shape.rank; d++)
      bcast__emit_buf_printf(&idx, "%s%s_c0", d ? ", " : "", s->p);
    snprintf(s->extra_name[j], NM, "%s_e%zu", s->p, j);
    bcast__emit_line(c, 0, "%s = tensor.extract %.*s[%s] : %s",
                     s->extra_name[j], (int)op->extra[j].name_len,
                     op->extra[j].name, idx.data ? idx.data : "", t);
    bcast__emit_buf_free(&idx);
  }
}

/* Stage 7: tensor.empty of the inferred shape and the main linalg.generic,
 * which reads each operand through the identity map except for a constant
 * 0 at the axes where the operand is a static 1 under a result dim that is
 * not.  Its value is the statement's result name unless stage 8 casts it;
 * s->gen, s->out_type and s->cast say which. */
static void emit_generic(emit_ctx *c, lower_state *s, const emit_op *op) {
  int32_t rank = s->inferred.rank;
  const char *p = s->p;
  char iters[MAP_MAX], alias[48], map[MAP_MAX];
  bcast_shape out_shape = s->inferred;
  bcast__emit_tensor_type(&out_shape, op->result_dtype, s->out_type,
                          sizeof s->out_type);
  emit_buf sizes = {0}, maps = {0}, ins = {0}, ins_t = {0};
  for (int32_t a = 0; a < rank; a++)
    if (BCAST_DIM_IS_DYNAMIC(out_shape.dims[a]))
      bcast__emit_buf_printf(&sizes, "%s%s", sizes.len ? ", " : "",
                             s->size[a]);
  bcast__emit_line(c, 0, "%s_empty = tensor.empty(%s) : %s", p,
                   sizes.data ? sizes.data : "", s->out_type);
  for (size_t k = 0; k < op->n_in; k++) {
    int zero[BCAST_MAX_RANK] = {0};
    for (int32_t a = 0; a < rank; a++)
      zero[a] = s->shape[k].dims[a] == 1 && out_shape.dims[a] != 1;
    map_text(rank, zero, map, sizeof map);
    bcast__emit_map(c, map, alias, sizeof alias);
    bcast__emit_buf_printf(&maps, "%s, ", alias);
    bcast__emit_buf_printf(&ins, "%s%s", k ? ", " : "", s->cur[k]);
    bcast__emit_buf_printf(&ins_t, "%s%s", k ? ", " : "", s->type[k]);
  }
  map_text(rank, NULL, map, sizeof map);
  bcast__emit_map(c, map, alias, sizeof alias);
  bcast__emit_buf_printf(&maps, "%s", alias);
  iterators(rank, iters, sizeof iters);
  s->cast = op->result.shape.rank < 0 ||
            !shapes_equal(&op->result.shape, &out_shape);
  if (s->cast)
    snprintf(s->gen, sizeof s->gen, "%s_r", p);
  else
    snprintf(s->gen, sizeof s->gen, "%.*s", (int)op->result_name_len,
             op->result_name);
  bcast__emit_line(
      c, 0,
      "%s = linalg.generic {indexing_maps = [%s], iterator_types = %s} "
      "ins(%s : %s) outs(%s_empty : %s) {",
      s->gen, maps.data ? maps.data : "", iters, ins.data ? ins.data : "",
      ins_t.data ? ins_t.data : "", p, s->out_type);
  bcast_status berr = sizes.err != BCAST_OK  ? sizes.err
                      : maps.err != BCAST_OK ? maps.err
                      : ins.err != BCAST_OK  ? ins.err
                                             : ins_t.err;
  if (berr != BCAST_OK && c->out.err == BCAST_OK) c->out.err = berr;
  bcast__emit_buf_free(&sizes);
  bcast__emit_buf_free(&maps);
  bcast__emit_buf_free(&ins);
  bcast__emit_buf_free(&ins_t);

  char args[3][NM], bb[512], yielded[NM];
  const char *argp[3];
  const char *extra[2] = {NULL, NULL};
  for (size_t j = 0; j < s->n_extra_used; j++) extra[j] = s->extra_name[j];
  size_t bl = 0;
  bb[0] = '\0';
  for (size_t k = 0; k < op->n_in; k++) {
    snprintf(args[k], NM, "%s_a%zu", p, k);
    argp[k] = args[k];
    bcast__append(bb, sizeof bb, &bl, "%s: %s, ", args[k],
                  bcast_dtype_mlir_name(op->in[k].dtype));
  }
  bcast__emit_line(c, 0, "^bb0(%s%s_o: %s):", bb, p,
                   bcast_dtype_mlir_name(op->result_dtype));
  bcast__emit_body(c, 1, op, argp, extra, yielded, sizeof yielded);
  bcast__emit_line(c, 1, "linalg.yield %s : %s", yielded,
                   bcast_dtype_mlir_name(op->result_dtype));
  bcast__emit_line(c, 0, "} -> %s", s->out_type);
}

/* Stage 8: when the declared result type differs from the inferred one,
 * the statement's result is a tensor.cast of the generic's value. */
static void cast_result(emit_ctx *c, const lower_state *s, const emit_op *op) {
  if (s->cast)
    bcast__emit_line(c, 0, "%.*s = tensor.cast %s : %s to %.*s",
                     (int)op->result_name_len, op->result_name, s->gen,
                     s->out_type, (int)op->result.text_len, op->result.text);
}

/* A tensor type of shape (unranked: rank < 0) with element type dtype. */
static void view_type(const bcast_shape *shape, bcast_dtype dtype, char *buf,
                      size_t size) {
  if (shape->rank < 0)
    snprintf(buf, size, "tensor<*x%s>", bcast_dtype_mlir_name(dtype));
  else
    bcast__emit_tensor_type(shape, dtype, buf, size);
}

/* Unsigned elements, as MLIR 22's tosa-to-linalg lowers them: each
 * unsigned operand is viewed as its signless tensor through
 * builtin.unrealized_conversion_cast, the op is lowered on the view (view,
 * with the unsigned data type kept for the body), and signless_result
 * casts the result back.  Returns op itself when no type is unsigned. */
static const emit_op *signless_view(emit_ctx *c, lower_state *s,
                                    const emit_op *op, emit_op *view) {
  int any = bcast_dtype_kind_of(op->result_dtype) == BCAST_KIND_UNSIGNED;
  for (size_t k = 0; k < op->n_in; k++)
    any |= bcast_dtype_kind_of(op->in[k].dtype) == BCAST_KIND_UNSIGNED;
  if (!any) return op;
  *view = *op;
  const bcast_dtype data = op->in[op->op == BCAST_OP_SELECT ? 1 : 0].dtype;
  view->is_unsigned_data = bcast_dtype_kind_of(data) == BCAST_KIND_UNSIGNED;
  view->unsigned_data = data;
  for (size_t k = 0; k < op->n_in; k++) {
    const emit_value *v = &op->in[k];
    if (bcast_dtype_kind_of(v->dtype) != BCAST_KIND_UNSIGNED) continue;
    char t[TYPE_MAX];
    view->in[k].dtype = bcast__op_signless(v->dtype);
    view_type(&v->type.shape, view->in[k].dtype, t, sizeof t);
    snprintf(s->view_in[k], NM, "%s_v%zu", s->p, k);
    bcast__emit_line(c, 0, "%s = builtin.unrealized_conversion_cast %.*s : "
                     "%.*s to %s",
                     s->view_in[k], (int)v->name_len, v->name,
                     (int)v->type.text_len, v->type.text, t);
    view->in[k].name = s->view_in[k];
    view->in[k].name_len = strlen(s->view_in[k]);
  }
  if (bcast_dtype_kind_of(op->result_dtype) == BCAST_KIND_UNSIGNED) {
    view->result_dtype = bcast__op_signless(op->result_dtype);
    snprintf(s->view_result, NM, "%s_vr", s->p);
    view->result_name = s->view_result;
    view->result_name_len = strlen(s->view_result);
    view_type(&op->result.shape, view->result_dtype, s->view_result_type,
              sizeof s->view_result_type);
    view->result.text = s->view_result_type;
    view->result.text_len = strlen(s->view_result_type);
  }
  return view;
}

/* The statement's result from the signless view's (signless_view). */
static void signless_result(emit_ctx *c, const lower_state *s,
                            const emit_op *op, const emit_op *view) {
  if (view == op || view->result_dtype == op->result_dtype) return;
  bcast__emit_line(c, 0, "%.*s = builtin.unrealized_conversion_cast %s : %s "
                   "to %.*s",
                   (int)op->result_name_len, op->result_name, s->view_result,
                   s->view_result_type, (int)op->result.text_len,
                   op->result.text);
}

bcast_status bcast__emit_lower_op(emit_ctx *c, const emit_op *op,
                                  bcast_diag *diag) {
  lower_state *s = bcast__calloc(1, sizeof *s);
  if (!s) return bcast__fail(diag, BCAST_NO_MEMORY, "out of memory");
  op_prefix(c, s->p, sizeof s->p);
  c->tmp = 0;
  bcast_status st = analyze(s, op, diag);
  if (st == BCAST_OK) {
    emit_op view_op;
    const emit_op *v = signless_view(c, s, op, &view_op);
    emit_index_constants(c, s);
    expand_ranks(c, s, v);
    read_dynamic_sizes(c, s, v);
    check_and_copy(c, s, v);
    extract_extra_scalars(c, s, v);
    emit_generic(c, s, v);
    cast_result(c, s, v);
    signless_result(c, s, op, v);
    if (c->out.err != BCAST_OK)
      st = bcast__fail(diag, c->out.err, "%s", bcast_status_text(c->out.err));
  }
  bcast__free(s);
  return st;
}
