/* MLIR text from Python: verify_mlir, lower and lower_partial
 * (pybcast.h). */
#include "pybcast.h"

#include <string.h>

/* The per-op profile rules of an op_profile argument: None, one
 * "PATTERN=PROFILE" string, a sequence of them, or a dict {pattern:
 * profile}.  The patterns point into the Python strings, which keep
 * (a reference each) lives as long as the rules. */
typedef struct rules_in {
  bcast_mlir_op_profile rules[64];
  size_t n;
  PyObject *keep; /* list of the strings the patterns point into */
} rules_in;

static int rule_add(rules_in *r, PyObject *pattern, PyObject *profile) {
  if (r->n == sizeof r->rules / sizeof r->rules[0]) {
    PyErr_SetString(PyExc_ValueError, "op_profile: more than 64 rules");
    return -1;
  }
  if (!PyUnicode_Check(pattern)) {
    PyErr_Format(PyExc_TypeError, "op_profile: rules are str, not %.100s",
                 Py_TYPE(pattern)->tp_name);
    return -1;
  }
  if (PyList_Append(r->keep, pattern) < 0) return -1;
  Py_ssize_t len;
  const char *text = pb_utf8(pattern, &len, "op_profile: a rule");
  if (!text) return -1;
  bcast_mlir_op_profile *rule = &r->rules[r->n];
  if (profile) {
    rule->pattern = text;
    rule->pattern_len = (size_t)len;
    rule->profile = BCAST_PROFILE_TRAIT;
    if (profile == Py_None) {
      PyErr_SetString(PyExc_TypeError, "op_profile: a rule needs a profile");
      return -1;
    }
    if (!pb_profile_converter(profile, &rule->profile)) return -1;
  } else {
    bcast_diag diag;
    bcast_status st =
        bcast_mlir_op_profile_parse(text, (size_t)len, rule, &diag);
    if (st != BCAST_OK) return pb_raise(st, &diag), -1;
  }
  r->n++;
  return 0;
}

static int rules_from(PyObject *obj, rules_in *r) {
  r->n = 0;
  r->keep = PyList_New(0);
  if (!r->keep) return -1;
  if (obj == Py_None) return 0;
  if (PyUnicode_Check(obj)) return rule_add(r, obj, NULL);
  if (PyDict_Check(obj)) {
    PyObject *items = PyDict_Items(obj); /* a snapshot, as pb_sequence */
    int rc = items ? 0 : -1;
    for (Py_ssize_t k = 0; rc == 0 && k < PyList_GET_SIZE(items); k++) {
      PyObject *item = PyList_GET_ITEM(items, k);
      rc = rule_add(r, PyTuple_GET_ITEM(item, 0), PyTuple_GET_ITEM(item, 1));
    }
    Py_XDECREF(items);
    return rc;
  }
  PyObject *list = pb_sequence(obj, "op_profile");
  int rc = list ? 0 : -1;
  for (Py_ssize_t k = 0; rc == 0 && k < PyList_GET_SIZE(list); k++)
    rc = rule_add(r, PyList_GET_ITEM(list, k), NULL);
  Py_XDECREF(list);
  return rc;
}

/* One diagnostic as a dict, worded as `bcast verify` prints it: MLIR's
 * message for the op (with its "'name' op " prefix) and bcast's own
 * explanation as a note. */
static PyObject *diagnostic(const char *op, size_t op_len, uint32_t line,
                            uint32_t col, int has_profile,
                            bcast_profile profile, const bcast_diag *diag,
                            const char *outcome) {
  const char *mlir = diag->mlir_message;
  PyObject *name = op ? PyUnicode_DecodeUTF8(op, (Py_ssize_t)op_len, "replace")
                      : Py_NewRef(Py_None);
  PyObject *message = NULL;
  size_t len = bcast_mlir_diag_format(op, op_len, diag, NULL, 0);
  char *text = len < (size_t)PY_SSIZE_T_MAX ? PyMem_Malloc(len + 1) : NULL;
  if (!text)
    PyErr_NoMemory();
  else if (name) {
    bcast_mlir_diag_format(op, op_len, diag, text, len + 1);
    message = PyUnicode_DecodeUTF8(text, (Py_ssize_t)len, "replace");
  }
  PyMem_Free(text);
  PyObject *notes =
      mlir[0] ? Py_BuildValue("[N]", pb_text(diag->message)) : PyList_New(0);
  PyObject *prof = has_profile
                       ? PyUnicode_FromString(bcast_profile_name(profile))
                       : Py_NewRef(Py_None);
  if (!message || !notes || !name || !prof) {
    Py_XDECREF(message);
    Py_XDECREF(notes);
    Py_XDECREF(name);
    Py_XDECREF(prof);
    return NULL;
  }
  return Py_BuildValue("{s:I,s:I,s:N,s:N,s:N,s:s,s:N,s:s}", "line", line,
                       "column", col, "op", name, "message", message, "notes",
                       notes, "status", bcast_status_name(diag->status),
                       "profile", prof, "outcome", outcome);
}

