/* bcast.plan and the type bcast.Plan: a prepared element-wise op
 * (bcast_ew_plan), made from the arguments bcast.<op> takes (parsed as
 * ops.c parses them) and called on arrays of the planned dtypes, shapes
 * and strides (pybcast.h). */
#include "pybcast.h"

#include <stddef.h>
#include <string.h>

#include <structmember.h>

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
  PyObject_HEAD vectorcallfunc vectorcall;
  bcast_ew_plan *plan;
  bcast_op op;
  int arity;
  int has_out;                       /* planned for a caller's out */
  int fast;                          /* the fast path may serve calls */
  bcast_dtype dtypes[PB_MAX_INPUTS]; /* the planned input types */
  /* A new output's NumPy type (-1: none) and whether a new output fits
   * the byte budget; in place: whether input k has out's layout. */
  int out_type;
  int same_as_out[PB_MAX_INPUTS];
  plan_slot slot[PB_MAX_INPUTS + 1]; /* the inputs, then out */
  /* Inputs of another type than the op computes in (numpy profile
   * promotion): cast[k] converts input k into scratch[k] before each run,
   * under lock (the scratch buffers are the plan's, one call at a time). */
  int converts;
  /* An input planned from a Python int, float or bool: the object and
   * its value as the plan reads it, which the fast path passes when a
   * call gives an equal scalar of the same type (x + 2 slab by slab). */
  PyObject *scalar_obj[PB_MAX_INPUTS];
  bcast_tensor scalar_t[PB_MAX_INPUTS];
  int numpy_errors; /* numpy profile: errors handled as np.geterr() says */
  bcast_ew_plan *cast[PB_MAX_INPUTS];
  bcast_tensor scratch[PB_MAX_INPUTS];
  PyThread_type_lock lock;
  /* What the plan was made for, as Python values (plan_info): op,
   * profile, shapes, dtypes, shape, dtype, out, threads, checked; read by
   * the read-only attributes and the repr. */
  PyObject *info;
} plan_object;

static void plan_dealloc(PyObject *self) {
  plan_object *p = (plan_object *)self;
  bcast_ew_plan_destroy(p->plan);
  for (int k = 0; k < PB_MAX_INPUTS; k++) {
    bcast_ew_plan_destroy(p->cast[k]);
    bcast_tensor_release(&p->scratch[k]);
    bcast_tensor_release(&p->scalar_t[k]);
    Py_XDECREF(p->scalar_obj[k]);
  }
  if (p->lock) PyThread_free_lock(p->lock);
  Py_XDECREF(p->info);
  Py_TYPE(self)->tp_free(self);
}

/* Runs the plan on input data (the caller's arrays), converting the inputs
 * that need it first; with the GIL released.  run != 0 checks layouts as
 * bcast_ew_plan_run does (inputs and out then are tensors).  *errors is
 * set to the errors the op met (BCAST_FPE_*; the conversions only widen,
 * and are not watched). */
static bcast_status plan_exec(plan_object *p, const bcast_tensor *inputs,
                              const bcast_tensor *out, void *out_data,
                              const void *const *data, int run,
                              unsigned *errors, bcast_diag *diag) {
  bcast_status st = BCAST_OK;
  unsigned *fpe = p->numpy_errors ? errors : NULL;
  *errors = 0;
  Py_BEGIN_ALLOW_THREADS if (p->converts)
      PyThread_acquire_lock(p->lock, WAIT_LOCK);
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
    st = run ? bcast_ew_plan_run_fpe(p->plan, in, out, fpe, diag)
             : bcast_ew_plan_execute_fpe(p->plan, out_data, in_data, fpe,
                                         diag);
  if (p->converts) PyThread_release_lock(p->lock);
  Py_END_ALLOW_THREADS return st;
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
         PyArray_ISNOTSWAPPED(a) && PyArray_ISALIGNED(a) &&
         same_layout(s, PyArray_NDIM(a), PyArray_DIMS(a), PyArray_STRIDES(a));
}

static int slots_overlap(const plan_slot *a, const char *pa,
                         const plan_slot *b, const char *pb) {
  return !a->empty && !b->empty && pa + a->lo < pb + b->hi &&
         pb + b->lo < pa + a->hi;
}

/* Whether a call's argument is the scalar an input was planned from: the
 * same object, or one of its exact type with the same value (a float's
 * bits: -0.0 is not 0.0, and a NaN goes the general way). */
