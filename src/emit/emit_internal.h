/* Internal: the emitter's output buffer, its description of one op, and the
 * three stages (module text -> op description -> IR structure -> scalar
 * body) that share them. */
#ifndef BCAST_EMIT_INTERNAL_H
#define BCAST_EMIT_INTERNAL_H

#include <stdarg.h>

#include "bcast/dtype.h"
#include "bcast/op.h"
#include "bcast/emit.h"
#include "bcast/mlir.h"
#include "core/alloc.h"
#include "core/diag.h"

/* A growable text buffer with a sticky error: after the first failed
 * allocation every append is a no-op and err says why. */
typedef struct emit_buf {
  char *data;
  size_t len, cap;
  bcast_status err;
} emit_buf;

void bcast__emit_buf_put(emit_buf *b, const char *s, size_t n);
void bcast__emit_buf_printf(emit_buf *b, const char *fmt, ...)
    BCAST_PRINTF(2, 3);
void bcast__emit_buf_vprintf(emit_buf *b, const char *fmt, va_list ap);
void bcast__emit_buf_free(emit_buf *b);

/* An SSA value of the op: its name as written and its type. */
typedef struct emit_value {
  const char *name;
  size_t name_len;
  bcast_mlir_type type;
  bcast_dtype dtype; /* element type */
} emit_value;

/* Everything the lowering needs to know about one op statement. */
typedef struct emit_op {
  bcast_op op;
  const char *op_name; /* "tosa.add" as written */
  size_t op_name_len;
  uint32_t line, col;
  bcast_profile profile;
  bcast_type_tables tables; /* the element-type tables (the options') */
  const char *result_name;
  size_t result_name_len;
  bcast_mlir_type result;
  bcast_dtype result_dtype;
  size_t n_in; /* broadcast operands */
  emit_value in[3];
  size_t n_extra; /* tosa.mul's shift, tosa.negate's zero points */
  emit_value extra[2];
  bcast_op_attrs attrs; /* the attributes the op reads */
  /* Set by bcast__emit_lower_op for unsigned elements, which it lowers on
   * the tensors' signless view as MLIR 22 does: the dtypes above are then
   * the signless ones, and unsigned_data is the data operand's unsigned
   * type (the body's maxui / uitofp and clamp bounds follow it). */
  int is_unsigned_data;
  bcast_dtype unsigned_data;
  /* A CHLO op (lower_chlo.c): the one instruction of its body ("arith.addf",
   * "arith.cmpi slt"; NULL for TOSA ops, whose body is body.c's), and its
   * broadcast_dimensions: the result dims of the lower-rank operand's
   * dims (has_bdims 0: right-aligned). */
  const char *arith;
  int has_bdims;
  size_t n_bdims;
  int64_t bdims[BCAST_MAX_RANK];
} emit_op;

#define EMIT_MAX_MAPS 4096

/* The state of one module's lowering. */
typedef struct emit_ctx {
  emit_buf out; /* the rewritten module (without the map aliases) */
  /* Name prefixes no name of the input starts with (module.c,
   * pick_prefix): "bc" or "bc_<k>_" for SSA values, "bcast_map" or
   * "bcast_map_<k>_" for map aliases, k up to 20 digits. */
  char prefix[32];
  char map_prefix[40];
  char *maps[EMIT_MAX_MAPS]; /* affine_map<...> text, numbered by index */
  size_t n_maps;
  const bcast_emit_options *opts;
  bcast_emit_stats stats;
  /* Per op: its number, the indentation of its statement, line state. */
  size_t op_number;
  const char *indent;
  size_t indent_len;
  int first_line;
  unsigned tmp; /* counter for body temporaries */
} emit_ctx;

/* Starts a new output line at nesting depth level below the statement's
 * indentation (the first line of an op continues the statement's line). */
void bcast__emit_line(emit_ctx *c, int level, const char *fmt, ...)
    BCAST_PRINTF(3, 4);

/* The alias of an affine map ("#bcast_map3"), registering it on first use.
 * Returns 0 when the table is full (c->out.err is then set). */
int bcast__emit_map(emit_ctx *c, const char *map_text, char *alias,
                    size_t size);