static int append_new(PyObject *list, PyObject *item) {
  if (!item) return -1;
  int rc = PyList_Append(list, item);
  Py_DECREF(item);
  return rc;
}

/* The text of a str or bytes argument (borrowed from obj): bytes as they
 * are (not necessarily UTF-8; the library reports what it cannot parse). */
static const char *text_of(PyObject *obj, Py_ssize_t *len) {
  if (PyBytes_Check(obj)) {
    *len = PyBytes_GET_SIZE(obj);
    return PyBytes_AS_STRING(obj);
  }
  if (PyUnicode_Check(obj)) return pb_utf8(obj, len, "text");
  PyErr_Format(PyExc_TypeError, "text must be str or bytes, not %.100s",
               Py_TYPE(obj)->tp_name);
  return NULL;
}

/* Collects the failed ops of verify_mlir and those bcast cannot check
 * (list NULL after an error, which stops the run). */
static int collect_checked(void *ctx, const bcast_mlir_checked *c) {
  PyObject **list = ctx;
  if (c->outcome != BCAST_MLIR_FAILED && c->outcome != BCAST_MLIR_CANNOT_CHECK)
    return 0;
  const char *outcome =
      c->outcome == BCAST_MLIR_FAILED ? "failed" : "cannot check";
  if (append_new(*list, diagnostic(c->op->name, c->op->name_len,
                                   c->verdict.line, c->verdict.col, c->read,
                                   c->verdict.profile, c->diag, outcome)) < 0) {
    Py_CLEAR(*list);
    return 1;
  }
  return 0;
}

PyObject *pb_verify_mlir(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  static char *kwlist[] = {"text",       "profile",   "op_profile",
                           "ops",        "no_dialect", "chlo_rule",
                           "tosa_validate", NULL};
  PyObject *text_obj, *op_profile = Py_None, *ops_obj = Py_None;
  PyObject *no_dialect = Py_None;
  const char *chlo_rule = "chlo";
  int tosa_validate = 0;
  bcast_profile profile = BCAST_PROFILE_TRAIT;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O&OO$Osp:verify_mlir",
                                   kwlist, &text_obj, pb_profile_converter,
                                   &profile, &op_profile, &ops_obj,
                                   &no_dialect, &chlo_rule, &tosa_validate))
    return NULL;
  int chlo_xla_rule = strcmp(chlo_rule, "xla") == 0;
  if (!chlo_xla_rule && strcmp(chlo_rule, "chlo") != 0) {
    PyErr_Format(PyExc_ValueError,
                 "chlo_rule must be 'chlo' or 'xla', not '%.100s'", chlo_rule);
    return NULL;
  }
  unsigned off = 0;
  if (no_dialect != Py_None) {
    PyObject *list = pb_sequence(no_dialect, "no_dialect");
    if (!list) return NULL;
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(list); k++) {
      Py_ssize_t n;
      const char *name =
          pb_utf8(PyList_GET_ITEM(list, k), &n, "no_dialect (a dialect name)");
      unsigned bit = name ? bcast_mlir_dialect_parse(name, (size_t)n) : 0;
      if (name && !bit)
        PyErr_Format(PyExc_ValueError,
                     "no_dialect: unknown dialect '%.100s' (tosa, stablehlo "
                     "or chlo)",
                     name);
      if (!bit) {
        Py_DECREF(list);
        return NULL;
      }
      off |= bit;
    }
    Py_DECREF(list);
  }
  Py_ssize_t len;
  const char *text = text_of(text_obj, &len);
  if (!text) return NULL;
  rules_in rules;
  PyObject *ops = NULL, *out = NULL;
  bcast_mlir_span *names = NULL;
  if (rules_from(op_profile, &rules) < 0) goto done;
  bcast_mlir_verify_options vo;
  bcast_mlir_verify_options_init(&vo);
  vo.profile = profile;
  vo.rules = rules.rules;
  vo.n_rules = rules.n;
  vo.off_dialects = off;
  vo.chlo_xla_rule = chlo_xla_rule;
  vo.tosa_validate = tosa_validate;
  if (ops_obj != Py_None) {
    ops = pb_sequence(ops_obj, "ops");
    if (!ops) goto done;
    vo.n_ops = (size_t)PyList_GET_SIZE(ops);
    names = PyMem_Calloc(vo.n_ops ? vo.n_ops : 1, sizeof *names);
    if (!names) {
      PyErr_NoMemory();
      goto done;
    }
    for (size_t k = 0; k < vo.n_ops; k++) {
      char what[48];
      Py_ssize_t n;
      PyOS_snprintf(what, sizeof what, "ops[%zu] (an op name)", k);
      names[k].text = pb_utf8(PyList_GET_ITEM(ops, (Py_ssize_t)k), &n, what);
      if (!names[k].text) goto done;
      names[k].len = (size_t)n;
    }
    vo.ops = names;
  }
  out = PyList_New(0);
  if (out)
    bcast_mlir_verify_text(text, (size_t)len, &vo, collect_checked, &out, NULL,
                           NULL);
