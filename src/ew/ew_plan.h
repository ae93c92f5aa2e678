/* Internal: the element-wise plan shared by the files that build, check and
 * run it, and what the tests need to see of it.
 *
 * The plan's work is split by concern:
 *   ew_dispatch.c  the kernel tables of the four kernel files;
 *   ew_shape.c     the broadcast shape and the declared signature's checks;
 *   ew_build.c     building a plan: options, the kernels' parameters from
 *                  the attributes, variant, kernel set, output;
 *   ew_nt_store.c    the non-temporal-store wrapper around a kernel;
 *   ew_checked.c   the C-order walk: the reference path and checked mode;
 *   ew_run.c       executing a plan, and the one-call compute entry points. */
#ifndef BCAST_EW_PLAN_H
#define BCAST_EW_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "bcast/elementwise.h"
#include "ew/ew_kernel.h"
#include "plan/nt_store.h"

/* The most inputs an element-wise op takes (SELECT's three). */
#define EW_MAX_INPUTS 3

/* A plan: what building decided (variant, kernel, non-temporal stores,
 * parameters),
 * the layouts it was built for, and the engine plan over them (output =
 * operand 0, inputs after it). */
struct bcast_ew_plan {
  bcast_op op;
  const char *label; /* how messages name the op (bcast_op_label) */
  int arity;
  int variant;
  int checked;
  int threads;
  int out_c_order; /* the output layout is C-contiguous */
  int64_t max_bytes;
  const ew_row *row;
  /* The row's kernel set the plan takes its kernel from (ew_build.c's
   * kernel_set), and its non-temporal set (NULL where there is none). */
  const bcast_rows_kernel_fn *kernels;
  const bcast_rows_kernel_fn *kernels_nt;
  bcast_rows_kernel_fn kernel;
  int nt_store; /* large outputs: EW_NT_* (ew_nt_store.c) */
  /* EW_NT_KERNEL for runs of whole lines too short for it on their own:
   * taken where the output starts on a 64-byte line, else the wrapper. */
  int nt_lines;
  /* A fill reading a row along the run that takes non-temporal stores
   * races them against ordinary ones, call by call (nt_store.h). */
  int racing;
  bcast_store_race race;
  /* The engine plan has at most two dims and runs on one thread: execute
   * calls the kernel once, with these steps (bytes per element of the
   * inner dim, per row of the outer one; operand 0 the output). */
  int direct;
  int64_t step[EW_MAX_INPUTS + 1], row_step[EW_MAX_INPUTS + 1];
  ew_params params;
  bcast_tensor out;               /* layout only: data NULL */
  bcast_tensor in[EW_MAX_INPUTS]; /* layout only */
  bcast_plan engine;
};

/* ------------------------------------------------------------------------ */
/* Shared between the plan's files. */

/* Copies a tensor's layout (type, shape, strides) with no data or owner
 * (ew_shape.c). */
void bcast__ew_copy_layout(bcast_tensor *dst, const bcast_tensor *src);

/* The broadcast shape of the inputs under the profile (ew_shape.c); name
 * is the op's label (bcast_op_label). */
bcast_status bcast__ew_infer_shape(const char *name, bcast_profile profile,
                                   size_t n, const bcast_tensor *inputs,
                                   bcast_shape *out, bcast_diag *diag);

/* Appends a shape as NumPy's messages print it: "(2,3)", "(4,)", "()". */
void bcast__ew_append_numpy_shape(char *buf, size_t cap, size_t *len,
                                  int32_t rank, const int64_t *dims);
/* Words diag's message as NumPy 1.24 does for operands that do not
 * broadcast: "operands could not be broadcast together with shapes (2,3)
 * (4,) ", every input's shape and out's (when not NULL), each followed by
 * a space (ew_shape.c). */
void bcast__ew_numpy_mismatch(size_t n, const bcast_tensor *inputs,
                              const bcast_tensor *out, bcast_diag *diag);

