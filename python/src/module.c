/* bcast._bcast: the method table and the module's init (pybcast.h).
 * Docstrings follow NumPy's conventions. */
#define PB_IMPORT_NUMPY
#include "pybcast.h"

PyObject *pb_broadcast_shapes(PyObject *, PyObject *, PyObject *);
PyObject *pb_infer(PyObject *, PyObject *, PyObject *);
PyObject *pb_explain(PyObject *, PyObject *, PyObject *);
PyObject *pb_verify_shapes(PyObject *, PyObject *, PyObject *);
PyObject *pb_broadcast_to(PyObject *, PyObject *, PyObject *);
PyObject *pb_broadcast_arrays(PyObject *, PyObject *, PyObject *);
PyObject *pb_broadcast_in_dim(PyObject *, PyObject *, PyObject *);
PyObject *pb_materialize(PyObject *, PyObject *, PyObject *);
PyObject *pb_verify_mlir(PyObject *, PyObject *, PyObject *);
PyObject *pb_lower(PyObject *, PyObject *, PyObject *);
PyObject *pb_lower_partial(PyObject *, PyObject *, PyObject *);
PyObject *pb_plan(PyObject *, PyObject *, PyObject *);
PyObject *pb_input_box(PyObject *, PyObject *, PyObject *);
PyObject *pb_output_box(PyObject *, PyObject *, PyObject *);
PyObject *pb_tiles(PyObject *, PyObject *, PyObject *);
PyObject *pb_save_op(PyObject *, PyObject *, PyObject *);
PyObject *pb_save_broadcast_to(PyObject *, PyObject *, PyObject *);

#define SHAPE_DOC                                                             \
  "A shape is a tuple (or list) of dims, an int (a 1-d shape) or the\n"       \
  "library's shape text ('*', '[n,?,3]', '2x?x3', 'tensor<2x?xf32>').  A\n"   \
  "dim is an int >= 0, None or '?' (dynamic, MLIR's '?') or a name (a\n"      \
  "named dynamic dim: equal names are the same size).  The shape '*' is\n"    \
  "unranked.  profile is one of 'numpy' (the default), 'trait', 'mlir',\n"    \
  "'tosa', 'xla'.\n"

#define CHECKS_DOC                                                            \
  "checks lists the run-time conditions the result depends on (a dynamic\n"   \
  "dim met by a size > 1 or by another dim of unknown size), each a dict\n"   \
  "with axis, operands, operand_axes, sizes and condition (text such as\n"    \
  "'n == 3 or n == 1').\n"

/* The element-wise ops are not in this table: pb_add_ops (ops.c) binds
 * one C function per row of BCAST_OP_LIST at init. */