done:
  PyMem_Free(names);
  Py_XDECREF(ops);
  Py_XDECREF(rules.keep);
  return out;
}

/* The output of lower: a growing buffer. */
typedef struct sink {
  char *data;
  size_t len, cap;
} sink;

static bcast_status sink_write(void *ctx, const char *data, size_t len) {
  sink *s = ctx;
  if (len == 0) return BCAST_OK; /* s->data and data may be NULL */
  if (len > s->cap - s->len) {
    size_t cap = s->cap ? s->cap : 4096;
    while (cap - s->len < len) {
      if (cap > SIZE_MAX / 2) return BCAST_NO_MEMORY;
      cap *= 2;
    }
    char *bigger = PyMem_Realloc(s->data, cap);
    if (!bigger) return BCAST_NO_MEMORY;
    s->data = bigger;
    s->cap = cap;
  }
  memcpy(s->data + s->len, data, len);
  s->len += len;
  return BCAST_OK;
}

/* Collects the failures of lower (list NULL after an error). */
static void collect_failure(void *ctx, const bcast_emit_failure *f) {
  PyObject **list = ctx;
  if (*list &&
      append_new(*list, diagnostic(f->op_name, f->op_name_len, f->line, f->col,
                                   1, f->profile, f->diag, "failed")) < 0)
    Py_CLEAR(*list);
}

/* Raises MLIRError for the failures, with them as .diagnostics. */
static PyObject *raise_mlir_error(PyObject *failures) {
  Py_ssize_t n = PyList_GET_SIZE(failures);
  PyObject *lines = PyList_New(0);
  for (Py_ssize_t k = 0; lines && k < n; k++) {
    PyObject *d = PyList_GET_ITEM(failures, k);
    if (append_new(lines, PyUnicode_FromFormat(
                              "%S:%S: %S", PyDict_GetItemString(d, "line"),
                              PyDict_GetItemString(d, "column"),
                              PyDict_GetItemString(d, "message"))) < 0)
      Py_CLEAR(lines);
  }
  if (!lines) return NULL;
  PyObject *sep = PyUnicode_FromString("\n");
  PyObject *body = sep ? PyUnicode_Join(sep, lines) : NULL;
  Py_XDECREF(sep);
  Py_DECREF(lines);
  PyObject *exc =
      body ? PyObject_CallFunctionObjArgs(pb_MLIRError, body, NULL) : NULL;
  Py_XDECREF(body);
  if (exc && PyObject_SetAttrString(exc, "diagnostics", failures) == 0)
    PyErr_SetObject(pb_MLIRError, exc);
  Py_XDECREF(exc);
  return NULL;
}

/* only=: op names ("tosa.add" or "add") as the library's ops, each once
 * (only has room for BCAST_OP_COUNT). */
static int only_from(PyObject *obj, bcast_op *only, size_t *n) {
  *n = 0;
  if (obj == Py_None) return 0;
  PyObject *list = PyUnicode_Check(obj) ? Py_BuildValue("[O]", obj)
                                        : pb_sequence(obj, "only");
  if (!list) return -1;
  int rc = 0;
  for (Py_ssize_t k = 0; rc == 0 && k < PyList_GET_SIZE(list); k++) {
    PyObject *item = PyList_GET_ITEM(list, k);
    Py_ssize_t len;
    const char *name = pb_utf8(item, &len, "only: an op name");
    bcast_op op;
    if (!name) {
      rc = -1;
    } else if (bcast_op_lookup(name, (size_t)len, &op) != BCAST_OK) {
      PyErr_Format(PyExc_ValueError,
                   "only: '%.100s' is not a TOSA element-wise op", name);
      rc = -1;
    } else {
      size_t i = 0;
      while (i < *n && only[i] != op) i++;
      if (i == *n) only[(*n)++] = op;
    }
  }
  Py_DECREF(list);
  return rc;
}

