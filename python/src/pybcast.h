/* pybcast.h - what the files of the CPython extension bcast._bcast share.
 *
 * The module is split by concern: module.c (method table, init),
 * errors.c (exception classes, statuses -> exceptions), convert.c (Python
 * values <-> bcast shapes, profiles, arrays), shapes.c (broadcast_shapes,
 * infer, explain, verify_shapes), views.c (broadcast_to,
 * broadcast_arrays, broadcast_in_dim, materialize), mlir.c (verify_mlir,
 * lower), tiles.c (input_box, output_box, tiles), ops.c (the element-wise
 * ops, bcast.OPS), plan.c (bcast.plan, bcast.Plan) and save.c (save_op,
 * save_broadcast_to).
 * Everything here is internal: names start with pb_. */
#ifndef BCAST_PYBCAST_H
#define BCAST_PYBCAST_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL pb_numpy_api
#ifndef PB_IMPORT_NUMPY
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

#include "bcast/bcast.h"

/* Adds the module's exception classes (BroadcastError, BudgetError,
 * MLIRError, CheckedError) to m and resolves the class each library
 * status raises, from the Python column of BCAST_STATUS_LIST (errors.c).
 * -1 with an exception set. */
int pb_add_exceptions(PyObject *m);
/* bcast.MLIRError (a ValueError), which lower raises for the failing ops
 * of a module; set by pb_add_exceptions. */
extern PyObject *pb_MLIRError;

/* A method's function, cast for a PyMethodDef that takes keywords. */
#define PB_KW(fn) ((PyCFunction)(void (*)(void))(fn))

/* Raises the exception a failed library call's status names in the
 * status list, with the diagnostic's message and its fields as
 * attributes: status, operands, axis, operand_axes, sizes, mlir_message
 * (and index, values, result for BCAST_CHECKED).  Returns NULL. */
PyObject *pb_raise(bcast_status status, const bcast_diag *diag);

/* "O&" converter: a profile name, or None for the caller's default (which
 * *out holds on entry). */
int pb_profile_converter(PyObject *obj, void *out);
/* "O&" converter of a threads= argument into the int *out: None (0, the
 * OpenMP default) or an int in 0..PB_MAX_THREADS, else TypeError or
 * ValueError.  Every threads= of the module goes through it. */
#define PB_MAX_THREADS 4096
int pb_threads_converter(PyObject *obj, void *out);

/* The UTF-8 bytes of the str obj (borrowed from it) and their count;
 * NULL with TypeError when obj is no str, or ValueError when it cannot be
 * encoded (a lone surrogate), naming what. */
const char *pb_utf8(PyObject *obj, Py_ssize_t *len, const char *what);
/* pb_utf8 for text the library takes NUL-terminated: also ValueError for
 * an embedded NUL. */
const char *pb_cstr(PyObject *obj, const char *what);
/* A str of library text (a diagnostic, a name), which may quote a
 * user's bytes that are not UTF-8: those decode as U+FFFD. */
PyObject *pb_text(const char *text);

/* A shape from Python: an int (a 1-d shape, as NumPy takes it), a
 * sequence of dims, or the library's shape text ("*", "[n,?,3]",
 * "2x?x3", "tensor<2x?xf32>").  With symbols, a dim may also be None or
 * "?" (dynamic) or a name (a named dim, added to symbols); without, dims
 * are ints >= 0.  what names the argument in error messages.  Returns 0,
 * or -1 with TypeError / ValueError / OverflowError set. */
int pb_shape_from(PyObject *obj, bcast_shape *out, bcast_symbols *symbols,
                  const char *what);
/* A shape as Python: a tuple of ints, None for '?' and names for named
 * dims, or "*" when unranked. */
PyObject *pb_shape_to(const bcast_shape *shape, const bcast_symbols *symbols);
/* A dim as Python: an int, None ('?') or the symbol's name. */
PyObject *pb_dim_to(int64_t dim, const bcast_symbols *symbols);
/* A writeable ndarray of the library's dtype taking over the owned tensor
 * t (released on failure). */
PyObject *pb_tensor_to_array(bcast_tensor *t);
/* NumPy's type number for a library dtype; -1 for bfloat16 (NumPy has
 * none). */
int pb_npy_type(bcast_dtype dtype);

/* An int >= 0 (anything with __index__ but a float, as NumPy takes
 * dims): 0, or -1 with TypeError, ValueError or OverflowError naming
 * what. */
int pb_size_from(PyObject *obj, int64_t *out, const char *what);
/* A sequence of ints >= 0 into dims[0..cap) (more: ValueError); *n
 * receives the count. */
int pb_ints_from(PyObject *obj, int64_t *dims, size_t cap, size_t *n,
                 const char *what);

/* new_dims={dim: size} (a dict) into sizes[0..BCAST_MAX_RANK); with
 * dynamic, a size may be None (BCAST_DIM_DYNAMIC).  0, or -1 with
 * TypeError / ValueError / OverflowError. */
int pb_dim_sizes_from(PyObject *obj, bcast_dim_size *sizes, size_t *n,
                      int dynamic);

/* An array argument: the NumPy array (np.asarray of what was passed) and
 * a borrowed bcast tensor of its memory, of the same shape and strides.
 * NumPy's fixed-width strings ('S' and 'U'), which the library has no
 * element type for, are wrapped as uint8 (bytewise = 1): views only need
 * the strides of the array's own dims, and a copy adds the bytes of an
 * item as one more, innermost dim (pb_with_byte_dim). */