static PyMethodDef methods[] = {
    {"broadcast_shapes", PB_KW(pb_broadcast_shapes),
     METH_VARARGS | METH_KEYWORDS,
     "broadcast_shapes(*shapes, profile='numpy')\n--\n\n"
     "The shape the shapes broadcast to, as a tuple (as\n"
     "numpy.broadcast_shapes).\n\n" SHAPE_DOC
     "\nRaises BroadcastError (a ValueError) with the operands, axis and\n"
     "sizes that do not broadcast."},
    {"infer", PB_KW(pb_infer), METH_VARARGS | METH_KEYWORDS,
     "infer(*shapes, profile='numpy')\n--\n\n"
     "Infers the broadcast shape and the run-time checks it needs, as\n"
     "`bcast infer` does: a dict {'shape': tuple, 'checks': "
     "[...]}.\n\n" SHAPE_DOC CHECKS_DOC},
    {"explain", PB_KW(pb_explain), METH_VARARGS | METH_KEYWORDS,
     "explain(*shapes, profile='numpy')\n--\n\n"
     "Implicit broadcasting spelled out as BroadcastInDim, as\n"
     "`bcast explain` does: a dict with 'shape', 'checks' (as infer) and\n"
     "'operands', one entry per shape (None for an unranked one): a dict\n"
     "with broadcast_dimensions (operand dim i -> result dim), expanded\n"
     "(operand dims of size 1 stretched to a static size), maybe_expanded\n"
     "(size 1 against a dynamic result dim) and runtime_checks (dynamic\n"
     "operand dims that must be checked when bound).\n\n" SHAPE_DOC},
    {"verify_shapes", PB_KW(pb_verify_shapes), METH_VARARGS | METH_KEYWORDS,
     "verify_shapes(operands, result, profile='numpy')\n--\n\n"
     "Checks a declared result shape against the operand shapes as MLIR's\n"
     "Broadcastable trait verifier does under the profile; returns None or\n"
     "raises BroadcastError (mlir_message holds MLIR's "
     "wording).\n\n" SHAPE_DOC},
    {"broadcast_to", PB_KW(pb_broadcast_to), METH_VARARGS | METH_KEYWORDS,
     "broadcast_to(array, shape)\n--\n\n"
     "A read-only view of array broadcast to shape, as numpy.broadcast_to:\n"
     "no data is copied, broadcast dims have stride 0, and the view's base\n"
     "keeps the array alive.  array is anything numpy.asarray accepts;\n"
     "bool, int8..uint64, float16/32/64 and strings (S, U) in either byte\n"
     "order.  Raises BroadcastError when the shapes do not broadcast."},
    {"broadcast_arrays", PB_KW(pb_broadcast_arrays),
     METH_VARARGS | METH_KEYWORDS,
     "broadcast_arrays(*arrays)\n--\n\n"
     "Read-only views of the arrays broadcast against each other, as\n"
     "numpy.broadcast_arrays (a tuple).  Unlike NumPy's, every result is a\n"
     "new read-only view, also of an array that needs no broadcasting."},
    {"broadcast_in_dim", PB_KW(pb_broadcast_in_dim),
     METH_VARARGS | METH_KEYWORDS,
     "broadcast_in_dim(array, shape=None, broadcast_dimensions=None, *,\n"
     "                 any_order=False, new_dims=None)\n--\n\n"
     "XLA's BroadcastInDim as a read-only view: array dim i becomes dim\n"
     "broadcast_dimensions[i] of shape (size 1 or equal); other dims are\n"
     "new (stride 0).  broadcast_dimensions must increase unless\n"
     "any_order (StableHLO), which folds a transpose into the view.\n"
     "Partial form (PyTensor): instead of shape, new_dims={dim: size}\n"
     "gives the sizes of the output dims no array dim maps to, and of\n"
     "size-1 array dims to stretch."},
    {"materialize", PB_KW(pb_materialize), METH_VARARGS | METH_KEYWORDS,
     "materialize(*arrays, max_bytes=1073741824, threads=None)\n--\n\n"
     "ONNX Broadcast: new C-contiguous arrays holding each array broadcast\n"
     "to the common shape (a tuple).  All outputs together must fit in\n"
     "max_bytes (1 GiB by default), else BudgetError (a MemoryError)\n"
     "says how many bytes they need.  threads: OpenMP threads for large\n"
     "copies, 0..4096 (None or 0: OpenMP's default).\n"
     "The GIL is released while copying."},
    {"verify_mlir", PB_KW(pb_verify_mlir), METH_VARARGS | METH_KEYWORDS,
     "verify_mlir(text, profile=None, op_profile=None, ops=None, *,\n"
     "            no_dialect=None, chlo_rule='chlo', tosa_validate=False)\n"
     "--\n\n"
     "Checks the broadcasting ops of an MLIR module (TOSA element-wise\n"
     "ops, test.broadcastable, StableHLO's broadcast, broadcast_in_dim\n"
     "and dynamic_broadcast_in_dim, chlo.broadcast_*, the ops op_profile\n"
     "names exactly and the names in ops) as `bcast verify` does.\n"
     "Returns a list of diagnostics, empty when all pass: dicts with line,\n"
     "column, op, message (MLIR's wording), notes (bcast's explanation),\n"
     "status, profile and outcome ('failed', or 'cannot check' for an op\n"
     "outside bcast's model, e.g. a type it does not read).  profile\n"
     "judges ops other than tosa.* (default 'trait'); op_profile is\n"
     "'PATTERN=PROFILE', a list of such rules or a dict {pattern: profile}\n"
     "('tosa.*', 'mydialect.add', '*').  no_dialect: dialects whose ops\n"
     "are not checked by default ('tosa', 'stablehlo', 'chlo');\n"
     "chlo_rule='xla' refuses an illegal broadcast_dimensions that CHLO's\n"
     "verifier accepts; tosa_validate=True adds the type checks of\n"
     "mlir-opt's -tosa-validate pass (bcast verify --tosa-validate)."},
    {"lower", PB_KW(pb_lower), METH_VARARGS | METH_KEYWORDS,
     "lower(text, only=None, assert_broadcast=False, profile=None,\n"
     "      op_profile=None, source_name=None)\n--\n\n"
     "The module with its TOSA element-wise ops lowered to linalg.generic,\n"
     "as `bcast lower` does (a str).  only: op names to lower ('add' or\n"
     "'tosa.add'); assert_broadcast adds cf.assert checks of dynamic\n"
     "dims; profile and op_profile as in verify_mlir.  Raises MLIRError\n"
     "listing every op that cannot be lowered (.diagnostics, as\n"
     "verify_mlir returns them)."},
    {"lower_partial", PB_KW(pb_lower_partial), METH_VARARGS | METH_KEYWORDS,
     "lower_partial(shape, broadcast_dimensions, new_dims, *, dtype=None,\n"
     "              form='linalg', assert_broadcast=False, name=None)\n"
     "--\n\n"
     "PyTensor's partial broadcast_in_dim as an MLIR function (a str), as\n"
     "`bcast broadcast-in-dim --emit` writes it: func.func @name (default\n"
     "broadcast_in_dim) of %operand (shape; None or '?' for dynamic dims)\n"
     "and one index argument %size<O> per new_dims entry {O: None}.  The\n"
     "output takes the operand's dims (tensor.dim where dynamic) and the\n"
     "sizes new_dims gives (ints, or None: the argument).  form 'linalg':\n"
     "tensor.empty + linalg.broadcast / linalg.generic; 'stablehlo':\n"
     "tensor.from_elements + stablehlo.dynamic_broadcast_in_dim.  dtype:\n"
     "the element type ('float32' or 'f32', ...; default float32).\n"
     "assert_broadcast: cf.assert that a dynamic operand dim given a size\n"
     "is 1 or that size.  Raises BroadcastError for an invalid map."},
    {"plan", PB_KW(pb_plan), METH_VARARGS | METH_KEYWORDS,
     "plan(op, /, *inputs, out=None, profile='numpy', checked=False,\n"
     "     threads=None, **attributes)\n--\n\n"
     "A prepared element-wise op (a bcast.Plan) for inputs and out like\n"
     "these (their dtypes, shapes and strides; the data is not read),\n"
     "with the arguments bcast.<op> takes.  p(*inputs, out=None) runs it\n"
     "on arrays laid out exactly so (ValueError otherwise): a new array,\n"
     "or into out when the plan was made with out=."},
    {"input_box", PB_KW(pb_input_box), METH_VARARGS | METH_KEYWORDS,
     "input_box(shape, out_shape, lo, hi, dims=None)\n--\n\n"
     "The box (lo, hi) of an operand of the given shape that the output\n"
     "box [lo, hi) of out_shape reads: exactly the elements it needs, [0, 1)\n"
     "on a dim it broadcasts.  dims=None is implicit (NumPy) broadcasting,\n"
     "else BroadcastInDim's map (operand dim i lands on output dim\n"
     "dims[i]).  Shapes are static."},
    {"output_box", PB_KW(pb_output_box), METH_VARARGS | METH_KEYWORDS,
     "output_box(shape, out_shape, lo, hi, dims=None)\n--\n\n"
     "The inverse of input_box: the box of out_shape whose elements read\n"
     "anything of the operand box [lo, hi) (where a shard's elements go)."},
    {"tiles", PB_KW(pb_tiles), METH_VARARGS | METH_KEYWORDS,
     "tiles(out_shape, shapes, budget, *, itemsizes=None, out_itemsize=8,\n"
     "      dims=None)\n--\n\n"
     "Splits out_shape into boxes [(lo, hi), ...] in C order whose bytes\n"
     "(the output box and each operand's input box, at the item sizes\n"
     "given, 8 by default) stay within budget; each is one contiguous run\n"
     "of a C-order output.  dims: one map (or None) per operand.  Raises\n"
     "BudgetError when not even one element fits."},
    {"save_op", PB_KW(pb_save_op), METH_VARARGS | METH_KEYWORDS,
     "save_op(path, op, /, *inputs, memory=1073741824, profile='numpy',\n"
     "        checked=False, threads=None, **attributes)\n--\n\n"
     "Writes op(*inputs) to the .npy file path (str, bytes or a path\n"
     "object) with numpy.save's bytes, tile by tile: the call holds one\n"
     "tile of at most memory / 2 bytes (64 MiB at most), not the result,\n"
     "so the file may be far larger than memory.  op is a name as\n"
     "bcast.plan takes it; inputs, attributes and keywords are those of\n"
     "bcast.<op> (no out).  Every type, shape and attribute error comes\n"
     "before anything is written; a failure (CheckedError at the first\n"
     "unpredictable element of the whole output, OSError for the disk,\n"
     "BudgetError for a memory too small for one element) leaves the\n"
     "file as it was.  The GIL is released while writing."},
    {"save_broadcast_to", PB_KW(pb_save_broadcast_to),
     METH_VARARGS | METH_KEYWORDS,
     "save_broadcast_to(path, array, shape, *, memory=1073741824,\n"
     "                  threads=None)\n--\n\n"
     "Writes numpy.broadcast_to(array, shape) to the .npy file path with\n"
     "the bytes numpy.save writes for its C-ordered copy (an array in\n"
     "non-native byte order keeps it),\n"
     "tile by tile within memory as save_op does: the broadcast is never\n"
     "held whole.  Raises BroadcastError when the shapes do not\n"
     "broadcast, TypeError for strings."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "bcast._bcast",
    "The C core of the bcast package: libbcast's broadcasting for NumPy\n"
    "arrays and shapes, without copies.",
    -1,
    methods,
    NULL,
    NULL,
    NULL,
    NULL};

PyMODINIT_FUNC PyInit__bcast(void) {
  import_array();
  PyObject *m = PyModule_Create(&module_def);
  if (!m) return NULL;
  if (pb_add_exceptions(m) < 0 || pb_add_ops(m) < 0 ||
      pb_add_plan_type(m) < 0 ||
      PyModule_AddStringConstant(m, "__version__", bcast_version()) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
