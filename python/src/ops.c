/* The element-wise ops: one function, pb_op_call, bound once per row of
 * BCAST_OP_LIST and per alias (bcast_op_alias) by pb_add_ops, its op id
 * the function's self (pybcast.h). */
#include "pybcast.h"

#include <stddef.h>
#include <string.h>

#include <structmember.h>

/* The inputs' names in error messages. */
static const char *const input_names[PB_MAX_INPUTS] = {"input 0", "input 1",
                                                        "input 2"};

void pb_op_args_release(pb_op_args *c) {
  for (int k = 0; k < c->arity; k++) {
    if (c->owned[k]) bcast_tensor_release(&c->inputs[k]);
    pb_array_release(&c->arrays[k]);
  }
  Py_CLEAR(c->out);
}

/* A Python int, float or bool (not a NumPy scalar: those have a type) as
 * a weak scalar; 1 when obj is one, 0 when not, -1 on error (an int
 * beyond 64 bits: OverflowError naming what). */
static int weak_scalar(PyObject *obj, bcast_scalar *out, const char *what) {
  if (PyBool_Check(obj)) {
    *out = bcast_scalar_bool(obj == Py_True);
    return 1;
  }
  if (PyLong_CheckExact(obj)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (!overflow) {
      *out = bcast_scalar_int((int64_t)v);
      return 1;
    }
    unsigned long long u = 0;
    if (overflow > 0) u = PyLong_AsUnsignedLongLong(obj);
    if (overflow < 0 || PyErr_Occurred()) {
      PyErr_Clear();
      PyErr_Format(PyExc_OverflowError,
                   "%s: the int does not fit in 64 bits (int64 or uint64)",
                   what);
      return -1;
    }
    *out = bcast_scalar_uint((uint64_t)u);
    return 1;
  }
  if (PyFloat_CheckExact(obj)) {
    *out = bcast_scalar_float(PyFloat_AS_DOUBLE(obj));
    return 1;
  }
  return 0;
}

/* An array input wrapped without a copy, except an array in non-native
 * byte order: its native copy (the kernels read native values). */
int pb_native_array(PyObject *obj, pb_array *out, const char *what) {
  if (PyArray_Check(obj) && !PyArray_ISNOTSWAPPED((PyArrayObject *)obj)) {
    PyArray_Descr *native = PyArray_DescrNewByteorder(
        PyArray_DESCR((PyArrayObject *)obj), NPY_NATIVE);
    if (!native) return -1;
    PyObject *copy = PyArray_CastToType((PyArrayObject *)obj, native, 0);
    if (!copy) return -1;
    int rc = pb_array_from(copy, out, 0, what);
    Py_DECREF(copy);
    return rc;
  }
  return pb_array_from(obj, out, 0, what);
}

/* out=: a writeable ndarray in native byte order, wrapped. */
static int out_array(PyObject *obj, pb_array *out) {
  if (!PyArray_Check(obj) || !PyArray_ISWRITEABLE((PyArrayObject *)obj) ||
      !PyArray_ISNOTSWAPPED((PyArrayObject *)obj)) {
    memset(out, 0, sizeof *out);
    PyErr_SetString(PyExc_TypeError,
                    "out must be a writeable ndarray in native byte order");
    return -1;
  }
  return pb_array_from(obj, out, 0, "out");
}

/* The inputs: arrays wrapped as they are, then the scalars typed against
 * the arrays (SELECT's condition is no part of its values' type). */
static int inputs_from(pb_op_args *c, PyObject *const *objs) {
  const char *const *what = input_names;
  for (int k = 0; k < c->arity; k++) {
    int is_scalar = weak_scalar(objs[k], &c->scalars[k], what[k]);
    if (is_scalar < 0) return -1;
    if (!is_scalar && pb_native_array(objs[k], &c->arrays[k], what[k]) < 0)
      return -1;
    if (!is_scalar) c->inputs[k] = c->arrays[k].tensor;
  }
  int first = c->op == BCAST_OP_SELECT ? 1 : 0;
  bcast_dtype strong[PB_MAX_INPUTS];
  size_t n_strong = 0;
  for (int k = first; k < c->arity; k++)
    if (c->arrays[k].array) strong[n_strong++] = c->inputs[k].dtype;
  for (int k = 0; k < c->arity; k++) {
    if (c->arrays[k].array) continue;
    bcast_dtype dt;
    bcast_diag diag;
    bcast_status st =
        k < first ? bcast_scalar_weak_dtype(&c->scalars[k], 0, NULL, &dt, &diag)
                  : bcast_scalar_weak_dtype(&c->scalars[k], n_strong, strong,
                                            &dt, &diag);
    if (st == BCAST_OK)
      st = bcast_scalar_tensor(&c->scalars[k], dt, &c->inputs[k], &diag);
    if (st != BCAST_OK) {
      if (st == BCAST_INVALID_ARGUMENT)
        PyErr_Format(PyExc_OverflowError, "%s: %s", what[k], diag.message);
      else
        pb_raise(st, &diag);
      return -1;
    }
    c->owned[k] = 1;
  }
  return 0;
}

