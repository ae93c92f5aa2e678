/* bcast/shape.h - the shape algebra of MLIR's Broadcastable trait.
 *
 * A dimension is a static size >= 0 or dynamic.  Dynamic dimensions are
 * negative: BCAST_DIM_DYNAMIC (-1) is MLIR's anonymous '?', and values
 * <= -2 are named symbols (BCAST_DIM_SYMBOL(k)), which inference keeps when
 * both sides name the same symbol.  A shape is ranked (0 <= rank <=
 * BCAST_MAX_RANK) or unranked ('*', rank == BCAST_RANK_UNRANKED).  Dims are
 * stored outermost first.
 *
 * Nothing here allocates: shapes are fixed-capacity values the caller owns.
 */
#ifndef BCAST_SHAPE_H
#define BCAST_SHAPE_H

#include "bcast/export.h"
#include "bcast/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BCAST_MAX_RANK 64
#define BCAST_RANK_UNRANKED (-1)
#define BCAST_DIM_DYNAMIC ((int64_t)-1)
#define BCAST_DIM_SYMBOL(k) ((int64_t)-2 - (int64_t)(k))
#define BCAST_DIM_SYMBOL_INDEX(d) ((int64_t)-2 - (d))
#define BCAST_DIM_IS_DYNAMIC(d) ((d) < 0)

typedef struct bcast_shape {
  int32_t rank; /* BCAST_RANK_UNRANKED for '*' */
  int64_t dims[BCAST_MAX_RANK];
} bcast_shape;

/* Which system's rules a call follows.  The systems really differ; see
 * README "Profiles" for the exact differences.  TOSA comes first (0): it is
 * the default of the option structs that carry a profile, so a zeroed
 * bcast_ew_options or bcast_emit_options means it. */
#define BCAST_PROFILE_LIST(X)                                                 \
  X(TOSA, "tosa")   /* TOSA dialect: equal ranks, dims >= 1 */                \
  X(TRAIT, "trait") /* MLIR's Broadcastable document (the CLI's default) */   \
  X(MLIR, "mlir")   /* what MLIR 22's verifier really does */                 \
  X(NUMPY, "numpy") /* NumPy / ONNX multidirectional broadcasting */          \
  X(XLA, "xla")     /* XLA: equal ranks unless broadcast_dimensions given */

typedef enum bcast_profile {
#define BCAST_PROFILE_ENUM_(id, name) BCAST_PROFILE_##id,
  BCAST_PROFILE_LIST(BCAST_PROFILE_ENUM_)
#undef BCAST_PROFILE_ENUM_
      BCAST_PROFILE_COUNT
} bcast_profile;

/* A profile's name ("trait", "tosa", ...). */
BCAST_API const char *bcast_profile_name(bcast_profile profile);
/* Looks a profile up by its name; BCAST_INVALID_ARGUMENT if unknown. */
BCAST_API bcast_status bcast_profile_parse(const char *name,
                                           bcast_profile *out);

/* Sets *shape to the given ranked shape; BCAST_RANK_LIMIT beyond
 * BCAST_MAX_RANK, BCAST_INVALID_ARGUMENT for a dim below BCAST_DIM_DYNAMIC
 * that is not a symbol the caller meant (any negative value is accepted as
 * dynamic). */
BCAST_API bcast_status bcast_shape_set(bcast_shape *shape, int32_t rank,
                                       const int64_t *dims, bcast_diag *diag);
BCAST_API void bcast_shape_set_unranked(bcast_shape *shape);

/* InferDim of the trait document, extended to size 0 as MLIR and NumPy do:
 * 0 with 1 gives 0, 0 with a static size > 1 is an error, 0 with '?' gives
 * '?'.  Returns BCAST_INCOMPATIBLE for two different static sizes neither of
 * which is 1. */
BCAST_API bcast_status bcast_dim_infer(int64_t dim0, int64_t dim1,
                                       int64_t *out);

/* InferResultShape over n operands: unranked operands are skipped, ranks are
 * expanded on the left, dims combined with bcast_dim_infer.  With no ranked
 * operand the result is unranked.  The profile matters only for TOSA (ranks
 * must be equal) and XLA (ranks must be equal); the trait, mlir and numpy
 * profiles infer identically.  On failure the diagnostic names the two
 * operands, the aligned axis, each operand's own axis and both sizes. */
BCAST_API bcast_status bcast_shape_infer(size_t n, const bcast_shape *operands,
                                         bcast_profile profile,
                                         bcast_shape *out, bcast_diag *diag);

/* Verify of the trait document: infer from the operands, then check the
 * declared result.  Profiles:
 *   trait  result unranked or all operands unranked: OK; ranks must match;
 *          a static result dim must equal the inferred dim (so an inferred
 *          '?' against a static result dim is an error).
 *   mlir   as MLIR 22: only the trailing dims of the result are compared,
 *          and an inferred '?' matches any result dim.
 *   tosa   as MLIR 22's TOSA dialect: the mlir checks, then equal ranks for
 *          all ranked operands and the result; no dim may be 0.
 *   numpy  as trait.
 *   xla    as trait, with equal operand ranks.
 * On failure diag->mlir_message holds MLIR's wording for the same failure. */
