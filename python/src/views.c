/* Zero-copy views and materialization of NumPy arrays: broadcast_to,
 * broadcast_arrays, broadcast_in_dim, materialize (pybcast.h). */
#include "pybcast.h"

#include <string.h>

/* A read-only view of a broadcast to target. */
static PyObject *view_to(const pb_array *a, const bcast_shape *target) {
  bcast_tensor view;
  bcast_diag diag;
  bcast_status st =
      bcast_broadcast_to(&view, &a->tensor, target->rank, target->dims, &diag);
  if (st != BCAST_OK) return pb_raise(st, &diag);
  PyObject *out = pb_view_to_array(&view, a);
  bcast_tensor_release(&view);
  return out;
}

PyObject *pb_broadcast_to(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  static char *kwlist[] = {"array", "shape", NULL};
  PyObject *obj, *shape_obj;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO:broadcast_to", kwlist,
                                   &obj, &shape_obj))
    return NULL;
  bcast_shape target;
  if (pb_shape_from(shape_obj, &target, NULL, "shape") < 0) return NULL;
  pb_array a;
  if (pb_array_from(obj, &a, 1, "array") < 0) return NULL;
  PyObject *out = view_to(&a, &target);
  pb_array_release(&a);
  return out;
}

/* The arrays of a *arrays call, converted; their common shape. */
typedef struct arrays_in {
  size_t n;
  pb_array *arrays;
  bcast_shape common;
} arrays_in;

static void arrays_free(arrays_in *in) {
  for (size_t k = 0; in->arrays && k < in->n; k++)
    pb_array_release(&in->arrays[k]);
  PyMem_Free(in->arrays);
  in->arrays = NULL;
}

/* Converts the arrays and infers their common shape as NumPy does.  With
 * to_copy (materialize), an array not aligned for its elements is read from
 * an aligned copy (pb_input_array), as the copy kernels load typed
 * elements; views keep the caller's memory. */
static int arrays_from(PyObject *args, arrays_in *in, int to_copy) {
  in->n = (size_t)PyTuple_GET_SIZE(args);
  in->arrays = PyMem_Calloc(in->n ? in->n : 1, sizeof *in->arrays);
  bcast_shape *shapes = PyMem_Calloc(in->n ? in->n : 1, sizeof *shapes);
  int rc = in->arrays && shapes ? 0 : (PyErr_NoMemory(), -1);
  for (size_t k = 0; rc == 0 && k < in->n; k++) {
    char what[40];
    PyOS_snprintf(what, sizeof what, "array %zu", k);
    PyObject *obj = PyTuple_GET_ITEM(args, (Py_ssize_t)k);
    rc = to_copy && PyArray_Check(obj) &&
                 !PyArray_ISALIGNED((PyArrayObject *)obj)
             ? pb_input_array(obj, &in->arrays[k], what)
             : pb_array_from(obj, &in->arrays[k], 1, what);
    if (rc == 0) pb_array_shape(&in->arrays[k], &shapes[k]);
  }
  if (rc == 0) {
    bcast_diag diag;
    bcast_status st = BCAST_OK;
    in->common.rank = 0;
    if (in->n)
      st = bcast_shape_infer(in->n, shapes, BCAST_PROFILE_NUMPY, &in->common,
                             &diag);
    if (st != BCAST_OK) rc = (pb_raise(st, &diag), -1);
  }
  PyMem_Free(shapes);
  if (rc < 0) arrays_free(in);
  return rc;
}

/* The tuple of one result per array (make builds it; NULL on error). */
static PyObject *per_array(arrays_in *in,
                           PyObject *(*make)(arrays_in *, size_t, void *),
                           void *ctx) {
  PyObject *out = PyTuple_New((Py_ssize_t)in->n);
  for (size_t k = 0; out && k < in->n; k++) {
    PyObject *v = make(in, k, ctx);
    if (!v)
      Py_CLEAR(out);
    else
      PyTuple_SET_ITEM(out, (Py_ssize_t)k, v);
  }
  return out;
}

static PyObject *make_view(arrays_in *in, size_t k, void *ctx) {
  (void)ctx;
  return view_to(&in->arrays[k], &in->common);
}