/* CAST's target: anything np.dtype accepts (a name that is no UTF-8 text
 * is refused here: NumPy would raise a codec's error). */
static int cast_target(pb_op_args *c, PyObject *value) {
  Py_ssize_t len;
  if (PyUnicode_Check(value) && !pb_utf8(value, &len, "cast: to")) return -1;
  PyArray_Descr *d = NULL;
  if (!PyArray_DescrConverter(value, &d)) return -1;
  PyObject *name = PyObject_GetAttrString((PyObject *)d, "name");
  Py_DECREF(d);
  if (!name) return -1;
  const char *text = PyUnicode_AsUTF8AndSize(name, &len);
  bcast_status st = text ? bcast_dtype_parse(text, (size_t)len, &c->cast_to)
                         : BCAST_INVALID_ARGUMENT;
  if (text && st != BCAST_OK)
    PyErr_Format(PyExc_TypeError, "cast: dtype %S is not supported", name);
  Py_DECREF(name);
  if (st != BCAST_OK) return -1;
  c->attrs.cast_to = &c->cast_to;
  return 0;
}

/* A CLAMP bound: a Python bool, int or float, a subclass of one, or a
 * NumPy scalar or 0-d array of those kinds (taken by value); None: no
 * bound. */
static int bound_from(PyObject *value, bcast_scalar *out, const char *name) {
  if (value == Py_None) {
    memset(out, 0, sizeof *out);
    return 0;
  }
  PyObject *plain = NULL;
  if (PyArray_IsScalar(value, Generic) ||
      (PyArray_Check(value) && PyArray_NDIM((PyArrayObject *)value) == 0))
    plain = PyObject_CallMethod(value, "item", NULL);
  else if (PyLong_Check(value) && !PyBool_Check(value))
    plain = PyNumber_Long(value);
  else if (PyFloat_Check(value))
    plain = PyFloat_FromDouble(PyFloat_AS_DOUBLE(value));
  else
    plain = Py_NewRef(value);
  if (!plain) return -1;
  int rc = weak_scalar(plain, out, name);
  Py_DECREF(plain);
  if (rc == 0)
    PyErr_Format(PyExc_TypeError,
                 "%s must be a bool, int or float (or None), not %.100s", name,
                 Py_TYPE(value)->tp_name);
  return rc == 1 ? 0 : -1;
}

/* One attribute keyword: TO (also spelled dtype) and the bounds from
 * Python values, the others as their text through bcast_op_attr_set. */
static int attr_from(pb_op_args *c, bcast_attr attr, PyObject *value) {
  const char *name = bcast_attr_name(attr);
  if (attr == BCAST_ATTR_TO) return cast_target(c, value);
  if (attr == BCAST_ATTR_MIN_VAL)
    return bound_from(value, &c->attrs.min_val, name);
  if (attr == BCAST_ATTR_MAX_VAL)
    return bound_from(value, &c->attrs.max_val, name);
  if (PyFloat_Check(value) || (attr != BCAST_ATTR_NAN_MODE &&
                               PyUnicode_Check(value))) {
    PyErr_Format(PyExc_TypeError, "%s: %R is not a valid value", name, value);
    return -1;
  }
  PyObject *text = PyObject_Str(value);
  if (!text) return -1;
  Py_ssize_t len;
  const char *s = pb_utf8(text, &len, name);
  bcast_diag diag;
  bcast_status st = s ? bcast_op_attr_set(&c->attrs, c->op, name,
                                          strlen(name), s, (size_t)len, &diag)
                      : BCAST_INVALID_ARGUMENT;
  Py_DECREF(text);
  if (!s) return -1;
  if (st != BCAST_OK) {
    PyErr_Format(PyExc_ValueError, "%s", diag.message);
    return -1;
  }
  return 0;
}

/* Attributes an op takes positionally after its inputs: CLAMP's bounds
 * and CAST's target; then out. */
static int positional_attrs(bcast_op op, bcast_attr *out) {
  static const bcast_attr order[] = {BCAST_ATTR_MIN_VAL, BCAST_ATTR_MAX_VAL,
                                     BCAST_ATTR_TO};
  int n = 0;
  for (size_t i = 0; i < sizeof order / sizeof *order; i++)
    if (bcast_op_reads_attr(op, order[i])) out[n++] = order[i];
  return n;
}

