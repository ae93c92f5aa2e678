/* Shape algebra from Python: broadcast_shapes, infer, explain,
 * verify_shapes (pybcast.h). */
#include "pybcast.h"

/* The shapes of a call, converted from *args. */
typedef struct shapes_in {
  size_t n;
  bcast_shape *shapes;
  bcast_symbols symbols;
} shapes_in;

static void shapes_free(shapes_in *in) {
  PyMem_Free(in->shapes);
  in->shapes = NULL;
}

static int shapes_from(PyObject *seq, shapes_in *in) {
  bcast_symbols_init(&in->symbols);
  in->n = (size_t)PySequence_Fast_GET_SIZE(seq);
  in->shapes = PyMem_Calloc(in->n ? in->n : 1, sizeof *in->shapes);
  if (!in->shapes) return PyErr_NoMemory(), -1;
  for (size_t k = 0; k < in->n; k++) {
    char what[48];
    PyOS_snprintf(what, sizeof what, "shape %zu", k);
    if (pb_shape_from(PySequence_Fast_GET_ITEM(seq, (Py_ssize_t)k),
                      &in->shapes[k], &in->symbols, what) < 0) {
      shapes_free(in);
      return -1;
    }
  }
  return 0;
}

/* The arguments of a *shapes function: the shapes and the keyword-only
 * profile (numpy by default). */
static int shapes_call(PyObject *args, PyObject *kwargs, const char *fname,
                       bcast_profile *profile, shapes_in *in) {
  static char *kwlist[] = {"profile", NULL};
  char format[64];
  PyOS_snprintf(format, sizeof format, "|$O&:%s", fname);
  PyObject *empty = PyTuple_New(0);
  if (!empty) return -1;
  *profile = BCAST_PROFILE_NUMPY;
  int ok = PyArg_ParseTupleAndKeywords(empty, kwargs, format, kwlist,
                                       pb_profile_converter, profile);
  Py_DECREF(empty);
  return ok ? shapes_from(args, in) : -1;
}

PyObject *pb_broadcast_shapes(PyObject *self, PyObject *args,
                              PyObject *kwargs) {
  (void)self;
  bcast_profile profile;
  shapes_in in;
  if (shapes_call(args, kwargs, "broadcast_shapes", &profile, &in) < 0)
    return NULL;
  bcast_shape out;
  bcast_diag diag;
  bcast_status st;
  if (in.n == 0) { /* as NumPy: no shape broadcasts to () */
    out.rank = 0;
    st = BCAST_OK;
  } else {
    st = bcast_shape_infer(in.n, in.shapes, profile, &out, &diag);
  }
  PyObject *result =
      st == BCAST_OK ? pb_shape_to(&out, &in.symbols) : pb_raise(st, &diag);
  shapes_free(&in);
  return result;
}

/* The run-time checks of an inference as a list of dicts. */
static PyObject *checks_to_list(const bcast_constraint *c, size_t n,
                                const bcast_symbols *symbols) {
  PyObject *list = PyList_New((Py_ssize_t)n);
  for (size_t k = 0; list && k < n; k++) {
    char condition[256];
    bcast_constraint_format(&c[k], symbols, condition, sizeof condition);
    PyObject *d = Py_BuildValue(
        "{s:i,s:(ii),s:(ii),s:(NN),s:N}", "axis", (int)c[k].axis, "operands",
        c[k].operand[0], c[k].operand[1], "operand_axes",
        (int)c[k].operand_axis[0], (int)c[k].operand_axis[1], "sizes",
        pb_dim_to(c[k].size[0], symbols), pb_dim_to(c[k].size[1], symbols),
        "condition", pb_text(condition));
    if (!d)
      Py_CLEAR(list);
    else
      PyList_SET_ITEM(list, (Py_ssize_t)k, d);
  }
  return list;
}

/* Infers the result shape and its run-time checks: a dict with "shape"
 * and "checks", or NULL with the exception set. */
static PyObject *infer_dict(const shapes_in *in, bcast_profile profile,
                            bcast_shape *out) {
  size_t cap = in->n * BCAST_MAX_RANK + 1, count = 0;
  bcast_constraint *c = NULL;
  bcast_diag diag;
  bcast_status st;
  for (;;) {
    c = PyMem_Calloc(cap, sizeof *c);
    if (!c) return PyErr_NoMemory();
    st = bcast_shape_infer_constrained(in->n, in->shapes, profile, out, c, cap,
                                       &count, &diag);
    if (st != BCAST_OK || count <= cap) break;
    PyMem_Free(c);
    cap = count;
  }
  PyObject *result = NULL;
  if (st != BCAST_OK)
    pb_raise(st, &diag);
  else
    result =
        Py_BuildValue("{s:N,s:N}", "shape", pb_shape_to(out, &in->symbols),
                      "checks", checks_to_list(c, count, &in->symbols));
  PyMem_Free(c);
  return result;
}

