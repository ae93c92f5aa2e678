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
  const char *result_name;
  size_t result_name_len;
  bcast_mlir_type result;
  bcast_dtype result_dtype;
  size_t n_in; /* broadcast operands */
  emit_value in[3];
  size_t n_extra; /* tosa.mul's shift, tosa.negate's zero points */
  emit_value extra[2];
  bcast_op_attrs attrs; /* the attributes the op reads */
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

/* The element type an op produces from its operands' element types, or
 * BCAST_TYPE when the op does not support them in the tosa profile.  For
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

#endif