/* The keyword arguments: out, profile, checked, threads, and exactly the
 * attributes the op reads. */
static int keyword_from(pb_op_args *c, PyObject *key, PyObject *value,
                        int *seen_out) {
  const char *name = pb_cstr(key, "a keyword argument's name");
  if (!name) return -1;
  if (!strcmp(name, "out")) {
    if (*seen_out) {
      PyErr_SetString(PyExc_TypeError, "out given twice");
      return -1;
    }
    *seen_out = 1;
    c->out = Py_NewRef(value);
    return 0;
  }
  if (!strcmp(name, "profile"))
    return pb_profile_converter(value, &c->options.profile) ? 0 : -1;
  if (!strcmp(name, "checked")) {
    int t = PyObject_IsTrue(value);
    if (t < 0) return -1;
    c->options.checked = t;
    return 0;
  }
  if (!strcmp(name, "threads"))
    return pb_threads_converter(value, &c->options.threads) ? 0 : -1;
  bcast_attr attr;
  if (c->op == BCAST_OP_CAST && !strcmp(name, "dtype"))
    return attr_from(c, BCAST_ATTR_TO, value);
  if (bcast_attr_lookup(name, strlen(name), &attr) == BCAST_OK &&
      bcast_op_reads_attr(c->op, attr))
    return attr_from(c, attr, value);
  PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%s'",
               bcast_op_get(c->op)->name, name);
  return -1;
}

PyObject *pb_op_raise(bcast_op op, bcast_status st, const bcast_diag *diag) {
  pb_raise(st, diag);
  if (st == BCAST_CHECKED) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    PyObject *name = PyUnicode_FromString(bcast_op_get(op)->name);
    if (value && name) PyObject_SetAttrString(value, "op", name);
    Py_XDECREF(name);
    PyErr_Restore(type, value, tb);
  }
  return NULL;
}

static PyObject *compute(pb_op_args *c) {
  bcast_diag diag;
  bcast_status st;
  if (c->out && c->out != Py_None) {
    pb_array out;
    if (out_array(c->out, &out) < 0) return NULL;
    Py_BEGIN_ALLOW_THREADS
    st = bcast_ew_compute_into(c->op, &c->attrs, (size_t)c->arity, c->inputs,
                               &out.tensor, &c->options, &diag);
    Py_END_ALLOW_THREADS
    pb_array_release(&out);
    if (st != BCAST_OK) return pb_op_raise(c->op, st, &diag);
    return Py_NewRef(c->out);
  }
  bcast_tensor result;
  memset(&result, 0, sizeof result);
  Py_BEGIN_ALLOW_THREADS
  st = bcast_ew_compute(c->op, &c->attrs, (size_t)c->arity, c->inputs,
                        &result, &c->options, &diag);
  Py_END_ALLOW_THREADS
  if (st != BCAST_OK) return pb_op_raise(c->op, st, &diag);
  return pb_tensor_to_array(&result);
}

/* Parses an op's arguments (args[first..]: its inputs, positional
 * attributes and out; kwargs) into c.  -1 with an exception set; c must
 * be released either way. */
int pb_op_args_parse(pb_op_args *c, bcast_op op, PyObject *args,
                     Py_ssize_t first, PyObject *kwargs) {
  memset(c, 0, sizeof *c);
  c->op = op;
  c->arity = bcast_op_arity(op);
  bcast_op_attrs_init(&c->attrs);
  bcast_ew_options_init(&c->options);
  c->options.profile = BCAST_PROFILE_NUMPY;
  bcast_attr pos[3];
  int n_pos = positional_attrs(op, pos);
  Py_ssize_t n = PyTuple_GET_SIZE(args) - first;
  if (n < c->arity || n > c->arity + n_pos + 1) {
    PyErr_Format(PyExc_TypeError,
                 "%s() takes %d inputs%s and out, %zd positional arguments "
                 "given",
                 bcast_op_get(op)->name, c->arity,
                 n_pos ? ", its attributes" : "", n);
    return -1;
  }
  int seen_out = 0;
  for (Py_ssize_t i = c->arity; i < n; i++) {
    PyObject *v = PyTuple_GET_ITEM(args, first + i);
    if (i - c->arity < n_pos) {
      if (attr_from(c, pos[i - c->arity], v) < 0) return -1;
    } else {
      c->out = Py_NewRef(v);
      seen_out = 1;
    }
  }
  if (kwargs) {
    /* A snapshot: the conversions run the caller's code (__str__,
     * __bool__, ...), and kwargs may be a dict the caller holds. */
    PyObject *items = PyDict_Items(kwargs);
    if (!items) return -1;
    int rc = 0;
    for (Py_ssize_t k = 0; rc == 0 && k < PyList_GET_SIZE(items); k++) {
      PyObject *item = PyList_GET_ITEM(items, k);
      rc = keyword_from(c, PyTuple_GET_ITEM(item, 0), PyTuple_GET_ITEM(item, 1),
                        &seen_out);
    }
    Py_DECREF(items);
    if (rc < 0) return -1;
  }
  if (bcast_op_reads_attr(op, BCAST_ATTR_TO) && !c->attrs.cast_to) {
    PyErr_Format(PyExc_TypeError, "%s() needs the result dtype (dtype= or to=)",
                 bcast_op_get(op)->name);
    return -1;
  }
  return inputs_from(c, &PyTuple_GET_ITEM(args, first));
}