PyObject *pb_infer(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  bcast_profile profile;
  shapes_in in;
  if (shapes_call(args, kwargs, "infer", &profile, &in) < 0) return NULL;
  bcast_shape out;
  PyObject *result = infer_dict(&in, profile, &out);
  shapes_free(&in);
  return result;
}

/* The operand dims whose bit is set in mask, as a tuple. */
static PyObject *mask_dims(uint64_t mask, int32_t rank) {
  PyObject *list = PyList_New(0);
  for (int32_t i = 0; list && i < rank; i++) {
    if (!(mask >> i & 1)) continue;
    PyObject *v = PyLong_FromLong(i);
    if (!v || PyList_Append(list, v) < 0) Py_CLEAR(list);
    Py_XDECREF(v);
  }
  if (!list) return NULL;
  PyObject *t = PyList_AsTuple(list);
  Py_DECREF(list);
  return t;
}

static PyObject *explained_dict(const bcast_explained *e) {
  if (e->rank == BCAST_RANK_UNRANKED) Py_RETURN_NONE;
  PyObject *dims = PyTuple_New(e->rank);
  for (int32_t i = 0; dims && i < e->rank; i++) {
    PyObject *v = PyLong_FromLongLong(e->broadcast_dimensions[i]);
    if (!v)
      Py_CLEAR(dims);
    else
      PyTuple_SET_ITEM(dims, i, v);
  }
  if (!dims) return NULL;
  return Py_BuildValue("{s:N,s:N,s:N,s:N}", "broadcast_dimensions", dims,
                       "expanded", mask_dims(e->expanded, e->rank),
                       "maybe_expanded", mask_dims(e->maybe_expanded, e->rank),
                       "runtime_checks", mask_dims(e->runtime_check, e->rank));
}

PyObject *pb_explain(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  bcast_profile profile;
  shapes_in in;
  if (shapes_call(args, kwargs, "explain", &profile, &in) < 0) return NULL;
  PyObject *result = NULL;
  bcast_shape out;
  bcast_diag diag;
  bcast_explained *e = PyMem_Calloc(in.n ? in.n : 1, sizeof *e);
  if (!e) {
    PyErr_NoMemory();
  } else {
    bcast_status st = bcast_explain(in.n, in.shapes, profile, &out, e, &diag);
    if (st != BCAST_OK)
      pb_raise(st, &diag);
    else
      result = infer_dict(&in, profile, &out);
  }
  PyObject *operands = result ? PyList_New((Py_ssize_t)in.n) : NULL;
  for (size_t k = 0; operands && k < in.n; k++) {
    PyObject *d = explained_dict(&e[k]);
    if (!d)
      Py_CLEAR(operands);
    else
      PyList_SET_ITEM(operands, (Py_ssize_t)k, d);
  }
  if (result &&
      (!operands || PyDict_SetItemString(result, "operands", operands) < 0))
    Py_CLEAR(result);
  Py_XDECREF(operands);
  PyMem_Free(e);
  shapes_free(&in);
  return result;
}

PyObject *pb_verify_shapes(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  static char *kwlist[] = {"operands", "result", "profile", NULL};
  PyObject *operands, *result_obj;
  bcast_profile profile = BCAST_PROFILE_NUMPY;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|O&:verify_shapes", kwlist,
                                   &operands, &result_obj,
                                   pb_profile_converter, &profile))
    return NULL;
  PyObject *seq = pb_sequence(operands, "operands");
  if (!seq) return NULL;
  shapes_in in;
  bcast_shape result;
  int rc = shapes_from(seq, &in);
  Py_DECREF(seq);
  if (rc < 0) return NULL;
  PyObject *ret = NULL;
  if (pb_shape_from(result_obj, &result, &in.symbols, "result") == 0) {
    bcast_diag diag;
    bcast_status st =
        bcast_shape_verify(in.n, in.shapes, &result, profile, &diag);
    ret = st == BCAST_OK ? Py_NewRef(Py_None) : pb_raise(st, &diag);
  }
  shapes_free(&in);
  return ret;
}
