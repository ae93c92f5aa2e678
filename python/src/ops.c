/* The element-wise ops: one function, op_function, bound once per row of
 * BCAST_OP_LIST and per alias (bcast_op_alias) by pb_add_ops, its op id
 * the function's self; and the parsing of an op's arguments, which
 * bcast.plan (plan.c) shares (pybcast.h). */
#include "pybcast.h"

#include <stdarg.h>
#include <string.h>

const char *const pb_input_names[PB_MAX_INPUTS] = {"input 0", "input 1",
                                                   "input 2"};

void pb_op_call_release(pb_op_call *c) {
  for (int k = 0; k < c->arity; k++) {
    if (c->owned[k]) bcast_tensor_release(&c->inputs[k]);
    pb_array_release(&c->arrays[k]);
  }
  Py_CLEAR(c->out);
  Py_CLEAR(c->wide_bound[0]);
  Py_CLEAR(c->wide_bound[1]);
}

/* How an argument error names the function: by NumPy's name under the
 * numpy profile ("where()", not "select()"), else by the op table's. */
static const char *call_name(const pb_op_call *c) {
  return c->options.profile == BCAST_PROFILE_NUMPY ? bcast_op_numpy_name(c->op)
                                                   : bcast_op_get(c->op)->name;
}

int pb_weak_scalar(PyObject *obj, bcast_scalar *out) {
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
    if (overflow > 0) {
      unsigned long long u = PyLong_AsUnsignedLongLong(obj);
      if (!(u == (unsigned long long)-1 && PyErr_Occurred())) {
        *out = bcast_scalar_uint((uint64_t)u);
        return 1;
      }
      if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
      PyErr_Clear();
    }
    *out = bcast_scalar_int(0);
    return 2;
  }
  if (PyFloat_CheckExact(obj)) {
    *out = bcast_scalar_float(PyFloat_AS_DOUBLE(obj));
    return 1;
  }
  return 0;
}

int pb_scalar_tensor(PyObject *obj, const bcast_scalar *scalar, int kind,
                     bcast_dtype dt, bcast_tensor *out) {
  bcast_scalar s = *scalar;
  /* A Python int of a float type goes through double, as NumPy converts
   * it (int(2**60 + 2**36 + 1) is float32 2**60 there: the double is
   * 2**60 + 2**36, a tie; rounding the int once would give 2**60 +
   * 2**37). */
  const int is_int = kind == 2 || s.kind == BCAST_SCALAR_INT ||
                     s.kind == BCAST_SCALAR_UINT;
  if (is_int && bcast_dtype_kind_of(dt) == BCAST_KIND_FLOAT) {
    const double d = PyLong_AsDouble(obj);
    if (d == -1.0 && PyErr_Occurred()) return -1;
    s = bcast_scalar_float(d);
  } else if (kind == 2 && dt == BCAST_BOOL) {
    s = bcast_scalar_bool(1);
  } else if (kind == 2) {
    PyErr_Format(PyExc_OverflowError, "Python integer %S out of bounds for %s",
                 obj, bcast_dtype_name(dt));
    return -1;
  }
  bcast_diag diag;
  /* An int into an integer type must be one of its values (NEP 50), as
   * the typing checks it: a plan's later scalar is only checked here. */
  const bcast_dtype_kind kd = bcast_dtype_kind_of(dt);
  bcast_dtype fits;
  if (is_int && (kd == BCAST_KIND_SIGNED || kd == BCAST_KIND_UNSIGNED) &&
      bcast_scalar_weak_dtype(&s, 1, &dt, &fits, &diag) != BCAST_OK) {
    PyErr_SetString(PyExc_OverflowError, diag.message);
    return -1;
  }
  const bcast_status st = bcast_scalar_tensor(&s, dt, out, &diag);
  if (st != BCAST_OK) return pb_raise(st, &diag), -1;
  return 0;
}