PyObject *pb_op_call(PyObject *self, PyObject *args, PyObject *kwargs) {
  pb_op_args c;
  PyObject *result = NULL;
  if (pb_op_args_parse(&c, (bcast_op)PyLong_AsLong(self), args, 0, kwargs) == 0)
    result = compute(&c);
  pb_op_args_release(&c);
  return result;
}

/* ------------------------------------------------------------------------ */
/* bcast.plan: a prepared op (bcast_ew_plan) called on arrays of the
 * planned dtypes, shapes and strides. */

/* What the fast path of a plan call compares an array with: the planning
 * array's NumPy type, dims and strides, and the byte range [lo, hi) its
 * elements span around its data pointer. */
typedef struct plan_slot {
  int type_num; /* -1: planned from a Python scalar (no fast path) */
  int ndim;
  int empty;
  npy_intp lo, hi;
  npy_intp dims[NPY_MAXDIMS], strides[NPY_MAXDIMS];
} plan_slot;

typedef struct plan_object {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  bcast_ew_plan *plan;
  bcast_op op;
  int arity;
  int has_out;                        /* planned for a caller's out */
  int fast;                           /* the fast path may serve calls */
  bcast_dtype dtypes[PB_MAX_INPUTS];  /* the planned input types */
  /* A new output's NumPy type (-1: none) and whether a new output fits
   * the byte budget; in place: whether input k has out's layout. */
  int out_type;
  int same_as_out[PB_MAX_INPUTS];
  plan_slot slot[PB_MAX_INPUTS + 1];  /* the inputs, then out */
  /* Inputs of another type than the op computes in (numpy profile
   * promotion): cast[k] converts input k into scratch[k] before each run,
   * under lock (the scratch buffers are the plan's, one call at a time). */
  int converts;
  bcast_ew_plan *cast[PB_MAX_INPUTS];
  bcast_tensor scratch[PB_MAX_INPUTS];
  PyThread_type_lock lock;
} plan_object;

static void plan_dealloc(PyObject *self) {
  plan_object *p = (plan_object *)self;
  bcast_ew_plan_destroy(p->plan);
  for (int k = 0; k < PB_MAX_INPUTS; k++) {
    bcast_ew_plan_destroy(p->cast[k]);
    bcast_tensor_release(&p->scratch[k]);
  }
  if (p->lock) PyThread_free_lock(p->lock);
  Py_TYPE(self)->tp_free(self);
}

/* Runs the plan on input data (the caller's arrays), converting the inputs
 * that need it first; with the GIL released.  run != 0 checks layouts as
 * bcast_ew_plan_run does (inputs and out then are tensors). */
static bcast_status plan_exec(plan_object *p, const bcast_tensor *inputs,
                              const bcast_tensor *out, void *out_data,
                              const void *const *data, int run,
                              bcast_diag *diag) {
  bcast_status st = BCAST_OK;
  Py_BEGIN_ALLOW_THREADS
  if (p->converts) PyThread_acquire_lock(p->lock, WAIT_LOCK);
  bcast_tensor in[PB_MAX_INPUTS];
  const void *in_data[PB_MAX_INPUTS];
  for (int k = 0; k < p->arity && st == BCAST_OK; k++) {
    if (run)
      in[k] = inputs[k];
    else
      in_data[k] = data[k];
    if (!p->cast[k]) continue;
    if (run) {
      st = bcast_ew_plan_run(p->cast[k], &inputs[k], &p->scratch[k], diag);
      in[k] = p->scratch[k];
    } else {
      st = bcast_ew_plan_execute(p->cast[k], p->scratch[k].data, &data[k],
                                 diag);
      in_data[k] = p->scratch[k].data;
    }
  }
  if (st == BCAST_OK)
    st = run ? bcast_ew_plan_run(p->plan, in, out, diag)
             : bcast_ew_plan_execute(p->plan, out_data, in_data, diag);
  if (p->converts) PyThread_release_lock(p->lock);
  Py_END_ALLOW_THREADS
  return st;
}

