/* Python values <-> bcast values: library text, profiles, shapes, arrays
 * as tensors and tensors as arrays (pybcast.h). */
#include "pybcast.h"

#include <string.h>

PyObject *pb_text(const char *text) {
  return PyUnicode_DecodeUTF8(text, (Py_ssize_t)strlen(text), "replace");
}

int pb_profile_converter(PyObject *obj, void *out) {
  if (obj == Py_None) return 1;
  if (!PyUnicode_Check(obj)) {
    PyErr_Format(PyExc_TypeError,
                 "profile must be a str (tosa, trait, mlir, numpy, xla), "
                 "not %.100s",
                 Py_TYPE(obj)->tp_name);
    return 0;
  }
  const char *name = pb_cstr(obj, "profile");
  if (!name) return 0;
  if (bcast_profile_parse(name, out) != BCAST_OK) {
    PyErr_Format(PyExc_ValueError,
                 "unknown profile '%.100s' (tosa, trait, mlir, numpy, xla)",
                 name);
    return 0;
  }
  return 1;
}

int pb_threads_converter(PyObject *obj, void *out) {
  int *threads = out;
  *threads = 0;
  if (obj == Py_None) return 1;
  if (PyFloat_Check(obj) || !PyIndex_Check(obj)) {
    PyErr_Format(PyExc_TypeError, "threads must be None or an int, not %.100s",
                 Py_TYPE(obj)->tp_name);
    return 0;
  }
  PyObject *index = PyNumber_Index(obj);
  if (!index) return 0;
  int overflow = 0;
  long long n = PyLong_AsLongLongAndOverflow(index, &overflow);
  Py_DECREF(index);
  if (n == -1 && PyErr_Occurred()) return 0;
  if (overflow || n < 0 || n > PB_MAX_THREADS) {
    PyErr_Format(PyExc_ValueError,
                 "threads must be None or 0..%d (0: OpenMP's default)",
                 PB_MAX_THREADS);
    return 0;
  }
  *threads = (int)n;
  return 1;
}

const char *pb_utf8(PyObject *obj, Py_ssize_t *len, const char *what) {
  if (!PyUnicode_Check(obj)) {
    PyErr_Format(PyExc_TypeError, "%s must be a str, not %.100s", what,
                 Py_TYPE(obj)->tp_name);
    return NULL;
  }
  const char *text = PyUnicode_AsUTF8AndSize(obj, len);
  if (!text && PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
    PyErr_Clear();
    PyErr_Format(PyExc_ValueError,
                 "%s is not valid text: it cannot be encoded as UTF-8 (a "
                 "lone surrogate)",
                 what);
  }
  return text;
}

const char *pb_cstr(PyObject *obj, const char *what) {
  Py_ssize_t len;
  const char *text = pb_utf8(obj, &len, what);
  if (text && strlen(text) != (size_t)len) {
    PyErr_Format(PyExc_ValueError, "%s must not contain a NUL character",
                 what);
    return NULL;
  }
  return text;
}

PyObject *pb_sequence(PyObject *obj, const char *what) {
  if (PyUnicode_Check(obj) || PyBytes_Check(obj) || !PySequence_Check(obj)) {
    PyErr_Format(PyExc_TypeError, "%s must be a sequence, not %.100s", what,
                 Py_TYPE(obj)->tp_name);
    return NULL;
  }
  return PySequence_List(obj);
}

int pb_size_from(PyObject *obj, int64_t *out, const char *what) {
  if (PyFloat_Check(obj) || !PyIndex_Check(obj)) {
    PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what,
                 Py_TYPE(obj)->tp_name);
    return -1;
  }
  PyObject *index = PyNumber_Index(obj);
  if (!index) return -1;
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(index, &overflow);
  Py_DECREF(index);
  if (v == -1 && PyErr_Occurred()) return -1;
  if (overflow > 0) {
    PyErr_Format(PyExc_OverflowError, "%s does not fit in 64 bits", what);
    return -1;
  }
  if (overflow < 0 || v < 0) {
    PyErr_Format(PyExc_ValueError, "%s is negative", what);
    return -1;
  }
  *out = (int64_t)v;
  return 0;
}