/* Writes "tensor<2x?xf32>" for a shape and element type into buf. */
void bcast__emit_tensor_type(const bcast_shape *shape, bcast_dtype dtype,
                             char *buf, size_t size);
/* The same for an element type given as MLIR text ("f32"). */
void bcast__emit_tensor_type_of(const bcast_shape *shape, const char *elem,
                                char *buf, size_t size);

/* Writes "affine_map<(d0, d1, d2) -> (d2, 0)>" into buf: loops dims, n
 * results, result j being d<result[j]>, or the constant 0 where result[j]
 * is negative; result NULL: the identity (n == loops). */
void bcast__emit_affine_map(int32_t loops, int32_t n, const int32_t *result,
                            char *buf, size_t size);

/* Writes linalg's iterator_types for rank parallel loops into buf. */
void bcast__emit_iterators(int32_t rank, char *buf, size_t size);

/* Where an op's lowering is: the name prefix of its SSA values ("%bc3")
 * and the op as the input writes it, for assertion messages (line 0: an
 * op of no input, named without a position). */
typedef struct emit_site {
  const char *prefix;
  const char *op_name;
  size_t op_name_len;
  uint32_t line, col;
} emit_site;

/* Writes a cf.assert that size (an index value) is 1 or want: "operand #k
 * dim a: runtime size is neither 1 nor <want_text>".  Needs the index
 * constant "<prefix>_c1". */
void bcast__emit_assert_dim(emit_ctx *c, const emit_site *site, size_t k,
                            int32_t a, const char *size, const char *want,
                            const char *want_text);

/* The element type an op produces from its operands' element types, or
 * BCAST_TYPE when the op does not support them in the tosa profile under
 * op->tables.  For
 * tosa.cast, *out must hold the declared result type on entry. */
bcast_status bcast__emit_result_dtype(const emit_op *op, bcast_dtype *out,
                                      bcast_diag *diag);

/* Writes the body of the main linalg.generic: args are the block argument
 * names of the broadcast operands, extra the names of scalars extracted
 * from the extra operands.  Writes the yielded value's name into result. */
void bcast__emit_body(emit_ctx *c, int level, const emit_op *op,
                      const char *const *args, const char *const *extra,
                      char *result, size_t result_size);

/* Whether the emitter has a scalar body for op computing in type t (the
 * op table's body column covers t's class); the completeness test asks. */
int bcast__emit_body_supports(bcast_op op, bcast_dtype t);

/* Lowers one op at the current output position. */
bcast_status bcast__emit_lower_op(emit_ctx *c, const emit_op *op,
                                  bcast_diag *diag);

/* Writes the map aliases and then c->out through write (module.c). */
bcast_status bcast__emit_finish(emit_ctx *c, bcast_emit_write_fn write,
                                void *wctx, bcast_diag *diag);
/* Frees what c holds (not c). */
void bcast__emit_ctx_release(emit_ctx *c);

/* Starts an emit_op for a scanned op (module.c): zeroed, then its name,
 * position, profile, result name and type, default attributes. */
void bcast__emit_op_start(const bcast_mlir_op *m, bcast_profile profile,
                          emit_op *op);

/* CHLO (lower_chlo.c): whether bcast lowers the op, and an emit_op for
 * bcast__emit_lower_op from the scanned op and the verifier's verdict on
 * it. */
int bcast__emit_is_chlo_op(const char *name, size_t len);
bcast_status bcast__emit_chlo_describe(const bcast_mlir_op *m,
                                       const bcast_mlir_verdict *verdict,
                                       emit_op *op, bcast_diag *diag);

/* StableHLO's broadcast_in_dim, dynamic_broadcast_in_dim and broadcast
 * (lower_indim.c): whether bcast lowers the op, a statement read before
 * any output (describe fails without writing) and its lowering. */
typedef struct emit_indim_stmt emit_indim_stmt;
int bcast__emit_is_indim_op(const char *name, size_t len);
size_t bcast__emit_indim_stmt_size(void);
bcast_status bcast__emit_indim_describe(const bcast_mlir_op *m,
                                        emit_indim_stmt *st,
                                        bcast_diag *diag);
bcast_status bcast__emit_lower_indim(emit_ctx *c, emit_indim_stmt *st,
                                     bcast_diag *diag);

#endif
