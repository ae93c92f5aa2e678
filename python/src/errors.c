/* The module's exceptions: its own classes, the class each library status
 * raises (the Python column of BCAST_STATUS_LIST in bcast/status.h) and
 * pb_raise, which turns a status and its diagnostic into an exception
 * (pybcast.h). */
#include "pybcast.h"

#include <string.h>

PyObject *pb_MLIRError;

/* The classes bcast.NAME of the module, deriving from base.  Which
 * statuses raise them is the status list's to say; mlir.c raises
 * MLIRError itself, for a module with failing ops (slot keeps it). */
static const struct {
  const char *name;
  PyObject *const *base;
  PyObject **slot;
  const char *doc;
} own_classes[] = {
    {"BroadcastError", &PyExc_ValueError, NULL,
     "Shapes that do not broadcast.  Fields: status (the library's status\n"
     "name), operands (the two operand indices, or 'result'), axis (the\n"
     "aligned axis), operand_axes (the axis in each operand's numbering),\n"
     "sizes (the two sizes; None for a dynamic dim), mlir_message (MLIR's\n"
     "wording, or None)."},
    {"BudgetError", &PyExc_MemoryError, NULL,
     "An output would need more bytes than max_bytes allows; the message\n"
     "states the bytes needed."},
    {"MLIRError", &PyExc_ValueError, &pb_MLIRError,
     "Ops of an MLIR module that cannot be handled; .diagnostics lists\n"
     "every one (dicts as bcast.verify_mlir returns)."},
    {"CheckedError", &PyExc_ArithmeticError, NULL,
     "checked=True: an element whose result TOSA leaves unpredictable\n"
     "(overflow, division by zero, ...).  The message names the op, the\n"
     "output index and the operand values; .op is the op's name."},
};

/* The class each status raises, by its name in the status list: one of
 * own_classes or a built-in.  Resolved once, at import; the references
 * are kept for the process. */
static const char *const status_exception_names[] = {
#define PY_EXCEPTION_(id, text, exit_class, py_exception) py_exception,
    BCAST_STATUS_LIST(PY_EXCEPTION_)
#undef PY_EXCEPTION_
};
static PyObject *status_exceptions[BCAST_STATUS_COUNT];

/* The class named name: the module's own (in m), else a built-in.  A new
 * reference, or NULL with ImportError when the name is no exception
 * class: a wrong row in the status list fails the import. */
static PyObject *exception_named(PyObject *m, PyObject *builtins,
                                 const char *name) {
  PyObject *cls = PyDict_GetItemString(PyModule_GetDict(m), name);
  if (cls)
    Py_INCREF(cls);
  else
    cls = PyObject_GetAttrString(builtins, name);
  if (cls && PyExceptionClass_Check(cls)) return cls;
  Py_XDECREF(cls);
  PyErr_Clear();
  PyErr_Format(PyExc_ImportError,
               "bcast: the status list names '%s', which is no exception "
               "class",
               name);
  return NULL;
}

int pb_add_exceptions(PyObject *m) {
  for (size_t k = 0; k < sizeof own_classes / sizeof *own_classes; k++) {
    char qualified[64];
    PyOS_snprintf(qualified, sizeof qualified, "bcast.%s",
                  own_classes[k].name);
    PyObject *type = PyErr_NewExceptionWithDoc(qualified, own_classes[k].doc,
                                               *own_classes[k].base, NULL);
    if (!type) return -1;
    int rc = PyModule_AddObjectRef(m, own_classes[k].name, type);
    if (rc == 0 && own_classes[k].slot)
      Py_XSETREF(*own_classes[k].slot, Py_NewRef(type));
    Py_DECREF(type);
    if (rc < 0) return -1;
  }
  PyObject *builtins = PyImport_ImportModule("builtins");
  if (!builtins) return -1;
  int rc = 0;
  for (int s = 0; rc == 0 && s < BCAST_STATUS_COUNT; s++) {
    PyObject *cls = exception_named(m, builtins, status_exception_names[s]);
    if (!cls)
      rc = -1;
    else
      Py_XSETREF(status_exceptions[s], cls);
  }
  Py_DECREF(builtins);
  return rc;
}