BCAST_API bcast_status bcast_shape_verify(size_t n,
                                          const bcast_shape *operands,
                                          const bcast_shape *result,
                                          bcast_profile profile,
                                          bcast_diag *diag);

/* Shape text.  BCAST_SHAPE_STYLE_LIST prints "[2,?,3]", "[]" and "*";
 * BCAST_SHAPE_STYLE_MLIR prints "2x?x3", "" and "*" as MLIR's diagnostics do;
 * BCAST_SHAPE_STYLE_NUMPY prints a Python tuple as NumPy's .shape does:
 * "(2, ?, 3)", "(4,)", "()" and "*".  Symbols print as '?' unless a name
 * table is given to the symbol-aware formatter.  Writes at most size bytes
 * including the terminating NUL and returns the length the full text needs
 * (like snprintf). */
typedef enum bcast_shape_style {
  BCAST_SHAPE_STYLE_LIST,
  BCAST_SHAPE_STYLE_MLIR,
  BCAST_SHAPE_STYLE_NUMPY
} bcast_shape_style;
BCAST_API size_t bcast_shape_format(const bcast_shape *shape,
                                    bcast_shape_style style, char *buf,
                                    size_t size);
/* The same for dims held outside a bcast_shape (a tensor's rank and shape,
 * rank at most BCAST_MAX_RANK). */
BCAST_API size_t bcast_shape_format_dims(int32_t rank, const int64_t *dims,
                                         bcast_shape_style style, char *buf,
                                         size_t size);

/* Parses "[2,?,1]", "[]", "*", "2x?x1" or an MLIR shaped type
 * ("tensor<2x?x1xf32>", "vector<4xf16>", "tensor<*xi32>").  Named dims
 * ("[n,1]") need a symbol table: bcast_shape_parse_symbolic below.  The
 * whole text must be consumed. */
BCAST_API bcast_status bcast_shape_parse(const char *text, size_t len,
                                         bcast_shape *out, bcast_diag *diag);

/* Number of elements of a ranked, fully static shape, overflow-checked. */
BCAST_API bcast_status bcast_shape_elem_count(const bcast_shape *shape,
                                              int64_t *out, bcast_diag *diag);

/* Named dynamic dims.  A symbol table maps names ("n", "batch") to symbol
 * indices; BCAST_DIM_SYMBOL(k) is the dim value of symbol k.  Fixed
 * capacity, caller-owned, nothing allocates. */
#define BCAST_MAX_SYMBOLS 64
#define BCAST_SYMBOL_NAME_MAX 32
typedef struct bcast_symbols {
  int32_t count;
  char names[BCAST_MAX_SYMBOLS][BCAST_SYMBOL_NAME_MAX];
} bcast_symbols;

/* Empties a table of dim names (none yet). */
BCAST_API void bcast_symbols_init(bcast_symbols *symbols);

/* bcast_shape_parse that also accepts names ([n,1], [batch,?,3]): each
 * new name is added to symbols (BCAST_LIMIT-style errors name the culprit
 * when the table is full or a name too long). */
BCAST_API bcast_status bcast_shape_parse_symbolic(const char *text, size_t len,
                                                  bcast_symbols *symbols,
                                                  bcast_shape *out,
                                                  bcast_diag *diag);

/* bcast_shape_format that prints symbols by name ("[n,?,3]"). */
BCAST_API size_t bcast_shape_format_symbolic(const bcast_shape *shape,
                                             bcast_shape_style style,
                                             const bcast_symbols *symbols,
                                             char *buf, size_t size);

/* A run-time condition that inference could not decide: at aligned dim
 * axis, operand[0]'s dim (size[0]) and operand[1]'s dim (size[1]) must be
 * equal or one of them 1.  At least one of the two is dynamic. */
typedef struct bcast_constraint {
  int32_t axis;
  int operand[2];
  int32_t operand_axis[2];
  int64_t size[2];
} bcast_constraint;

/* bcast_shape_infer that also records every run-time check the result
 * depends on, so that the shapes broadcast exactly when all hold.  Per
 * axis: where some operand has a static size > 1, one check per dynamic dim
 * against the first such operand (it must be 1 or that size); where none
 * has, one check per two dynamic dims that are not the same symbol (any of
 * them may be 1, so none can stand for the others).  A dynamic dim met only
 * by 1, or the same symbol twice, needs no check.  Up to
 * max_constraints are stored; *n_constraints receives how many there are
 * in all. */
BCAST_API bcast_status bcast_shape_infer_constrained(
    size_t n, const bcast_shape *operands, bcast_profile profile,
    bcast_shape *out, bcast_constraint *constraints, size_t max_constraints,
    size_t *n_constraints, bcast_diag *diag);

/* Text of a constraint: "n == m or n == 1 or m == 1", with dims that have
 * no name written as "operand #0 dim 1" and static sizes as numbers. */
BCAST_API size_t bcast_constraint_format(const bcast_constraint *c,
                                         const bcast_symbols *symbols,
                                         char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* BCAST_SHAPE_H */