/* Records a tensor's layout; 0 when NumPy could not hold it. */
static int slot_set(plan_slot *s, const bcast_tensor *t, int type_num) {
  s->type_num = type_num;
  s->ndim = t->rank;
  if (type_num < 0 || t->rank > NPY_MAXDIMS) return 0;
  s->lo = s->hi = 0;
  s->empty = 0;
  for (int32_t d = 0; d < t->rank; d++) {
    s->dims[d] = (npy_intp)t->shape[d];
    s->strides[d] = (npy_intp)t->stride_bytes[d];
    s->empty |= t->shape[d] == 0;
    const npy_intp reach = (npy_intp)(t->shape[d] - 1) * s->strides[d];
    if (reach < 0)
      s->lo += reach;
    else
      s->hi += reach;
  }
  s->hi += (npy_intp)bcast_dtype_size(t->dtype);
  return 1;
}

/* Whether dims and strides of ndim dims equal the slot's (NumPy's
 * pointers of a 0-d array may be NULL, which memcmp must not see). */
static int same_layout(const plan_slot *s, int ndim, const npy_intp *dims,
                       const npy_intp *strides) {
  const size_t bytes = (size_t)ndim * sizeof(npy_intp);
  return ndim == s->ndim &&
         (ndim == 0 || (!memcmp(dims, s->dims, bytes) &&
                        !memcmp(strides, s->strides, bytes)));
}

static int slot_matches(const plan_slot *s, PyObject *obj) {
  if (!PyArray_Check(obj)) return 0;
  PyArrayObject *a = (PyArrayObject *)obj;
  return PyArray_DESCR(a)->type_num == s->type_num &&
         PyArray_ISNOTSWAPPED(a) &&
         same_layout(s, PyArray_NDIM(a), PyArray_DIMS(a), PyArray_STRIDES(a));
}

static int slots_overlap(const plan_slot *a, const char *pa, const plan_slot *b,
                         const char *pb) {
  return !a->empty && !b->empty && pa + a->lo < pb + b->hi &&
         pb + b->lo < pa + a->hi;
}

/* The plan run on arrays laid out exactly as planned, without wrapping
 * them: returns the result, or NULL without an exception set when the
 * general path must decide (other layouts, scalars, overlaps, errors). */
static PyObject *plan_fast(plan_object *p, PyObject *const *args,
                           PyObject *out_obj) {
  const void *data[PB_MAX_INPUTS];
  for (int k = 0; k < p->arity; k++) {
    if (!slot_matches(&p->slot[k], args[k])) return NULL;
    data[k] = PyArray_DATA((PyArrayObject *)args[k]);
  }
  PyArrayObject *out;
  if (p->has_out) {
    const plan_slot *os = &p->slot[PB_MAX_INPUTS];
    if (!slot_matches(os, out_obj) ||
        !PyArray_ISWRITEABLE((PyArrayObject *)out_obj))
      return NULL;
    out = (PyArrayObject *)out_obj;
    const char *od = PyArray_DATA(out);
    /* A converted input is read whole before out is written. */
    for (int k = 0; k < p->arity; k++)
      if (!p->cast[k] && slots_overlap(os, od, &p->slot[k], data[k]) &&
          !(p->same_as_out[k] && data[k] == od))
        return NULL;
    Py_INCREF(out);
  } else {
    const plan_slot *os = &p->slot[PB_MAX_INPUTS];
    out = (PyArrayObject *)PyArray_SimpleNew(os->ndim, (npy_intp *)os->dims,
                                             p->out_type);
    if (!out) return NULL;
  }
  bcast_diag diag;
  bcast_status st =
      plan_exec(p, NULL, NULL, PyArray_DATA(out), data, 0, &diag);
  if (st != BCAST_OK) {
    Py_DECREF(out);
    return NULL;
  }
  return (PyObject *)out;
}