/* The declared element types, if any, against the inputs' types.  CAST
 * without a target takes the declared result type: *attrs then points at
 * *storage, a copy with cast_to set (ew_shape.c). */
bcast_status bcast__ew_check_declared_dtypes(const bcast_ew_options *o,
                                             bcast_op op, size_t n,
                                             const bcast_tensor *inputs,
                                             const bcast_op_attrs **attrs,
                                             bcast_op_attrs *storage,
                                             bcast_diag *diag);

/* The declared signature, if any, against the bound layouts and the
 * broadcast shape of out (ew_shape.c); name is the op's label. */
bcast_status bcast__ew_check_declared(const bcast_ew_options *o,
                                      const char *name, size_t n,
                                      const bcast_tensor *inputs,
                                      const bcast_tensor *out,
                                      bcast_diag *diag);

/* bcast_ew_result_dtype under the given element-type tables
 * (ew_support.c); the plans pass their options' tables. */
bcast_status bcast__ew_result_dtype_in(bcast_op op, bcast_profile profile,
                                       bcast_type_tables tables,
                                       size_t n_inputs,
                                       const bcast_dtype *inputs,
                                       const bcast_op_attrs *attrs,
                                       bcast_dtype *out, bcast_diag *diag);

/* Fills *plan (caller storage).  out == NULL plans a new C-contiguous
 * output.  checked_result, when not NULL, is the result type the caller
 * found with bcast_ew_result_dtype and bcast_op_operand_dtypes on these
 * inputs, types and attributes, none of them to convert: the one-call
 * forms skip checking the same types twice (ew_build.c). */
bcast_status bcast__ew_plan_init(struct bcast_ew_plan *plan, bcast_op op,
                                 const bcast_op_attrs *attrs, size_t n_inputs,
                                 const bcast_tensor *inputs,
                                 const bcast_tensor *out,
                                 const bcast_ew_options *options,
                                 const bcast_dtype *checked_result,
                                 bcast_diag *diag);

/* How a plan writes its output: ordinary stores, through the
 * non-temporal wrapper (a block on the stack copied out with non-temporal
 * stores), or by the row's non-temporal kernels (ew_kernel.h), which then
 * are the plan's kernel. */
enum { EW_NT_NONE = 0, EW_NT_WRAPPER = 1, EW_NT_KERNEL = 2 };

/* How a plan with this engine plan, variant, output element size and
 * kernel set (nt_kernels: the row's non-temporal kernels where the plan
 * may take them, else NULL) writes: an EW_NT_* (ew_nt_store.c); *lines
 * is set where EW_NT_KERNEL holds only for an output on a line (the
 * plan's nt_lines), else cleared. */
int bcast__ew_want_nt_store(const bcast_plan *engine, int variant,
                            int64_t elem,
                            const bcast_rows_kernel_fn *nt_kernels,
                            int *lines);

/* What the non-temporal wrapper runs: the plan's kernel and parameters. */
typedef struct ew_nt_store_params {
  bcast_rows_kernel_fn kernel;
  const ew_params *params;
  int64_t elem; /* output element size */
  int n_operands;
} ew_nt_store_params;

/* The kernel in params (an ew_nt_store_params) writing through a block
 * buffer copied to the output with non-temporal stores (ew_nt_store.c).
 * Defined where non-temporal stores exist (BCAST__HAVE_NT_STORE). */
void bcast__ew_nt_store_kernel(int64_t rows, int64_t n, char *const *ptrs,
                               const int64_t *strides,
                               const int64_t *row_strides, const void *params);

/* Where an output lies in a larger one, for the index a checked failure
 * names: origin is the output's first element in the larger one, whole
 * the larger one's shape (both of the output's rank). */
typedef struct ew_origin {
  const int64_t *origin;
  const int64_t *whole;
} ew_origin;

/* Walks the output in C order for the first element whose result TOSA
 * leaves unpredictable: BCAST_CHECKED with the index and operands in the
 * diagnostic, else BCAST_OK.  at (NULL: the output is its own) places the
 * index in a larger output (ew_checked.c). */