typedef struct pb_array {
  PyArrayObject *array; /* owned reference */
  bcast_tensor tensor;
  int bytewise;
  int writeback; /* array is an aligned copy of an out= (pb_out_array) */
} pb_array;

/* Converts obj as np.asarray does and wraps it.  Refuses (TypeError)
 * dtypes the library has no type for, and strings unless allow_strings.
 * Returns 0, or -1 with an exception set (nothing to release). */
int pb_array_from(PyObject *obj, pb_array *out, int allow_strings,
                  const char *what);
/* Writes an out= that pb_out_array had to copy (unaligned) back into
 * the caller's array, after a run that succeeded.  0, or -1 with an
 * exception set.  pb_array_release discards such a copy unwritten. */
int pb_array_commit(pb_array *a);
void pb_array_release(pb_array *a);
/* The array's shape as a bcast_shape. */
void pb_array_shape(const pb_array *a, bcast_shape *out);
/* Adds a bytewise src's byte dim (item size, stride 1) to t, a view of
 * src; nothing for other arrays.  -1 with ValueError beyond the rank
 * limit. */
int pb_with_byte_dim(bcast_tensor *t, const pb_array *src);

/* A read-only ndarray of view, a view of src's memory that keeps src's
 * array alive (its base). */
PyObject *pb_view_to_array(const bcast_tensor *view, const pb_array *src);
/* A writeable ndarray that takes over the owned tensor t (its buffer is
 * freed with the array); the dtype is src's, and the byte dim of a
 * bytewise src is left out. */
PyObject *pb_owned_to_array(bcast_tensor *t, const pb_array *src);

/* A list from a sequence argument; a new reference or NULL with TypeError
 * naming what.  The list is always a new one, a snapshot of obj: converting
 * its items may run the user's code (__index__, __str__, ...), which must
 * not change what is being read, so every container of the user's is read
 * through such a copy (pb_sequence, or PyDict_Items for a dict). */
PyObject *pb_sequence(PyObject *obj, const char *what);

/* ------------------------------------------------------------------------
 * The element-wise ops (ops.c) and their plans (plan.c). */

/* Adds the element-wise ops to the module m: one function per row of
 * BCAST_OP_LIST and per alias, and OPS, the tuple of their names.  -1
 * with an exception set. */
int pb_add_ops(PyObject *m);
/* Adds the type Plan (bcast.plan's result) to m; -1 with an exception. */
int pb_add_plan_type(PyObject *m);

/* The most inputs an op takes (SELECT's three); pb_add_ops refuses an op
 * table with more. */
#define PB_MAX_INPUTS 3
/* The inputs' names in error messages: "input 0", ... */
extern const char *const pb_input_names[PB_MAX_INPUTS];

/* An op's per-call state: inputs (arrays or Python scalars turned into
 * rank-0 tensors), attributes and options. */
typedef struct pb_op_call {
  bcast_op op;
  int arity;
  pb_array arrays[PB_MAX_INPUTS]; /* array inputs (array == NULL else) */
  bcast_scalar scalars[PB_MAX_INPUTS];
  bcast_tensor inputs[PB_MAX_INPUTS];
  int owned[PB_MAX_INPUTS]; /* inputs[k] is a scalar's own tensor */
  bcast_op_attrs attrs;
  PyObject *wide_bound[2]; /* owned: a CLAMP bound beyond 64 bits */
  bcast_dtype cast_to;
  bcast_ew_options options;
  unsigned fp_errors; /* the errors the op met (numpy profile) */
  PyObject *out; /* owned: the keyword arguments are read from a copy */
} pb_op_call;

/* Parses an op's arguments (args[first..]: its inputs, positional
 * attributes and out; kwargs) into c.  -1 with an exception set; c must
 * be released either way. */
int pb_op_call_parse(pb_op_call *c, bcast_op op, PyObject *args,
                     Py_ssize_t first, PyObject *kwargs);
void pb_op_call_release(pb_op_call *c);
/* A Python int, float or bool (not a NumPy scalar: those have a type) as
 * a weak scalar; 1 when obj is one, 2 for an int beyond 64 bits (*out is
 * then the int 0, for typing; pb_scalar_tensor takes its value from obj),
 * 0 when not, -1 on error. */
int pb_weak_scalar(PyObject *obj, bcast_scalar *out);
/* The rank-0 tensor of dt for the Python scalar obj (pb_weak_scalar gave
 * scalar and kind).  An int of a float type is, as NumPy converts it, the
 * nearest double rounded to the type; beyond 64 bits it is true as a bool
 * and in no integer type
 * (OverflowError in NumPy's words: "Python integer 300 out of bounds for
 * int8").  -1 with an exception set. */
int pb_scalar_tensor(PyObject *obj, const bcast_scalar *scalar, int kind,
                     bcast_dtype dt, bcast_tensor *out);
/* An array input wrapped without a copy, except an array in non-native
 * byte order: its native copy (the kernels read native values). */
int pb_input_array(PyObject *obj, pb_array *out, const char *what);
/* out=: a writeable ndarray in native byte order, wrapped. */
int pb_out_array(PyObject *obj, pb_array *out);
/* pb_raise for a failed op; a CheckedError also gets .op, the op's name.
 * Returns NULL. */
PyObject *pb_op_raise(bcast_op op, bcast_status st, const bcast_diag *diag);
/* Handles the errors an op met (BCAST_FPE_* bits) as np.geterr() says,
 * as NumPy's ufuncs do: warnings, FloatingPointError, the errcall (errors.c).
 * 0, or -1 with an exception set. */
int pb_fp_report(bcast_op op, unsigned errors);

#endif