PyObject *pb_broadcast_arrays(PyObject *self, PyObject *args,
                              PyObject *kwargs) {
  (void)self;
  /* Python's own words for a keyword a function does not take, naming it
   * (NumPy's broadcast_arrays takes subok=, which bcast does not). */
  PyObject *key, *value;
  Py_ssize_t pos = 0;
  if (kwargs && PyDict_Next(kwargs, &pos, &key, &value)) {
    PyErr_Format(PyExc_TypeError,
                 "broadcast_arrays() got an unexpected keyword argument '%S'",
                 key);
    return NULL;
  }
  arrays_in in;
  if (arrays_from(args, &in, 0) < 0) return NULL;
  PyObject *out = per_array(&in, make_view, NULL);
  arrays_free(&in);
  return out;
}

/* Array k of materialize's result, taking over the library's copy k
 * (ctx: the copies). */
static PyObject *take_copy(arrays_in *in, size_t k, void *ctx) {
  bcast_tensor *copies = ctx;
  return pb_owned_to_array(&copies[k], &in->arrays[k]);
}

/* The copies of materialize: each array's view broadcast to the common
 * shape (with the byte dim of a bytewise array), copied by the library,
 * which checks all the copies' bytes together against max_bytes before
 * it allocates any. */
static PyObject *materialize_copies(arrays_in *in, int64_t max_bytes,
                                    int threads) {
  bcast_tensor *views = PyMem_Calloc(in->n ? in->n : 1, sizeof *views);
  bcast_tensor *copies = PyMem_Calloc(in->n ? in->n : 1, sizeof *copies);
  PyObject *out = NULL;
  bcast_diag diag;
  bcast_status st = BCAST_OK;
  if (!views || !copies) {
    PyErr_NoMemory();
    goto done;
  }
  for (size_t k = 0; k < in->n; k++) {
    const pb_array *a = &in->arrays[k];
    st = bcast_broadcast_to(&views[k], &a->tensor, in->common.rank,
                            in->common.dims, &diag);
    if (st != BCAST_OK) {
      pb_raise(st, &diag);
      goto done;
    }
    if (pb_with_byte_dim(&views[k], a) < 0) goto done;
  }
  Py_BEGIN_ALLOW_THREADS st =
      bcast_materialize_all(in->n, copies, views, max_bytes, threads, &diag);
  Py_END_ALLOW_THREADS if (st != BCAST_OK) {
    pb_raise(st, &diag);
    goto done;
  }
  out = per_array(in, take_copy, copies);
done:
  /* The views, and the copies no array took over (after an error); a
   * tensor never made (zeroed) or taken over releases nothing. */
  for (size_t k = 0; views && copies && k < in->n; k++) {
    bcast_tensor_release(&views[k]);
    bcast_tensor_release(&copies[k]);
  }
  PyMem_Free(views);
  PyMem_Free(copies);
  return out;
}

PyObject *pb_materialize(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  static char *kwlist[] = {"max_bytes", "threads", NULL};
  PyObject *max_bytes_obj = NULL;
  int64_t max_bytes = BCAST_DEFAULT_MAX_BYTES;
  int threads = 0;
  PyObject *empty = PyTuple_New(0);
  if (!empty) return NULL;
  int ok = PyArg_ParseTupleAndKeywords(empty, kwargs, "|$OO&:materialize",
                                       kwlist, &max_bytes_obj,
                                       pb_threads_converter, &threads);
  Py_DECREF(empty);
  if (!ok || (max_bytes_obj &&
              pb_size_from(max_bytes_obj, &max_bytes, "max_bytes") < 0))
    return NULL;
  arrays_in in;
  if (arrays_from(args, &in, 1) < 0) return NULL;
  PyObject *out = materialize_copies(&in, max_bytes, threads);
  arrays_free(&in);
  return out;
}

/* new_dims={dim: size, ...} as the library's list, read from a snapshot
 * of the dict's items (a key's __index__ may change the dict). */