/* p(*inputs, out=None): scalars take the planned input's type. */
static PyObject *plan_vectorcall(PyObject *self, PyObject *const *args,
                                 size_t nargsf, PyObject *kwnames) {
  plan_object *p = (plan_object *)self;
  const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  PyObject *out_obj = Py_None, *result = NULL;
  const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t i = 0; i < nkw; i++) {
    PyObject *key = PyTuple_GET_ITEM(kwnames, i);
    if (!PyUnicode_Check(key) || PyUnicode_CompareWithASCIIString(key, "out")) {
      PyErr_Format(PyExc_TypeError,
                   "a plan takes no keyword argument %R, only out", key);
      return NULL;
    }
    out_obj = args[nargs + i];
  }
  if (nargs != p->arity) {
    PyErr_Format(PyExc_TypeError, "the plan of %s takes %d inputs, %zd given",
                 bcast_op_get(p->op)->name, p->arity, nargs);
    return NULL;
  }
  if (p->has_out != (out_obj != Py_None)) {
    PyErr_SetString(PyExc_TypeError,
                    p->has_out ? "the plan was made with out=: pass out"
                               : "the plan was made without out=");
    return NULL;
  }
  if (p->fast) {
    result = plan_fast(p, args, out_obj);
    if (result || PyErr_Occurred()) return result;
  }
  pb_array arrays[PB_MAX_INPUTS], out;
  bcast_tensor inputs[PB_MAX_INPUTS], result_t;
  int owned[PB_MAX_INPUTS] = {0};
  int k = 0;
  bcast_diag diag;
  bcast_status st = BCAST_OK;
  memset(arrays, 0, sizeof arrays);
  memset(&out, 0, sizeof out);
  memset(&result_t, 0, sizeof result_t);
  for (; k < p->arity; k++) {
    bcast_scalar sc;
    int is_scalar = weak_scalar(args[k], &sc, input_names[k]);
    if (is_scalar < 0) goto done;
    if (is_scalar) {
      st = bcast_scalar_tensor(&sc, p->dtypes[k], &inputs[k], &diag);
      if (st != BCAST_OK) goto done;
      owned[k] = 1;
    } else {
      if (pb_native_array(args[k], &arrays[k], input_names[k]) < 0) goto done;
      inputs[k] = arrays[k].tensor;
    }
  }
  if (p->has_out) {
    if (out_array(out_obj, &out) < 0) goto done;
  } else {
    st = bcast_ew_plan_alloc_output(p->plan, &out.tensor, &diag);
    if (st != BCAST_OK) goto done;
    result_t = out.tensor;
  }
  st = plan_exec(p, inputs, &out.tensor, NULL, NULL, 1, &diag);
  if (st == BCAST_OK) {
    result = p->has_out ? Py_NewRef(out_obj) : pb_tensor_to_array(&result_t);
    memset(&out.tensor, 0, sizeof out.tensor);
  }
done:
  if (st != BCAST_OK) pb_op_raise(p->op, st, &diag);
  if (!p->has_out) bcast_tensor_release(&out.tensor);
  pb_array_release(&out);
  for (int i = 0; i < k; i++) {
    if (owned[i]) bcast_tensor_release(&inputs[i]);
    pb_array_release(&arrays[i]);
  }
  return result;
}

static PyMemberDef plan_members[] = {
    {"_fast", T_INT, offsetof(plan_object, fast), READONLY,
     "Whether calls on arrays of the planned types, dims and strides go\n"
     "straight to the kernel (the inputs were arrays NumPy can hold, a new\n"
     "output fits the byte budget)."},
    {NULL, 0, 0, 0, NULL}};

static PyTypeObject plan_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bcast.Plan",
    .tp_basicsize = sizeof(plan_object),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_vectorcall_offset = offsetof(plan_object, vectorcall),
    .tp_dealloc = plan_dealloc,
    .tp_call = PyVectorcall_Call,
    .tp_members = plan_members,
    .tp_doc = "A prepared element-wise op (bcast.plan).  p(*inputs, "
              "out=None) runs it\non arrays of the planned dtypes, shapes "
              "and strides (ValueError\notherwise); out= exactly when the "
              "plan was made with out=."};

/* The inputs the plan runs on, in[k]: the call's own, or where the numpy
 * profile promotes (bcast_op_operand_dtypes) a scratch buffer of the
 * computed type that a cast plan fills from the caller's array before each
 * run (a scalar is made in the computed type at once; the caller releases
 * in[k] where it is not c->inputs[k]). */