int pb_input_array(PyObject *obj, pb_array *out, const char *what) {
  /* An array in the other byte order, or not aligned for its elements
   * (NumPy's test_lower_align: float64 at byte offset 4), is read from a
   * native, aligned copy: the kernels load typed elements. */
  if (PyArray_Check(obj) && (!PyArray_ISNOTSWAPPED((PyArrayObject *)obj) ||
                             !PyArray_ISALIGNED((PyArrayObject *)obj))) {
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

int pb_out_array(PyObject *obj, pb_array *out) {
  if (!PyArray_Check(obj) || !PyArray_ISWRITEABLE((PyArrayObject *)obj) ||
      !PyArray_ISNOTSWAPPED((PyArrayObject *)obj)) {
    memset(out, 0, sizeof *out);
    PyErr_SetString(PyExc_TypeError,
                    "out must be a writeable ndarray in native byte order");
    return -1;
  }
  if (PyArray_ISALIGNED((PyArrayObject *)obj))
    return pb_array_from(obj, out, 0, "out");
  /* Unaligned: the run writes an aligned copy, which pb_array_commit
   * writes back into obj (NumPy's WRITEBACKIFCOPY, as its ufuncs do). */
  PyObject *copy = PyArray_FromArray(
      (PyArrayObject *)obj, NULL,
      NPY_ARRAY_ALIGNED | NPY_ARRAY_WRITEABLE | NPY_ARRAY_WRITEBACKIFCOPY);
  if (!copy) return -1;
  int rc = pb_array_from(copy, out, 0, "out");
  if (rc == 0) out->writeback = 1;
  else PyArray_DiscardWritebackIfCopy((PyArrayObject *)copy);
  Py_DECREF(copy);
  return rc;
}

/* The inputs: arrays wrapped as they are, then the scalars typed against
 * the arrays (SELECT's condition is no part of its values' type). */
static int inputs_from(pb_op_call *c, PyObject *const *objs) {
  const char *const *what = pb_input_names;
  int kinds[PB_MAX_INPUTS];
  for (int k = 0; k < c->arity; k++) {
    int is_scalar = kinds[k] = pb_weak_scalar(objs[k], &c->scalars[k]);
    if (is_scalar < 0) return -1;
    if (!is_scalar && pb_input_array(objs[k], &c->arrays[k], what[k]) < 0)
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
        k < first
            ? bcast_scalar_weak_dtype(&c->scalars[k], 0, NULL, &dt, &diag)
            : bcast_op_scalar_dtype(c->op, c->options.profile, &c->scalars[k],
                                    n_strong, strong, &dt, &diag);
    if (st != BCAST_OK) {
      if (st == BCAST_INVALID_ARGUMENT)
        PyErr_SetString(PyExc_OverflowError, diag.message);
      else
        pb_raise(st, &diag);
      return -1;
    }
    /* Python scalars only: an int beyond 64 bits beside a float is that
     * float's type, as NumPy's result_type(int, float) is float64. */
    for (int j = first; kinds[k] == 2 && n_strong == 0 && j < c->arity; j++)
      if (kinds[j] && c->scalars[j].kind == BCAST_SCALAR_FLOAT)
        dt = BCAST_FLOAT64;
    if (pb_scalar_tensor(objs[k], &c->scalars[k], kinds[k], dt,
                         &c->inputs[k]) < 0)
      return -1;
    c->owned[k] = 1;
  }
  return 0;
}

/* CAST's target: anything np.dtype accepts (a name that is no UTF-8 text
 * is refused here: NumPy would raise a codec's error).  A name of a type
 * bcast has and NumPy does not (bfloat16, the 8-bit floats: "f8E4M3FN",
 * "float8_e5m2") is a TypeError saying so.  None, the signature's
 * default, gives none. */
static int cast_target(pb_op_call *c, PyObject *value) {
  if (value == Py_None) return 0;
  Py_ssize_t len;
  const char *text =
      PyUnicode_Check(value) ? pb_utf8(value, &len, "cast: to") : NULL;
  if (PyUnicode_Check(value) && !text) return -1;
  bcast_dtype named;
  if (text && bcast_dtype_parse(text, (size_t)len, &named) == BCAST_OK &&
      pb_npy_type(named) < 0) {
    PyErr_Format(PyExc_TypeError,
                 "cast: NumPy has no dtype for %s (MLIR's %s): bcast cannot "
                 "return it as an array",
                 bcast_dtype_name(named), bcast_dtype_mlir_name(named));
    return -1;
  }
  PyArray_Descr *d = NULL;
  if (!PyArray_DescrConverter(value, &d)) return -1;
  PyObject *name = PyObject_GetAttrString((PyObject *)d, "name");
  Py_DECREF(d);
  if (!name) return -1;
  text = PyUnicode_AsUTF8AndSize(name, &len);
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
 * bound.  An int beyond 64 bits is its nearest double, and *wide holds
 * it (a new reference; wide_bounds_fit). */
static int bound_from(PyObject *value, bcast_scalar *out, const char *name,
                      PyObject **wide) {
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
  int rc = pb_weak_scalar(plain, out);
  if (rc == 2) {
    const double d = PyLong_AsDouble(plain);
    rc = d == -1.0 && PyErr_Occurred() ? -1 : 1;
    *out = bcast_scalar_float(d);
    Py_XSETREF(*wide, Py_NewRef(plain));
  }
  Py_DECREF(plain);
  if (rc == 0)
    PyErr_Format(PyExc_TypeError,
                 "%s must be a bool, int or float (or None), not %.100s", name,
                 Py_TYPE(value)->tp_name);
  return rc == 1 ? 0 : -1;
}

/* One attribute keyword: TO (also spelled dtype) and the bounds from
 * Python values, the others as their text through bcast_op_attr_set. */
static int attr_from(pb_op_call *c, bcast_attr attr, PyObject *value) {
  const char *name = bcast_attr_name(attr);
  if (attr == BCAST_ATTR_TO) return cast_target(c, value);
  if (attr == BCAST_ATTR_MIN_VAL)
    return bound_from(value, &c->attrs.min_val, name, &c->wide_bound[0]);
  if (attr == BCAST_ATTR_MAX_VAL)
    return bound_from(value, &c->attrs.max_val, name, &c->wide_bound[1]);
  if (PyFloat_Check(value) ||
      (attr != BCAST_ATTR_NAN_MODE && PyUnicode_Check(value))) {
    PyErr_Format(PyExc_TypeError, "%s: %R is not a valid value", name, value);
    return -1;
  }
  PyObject *text = PyObject_Str(value);
  if (!text) return -1;
  Py_ssize_t len;
  const char *s = pb_utf8(text, &len, name);
  bcast_diag diag;
  bcast_status st = s ? bcast_op_attr_set(&c->attrs, c->op, name, strlen(name),
                                          s, (size_t)len, &diag)
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
static int keyword_from(pb_op_call *c, PyObject *key, PyObject *value,
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
               call_name(c), name);
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

/* Runs the op; under the numpy profile its floating-point and integer
 * errors are then handled as np.geterr() says (pb_fp_report), the output
 * written either way, as NumPy's. */
static PyObject *compute(pb_op_call *c) {
  bcast_diag diag;
  bcast_status st;
  PyObject *result;
  c->fp_errors = 0;
  if (c->options.profile == BCAST_PROFILE_NUMPY)
    c->options.fp_errors = &c->fp_errors;
  if (c->out && c->out != Py_None) {
    pb_array out;
    if (pb_out_array(c->out, &out) < 0) return NULL;
    Py_BEGIN_ALLOW_THREADS st =
        bcast_ew_compute_into(c->op, &c->attrs, (size_t)c->arity, c->inputs,
                              &out.tensor, &c->options, &diag);
    Py_END_ALLOW_THREADS if (st == BCAST_OK && pb_array_commit(&out) < 0) {
      pb_array_release(&out);
      return NULL;
    }
    pb_array_release(&out);
    if (st != BCAST_OK) return pb_op_raise(c->op, st, &diag);
    result = Py_NewRef(c->out);
  } else {
    bcast_tensor t;
    memset(&t, 0, sizeof t);
    Py_BEGIN_ALLOW_THREADS st =
        bcast_ew_compute(c->op, &c->attrs, (size_t)c->arity, c->inputs, &t,
                         &c->options, &diag);
    Py_END_ALLOW_THREADS if (st != BCAST_OK) return pb_op_raise(c->op, st,
                                                                &diag);
    result = pb_tensor_to_array(&t);
  }
  if (result && pb_fp_report(c->op, c->fp_errors) < 0) Py_CLEAR(result);
  return result;
}

/* A CLAMP bound beyond 64 bits bounds float data as its nearest double
 * and is in no integer type: ValueError, as any bound outside the type. */
static int wide_bounds_fit(const pb_op_call *c) {
  const bcast_dtype data = c->inputs[0].dtype;
  for (int b = 0; b < 2; b++)
    if (c->wide_bound[b] && bcast_dtype_kind_of(data) != BCAST_KIND_FLOAT) {
      PyErr_Format(PyExc_ValueError, "clamp: %s %S is outside %s's range",
                   b ? "max_val" : "min_val", c->wide_bound[b],
                   bcast_dtype_name(data));
      return -1;
    }
  return 0;
}

int pb_op_call_parse(pb_op_call *c, bcast_op op, PyObject *args,
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
                 call_name(c), c->arity, n_pos ? ", its attributes" : "", n);
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
      rc = keyword_from(c, PyTuple_GET_ITEM(item, 0),
                        PyTuple_GET_ITEM(item, 1), &seen_out);
    }
    Py_DECREF(items);
    if (rc < 0) return -1;
  }
  if (bcast_op_reads_attr(op, BCAST_ATTR_TO) && !c->attrs.cast_to) {
    PyErr_Format(PyExc_TypeError,
                 "%s() needs the result dtype (dtype= or to=)", call_name(c));
    return -1;
  }
  if (inputs_from(c, &PyTuple_GET_ITEM(args, first)) < 0) return -1;
  return wide_bounds_fit(c);
}

static PyObject *op_function(PyObject *self, PyObject *args,
                             PyObject *kwargs) {
  pb_op_call c;
  PyObject *result = NULL;
  if (pb_op_call_parse(&c, (bcast_op)PyLong_AsLong(self), args, 0, kwargs) ==
      0)
    result = compute(&c);
  pb_op_call_release(&c);
  return result;
}

/* One PyMethodDef per op (they must outlive the functions), docstrings
 * built from the op table. */
static PyMethodDef op_defs[BCAST_OP_COUNT];
static char op_docs[BCAST_OP_COUNT][4096];

/* A docstring being written: text appended with doc_add; full is set when
 * something did not fit (pb_add_ops then fails rather than truncate). */
typedef struct doc_buf {
  char *text;
  size_t cap, used;
  int full;
} doc_buf;

static void doc_add(doc_buf *d, const char *fmt, ...) {
  if (d->full) return;
  va_list ap;
  va_start(ap, fmt);
  const int n = PyOS_vsnprintf(d->text + d->used, d->cap - d->used, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= d->cap - d->used)
    d->full = 1;
  else
    d->used += (size_t)n;
}

/* An attribute's default in Python: None where the library's default is
 * no value, True / False, a number as written, other text quoted. */
static void doc_add_default(doc_buf *d, bcast_attr attr) {
  const char *v = bcast_attr_default(attr);
  if (!v)
    doc_add(d, "None");
  else if (!strcmp(v, "false") || !strcmp(v, "true"))
    doc_add(d, "%s", v[0] == 't' ? "True" : "False");
  else if ((v[0] >= '0' && v[0] <= '9') || v[0] == '-')
    doc_add(d, "%s", v);
  else
    doc_add(d, "'%s'", v);
}

/* The element types of a mask that NumPy has, wrapped after label. */
static void doc_add_types(doc_buf *d, const char *label, uint32_t mask) {
  doc_add(d, "    %-13s", label);
  size_t column = 17;
  int any = 0;
  for (int t = 0; t < BCAST_DTYPE_COUNT; t++) {
    if (!(mask & (1u << t)) || pb_npy_type((bcast_dtype)t) < 0) continue;
    const char *name = bcast_dtype_name((bcast_dtype)t);
    if (column + 1 + strlen(name) > 76) {
      doc_add(d, "\n%17s", "");
      column = 17;
    } else if (any) {
      doc_add(d, " ");
      column++;
    }
    doc_add(d, "%s", name);
    column += strlen(name);
    any = 1;
  }
  doc_add(d, "%s\n", any ? "" : "none (numpy's op)");
}

/* The docstring of op: its text signature (inspect.signature reads it),
 * then from the op table what it computes, its names, its input and
 * result types per profile, its attributes, what checked mode reports and
 * the table's example as a doctest. */
static int op_doc(bcast_op op, char *buf, size_t cap) {
  static const char *const inputs[] = {"", "x", "x, y", "cond, x, y"};
  const bcast_op_info *info = bcast_op_get(op);
  const int arity = bcast_op_arity(op);
  doc_buf d = {buf, cap, 0, 0};
  doc_add(&d, "%s(%s, /", info->name, inputs[arity]);
  bcast_attr pos[3];
  int n_pos = positional_attrs(op, pos);
  for (int i = 0; i < n_pos; i++)
    doc_add(&d, ", %s=None", bcast_attr_name(pos[i]));
  doc_add(&d, ", out=None, *, profile='numpy', checked=False, threads=None");
  for (int a = 0; a < BCAST_ATTR_COUNT; a++) {
    int positional = 0;
    for (int i = 0; i < n_pos; i++) positional |= pos[i] == (bcast_attr)a;
    if (!bcast_op_reads_attr(op, (bcast_attr)a) || positional) continue;
    doc_add(&d, ", %s=", bcast_attr_name((bcast_attr)a));
    doc_add_default(&d, (bcast_attr)a);
  }
  if (op == BCAST_OP_CAST) doc_add(&d, ", dtype=None");
  doc_add(&d, ")\n--\n\nComputes %s.\n\nElement by element%s.\n",
          info->summary, arity > 1 ? ", the inputs broadcast together" : "");
  if (bcast_op_types(op, BCAST_PROFILE_TOSA))
    doc_add(&d,
            "The op '%s' of bcast's op table: tosa.%s under the tosa and\n"
            "trait profiles, NumPy's under the numpy profile.",
            info->name, info->name);
  else
    doc_add(&d,
            "The op '%s' of bcast's op table, NumPy's: the tosa and trait\n"
            "profiles have no such op.",
            info->name);
  bcast_op other;
  const char *alias;
  int n_alias = 0;
  for (size_t k = 0; (alias = bcast_op_alias(k, &other)) != NULL; k++)
    if (other == op)
      doc_add(&d, "%s%s", n_alias++ ? ", " : "  Also named ", alias);
  doc_add(&d, "%s\n\nInput types (%s):\n", n_alias ? "." : "",
          op == BCAST_OP_SELECT ? "of x and y; cond is bool"
          : arity == 1          ? "of x"
                                : "of every input");
  doc_add_types(&d, "tosa, trait:", bcast_op_types(op, BCAST_PROFILE_TOSA));
  doc_add_types(&d, "numpy:", bcast_op_types(op, BCAST_PROFILE_NUMPY));
  doc_add(&d, "Result type: %s.\n", bcast_op_result_rule_text(info->result));
  if (info->attrs) {
    doc_add(&d, "\nAttributes:\n");
    for (int a = 0; a < BCAST_ATTR_COUNT; a++) {
      if (!bcast_op_reads_attr(op, (bcast_attr)a)) continue;
      doc_add(&d, "    %s (default ", bcast_attr_name((bcast_attr)a));
      doc_add_default(&d, (bcast_attr)a);
      doc_add(&d, "):\n        %s\n", bcast_attr_summary((bcast_attr)a));
    }
    if (op == BCAST_OP_CAST)
      doc_add(&d, "    dtype (default None):\n        another name for to\n");
  }
  doc_add(
      &d,
      "\nInputs are arrays (any layout) or Python scalars, typed as NEP 50\n"
      "says; out is an array of the result's shape and type (also an\n"
      "input, in place).  profile: 'numpy', 'tosa' or 'trait'.\n"
      "threads: OpenMP threads, 0..4096 (None or 0: OpenMP's default).\n");
  if (info->unpredictable)
    doc_add(&d,
            "checked=True raises CheckedError where TOSA leaves the result\n"
            "unpredictable: %s.\n",
            info->unpredictable);
  doc_add(&d, "\nExample (numpy profile):\n\n>>> bcast.%s(%s).tolist()\n%s\n",
          info->name, info->example_args, info->example_result);
  if (d.full)
    PyErr_Format(PyExc_ImportError,
                 "bcast: the docstring of '%s' is over %zu bytes", info->name,
                 cap);
  return d.full ? -1 : 0;
}

/* Adds fn to m as name, and name to names. */
static int add_op(PyObject *m, PyObject *names, const char *name,
                  PyObject *fn) {
  PyObject *text = PyUnicode_FromString(name);
  int rc = text && PyList_Append(names, text) == 0 &&
                   PyModule_AddObjectRef(m, name, fn) == 0
               ? 0
               : -1;
  Py_XDECREF(text);
  return rc;
}

int pb_add_ops(PyObject *m) {
  PyObject *funcs[BCAST_OP_COUNT] = {NULL};
  PyObject *module_name = PyModule_GetNameObject(m);
  PyObject *names = PyList_New(0), *ops = NULL;
  int rc = -1;
  if (!module_name || !names) goto done;
  for (int op = 0; op < BCAST_OP_COUNT; op++) {
    const int arity = bcast_op_arity((bcast_op)op);
    if (arity < 0 || arity > PB_MAX_INPUTS) {
      /* pb_op_call's arrays hold PB_MAX_INPUTS inputs. */
      PyErr_Format(PyExc_ImportError, "bcast: op '%s' has %d inputs, over %d",
                   bcast_op_get((bcast_op)op)->name, arity, PB_MAX_INPUTS);
      goto done;
    }
    if (op_doc((bcast_op)op, op_docs[op], sizeof op_docs[op]) < 0) goto done;
    op_defs[op].ml_name = bcast_op_get((bcast_op)op)->name;
    op_defs[op].ml_meth = PB_KW(op_function);
    op_defs[op].ml_flags = METH_VARARGS | METH_KEYWORDS;
    op_defs[op].ml_doc = op_docs[op];
    PyObject *id = PyLong_FromLong(op);
    if (!id) goto done;
    funcs[op] = PyCFunction_NewEx(&op_defs[op], id, module_name);
    Py_DECREF(id);
    if (!funcs[op] || add_op(m, names, op_defs[op].ml_name, funcs[op]) < 0)
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
        add_op(m, names, alias, funcs[op]) < 0)
      goto done;
  }
  /* bcast.OPS: every name bound above, the table's order, then the
   * aliases'; bcast and bcast.dask export the ops from it. */
  ops = PyList_AsTuple(names);
  if (ops && PyModule_AddObjectRef(m, "OPS", ops) == 0) rc = 0;
done:
  for (int i = 0; i < BCAST_OP_COUNT; i++) Py_XDECREF(funcs[i]);
  Py_XDECREF(module_name);
  Py_XDECREF(names);
  Py_XDECREF(ops);
  return rc;
}
