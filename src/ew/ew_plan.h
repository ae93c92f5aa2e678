/* Internal: what the tests need to see of an element-wise plan. */
#ifndef BCAST_EW_PLAN_H
#define BCAST_EW_PLAN_H

#include "bcast/elementwise.h"
#include "ew/ew_kernel.h"

/* The kernel variant the plan runs (0 strided, 1 + mask of contiguous
 * inputs otherwise; see ew_kernel.h) and the row it came from. */
int bcast__ew_plan_variant(const bcast_ew_plan *plan);
const ew_row *bcast__ew_plan_row(const bcast_ew_plan *plan);

/* Makes the plan run the strided variant, which is valid for any layout
 * (tests compare it with the specialised ones). */
void bcast__ew_plan_force_strided(bcast_ew_plan *plan);

/* Makes the plan run its variant's baseline (non-AVX2) kernel, and tells
 * whether it runs an AVX2 one (tests compare both with the reference). */
void bcast__ew_plan_force_portable(bcast_ew_plan *plan);
int bcast__ew_plan_uses_avx2(const bcast_ew_plan *plan);

/* Makes a plan with a contiguous-output variant write through the
 * streaming-store wrapper whatever the output's size (tests compare it with
 * the reference), and tells whether a plan streams. */
void bcast__ew_plan_force_stream(bcast_ew_plan *plan);
int bcast__ew_plan_streams(const bcast_ew_plan *plan);

/* The reference path: every output element in C order, one call of the
 * row's element function each, on one thread.  Same buffers as
 * bcast_ew_plan_execute. */
void bcast__ew_plan_reference(const bcast_ew_plan *plan, void *out_data,
                              const void *const *in_data);

#endif