static bcast_status plan_conversions(plan_object *p, const pb_op_args *c,
                                     bcast_tensor *in, bcast_diag *diag) {
  bcast_dtype types[PB_MAX_INPUTS], computed[PB_MAX_INPUTS];
  for (int k = 0; k < c->arity; k++) {
    types[k] = c->inputs[k].dtype;
    in[k] = c->inputs[k];
  }
  if (c->options.profile != BCAST_PROFILE_NUMPY) {
    for (int k = 0; k < c->arity; k++) p->dtypes[k] = types[k];
    return BCAST_OK;
  }
  bcast_status st = bcast_op_operand_dtypes(c->op, c->options.profile,
                                            (size_t)c->arity, types, computed,
                                            diag);
  for (int k = 0; k < c->arity && st == BCAST_OK; k++) {
    p->dtypes[k] = computed[k];
    if (computed[k] == types[k]) continue;
    if (c->owned[k]) {
      st = bcast_scalar_tensor(&c->scalars[k], computed[k], &in[k], diag);
      continue;
    }
    const bcast_tensor *t = &c->inputs[k];
    st = bcast_tensor_alloc(&p->scratch[k], computed[k], t->rank, t->shape,
                            c->options.max_bytes > 0 ? c->options.max_bytes
                                                     : BCAST_DEFAULT_MAX_BYTES,
                            diag);
    if (st != BCAST_OK) break;
    bcast_op_attrs attrs;
    bcast_op_attrs_init(&attrs);
    attrs.cast_to = &computed[k];
    bcast_ew_options options = c->options;
    options.checked = 0;
    st = bcast_ew_plan_create(&p->cast[k], BCAST_OP_CAST, &attrs, 1, t,
                              &p->scratch[k], &options, diag);
    in[k] = p->scratch[k];
    p->converts = 1;
  }
  return st;
}

/* Whether and how the fast path serves p: every input planned from an
 * array NumPy can hold, and a new output that fits the byte budget. */
static void plan_fast_setup(plan_object *p, const pb_op_args *c) {
  const bcast_tensor *out = bcast_ew_plan_output(p->plan);
  plan_slot *os = &p->slot[PB_MAX_INPUTS];
  p->out_type = pb_npy_type(out->dtype);
  p->fast = slot_set(os, out, p->out_type);
  for (int k = 0; k < p->arity; k++) {
    const PyArrayObject *a = c->arrays[k].array;
    p->fast &= slot_set(&p->slot[k], &c->inputs[k],
                        a ? PyArray_DESCR((PyArrayObject *)a)->type_num : -1);
    p->same_as_out[k] =
        p->fast && same_layout(os, p->slot[k].ndim, p->slot[k].dims,
                               p->slot[k].strides);
  }
  if (p->has_out) {
    /* The planned out's own NumPy type: an int64 out may be NPY_LONG or
     * NPY_LONGLONG, as its array says. */
    os->type_num = PyArray_DESCR((PyArrayObject *)c->out)->type_num;
  } else {
    int64_t bytes = (int64_t)bcast_dtype_size(out->dtype);
    for (int32_t d = 0; d < out->rank; d++) bytes *= out->shape[d];
    const int64_t budget = c->options.max_bytes > 0 ? c->options.max_bytes
                                                    : BCAST_DEFAULT_MAX_BYTES;
    p->fast &= bytes <= budget;
  }
}

PyObject *pb_plan(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  if (PyTuple_GET_SIZE(args) == 0) {
    PyErr_SetString(PyExc_TypeError, "plan(op, *inputs, ...) needs an op");
    return NULL;
  }
  Py_ssize_t len;
  const char *name = pb_utf8(PyTuple_GET_ITEM(args, 0), &len, "plan: op");
  if (!name) return NULL;
  bcast_op op;
  if (bcast_op_lookup(name, (size_t)len, &op) != BCAST_OK) {
    PyErr_Format(PyExc_ValueError, "plan: unknown op %.100R",
                 PyTuple_GET_ITEM(args, 0));
    return NULL;
  }
  pb_op_args c;
  PyObject *result = NULL;
  if (pb_op_args_parse(&c, op, args, 1, kwargs) < 0) goto done;
  pb_array out;
  memset(&out, 0, sizeof out);
  int has_out = c.out && c.out != Py_None;
  if (has_out && out_array(c.out, &out) < 0) goto done;
  plan_object *p = PyObject_New(plan_object, &plan_type);
  if (!p) {
    pb_array_release(&out);
    goto done;
  }
  p->vectorcall = plan_vectorcall;
  p->plan = NULL;
  p->op = op;
  p->arity = c.arity;
  p->has_out = has_out;
  p->converts = 0;
  p->lock = NULL;
  for (int k = 0; k < PB_MAX_INPUTS; k++) {
    p->cast[k] = NULL;
    memset(&p->scratch[k], 0, sizeof p->scratch[k]);
  }
  bcast_diag diag;
  bcast_tensor in[PB_MAX_INPUTS];
  bcast_status st = plan_conversions(p, &c, in, &diag);
  if (st == BCAST_OK)
    st = bcast_ew_plan_create(&p->plan, op, &c.attrs, (size_t)c.arity, in,
                              has_out ? &out.tensor : NULL, &c.options, &diag);
  for (int k = 0; k < c.arity; k++)
    if (c.owned[k] && in[k].data != c.inputs[k].data)
      bcast_tensor_release(&in[k]);
  pb_array_release(&out);
  if (st == BCAST_OK && p->converts && !(p->lock = PyThread_allocate_lock())) {
    PyErr_NoMemory();
    Py_DECREF(p);
    goto done;
  }
  if (st != BCAST_OK) {
    pb_op_raise(c.op, st, &diag);
    Py_DECREF(p);
    goto done;
  }
  plan_fast_setup(p, &c);
  result = (PyObject *)p;
done:
  pb_op_args_release(&c);
  return result;
}