/* Which Python exception a library status is (pb_add_exceptions). */
static PyObject *exception_for(bcast_status status) {
  if ((unsigned)status >= BCAST_STATUS_COUNT || !status_exceptions[status])
    return PyExc_SystemError;
  return status_exceptions[status];
}

/* An operand index of a diagnostic: an int, "result" or None. */
static PyObject *diag_operand(int operand) {
  if (operand == BCAST_DIAG_RESULT) return PyUnicode_FromString("result");
  if (operand < 0) Py_RETURN_NONE;
  return PyLong_FromLong(operand);
}

static PyObject *diag_index(int index) {
  if (index < 0) Py_RETURN_NONE;
  return PyLong_FromLong(index);
}

/* Sets name on exc to value (stolen); -1 when value is NULL or fails. */
static int set_field(PyObject *exc, const char *name, PyObject *value) {
  if (!value) return -1;
  int rc = PyObject_SetAttrString(exc, name, value);
  Py_DECREF(value);
  return rc;
}

/* One value of a diagnostic's element: a NumPy scalar of its type, or a
 * float for bfloat16 (NumPy has no type for it). */
static PyObject *element_value(int32_t dtype, const unsigned char *bytes) {
  const int type = pb_npy_type((bcast_dtype)dtype);
  if (type < 0) {
    uint16_t b;
    memcpy(&b, bytes, sizeof b);
    return PyFloat_FromDouble(bcast_bf16_to_float(b));
  }
  PyArray_Descr *descr = PyArray_DescrFromType(type);
  PyObject *v = PyArray_Scalar((void *)(uintptr_t)bytes, descr, NULL);
  Py_DECREF(descr);
  return v;
}

/* CheckedError's element fields: index (a tuple), values (the operands'
 * values there) and result (what an unchecked run writes there). */
static int set_element_fields(PyObject *exc, const bcast_diag_element *e) {
  PyObject *index = PyTuple_New(e->rank);
  PyObject *values = PyTuple_New(e->operands);
  if (!index || !values) {
    Py_XDECREF(index);
    Py_XDECREF(values);
    return -1;
  }
  for (int32_t d = 0; d < e->rank; d++) {
    PyObject *v = PyLong_FromLongLong(e->index[d]);
    if (!v) goto fail;
    PyTuple_SET_ITEM(index, d, v);
  }
  for (int32_t k = 0; k < e->operands; k++) {
    PyObject *v = element_value(e->dtype[k], e->value[k]);
    if (!v) goto fail;
    PyTuple_SET_ITEM(values, k, v);
  }
  /* set_field takes its value's reference, also when it fails. */
  if (set_field(exc, "index", index)) {
    Py_DECREF(values);
    return -1;
  }
  return set_field(exc, "values", values) ||
         set_field(
             exc, "result",
             element_value(e->dtype[e->operands], e->value[e->operands]));
fail:
  Py_DECREF(index);
  Py_DECREF(values);
  return -1;
}

PyObject *pb_raise(bcast_status status, const bcast_diag *diag) {
  PyObject *type = exception_for(status);
  PyObject *message = pb_text(
      diag && diag->message[0] ? diag->message : bcast_status_text(status));
  PyObject *exc = message ? PyObject_CallOneArg(type, message) : NULL;
  Py_XDECREF(message);
  if (!exc) return NULL;
  int failed = set_field(exc, "status",
                         PyUnicode_FromString(bcast_status_name(status)));
  if (!failed && diag) {
    failed = set_field(exc, "operands",
                       Py_BuildValue("(NN)", diag_operand(diag->operand[0]),
                                     diag_operand(diag->operand[1]))) ||
             set_field(exc, "axis", diag_index(diag->axis)) ||
             set_field(exc, "operand_axes",
                       Py_BuildValue("(NN)", diag_index(diag->operand_axis[0]),
                                     diag_index(diag->operand_axis[1]))) ||
             set_field(exc, "sizes",
                       Py_BuildValue("(NN)", pb_dim_to(diag->size[0], NULL),
                                     pb_dim_to(diag->size[1], NULL))) ||
             set_field(exc, "mlir_message",
                       diag->mlir_message[0] ? pb_text(diag->mlir_message)
                                             : Py_NewRef(Py_None));
  }
  if (!failed && diag && status == BCAST_CHECKED && diag->element.flat >= 0)
    failed = set_element_fields(exc, &diag->element);
  if (!failed) PyErr_SetObject(type, exc);
  Py_DECREF(exc);
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* Error states: the errors an op met (bcast_ew_options.fp_errors), handled
 * as NumPy 1.24's ufuncs handle theirs (its extobj.c): np.geterr() gives
 * each class a mode, taken in NumPy's order (divide, over, under,
 * invalid); 'warn' is a RuntimeWarning and 'raise' a FloatingPointError
 * with NumPy's text, 'call' calls np.geterrcall() with the class's words
 * and every bit met, 'print' writes one line to stderr for the first
 * class only, 'log' writes a line per class to np.geterrcall()'s
 * write. */