PyObject *pb_lower(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  static char *kwlist[] = {"text",    "only",       "assert_broadcast",
                           "profile", "op_profile", "source_name",
                           NULL};
  PyObject *text_obj, *only_obj = Py_None, *op_profile = Py_None,
                      *profile_obj = Py_None, *source_obj = Py_None;
  int assert_broadcast = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OpOOO:lower", kwlist,
                                   &text_obj, &only_obj, &assert_broadcast,
                                   &profile_obj, &op_profile, &source_obj))
    return NULL;
  Py_ssize_t len;
  const char *text = text_of(text_obj, &len);
  if (!text) return NULL;
  const char *source_name =
      source_obj == Py_None ? NULL : pb_cstr(source_obj, "source_name");
  if (source_obj != Py_None && !source_name) return NULL;
  bcast_emit_options opts;
  bcast_emit_options_init(&opts);
  opts.profile_given = profile_obj != Py_None;
  if (!pb_profile_converter(profile_obj, &opts.profile)) return NULL;
  bcast_op only[BCAST_OP_COUNT];
  rules_in rules;
  if (only_from(only_obj, only, &opts.n_only) < 0) return NULL;
  if (rules_from(op_profile, &rules) < 0) {
    Py_XDECREF(rules.keep);
    return NULL;
  }
  opts.only = opts.n_only ? only : NULL;
  opts.rules = rules.rules;
  opts.n_rules = rules.n;
  opts.assert_broadcast = assert_broadcast;
  opts.source_name = source_name;
  PyObject *failures = PyList_New(0);
  opts.on_failure = collect_failure;
  opts.failure_ctx = &failures;
  sink out = {NULL, 0, 0};
  bcast_diag diag;
  bcast_status st =
      failures ? bcast_emit_lower_module(text, (size_t)len, &opts, sink_write,
                                         &out, NULL, &diag)
               : BCAST_NO_MEMORY;
  PyObject *result = NULL;
  if (!failures) {
    /* the exception of the failed append is set */
  } else if (st == BCAST_OK) {
    result = PyUnicode_DecodeUTF8(out.data ? out.data : "",
                                  (Py_ssize_t)out.len, "replace");
  } else if (PyList_GET_SIZE(failures) > 0) {
    raise_mlir_error(failures);
  } else {
    pb_raise(st, &diag);
  }
  Py_XDECREF(failures);
  Py_XDECREF(rules.keep);
  PyMem_Free(out.data);
  return result;
}

PyObject *pb_lower_partial(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  static char *kwlist[] = {"shape", "broadcast_dimensions",
                           "new_dims", "dtype",
                           "form", "assert_broadcast",
                           "name", NULL};
  PyObject *shape_obj, *dims_obj, *new_dims, *dtype_obj = Py_None,
                                              *form_obj = Py_None,
                                              *name_obj = Py_None;
  int assert_broadcast = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO|$OOpO:lower_partial",
                                   kwlist, &shape_obj, &dims_obj, &new_dims,
                                   &dtype_obj, &form_obj, &assert_broadcast,
                                   &name_obj))
    return NULL;
  bcast_emit_partial p;
  bcast_emit_partial_init(&p);
  bcast_symbols symbols;
  bcast_symbols_init(&symbols);
  int64_t dims[BCAST_MAX_RANK];
  bcast_dim_size sizes[BCAST_MAX_RANK];
  if (pb_shape_from(shape_obj, &p.operand, &symbols, "shape") < 0 ||
      pb_ints_from(dims_obj, dims, BCAST_MAX_RANK, &p.n_dims,
                   "broadcast_dimensions") < 0 ||
      pb_dim_sizes_from(new_dims, sizes, &p.n_sizes, 1) < 0)
    return NULL;
  if (p.operand.rank == BCAST_RANK_UNRANKED) {
    PyErr_SetString(PyExc_ValueError, "shape: the operand must be ranked");
    return NULL;
  }
  p.dims = dims;
  p.sizes = sizes;
  p.assert_broadcast = assert_broadcast;
  if (dtype_obj != Py_None && !(p.elem = pb_cstr(dtype_obj, "dtype")))
    return NULL;
  if (name_obj != Py_None && !(p.func_name = pb_cstr(name_obj, "name")))
    return NULL;
  if (form_obj != Py_None) {
    const char *form = pb_cstr(form_obj, "form");
    if (!form) return NULL;
    if (strcmp(form, "stablehlo") == 0) {
      p.form = BCAST_EMIT_STABLEHLO;
    } else if (strcmp(form, "linalg") != 0) {
      PyErr_Format(PyExc_ValueError,
                   "form must be 'linalg' or 'stablehlo', not '%.100s'", form);
      return NULL;
    }
  }
  sink out = {NULL, 0, 0};
  bcast_diag diag;
  bcast_status st =
      bcast_emit_broadcast_in_dim_partial(&p, sink_write, &out, &diag);
  PyObject *result =
      st == BCAST_OK ? PyUnicode_DecodeUTF8(out.data ? out.data : "",
                                            (Py_ssize_t)out.len, "replace")
                     : pb_raise(st, &diag);
  PyMem_Free(out.data);
  return result;
}