/* One PyMethodDef per op (they must outlive the functions), docstrings
 * built from the op table. */
static PyMethodDef op_defs[BCAST_OP_COUNT];
static char op_docs[BCAST_OP_COUNT][512];

static void op_doc(bcast_op op, char *buf, size_t cap) {
  static const char *const inputs[] = {"", "x", "x, y", "cond, x, y"};
  int arity = bcast_op_arity(op);
  size_t used = (size_t)PyOS_snprintf(buf, cap, "%s(%s",
                                      bcast_op_get(op)->name,
                                      inputs[arity < 0 || arity > 3 ? 0 : arity]);
  bcast_attr pos[3];
  int n_pos = positional_attrs(op, pos);
  for (int i = 0; i < n_pos && used < cap; i++)
    used += (size_t)PyOS_snprintf(buf + used, cap - used, ", %s",
                                  bcast_attr_name(pos[i]));
  if (used < cap)
    used += (size_t)PyOS_snprintf(
        buf + used, cap - used,
        ", out=None, *, profile='numpy', checked=False, threads=None");
  for (int a = 0; a < BCAST_ATTR_COUNT && used < cap; a++) {
    int positional = 0;
    for (int i = 0; i < n_pos; i++) positional |= pos[i] == (bcast_attr)a;
    if (bcast_op_reads_attr(op, (bcast_attr)a) && !positional)
      used += (size_t)PyOS_snprintf(buf + used, cap - used, ", %s=...",
                                    bcast_attr_name((bcast_attr)a));
  }
  if (used < cap)
    PyOS_snprintf(buf + used, cap - used,
                  ")\n\nThe element-wise op '%s' (TOSA's, or NumPy's under "
                  "the numpy profile) over\nNumPy arrays and Python scalars "
                  "(NEP 50), broadcast; see docs/python.md\nin the source tree.",
                  bcast_op_get(op)->name);
}

int pb_add_ops(PyObject *m) {
  PyObject *funcs[BCAST_OP_COUNT] = {NULL};
  PyObject *module_name = PyModule_GetNameObject(m);
  int rc = -1;
  if (!module_name) return -1;
  for (int op = 0; op < BCAST_OP_COUNT; op++) {
    const int arity = bcast_op_arity((bcast_op)op);
    if (arity < 0 || arity > PB_MAX_INPUTS) {
      /* pb_op_args's arrays hold PB_MAX_INPUTS inputs. */
      PyErr_Format(PyExc_ImportError, "bcast: op '%s' has %d inputs, over %d",
                   bcast_op_get((bcast_op)op)->name, arity, PB_MAX_INPUTS);
      goto done;
    }
    op_doc((bcast_op)op, op_docs[op], sizeof op_docs[op]);
    op_defs[op].ml_name = bcast_op_get((bcast_op)op)->name;
    op_defs[op].ml_meth = PB_KW(pb_op_call);
    op_defs[op].ml_flags = METH_VARARGS | METH_KEYWORDS;
    op_defs[op].ml_doc = op_docs[op];
    PyObject *id = PyLong_FromLong(op);
    if (!id) goto done;
    funcs[op] = PyCFunction_NewEx(&op_defs[op], id, module_name);
    Py_DECREF(id);
    if (!funcs[op] ||
        PyModule_AddObjectRef(m, op_defs[op].ml_name, funcs[op]) < 0)
      goto done;
  }
  bcast_op op;
  const char *alias;
  for (size_t k = 0; (alias = bcast_op_alias(k, &op)) != NULL; k++) {
    int identifier = 1;
    for (const char *p = alias; *p; p++)
      identifier &= (*p >= 'a' && *p <= 'z') || *p == '_' ||
                    (p > alias && *p >= '0' && *p <= '9');
    if (identifier && !PyObject_HasAttrString(m, alias) &&
        PyModule_AddObjectRef(m, alias, funcs[op]) < 0)
      goto done;
  }
  if (PyType_Ready(&plan_type) < 0 ||
      PyModule_AddObjectRef(m, "Plan", (PyObject *)&plan_type) < 0)
    goto done;
  rc = 0;
done:
  for (int i = 0; i < BCAST_OP_COUNT; i++) Py_XDECREF(funcs[i]);
  Py_DECREF(module_name);
  return rc;
}