/* Entry k of the argument what, an int >= 0 (as NumPy takes dims). */
static int nonneg_int(PyObject *obj, int64_t *out, const char *what,
                      Py_ssize_t k) {
  char entry[128];
  PyOS_snprintf(entry, sizeof entry, "%s: entry %zd", what, k);
  return pb_size_from(obj, out, entry);
}

/* The symbol index of name, added to the table when new. */
static int symbol_of(bcast_symbols *symbols, const char *name, size_t len,
                     int64_t *dim, const char *what, Py_ssize_t k) {
  if (len == 0 || len >= BCAST_SYMBOL_NAME_MAX) {
    PyErr_Format(PyExc_ValueError,
                 "%s: dim %zd: a dim name must have 1 to %d bytes", what, k,
                 BCAST_SYMBOL_NAME_MAX - 1);
    return -1;
  }
  int32_t i = 0;
  while (i < symbols->count && !(strlen(symbols->names[i]) == len &&
                                 memcmp(symbols->names[i], name, len) == 0))
    i++;
  if (i == symbols->count) {
    if (symbols->count == BCAST_MAX_SYMBOLS) {
      PyErr_Format(PyExc_ValueError, "%s: more than %d dim names", what,
                   BCAST_MAX_SYMBOLS);
      return -1;
    }
    memcpy(symbols->names[i], name, len);
    symbols->names[i][len] = '\0';
    symbols->count++;
  }
  *dim = BCAST_DIM_SYMBOL(i);
  return 0;
}

/* A shape written as text, parsed by the library. */
static int shape_from_text(PyObject *obj, bcast_shape *out,
                           bcast_symbols *symbols, const char *what) {
  Py_ssize_t len;
  const char *text = pb_utf8(obj, &len, what);
  if (!text) return -1;
  bcast_symbols scratch;
  bcast_diag diag;
  bcast_status st;
  if (symbols) {
    st = bcast_shape_parse_symbolic(text, (size_t)len, symbols, out, &diag);
  } else {
    bcast_symbols_init(&scratch);
    st = bcast_shape_parse_symbolic(text, (size_t)len, &scratch, out, &diag);
    for (int32_t i = 0; st == BCAST_OK && i < out->rank; i++)
      if (out->dims[i] < 0) {
        PyErr_Format(PyExc_ValueError,
                     "%s: '%s' has a dynamic dim; this needs static sizes",
                     what, text);
        return -1;
      }
    if (st == BCAST_OK && out->rank == BCAST_RANK_UNRANKED) {
      PyErr_Format(PyExc_ValueError, "%s: an unranked shape is not allowed",
                   what);
      return -1;
    }
  }
  if (st != BCAST_OK) {
    PyErr_Format(PyExc_ValueError, "%s: %s", what, diag.message);
    return -1;
  }
  return 0;
}