int pb_dim_sizes_from(PyObject *obj, bcast_dim_size *sizes, size_t *n,
                      int dynamic) {
  *n = 0;
  if (!PyDict_Check(obj)) {
    PyErr_Format(PyExc_TypeError,
                 "new_dims must be a dict {dim: size}, not %.100s",
                 Py_TYPE(obj)->tp_name);
    return -1;
  }
  PyObject *items = PyDict_Items(obj);
  if (!items) return -1;
  const Py_ssize_t count = PyList_GET_SIZE(items);
  int rc = 0;
  if (count > BCAST_MAX_RANK) {
    PyErr_Format(PyExc_ValueError, "new_dims: more than %d entries",
                 BCAST_MAX_RANK);
    rc = -1;
  }
  for (Py_ssize_t k = 0; rc == 0 && k < count; k++) {
    int64_t v[2];
    size_t got;
    PyObject *item = PyList_GET_ITEM(items, k);
    if (dynamic && PyTuple_GET_ITEM(item, 1) == Py_None) {
      /* A size None: dynamic. */
      v[1] = BCAST_DIM_DYNAMIC;
      rc = pb_size_from(PyTuple_GET_ITEM(item, 0), &v[0], "new_dims: a dim");
    } else {
      rc = pb_ints_from(item, v, 2, &got, "new_dims");
    }
    if (rc == 0 && v[0] >= BCAST_MAX_RANK) {
      PyErr_Format(PyExc_ValueError, "new_dims: dim %lld is out of range",
                   (long long)v[0]);
      rc = -1;
    }
    if (rc == 0) {
      sizes[*n].dim = (int32_t)v[0];
      sizes[(*n)++].size = v[1];
    }
  }
  Py_DECREF(items);
  return rc;
}

PyObject *pb_broadcast_in_dim(PyObject *self, PyObject *args,
                              PyObject *kwargs) {
  (void)self;
  static char *kwlist[] = {"array",     "shape",    "broadcast_dimensions",
                           "any_order", "new_dims", NULL};
  PyObject *obj, *shape_obj = Py_None, *dims_obj = Py_None,
                 *new_dims = Py_None;
  int any_order = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OO$pO:broadcast_in_dim",
                                   kwlist, &obj, &shape_obj, &dims_obj,
                                   &any_order, &new_dims))
    return NULL;
  if ((shape_obj == Py_None) == (new_dims == Py_None)) {
    PyErr_SetString(PyExc_TypeError,
                    "broadcast_in_dim() takes either shape or new_dims");
    return NULL;
  }
  int64_t dims[BCAST_MAX_RANK];
  size_t n_dims = 0;
  if (dims_obj != Py_None && pb_ints_from(dims_obj, dims, BCAST_MAX_RANK,
                                          &n_dims, "broadcast_dimensions") < 0)
    return NULL;
  bcast_shape target;
  bcast_dim_size sizes[BCAST_MAX_RANK];
  size_t n_sizes = 0;
  if (shape_obj != Py_None) {
    if (pb_shape_from(shape_obj, &target, NULL, "shape") < 0) return NULL;
  } else if (pb_dim_sizes_from(new_dims, sizes, &n_sizes, 0) < 0) {
    return NULL;
  }
  pb_array a;
  if (pb_array_from(obj, &a, 1, "array") < 0) return NULL;
  bcast_diag diag;
  bcast_status st = BCAST_OK;
  if (shape_obj == Py_None) {
    bcast_shape operand;
    pb_array_shape(&a, &operand);
    st = bcast_broadcast_in_dim_partial(&operand, dims, n_dims, sizes, n_sizes,
                                        &target, NULL, &diag);
  }
  PyObject *out = NULL;
  if (st != BCAST_OK) {
    pb_raise(st, &diag);
  } else {
    bcast_tensor view;
    memset(&view, 0, sizeof view);
    st = bcast_broadcast_in_dim(
        &view, &a.tensor, target.rank, target.dims, dims, n_dims,
        any_order ? BCAST_DIMS_ANY_ORDER : BCAST_DIMS_INCREASING, &diag);
    if (st != BCAST_OK)
      pb_raise(st, &diag);
    else
      out = pb_view_to_array(&view, &a);
    bcast_tensor_release(&view);
  }
  pb_array_release(&a);
  return out;
}
