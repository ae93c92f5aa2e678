/* The C-order walk over an element-wise plan's output: the reference path
 * (one element function call per element, for the tests) and checked mode,
 * which walks the output before anything is written and stops at the first
 * element whose result TOSA leaves unpredictable. */
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "bcast/elementwise.h"
#include "core/diag.h"
#include "ew/ew_plan.h"

/* Walks the output in C order with an odometer, keeping a pointer into
 * each input (broadcast dims, size 1 facing a larger output dim or missing,
 * do not move it).  visit returns nonzero to stop; the walk then returns
 * the flat index reached, else -1. */
typedef int (*walk_fn)(const struct bcast_ew_plan *plan, char *out,
                       char *const *in, void *ctx);

static int64_t walk_c_order(const struct bcast_ew_plan *plan, char *out_data,
                            const void *const *in_data, walk_fn visit,
                            void *ctx, int64_t *idx) {
  const int32_t rank = plan->out.rank;
  int64_t count = plan->engine.elem_count;
  if (count == 0) return -1;
  int64_t step[EW_MAX_INPUTS + 1][BCAST_MAX_RANK];
  char *ptr[EW_MAX_INPUTS + 1];
  ptr[0] = out_data;
  for (int32_t d = 0; d < rank; d++) {
    idx[d] = 0;
    step[0][d] = plan->out.stride_bytes[d];
  }
  for (int k = 0; k < plan->arity; k++) {
    const bcast_tensor *t = &plan->in[k];
    ptr[k + 1] = (char *)(uintptr_t)in_data[k];
    const int32_t lead = rank - t->rank;
    for (int32_t d = 0; d < rank; d++) {
      const int32_t j = d - lead;
      step[k + 1][d] = (j >= 0 && t->shape[j] == plan->out.shape[d])
                           ? t->stride_bytes[j]
                           : 0;
    }
  }
  for (int64_t flat = 0; flat < count; flat++) {
    if (visit(plan, ptr[0], ptr + 1, ctx)) return flat;
    /* Advance the odometer, innermost dim first. */
    for (int32_t d = rank - 1; d >= 0; d--) {
      for (int k = 0; k <= plan->arity; k++) ptr[k] += step[k][d];
      if (++idx[d] < plan->out.shape[d]) break;
      for (int k = 0; k <= plan->arity; k++)
        ptr[k] -= step[k][d] * plan->out.shape[d];
      idx[d] = 0;
    }
  }
  return -1;
}

static int visit_elem(const struct bcast_ew_plan *plan, char *out,
                      char *const *in, void *ctx) {
  (void)ctx;
  plan->row->elem(out, in, &plan->params);
  return 0;
}

static int visit_unpred(const struct bcast_ew_plan *plan, char *out,
                        char *const *in, void *ctx) {
  (void)out;
  char **found = ctx;
  if (!plan->row->unpred(in, &plan->params)) return 0;
  for (int k = 0; k < plan->arity; k++) found[k] = in[k];
  return 1;
}

void bcast__ew_plan_reference(const bcast_ew_plan *plan, void *out_data,
                              const void *const *in_data) {
  int64_t idx[BCAST_MAX_RANK];
  walk_c_order(plan, out_data, in_data, visit_elem, NULL, idx);
}

_Static_assert(BCAST_DIAG_INDEX_MAX == BCAST_MAX_RANK,
               "a diagnostic's element index holds every output rank");
_Static_assert(EW_MAX_INPUTS < 4, "a diagnostic's element holds the values");

/* The element's index and values, as fields of the diagnostic.  idx is
 * already in the whole output's numbering (at). */
static void record_element(const struct bcast_ew_plan *plan,
                           const int64_t *idx, const int64_t *whole,
                           char *const *found, const char *result,
                           bcast_diag *diag) {
  bcast_diag_element *e = &diag->element;
  const int32_t rank = plan->out.rank;
  e->rank = rank;
  e->flat = 0;
  for (int32_t d = 0; d < rank; d++) {
    e->index[d] = idx[d];
    e->flat = e->flat * whole[d] + idx[d];
  }
  e->operands = plan->arity;
  for (int k = 0; k <= plan->arity; k++) {
    const bcast_dtype t =
        k < plan->arity ? plan->in[k].dtype : plan->out.dtype;
    e->dtype[k] = (int32_t)t;
    memset(e->value[k], 0, sizeof e->value[k]);
    memcpy(e->value[k], k < plan->arity ? found[k] : result,
           bcast_dtype_size(t));
  }
}

/* Checked mode: the walk stops at the first unpredictable element, whose
 * index, operands and unchecked result go into the diagnostic. */
bcast_status bcast__ew_check_pass(const struct bcast_ew_plan *plan,
                                  void *out_data, const void *const *in_data,
                                  const ew_origin *at, bcast_diag *diag) {
  int64_t idx[BCAST_MAX_RANK];
  char *found[EW_MAX_INPUTS];
  if (walk_c_order(plan, out_data, in_data, visit_unpred, found, idx) < 0)
    return BCAST_OK;
  if (!diag) return BCAST_CHECKED;
  /* A tile's element is named by its place in the whole output. */
  const int64_t *whole = at ? at->whole : plan->out.shape;
  if (at)
    for (int32_t d = 0; d < plan->out.rank; d++) idx[d] += at->origin[d];
  char text[BCAST_DIAG_TEXT_MAX];
  size_t len = 0;
  text[0] = '\0';
  bcast__append(text, sizeof text, &len,
                "%s: unpredictable result (%s) at output index [", plan->label,
                bcast_op_get(plan->op)->unpredictable);
  for (int32_t d = 0; d < plan->out.rank; d++)
    bcast__append(text, sizeof text, &len, d ? ",%" PRId64 : "%" PRId64,
                  idx[d]);
  bcast__append(text, sizeof text, &len, "]:");
  for (int k = 0; k < plan->arity; k++) {
    char value[64];
    bcast_dtype_format_value(plan->in[k].dtype, found[k], value, sizeof value);
    bcast__append(text, sizeof text, &len, " operand #%d = %s%s", k, value,
                  k + 1 < plan->arity ? "," : "");
  }
  /* What an unchecked run writes there. */
  char result[16], value[64];
  plan->row->elem(result, found, &plan->params);
  bcast_dtype_format_value(plan->out.dtype, result, value, sizeof value);
  bcast__append(text, sizeof text, &len, "; unchecked, bcast gives %s", value);
  bcast__fail(diag, BCAST_CHECKED, "%s", text);
  record_element(plan, idx, whole, found, result, diag);
  return BCAST_CHECKED;
}