int pb_shape_from(PyObject *obj, bcast_shape *out, bcast_symbols *symbols,
                  const char *what) {
  if (PyUnicode_Check(obj)) return shape_from_text(obj, out, symbols, what);
  if (PyIndex_Check(obj) && !PySequence_Check(obj)) {
    out->rank = 1;
    return nonneg_int(obj, &out->dims[0], what, 0);
  }
  PyObject *list = pb_sequence(obj, what);
  if (!list) return -1;
  Py_ssize_t n = PyList_GET_SIZE(list);
  int rc = 0;
  if (n > BCAST_MAX_RANK) {
    PyErr_Format(PyExc_ValueError, "%s: rank %zd exceeds the limit of %d",
                 what, n, BCAST_MAX_RANK);
    rc = -1;
  }
  for (Py_ssize_t k = 0; rc == 0 && k < n; k++) {
    PyObject *item = PyList_GET_ITEM(list, k);
    int64_t *dim = &out->dims[k];
    if (symbols && item == Py_None) {
      *dim = BCAST_DIM_DYNAMIC;
    } else if (symbols && PyUnicode_Check(item)) {
      char name_what[128];
      PyOS_snprintf(name_what, sizeof name_what, "%s: the name of dim %zd",
                    what, k);
      const char *name = pb_cstr(item, name_what);
      size_t len = name ? strlen(name) : 0;
      if (!name)
        rc = -1;
      else if (len == 1 && name[0] == '?')
        *dim = BCAST_DIM_DYNAMIC;
      else
        rc = symbol_of(symbols, name, len, dim, what, k);
    } else if (symbols && !PyIndex_Check(item)) {
      PyErr_Format(PyExc_TypeError,
                   "%s: dim %zd must be an int, None or a name, not %.100s",
                   what, k, Py_TYPE(item)->tp_name);
      rc = -1;
    } else {
      rc = nonneg_int(item, dim, what, k);
    }
  }
  Py_DECREF(list);
  out->rank = (int32_t)n;
  return rc;
}

PyObject *pb_dim_to(int64_t dim, const bcast_symbols *symbols) {
  if (dim >= 0) return PyLong_FromLongLong(dim);
  int64_t k = BCAST_DIM_SYMBOL_INDEX(dim);
  if (symbols && dim != BCAST_DIM_DYNAMIC && k < symbols->count)
    return pb_text(symbols->names[k]);
  Py_RETURN_NONE;
}

PyObject *pb_shape_to(const bcast_shape *shape, const bcast_symbols *symbols) {
  if (shape->rank == BCAST_RANK_UNRANKED) return PyUnicode_FromString("*");
  PyObject *t = PyTuple_New(shape->rank);
  for (int32_t i = 0; t && i < shape->rank; i++) {
    PyObject *d = pb_dim_to(shape->dims[i], symbols);
    if (!d)
      Py_CLEAR(t);
    else
      PyTuple_SET_ITEM(t, i, d);
  }
  return t;
}

int pb_ints_from(PyObject *obj, int64_t *dims, size_t cap, size_t *n,
                 const char *what) {
  PyObject *list = pb_sequence(obj, what);
  if (!list) return -1;
  Py_ssize_t count = PyList_GET_SIZE(list);
  int rc = 0;
  if ((size_t)count > cap) {
    PyErr_Format(PyExc_ValueError, "%s: more than %zu entries", what, cap);
    rc = -1;
  }
  for (Py_ssize_t k = 0; rc == 0 && k < count; k++)
    rc = nonneg_int(PyList_GET_ITEM(list, k), &dims[k], what, k);
  Py_DECREF(list);
  *n = (size_t)count;
  return rc;
}

/* The library's types NumPy has, with NumPy's type numbers: the one table
 * behind both directions (bfloat16 has no NumPy type). */
static const struct {
  bcast_dtype dtype;
  int npy;
} npy_types[] = {{BCAST_BOOL, NPY_BOOL},     {BCAST_INT8, NPY_INT8},
                 {BCAST_INT16, NPY_INT16},   {BCAST_INT32, NPY_INT32},
                 {BCAST_INT64, NPY_INT64},   {BCAST_UINT8, NPY_UINT8},
                 {BCAST_UINT16, NPY_UINT16}, {BCAST_UINT32, NPY_UINT32},
                 {BCAST_UINT64, NPY_UINT64}, {BCAST_FLOAT16, NPY_HALF},
                 {BCAST_FLOAT32, NPY_FLOAT}, {BCAST_FLOAT64, NPY_DOUBLE}};
enum { NPY_TYPE_COUNT = sizeof npy_types / sizeof npy_types[0] };

