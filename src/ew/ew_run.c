/* Running an element-wise plan: executing it on bound buffers (checked
 * mode first if asked, then the engine with the plan's kernel or its
 * streaming wrapper), running it on tensors after checking their layouts
 * and overlap, and the one-call compute entry points that plan and run. */
#include <stdint.h>
#include <string.h>

#include "bcast/elementwise.h"
#include "core/diag.h"
#include "ew/ew_plan.h"

bcast_status bcast_ew_plan_execute(const bcast_ew_plan *plan, void *out_data,
                                   const void *const *in_data,
                                   bcast_diag *diag) {
  if (plan->checked) {
    bcast_status status = bcast__ew_check_pass(plan, out_data, in_data, diag);
    if (status != BCAST_OK) return status;
  }
  char *base[EW_MAX_INPUTS + 1];
  base[0] = out_data;
  for (int k = 0; k < plan->arity; k++)
    base[k + 1] = (char *)(uintptr_t)in_data[k];
#if BCAST__HAVE_STREAM
  if (plan->stream) {
    const ew_stream_params sp = {plan->kernel, &plan->params,
                                 plan->engine.elem_bytes[0], plan->arity + 1};
    bcast_plan_run2(&plan->engine, base, bcast__ew_stream_kernel, &sp,
                    plan->threads);
    return BCAST_OK;
  }
#endif
  bcast_plan_run2(&plan->engine, base, plan->kernel, &plan->params,
                  plan->threads);
  return BCAST_OK;
}

/* Whether two tensors have the same type, shape and strides (the stride of
 * a dim of size 0 or 1 is never used, so it may differ). */
static int same_layout(const bcast_tensor *a, const bcast_tensor *b) {
  if (a->dtype != b->dtype || a->rank != b->rank) return 0;
  for (int32_t i = 0; i < a->rank; i++)
    if (a->shape[i] != b->shape[i] ||
        (a->shape[i] > 1 && a->stride_bytes[i] != b->stride_bytes[i]))
      return 0;
  return 1;
}

/* The bytes [lo, hi) a tensor's elements occupy. */
static void byte_span(const bcast_tensor *t, uintptr_t *lo, uintptr_t *hi) {
  intptr_t low = 0, high = 0;
  for (int32_t i = 0; i < t->rank; i++) {
    if (t->shape[i] == 0) {
      *lo = *hi = (uintptr_t)t->data;
      return;
    }
    const intptr_t reach = (intptr_t)((t->shape[i] - 1) * t->stride_bytes[i]);
    if (reach < 0) low += reach;
    else high += reach;
  }
  *lo = (uintptr_t)t->data + (uintptr_t)low;
  *hi = (uintptr_t)t->data + (uintptr_t)high +
        (uintptr_t)bcast_dtype_size(t->dtype);
}

bcast_status bcast_ew_plan_run(const bcast_ew_plan *plan,
                               const bcast_tensor *inputs,
                               const bcast_tensor *out, bcast_diag *diag) {
  const char *name = bcast_op_get(plan->op)->name;
  if (!same_layout(out, &plan->out))
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "tosa.%s: the output's type, shape or strides differ "
                       "from the plan's",
                       name);
  const void *in_data[EW_MAX_INPUTS];
  uintptr_t out_lo, out_hi;
  byte_span(out, &out_lo, &out_hi);
  for (int k = 0; k < plan->arity; k++) {
    if (!same_layout(&inputs[k], &plan->in[k]))
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "tosa.%s: operand #%d's type, shape or strides "
                         "differ from the plan's",
                         name, k);
    uintptr_t lo, hi;
    byte_span(&inputs[k], &lo, &hi);
    const int overlap = lo < out_hi && out_lo < hi;
    const int in_place = inputs[k].data == out->data &&
                         inputs[k].dtype == out->dtype &&
                         same_layout(&inputs[k], out);
    if (overlap && !in_place)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "tosa.%s: the output overlaps operand #%d without "
                         "being it; in place needs the output's shape, "
                         "strides and type",
                         name, k);
    in_data[k] = inputs[k].data;
  }
  return bcast_ew_plan_execute(plan, out->data, in_data, diag);
}

bcast_status bcast_ew_compute(bcast_op op, const bcast_op_attrs *attrs,
                              size_t n_inputs, const bcast_tensor *inputs,
                              bcast_tensor *result,
                              const bcast_ew_options *options,
                              bcast_diag *diag) {
  struct bcast_ew_plan plan;
  memset(result, 0, sizeof *result);
  bcast_status status =
      bcast__ew_plan_init(&plan, op, attrs, n_inputs, inputs, NULL, options,
                          diag);
  /* A new output's pages are zeroed by the OS as they are first touched,
   * through the cache: ordinary stores then hit those lines, where
   * streaming stores would write each line twice (measured: 4096x1 +
   * 1x4096 float32 into a new output 9.0 ms streaming, 6.8 ms cached). */
  plan.stream = 0;
  if (status == BCAST_OK) status = bcast_ew_plan_alloc_output(&plan, result, diag);
  if (status != BCAST_OK) return status;
  const void *in_data[EW_MAX_INPUTS];
  for (size_t k = 0; k < n_inputs; k++) in_data[k] = inputs[k].data;
  status = bcast_ew_plan_execute(&plan, result->data, in_data, diag);
  if (status != BCAST_OK) bcast_tensor_release(result);
  return status;
}

bcast_status bcast_ew_compute_into(bcast_op op, const bcast_op_attrs *attrs,
                                   size_t n_inputs, const bcast_tensor *inputs,
                                   const bcast_tensor *out,
                                   const bcast_ew_options *options,
                                   bcast_diag *diag) {
  struct bcast_ew_plan plan;
  bcast_status status =
      bcast__ew_plan_init(&plan, op, attrs, n_inputs, inputs, out, options,
                          diag);
  if (status != BCAST_OK) return status;
  return bcast_ew_plan_run(&plan, inputs, out, diag);
}