bcast_status bcast__ew_check_pass(const struct bcast_ew_plan *plan,
                                  void *out_data, const void *const *in_data,
                                  const ew_origin *at, bcast_diag *diag);

/* bcast_ew_compute_into for out, one tile of a larger output that at
 * places: a checked failure names the element's index and C-order
 * position in the larger output (ew_run.c; src/save/ writes tiles). */
bcast_status bcast__ew_compute_tile(bcast_op op, const bcast_op_attrs *attrs,
                                    size_t n_inputs,
                                    const bcast_tensor *inputs,
                                    const bcast_tensor *out,
                                    const bcast_ew_options *options,
                                    const ew_origin *at, bcast_diag *diag);

/* ------------------------------------------------------------------------ */
/* Test hooks (ew_build.c, and ew_checked.c for the reference path). */

/* The kernel variant the plan runs (0 strided, 1 + mask of contiguous
 * inputs otherwise; see ew_kernel.h) and the row it came from. */
int bcast__ew_plan_variant(const bcast_ew_plan *plan);
const ew_row *bcast__ew_plan_row(const bcast_ew_plan *plan);

/* Makes the plan run the strided variant, which is valid for any layout
 * (tests compare it with the specialised ones). */
void bcast__ew_plan_force_strided(bcast_ew_plan *plan);

/* Whether plans take the v3 (AVX2 + F16C) kernel set: the CPU has it and
 * BCAST_ISA=portable is not set (ew_build.c). */
int bcast__ew_use_v3(void);

/* Whether plans take the native float16 set (AVX512-FP16) for the rows
 * that have one: the CPU has it and BCAST_ISA is neither "portable" nor
 * "v3" (ew_build.c). */
int bcast__ew_use_fp16(void);
/* Whether plans take the AVX-512 set (ew_k_v4.c) for the rows that have
 * one: the CPU has AVX-512 F, BW, DQ and VL, and BCAST_ISA is neither
 * "portable" nor "v3". */
int bcast__ew_use_v4(void);

/* Which kernel sets plans take here, in words (tests, make bench). */
const char *bcast__ew_kernel_sets(void);

/* Makes the plan run its variant's baseline (portable) kernel, or its v3
 * one (where plans may take the v3 set; nothing otherwise), and tells
 * whether it runs a kernel of a vector set (v3 or beyond), of the native
 * float16 set and of the AVX-512 set (tests compare each with the
 * reference). */
void bcast__ew_plan_force_portable(bcast_ew_plan *plan);
void bcast__ew_plan_force_v3(bcast_ew_plan *plan);
int bcast__ew_plan_uses_avx2(const bcast_ew_plan *plan);
int bcast__ew_plan_uses_fp16(const bcast_ew_plan *plan);
int bcast__ew_plan_uses_v4(const bcast_ew_plan *plan);

/* Makes a plan with a contiguous-output variant write in the way given
 * (an EW_NT_*; EW_NT_KERNEL only where the plan's kernel set has them)
 * whatever the output's size: 1, or 0 and nothing changed when it
 * cannot.  A new output is written with ordinary stores (ew_run.c), and
 * the tests compare every way with the reference. */
int bcast__ew_plan_set_nt_store(bcast_ew_plan *plan, int how);
/* How a plan writes (an EW_NT_*). */
int bcast__ew_plan_nt_stores(const bcast_ew_plan *plan);

/* Whether executing the plan calls its kernel once itself, with no
 * engine walk and no OpenMP region (small or one-thread 1- and 2-dim
 * plans; see bcast_ew_plan's direct). */
int bcast__ew_plan_direct(const bcast_ew_plan *plan);

/* The reference path: every output element in C order, one call of the
 * row's element function each, on one thread.  Same buffers as
 * bcast_ew_plan_execute. */
void bcast__ew_plan_reference(const bcast_ew_plan *plan, void *out_data,
                              const void *const *in_data);

#endif