/* NumPy's kind character of a library type. */
static char npy_kind(bcast_dtype dtype) {
  switch (bcast_dtype_kind_of(dtype)) {
  case BCAST_KIND_BOOL:
    return 'b';
  case BCAST_KIND_SIGNED:
    return 'i';
  case BCAST_KIND_UNSIGNED:
    return 'u';
  case BCAST_KIND_FLOAT:
    return 'f';
  default:
    return 0;
  }
}

/* The library's element type of a NumPy dtype, by kind and size (so
 * either byte order, and NPY_LONG as NPY_LONGLONG, map to the same type);
 * -1 when there is none. */
static int dtype_of(const PyArray_Descr *d) {
  for (int k = 0; k < NPY_TYPE_COUNT; k++)
    if (npy_kind(npy_types[k].dtype) == d->kind &&
        (int)bcast_dtype_size(npy_types[k].dtype) == d->elsize)
      return (int)npy_types[k].dtype;
  return -1;
}

int pb_npy_type(bcast_dtype dtype) {
  for (int k = 0; k < NPY_TYPE_COUNT; k++)
    if (npy_types[k].dtype == dtype) return npy_types[k].npy;
  return -1;
}

int pb_array_from(PyObject *obj, pb_array *out, int allow_strings,
                  const char *what) {
  memset(out, 0, sizeof *out);
  PyArrayObject *a = (PyArrayObject *)PyArray_FROM_O(obj);
  if (!a) return -1;
  const PyArray_Descr *d = PyArray_DESCR(a);
  int rank = PyArray_NDIM(a);
  int64_t shape[NPY_MAXDIMS], strides[NPY_MAXDIMS];
  for (int i = 0; i < rank; i++) {
    shape[i] = PyArray_DIMS(a)[i];
    strides[i] = PyArray_STRIDES(a)[i];
  }
  int dtype = dtype_of(d);
  int is_string = d->kind == 'S' || d->kind == 'U';
  if (is_string && allow_strings && d->elsize > 0) {
    dtype = BCAST_UINT8;
    out->bytewise = 1;
  } else if (dtype < 0) {
    PyErr_Format(PyExc_TypeError,
                 "%s: dtype %R is not supported (bool, int8..uint64, "
                 "float16, float32, float64%s)",
                 what, (PyObject *)d,
                 allow_strings ? ", and strings S/U here" : "");
    Py_DECREF(a);
    return -1;
  }
  bcast_diag diag;
  bcast_status st = bcast_tensor_wrap(&out->tensor, (bcast_dtype)dtype, rank,
                                      shape, strides, PyArray_DATA(a), &diag);
  if (st != BCAST_OK) {
    Py_DECREF(a);
    return pb_raise(st, &diag), -1;
  }
  out->array = a;
  return 0;
}

int pb_array_commit(pb_array *a) {
  if (!a->writeback) return 0;
  a->writeback = 0;
  return PyArray_ResolveWritebackIfCopy(a->array) < 0 ? -1 : 0;
}

void pb_array_release(pb_array *a) {
  if (a->writeback) PyArray_DiscardWritebackIfCopy(a->array);
  a->writeback = 0;
  Py_CLEAR(a->array);
  bcast_tensor_release(&a->tensor);
}

void pb_array_shape(const pb_array *a, bcast_shape *out) {
  out->rank = a->tensor.rank;
  for (int32_t i = 0; i < out->rank; i++) out->dims[i] = a->tensor.shape[i];
}

int pb_with_byte_dim(bcast_tensor *t, const pb_array *src) {
  if (!src->bytewise) return 0;
  if (t->rank >= BCAST_MAX_RANK) {
    PyErr_Format(PyExc_ValueError, "rank %d exceeds the limit of %d",
                 (int)t->rank + 1, BCAST_MAX_RANK);
    return -1;
  }
  t->shape[t->rank] = PyArray_ITEMSIZE(src->array);
  t->stride_bytes[t->rank++] = 1;
  return 0;
}

