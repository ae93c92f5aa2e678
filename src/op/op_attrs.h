/* Internal: the attribute rules other modules apply, each decided once
 * here: CLAMP's bounds as values of the data type (element-wise plans in
 * src/ew, bcast lower in src/emit, the MLIR literal printer in src/type),
 * the ranges of the integer types, the per-op checks of an op's attributes
 * against its data type, and the shortest text of a double. */
#ifndef BCAST_OP_ATTRS_H
#define BCAST_OP_ATTRS_H

#include <stddef.h>
#include <stdint.h>

#include "bcast/op.h"

/* CLAMP's bounds as a data type's values: lo_i/hi_i for signed and bool
 * data, lo_u/hi_u for unsigned data, lo_f/hi_f (rounded to the type) for
 * floating data.  Missing bounds are the type's limits (or -inf, +inf). */
typedef struct bcast__clamp_bounds {
  int64_t lo_i, hi_i;
  uint64_t lo_u, hi_u;
  double lo_f, hi_f;
} bcast__clamp_bounds;

/* Checks attrs->min_val and max_val against data type data by the rule in
 * bcast/op.h and converts them.  BCAST_INVALID_ARGUMENT (message prefixed
 * "tosa.clamp: ") when a bound is not a value of the type or
 * min_val > max_val. */
bcast_status bcast__op_clamp_bounds(const bcast_op_attrs *attrs,
                                    bcast_dtype data, bcast__clamp_bounds *out,
                                    bcast_diag *diag);

/* An unsigned CLAMP bound as MLIR 22's tosa-to-linalg uses it: it reads
 * the bound sign-extended and clamps it to the type's range, so a bound
 * with the top bit of its width set becomes 0 (max_val = 4294967293 :
 * ui32 clamps everything to 0).  The tosa and trait profiles follow it;
 * bits is the type's width. */
uint64_t bcast__op_clamp_bound_mlir_unsigned(uint64_t bound, unsigned bits);

/* The signless type MLIR 22's tosa-to-linalg views an unsigned one as
 * (uint8 -> int8, ...); other types are their own. */
bcast_dtype bcast__op_signless(bcast_dtype t);

/* The kernel types the tosa and trait profiles run CAST from in to out
 * with, as MLIR 22's lowering on the signless view computes it: an
 * unsigned result as the signed type of its width (a float saturates to
 * the signed range), an unsigned input as its signed type too (extended
 * by sign) unless the result is a float (arith.uitofp).  A signed input
 * into the unsigned type of its width keeps its types (the bits). */
void bcast__op_mlir_cast_kernel(bcast_dtype *in, bcast_dtype *out);

/* One value s (not NONE) as a value of type data by the same rule, in the
 * field data's kind reads (*as_int for signed and bool, *as_uint for
 * unsigned, *as_fp rounded to the type for floating types); what names it
 * in a message ("min_val").  The integer fields are both set for integer
 * data. */
bcast_status bcast__op_bound_value(const bcast_scalar *s, const char *what,
                                   bcast_dtype data, int64_t *as_int,
                                   uint64_t *as_uint, double *as_fp,
                                   bcast_diag *diag);

/* The range of an integer or bool type: [*lo, *hi] with *lo <= 0. */
void bcast__op_int_range(bcast_dtype dtype, int64_t *lo, uint64_t *hi);

/* The checks of the attributes op reads against its data type in (SELECT:
 * its values' type) under a profile: MUL's shift, CLAMP's bounds, the NaN
 * mode, NEGATE's zero points.  BCAST_INVALID_ARGUMENT naming the op and
 * the attribute. */
bcast_status bcast__op_attrs_check(bcast_op op, bcast_profile profile,
                                   bcast_dtype in, const bcast_op_attrs *a,
                                   bcast_diag *diag);

/* The shortest "%.Ng" text that reads back as v (at most 17 digits);
 * integers below 1e15 without an exponent. */
void bcast__format_double(double v, char *buf, size_t cap);

#endif