static int same_scalar(PyObject *planned, PyObject *arg) {
  if (arg == planned) return 1;
  if (Py_TYPE(arg) != Py_TYPE(planned)) return 0;
  if (PyFloat_CheckExact(arg)) {
    const double a = PyFloat_AS_DOUBLE(arg), b = PyFloat_AS_DOUBLE(planned);
    return memcmp(&a, &b, sizeof a) == 0 && a == a;
  }
  if (!PyLong_CheckExact(arg)) return 0; /* bool: the same object above */
  const int eq = PyObject_RichCompareBool(arg, planned, Py_EQ);
  if (eq < 0) PyErr_Clear();
  return eq == 1;
}

/* The plan run on arrays laid out exactly as planned, without wrapping
 * them: returns the result, or NULL without an exception set when the
 * general path must decide (other layouts, scalars, overlaps, errors). */
static PyObject *plan_fast(plan_object *p, PyObject *const *args,
                           PyObject *out_obj) {
  const void *data[PB_MAX_INPUTS];
  for (int k = 0; k < p->arity; k++) {
    if (p->scalar_obj[k]) {
      if (!same_scalar(p->scalar_obj[k], args[k])) return NULL;
      data[k] = p->scalar_t[k].data;
      continue;
    }
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
      if (!p->cast[k] && !p->scalar_obj[k] &&
          slots_overlap(os, od, &p->slot[k], data[k]) &&
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
  unsigned errors;
  bcast_status st =
      plan_exec(p, NULL, NULL, PyArray_DATA(out), data, 0, &errors, &diag);
  if (st != BCAST_OK || pb_fp_report(p->op, errors) < 0) {
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
    if (!PyUnicode_Check(key) ||
        PyUnicode_CompareWithASCIIString(key, "out")) {
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
    int is_scalar = pb_weak_scalar(args[k], &sc);
    if (is_scalar < 0) goto done;
    if (is_scalar) {
      if (pb_scalar_tensor(args[k], &sc, is_scalar, p->dtypes[k], &inputs[k]) <
          0)
        goto done;
      owned[k] = 1;
    } else {
      if (pb_input_array(args[k], &arrays[k], pb_input_names[k]) < 0)
        goto done;
      inputs[k] = arrays[k].tensor;
    }
  }
  if (p->has_out) {
    if (pb_out_array(out_obj, &out) < 0) goto done;
  } else {
    st = bcast_ew_plan_alloc_output(p->plan, &out.tensor, &diag);
    if (st != BCAST_OK) goto done;
    result_t = out.tensor;
  }
  unsigned errors;
  st = plan_exec(p, inputs, &out.tensor, NULL, NULL, 1, &errors, &diag);
  if (st == BCAST_OK && pb_array_commit(&out) < 0) goto done;
  if (st == BCAST_OK) {
    result = p->has_out ? Py_NewRef(out_obj) : pb_tensor_to_array(&result_t);
    memset(&out.tensor, 0, sizeof out.tensor);
    if (result && pb_fp_report(p->op, errors) < 0) Py_CLEAR(result);
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

/* The read-only attributes: each an entry of the plan's info (closure:
 * its key). */
static PyObject *plan_get(PyObject *self, void *key) {
  PyObject *v = PyDict_GetItemString(((plan_object *)self)->info, key);
  if (!v) PyErr_Format(PyExc_AttributeError, "Plan has no %s", (char *)key);
  return Py_XNewRef(v);
}

#define PLAN_ATTR_(name, doc)                                                 \
  { name, plan_get, NULL, doc, name }
static PyGetSetDef plan_getset[] = {
    PLAN_ATTR_("op", "The op's name in the op table ('add')."),
    PLAN_ATTR_("profile", "The profile the plan follows ('numpy')."),
    PLAN_ATTR_("shapes", "The inputs' shapes, a tuple of tuples."),
    PLAN_ATTR_("dtypes", "The inputs' dtypes, a tuple (a call's arrays "
                         "have these)."),
    PLAN_ATTR_("shape", "The result's shape."),
    PLAN_ATTR_("dtype", "The result's dtype."),
    PLAN_ATTR_("out", "True when the plan writes into the out= array of "
                      "each call,\nFalse when it returns a new array."),
    PLAN_ATTR_("threads", "OpenMP threads (None: OpenMP's default)."),
    PLAN_ATTR_("checked", "Whether unpredictable results raise "
                          "CheckedError."),
    {NULL, NULL, NULL, NULL, NULL}};
#undef PLAN_ATTR_

/* Plan(add: int64 (2, 3), float64 (3,) -> float64 (2, 3), ...). */
static PyObject *plan_repr(PyObject *self) {
  PyObject *info = ((plan_object *)self)->info;
  PyObject *shapes = PyDict_GetItemString(info, "shapes");
  PyObject *dtypes = PyDict_GetItemString(info, "dtypes");
  PyObject *inputs = PyUnicode_FromString("");
  for (Py_ssize_t k = 0; inputs && k < PyTuple_GET_SIZE(shapes); k++)
    Py_SETREF(inputs, PyUnicode_FromFormat("%U%s%S %S", inputs, k ? ", " : "",
                                           PyTuple_GET_ITEM(dtypes, k),
                                           PyTuple_GET_ITEM(shapes, k)));
  if (!inputs) return NULL;
  PyObject *r = PyUnicode_FromFormat(
      "<bcast.Plan %U: %U -> %S %S, out=%S, threads=%S, profile=%R, "
      "checked=%S>",
      PyDict_GetItemString(info, "op"), inputs,
      PyDict_GetItemString(info, "dtype"), PyDict_GetItemString(info, "shape"),
      PyDict_GetItemString(info, "out"), PyDict_GetItemString(info, "threads"),
      PyDict_GetItemString(info, "profile"),
      PyDict_GetItemString(info, "checked"));
  Py_DECREF(inputs);
  return r;
}

/* A shape and a dtype as Python values. */
static PyObject *plan_shape(const bcast_tensor *t) {
  PyObject *shape = PyTuple_New(t->rank);
  for (int32_t d = 0; shape && d < t->rank; d++) {
    PyObject *n = PyLong_FromLongLong((long long)t->shape[d]);
    if (!n) Py_CLEAR(shape);
    if (n) PyTuple_SET_ITEM(shape, d, n);
  }
  return shape;
}

static PyObject *plan_dtype(bcast_dtype dtype) {
  return (PyObject *)PyArray_DescrFromType(pb_npy_type(dtype));
}

/* p->info from the parsed call c (after the plan was built). */
static int plan_info(plan_object *p, const pb_op_call *c) {
  const bcast_tensor *out = bcast_ew_plan_output(p->plan);
  PyObject *shapes = PyTuple_New(c->arity), *dtypes = PyTuple_New(c->arity);
  for (int k = 0; shapes && dtypes && k < c->arity; k++) {
    PyObject *shape = plan_shape(&c->inputs[k]);
    PyObject *dtype = plan_dtype(c->inputs[k].dtype);
    if (shape) PyTuple_SET_ITEM(shapes, k, shape);
    if (dtype) PyTuple_SET_ITEM(dtypes, k, dtype);
    if (!shape || !dtype) Py_CLEAR(shapes);
  }
  if (shapes && dtypes)
    p->info = Py_BuildValue(
        "{s:s,s:s,s:O,s:O,s:N,s:N,s:O,s:N,s:O}", "op",
        bcast_op_get(p->op)->name, "profile",
        bcast_profile_name(c->options.profile), "shapes", shapes, "dtypes",
        dtypes, "shape", plan_shape(out), "dtype", plan_dtype(out->dtype),
        "out", p->has_out ? Py_True : Py_False, "threads",
        c->options.threads > 0 ? PyLong_FromLong(c->options.threads)
                               : Py_NewRef(Py_None),
        "checked", c->options.checked ? Py_True : Py_False);
  Py_XDECREF(shapes);
  Py_XDECREF(dtypes);
  return p->info ? 0 : -1;
}

/* __call__ as a method, so that inspect.signature finds its text
 * signature (the tp_call slot's wrapper has none); it coexists with the
 * slot, which calls go through. */
static PyObject *plan_call_method(PyObject *self, PyObject *args,
                                  PyObject *kwargs) {
  return PyVectorcall_Call(self, args, kwargs);
}

static PyMethodDef plan_methods[] = {
    {"__call__", PB_KW(plan_call_method),
     METH_VARARGS | METH_KEYWORDS | METH_COEXIST,
     "__call__($self, /, *inputs, out=None)\n--\n\n"
     "Runs the plan on inputs of the planned dtypes, shapes and strides:\n"
     "a new array, or out when the plan was made with out=."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject plan_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bcast.Plan",
    .tp_basicsize = sizeof(plan_object),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_vectorcall_offset = offsetof(plan_object, vectorcall),
    .tp_dealloc = plan_dealloc,
    .tp_call = PyVectorcall_Call,
    .tp_repr = plan_repr,
    .tp_members = plan_members,
    .tp_getset = plan_getset,
    .tp_methods = plan_methods,
    .tp_doc = "A prepared element-wise op (bcast.plan).  p(*inputs, "
              "out=None) runs it\non arrays of the planned dtypes, shapes "
              "and strides (ValueError\notherwise); out= exactly when the "
              "plan was made with out=.  Its attributes\n(op, profile, "
              "shapes, dtypes, shape, dtype, out, threads, checked)\nsay "
              "what it was made for; they are read-only."};

/* The inputs the plan runs on, in[k]: the call's own, or where the numpy
 * profile promotes (bcast_op_operand_dtypes) a scratch buffer of the
 * computed type that a cast plan fills from the caller's array before each
 * run (a scalar is made in the computed type at once; the caller releases
 * in[k] where it is not c->inputs[k]). */
static bcast_status plan_conversions(plan_object *p, const pb_op_call *c,
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
  bcast_status st = bcast_op_operand_dtypes(
      c->op, c->options.profile, (size_t)c->arity, types, computed, diag);
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
static void plan_fast_setup(plan_object *p, const pb_op_call *c) {
  const bcast_tensor *out = bcast_ew_plan_output(p->plan);
  plan_slot *os = &p->slot[PB_MAX_INPUTS];
  p->out_type = pb_npy_type(out->dtype);
  p->fast = slot_set(os, out, p->out_type);
  for (int k = 0; k < p->arity; k++) {
    const PyArrayObject *a = c->arrays[k].array;
    const int planned =
        slot_set(&p->slot[k], &c->inputs[k],
                 a ? PyArray_DESCR((PyArrayObject *)a)->type_num : -1);
    p->fast &= planned || p->scalar_obj[k] != NULL;
    p->same_as_out[k] =
        p->fast &&
        same_layout(os, p->slot[k].ndim, p->slot[k].dims, p->slot[k].strides);
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
  pb_op_call c;
  PyObject *result = NULL;
  if (pb_op_call_parse(&c, op, args, 1, kwargs) < 0) goto done;
  pb_array out;
  memset(&out, 0, sizeof out);
  int has_out = c.out && c.out != Py_None;
  if (has_out && pb_out_array(c.out, &out) < 0) goto done;
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
  p->numpy_errors = c.options.profile == BCAST_PROFILE_NUMPY;
  p->lock = NULL;
  p->info = NULL;
  for (int k = 0; k < PB_MAX_INPUTS; k++) {
    p->cast[k] = NULL;
    memset(&p->scratch[k], 0, sizeof p->scratch[k]);
    p->scalar_obj[k] = NULL;
    memset(&p->scalar_t[k], 0, sizeof p->scalar_t[k]);
  }
  bcast_diag diag;
  bcast_tensor in[PB_MAX_INPUTS];
  bcast_status st = plan_conversions(p, &c, in, &diag);
  if (st == BCAST_OK)
    st = bcast_ew_plan_create(&p->plan, op, &c.attrs, (size_t)c.arity, in,
                              has_out ? &out.tensor : NULL, &c.options, &diag);
  /* A scalar input's tensor as the plan reads it is kept for the fast
   * path (the converted one, or the call's own, taken over). */
  for (int k = 0; k < c.arity; k++) {
    if (!c.owned[k]) continue;
    PyObject *obj = PyTuple_GET_ITEM(args, 1 + k);
    const int keep = st == BCAST_OK && (PyLong_CheckExact(obj) ||
                                        PyFloat_CheckExact(obj) ||
                                        PyBool_Check(obj));
    if (in[k].data != c.inputs[k].data) {
      if (keep)
        p->scalar_t[k] = in[k];
      else
        bcast_tensor_release(&in[k]);
    } else if (keep) {
      p->scalar_t[k] = c.inputs[k];
      c.owned[k] = 0;
    }
    if (keep) p->scalar_obj[k] = Py_NewRef(obj);
  }
  pb_array_release(&out);
  if (st == BCAST_OK && p->converts && !(p->lock = PyThread_allocate_lock())) {
    PyErr_NoMemory();
    Py_DECREF(p);
    goto done;
  }
  if (st != BCAST_OK) {
    pb_op_raise(op, st, &diag);
    Py_DECREF(p);
    goto done;
  }
  plan_fast_setup(p, &c);
  if (plan_info(p, &c) < 0) {
    Py_DECREF(p);
    goto done;
  }
  result = (PyObject *)p;
done:
  pb_op_call_release(&c);
  return result;
}

int pb_add_plan_type(PyObject *m) {
  if (PyType_Ready(&plan_type) < 0) return -1;
  return PyModule_AddObjectRef(m, "Plan", (PyObject *)&plan_type);
}