/* An ndarray over t's memory with src's dtype: its first rank dims (the
 * byte dim of a bytewise copy left out); flags 0 makes it read-only. */
static PyObject *array_over(const bcast_tensor *t, int rank,
                            const pb_array *src, int flags) {
  if (rank > NPY_MAXDIMS) {
    PyErr_Format(PyExc_ValueError, "rank %d exceeds NumPy's limit of %d dims",
                 rank, NPY_MAXDIMS);
    return NULL;
  }
  npy_intp dims[NPY_MAXDIMS], strides[NPY_MAXDIMS];
  for (int i = 0; i < rank; i++) {
    dims[i] = (npy_intp)t->shape[i];
    strides[i] = (npy_intp)t->stride_bytes[i];
  }
  PyArray_Descr *descr = PyArray_DESCR(src->array);
  Py_INCREF(descr);
  return PyArray_NewFromDescr(&PyArray_Type, descr, rank, dims, strides,
                              t->data, flags, NULL);
}

PyObject *pb_view_to_array(const bcast_tensor *view, const pb_array *src) {
  PyObject *out = array_over(view, view->rank, src, 0);
  if (!out) return NULL;
  Py_INCREF(src->array);
  if (PyArray_SetBaseObject((PyArrayObject *)out, (PyObject *)src->array) <
      0) {
    Py_DECREF(out);
    return NULL;
  }
  return out;
}

/* The base of an array over a library buffer: frees it with the array. */
static void owned_tensor_free(PyObject *capsule) {
  bcast_tensor *t = PyCapsule_GetPointer(capsule, "bcast.tensor");
  if (!t) return;
  bcast_tensor_release(t);
  PyMem_Free(t);
}

PyObject *pb_owned_to_array(bcast_tensor *t, const pb_array *src) {
  bcast_tensor *kept = PyMem_Malloc(sizeof *kept);
  if (!kept) {
    bcast_tensor_release(t);
    return PyErr_NoMemory();
  }
  *kept = *t;
  memset(t, 0, sizeof *t);
  PyObject *capsule = PyCapsule_New(kept, "bcast.tensor", owned_tensor_free);
  if (!capsule) {
    bcast_tensor_release(kept);
    PyMem_Free(kept);
    return NULL;
  }
  PyObject *out = NULL;
  if (kept->data) {
    out =
        array_over(kept, kept->rank - src->bytewise, src, NPY_ARRAY_WRITEABLE);
    if (out) {
      /* SetBaseObject takes the reference, also when it fails. */
      if (PyArray_SetBaseObject((PyArrayObject *)out, capsule) < 0)
        Py_CLEAR(out);
      capsule = NULL;
    }
  } else {
    /* Nothing allocated (no element): NumPy makes its own empty array. */
    out =
        array_over(kept, kept->rank - src->bytewise, src, NPY_ARRAY_WRITEABLE);
  }
  Py_XDECREF(capsule);
  return out;
}

PyObject *pb_tensor_to_array(bcast_tensor *t) {
  const int type = pb_npy_type(t->dtype);
  if (type < 0) {
    PyErr_Format(PyExc_TypeError, "NumPy has no dtype for %s",
                 bcast_dtype_name(t->dtype));
    bcast_tensor_release(t);
    return NULL;
  }
  /* A dtype-only pb_array: pb_owned_to_array reads its descr. */
  PyObject *proto =
      PyArray_NewFromDescr(&PyArray_Type, PyArray_DescrFromType(type), 0, NULL,
                           NULL, NULL, 0, NULL);
  if (!proto) {
    bcast_tensor_release(t);
    return NULL;
  }
  pb_array src = {(PyArrayObject *)proto, {0}, 0, 0};
  PyObject *out = pb_owned_to_array(t, &src);
  Py_DECREF(proto);
  return out;
}