static const struct {
  unsigned bit;
  const char *mode_key; /* np.geterr()'s key */
  const char *words;    /* NumPy's wording */
} fp_classes[] = {
    {BCAST_FPE_DIVIDE, "divide", "divide by zero"},
    {BCAST_FPE_OVERFLOW, "over", "overflow"},
    {BCAST_FPE_UNDERFLOW, "under", "underflow"},
    {BCAST_FPE_INVALID, "invalid", "invalid value"},
};

/* numpy.NAME(), a new reference. */
static PyObject *numpy_call(const char *name) {
  PyObject *np = PyImport_ImportModule("numpy");
  PyObject *r = np ? PyObject_CallMethod(np, name, NULL) : NULL;
  Py_XDECREF(np);
  return r;
}

/* Handles one class met in mode; *first is NumPy's once-per-call flag
 * of 'print'.  -1 with an exception set. */
static int fp_handle(const char *mode, const char *words, const char *name,
                     unsigned errors, PyObject *errcall, int *first) {
  char msg[128];
  PyOS_snprintf(msg, sizeof msg, "%s encountered in %s", words, name);
  if (!strcmp(mode, "warn"))
    return PyErr_WarnEx(PyExc_RuntimeWarning, msg, 1);
  if (!strcmp(mode, "raise")) {
    PyErr_SetString(PyExc_FloatingPointError, msg);
    return -1;
  }
  if (!strcmp(mode, "print")) {
    if (*first) PySys_FormatStderr("Warning: %s\n", msg);
    *first = 0;
    return 0;
  }
  if (!strcmp(mode, "call") || !strcmp(mode, "log")) {
    const int call = mode[0] == 'c';
    if (errcall == Py_None) {
      PyErr_Format(PyExc_NameError,
                   call ? "python callback specified for %s (in  %s) but no "
                          "function found."
                        : "log specified for %s (in %s) but no object with "
                          "write method found.",
                   words, name);
      return -1;
    }
    PyObject *r;
    if (call) {
      r = PyObject_CallFunction(errcall, "sI", words, errors);
    } else {
      char line[160];
      PyOS_snprintf(line, sizeof line, "Warning: %s\n", msg);
      r = PyObject_CallMethod(errcall, "write", "s", line);
    }
    Py_XDECREF(r);
    return r ? 0 : -1;
  }
  return 0; /* ignore */
}

int pb_fp_report(bcast_op op, unsigned errors) {
  if (!errors) return 0;
  PyObject *modes = numpy_call("geterr");
  if (!modes) return -1;
  PyObject *errcall = NULL;
  const char *name = bcast_op_numpy_name(op);
  int first = 1, rc = 0;
  for (size_t k = 0; rc == 0 && k < sizeof fp_classes / sizeof *fp_classes;
       k++) {
    if (!(errors & fp_classes[k].bit)) continue;
    PyObject *m = PyDict_GetItemString(modes, fp_classes[k].mode_key);
    const char *mode = m ? PyUnicode_AsUTF8(m) : "warn";
    if (!mode) {
      rc = -1;
      break;
    }
    if (!errcall && (!strcmp(mode, "call") || !strcmp(mode, "log")) &&
        !(errcall = numpy_call("geterrcall"))) {
      rc = -1;
      break;
    }
    rc = fp_handle(mode, fp_classes[k].words, name, errors, errcall, &first);
  }
  Py_XDECREF(errcall);
  Py_DECREF(modes);
  return rc;
}
