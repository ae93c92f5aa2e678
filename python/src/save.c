/* bcast.save_op and bcast.save_broadcast_to: outputs larger than memory,
 * written to .npy files tile by tile by the library (bcast/save.h) with
 * numpy.save's bytes, holding one tile instead of the output. */
#include "pybcast.h"

#include <string.h>

/* memory= when not given: as the CLI's --memory. */
#define PB_DEFAULT_MEMORY ((int64_t)1 << 30)

/* path: str, bytes or a path object, as os.fsencode gives it (a new
 * bytes object in *out); a str the file system's encoding cannot hold is
 * a ValueError naming the argument, not a codec's error. */
static int path_converter(PyObject *obj, void *out) {
  const int rc = PyUnicode_FSConverter(obj, out);
  if (!rc && PyErr_ExceptionMatches(PyExc_UnicodeError)) {
    PyErr_Clear();
    PyErr_SetString(PyExc_ValueError,
                    "path cannot be encoded as a file name (a lone "
                    "surrogate)");
  }
  return rc;
}

/* memory=, an int >= 0 (None: the default). */
static int memory_converter(PyObject *obj, void *out) {
  int64_t *memory = out;
  *memory = PB_DEFAULT_MEMORY;
  return obj == Py_None || pb_size_from(obj, memory, "memory") == 0;
}

/* Takes memory= out of an op's keyword arguments (the rest are the op's):
 * a new dict without it in *rest (NULL for no keywords). */
static int split_memory(PyObject *kwargs, PyObject **rest, int64_t *memory) {
  *rest = NULL;
  *memory = PB_DEFAULT_MEMORY;
  if (!kwargs) return 0;
  if (!(*rest = PyDict_Copy(kwargs))) return -1;
  PyObject *value = PyDict_GetItemString(*rest, "memory"); /* borrowed */
  if (!value) return 0;
  Py_INCREF(value);
  const int ok = memory_converter(value, memory) &&
                 PyDict_DelItemString(*rest, "memory") == 0;
  Py_DECREF(value);
  return ok ? 0 : -1;
}

PyObject *pb_save_op(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  const Py_ssize_t n = PyTuple_GET_SIZE(args);
  if (n < 2) {
    PyErr_SetString(PyExc_TypeError,
                    "save_op(path, op, *inputs, ...) needs a path and an op");
    return NULL;
  }
  PyObject *path = NULL, *rest = NULL;
  const char *name = pb_cstr(PyTuple_GET_ITEM(args, 1), "op");
  bcast_op op;
  if (!name) return NULL;
  if (bcast_op_lookup(name, strlen(name), &op) != BCAST_OK) {
    PyErr_Format(PyExc_ValueError, "save_op: unknown op '%s'", name);
    return NULL;
  }
  if (!path_converter(PyTuple_GET_ITEM(args, 0), &path)) return NULL;
  int64_t memory;
  pb_op_call c;
  PyObject *result = NULL;
  memset(&c, 0, sizeof c);
  if (split_memory(kwargs, &rest, &memory) < 0 ||
      pb_op_call_parse(&c, op, args, 2, rest) < 0)
    goto done;
  if (c.out && c.out != Py_None) {
    PyErr_SetString(PyExc_TypeError,
                    "save_op() writes its result to path and takes no out");
    goto done;
  }
  bcast_diag diag;
  bcast_status st;
  /* The tiles' errors, handled once for the whole file as np.geterr()
   * says (numpy profile), after the file is written. */
  if (c.options.profile == BCAST_PROFILE_NUMPY)
    c.options.fp_errors = &c.fp_errors;
  Py_BEGIN_ALLOW_THREADS st =
      bcast_npy_save_op(PyBytes_AS_STRING(path), op, &c.attrs, (size_t)c.arity,
                        c.inputs, &c.options, memory, NULL, &diag);
  Py_END_ALLOW_THREADS result =
      st == BCAST_OK ? Py_NewRef(Py_None) : pb_op_raise(op, st, &diag);
  if (result && pb_fp_report(op, c.fp_errors) < 0) Py_CLEAR(result);
done:
  pb_op_call_release(&c);
  Py_XDECREF(rest);
  Py_DECREF(path);
  return result;
}

PyObject *pb_save_broadcast_to(PyObject *self, PyObject *args,
                               PyObject *kwargs) {
  (void)self;
  static char *kwlist[] = {"path",   "array",   "shape",
                           "memory", "threads", NULL};
  PyObject *path = NULL, *obj, *shape_obj;
  int64_t memory = PB_DEFAULT_MEMORY;
  bcast_save_options so = {0, NULL, NULL};
  if (!PyArg_ParseTupleAndKeywords(
          args, kwargs, "O&OO|$O&O&:save_broadcast_to", kwlist, path_converter,
          &path, &obj, &shape_obj, memory_converter, &memory,
          pb_threads_converter, &so.threads))
    return NULL;
  PyObject *result = NULL;
  bcast_shape shape;
  pb_array a;
  memset(&a, 0, sizeof a);
  /* An array in the other byte order is written in it, as numpy.save
   * does: the library swaps each tile back from native values. */
  const bcast_npy_write_opts w = {
      0, 0, 0,
      PyArray_Check(obj) && !PyArray_ISNOTSWAPPED((PyArrayObject *)obj)};
  if (pb_shape_from(shape_obj, &shape, NULL, "shape") < 0 ||
      pb_input_array(obj, &a, "array") < 0)
    goto done;
  bcast_diag diag;
  bcast_tensor view;
  bcast_status st =
      bcast_broadcast_to(&view, &a.tensor, shape.rank, shape.dims, &diag);
  if (st == BCAST_OK) {
    const char *p = PyBytes_AS_STRING(path);
    Py_BEGIN_ALLOW_THREADS st =
        bcast_npy_save_views(1, &p, &view, &w, memory, &so, &diag);
    Py_END_ALLOW_THREADS bcast_tensor_release(&view);
  }
  result = st == BCAST_OK ? Py_NewRef(Py_None) : pb_raise(st, &diag);
done:
  pb_array_release(&a);
  Py_DECREF(path);
  return result;
}
