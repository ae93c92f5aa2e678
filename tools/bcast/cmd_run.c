/* bcast run: one element-wise op over .npy files.
 *
 *   bcast run OP IN.npy... -o OUT.npy [--attr NAME=VALUE]...
 *             [--profile tosa|numpy|trait] [--checked] [--threads N]
 *             [--mlir 'OP-LINE'] [--max-bytes N]
 *
 * Every input is read whole before the output is written (to a temporary
 * file, renamed), so OUT.npy may name an input. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

#define RUN_MAX_ATTRS 16

typedef struct run_opts {
  const char *op_name;
  const char *output;
  const char *mlir;
  const char *profile;
  const char *broadcast_dims;
  int checked;
  int threads;
  int help;
  int64_t max_bytes;
  int n_attrs;
  const char *attrs[RUN_MAX_ATTRS];
  int nfiles;
  char **files;
} run_opts;

static void run_help(FILE *out) {
  fputs(
      "usage: bcast run OP IN.npy... -o OUT.npy [options]\n"
      "       bcast run --mlir 'OP-LINE' IN.npy... -o OUT.npy [options]\n"
      "\n"
      "Runs one of the 36 TOSA element-wise ops over .npy files: inputs\n"
      "broadcast without copies, result written with numpy.save's bytes.\n"
      "OP is a TOSA name with or without 'tosa.' (add, mul, clamp, select,\n"
      "cast, ...; intdiv, int_div and div are the same op).\n"
      "\n"
      "options:\n"
      "  -o, --output FILE     the result .npy file\n"
      "  --attr NAME=VALUE     an attribute (repeatable):\n"
      "                          shift=N          mul: right shift, 0..63 (int32)\n"
      "                          round=true|false arithmetic_right_shift\n"
      "                          min_val=V, max_val=V  clamp bounds\n"
      "                          nan_mode=PROPAGATE|IGNORE  clamp, maximum,\n"
      "                                           minimum\n"
      "                          input_zp=N, output_zp=N  negate (int8)\n"
      "                          to=TYPE          cast target: int8, float16,\n"
      "                                           f32, i1, bfloat16, ...\n"
      "  --profile P           tosa (default: TOSA's types and numerics, equal\n"
      "                        ranks), trait (tosa numerics, ranks expanded) or\n"
      "                        numpy (every numeric type, NumPy's results)\n"
      "  --checked             fail where TOSA calls the result unpredictable\n"
      "                        (integer overflow, division by 0, shift counts\n"
      "                        out of range, pow outside its domain, NaN cast\n"
      "                        to an integer), naming the element and values\n"
      "  --broadcast-dimensions D,...\n"
      "                        XLA's binary form: the output dims the\n"
      "                        lower-rank operand's dims map to (strictly\n"
      "                        increasing); its other dims become 1, then\n"
      "                        size-1 dims broadcast both ways\n"
      "  --threads N           threads (0 = automatic, default)\n"
      "  --mlir 'OP-LINE'      a TOSA op in MLIR form, e.g.\n"
      "                        '%r = tosa.add %a, %b : (tensor<2x?xf32>,\n"
      "                        tensor<1x3xf32>) -> tensor<2x3xf32>': the op,\n"
      "                        shapes ('?' checked at run time) and element\n"
      "                        types the files must match; the line is also\n"
      "                        verified under the profile\n"
      "  --max-bytes N         memory budget for each input and the output,\n"
      "                        optional K/M/G/T suffix (default 1G)\n"
      "  -h, --help            this text\n"
      "\n"
      "exit status: 0 ok; 1 the op rejects the types, shapes or attributes,\n"
      "or --checked found an unpredictable result; 2 usage, unreadable or\n"
      "malformed files, write errors.\n",
      out);
}

/* Returns 0 on a usage error (already reported). */
static int parse_opts(int argc, char **argv, run_opts *o) {
  memset(o, 0, sizeof *o);
  o->max_bytes = BCAST_DEFAULT_MAX_BYTES;
  o->files = calloc((size_t)argc, sizeof *o->files);
  if (!o->files) {
    cli_error("out of memory");
    return 0;
  }
  int only_files = 0;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *value;
    if (only_files || arg[0] != '-' || strcmp(arg, "-") == 0) {
      o->files[o->nfiles++] = argv[i];
    } else if (!strcmp(arg, "--")) {
      only_files = 1;
    } else if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
      o->help = 1;
    } else if (!strcmp(arg, "-o") || cli_option_is(arg, "--output")) {
      if (!(value = cli_option_value(argc, argv, &i,
                                 arg[1] == 'o' ? "-o" : "--output", arg)))
        return 0;
      o->output = value;
    } else if (cli_option_is(arg, "--attr")) {
      if (!(value = cli_option_value(argc, argv, &i, "--attr", arg))) return 0;
      if (o->n_attrs == RUN_MAX_ATTRS) {
        cli_error("run: more than %d --attr options", RUN_MAX_ATTRS);
        return 0;
      }
      o->attrs[o->n_attrs++] = value;
    } else if (cli_option_is(arg, "--profile")) {
      if (!(value = cli_option_value(argc, argv, &i, "--profile", arg))) return 0;
      o->profile = value;
    } else if (cli_option_is(arg, "--broadcast-dimensions")) {
      if (!(value = cli_option_value(argc, argv, &i, "--broadcast-dimensions", arg)))
        return 0;
      o->broadcast_dims = value;
    } else if (!strcmp(arg, "--checked")) {
      o->checked = 1;
    } else if (cli_option_is(arg, "--mlir")) {
      if (!(value = cli_option_value(argc, argv, &i, "--mlir", arg))) return 0;
      o->mlir = value;
    } else if (cli_option_is(arg, "--threads")) {
      if (!(value = cli_option_value(argc, argv, &i, "--threads", arg))) return 0;
      char *end;
      errno = 0;
      long n = strtol(value, &end, 10);
      if (errno || *end || end == value || n < 0 || n > 4096) {
        cli_error("run: invalid thread count '%s' (expected 0..4096; 0 = "
                  "automatic)",
                  value);
        return 0;
      }
      o->threads = (int)n;
    } else if (cli_option_is(arg, "--max-bytes")) {
      if (!(value = cli_option_value(argc, argv, &i, "--max-bytes", arg)))
        return 0;
      if (!cli_parse_bytes(value, &o->max_bytes)) return 0;
    } else {
      cli_error("run: unknown option '%s' (see 'bcast run --help')", arg);
      return 0;
    }
  }
  return 1;
}

/* ------------------------------------------------------------------------ */
/* Attributes. */

static int parse_int(const char *text, int64_t *out) {
  char *end;
  errno = 0;
  long long v = strtoll(text, &end, 10);
  if (errno || end == text || *end) return 0;
  *out = v;
  return 1;
}

static int parse_double(const char *text, double *out) {
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  if (end == text || *end) return 0;
  *out = v;
  return 1;
}

static int parse_bool(const char *text, int *out) {
  if (!strcmp(text, "true") || !strcmp(text, "True") || !strcmp(text, "1")) {
    *out = 1;
    return 1;
  }
  if (!strcmp(text, "false") || !strcmp(text, "False") || !strcmp(text, "0")) {
    *out = 0;
    return 1;
  }
  return 0;
}

/* Which op reads which attribute. */
static int attr_applies(const char *name, bcast_op op) {
  if (!strcmp(name, "shift")) return op == BCAST_OP_MUL;
  if (!strcmp(name, "round")) return op == BCAST_OP_ARITHMETIC_RIGHT_SHIFT;
  if (!strcmp(name, "min_val") || !strcmp(name, "max_val"))
    return op == BCAST_OP_CLAMP;
  if (!strcmp(name, "nan_mode"))
    return op == BCAST_OP_CLAMP || op == BCAST_OP_MAXIMUM ||
           op == BCAST_OP_MINIMUM;
  if (!strcmp(name, "input_zp") || !strcmp(name, "input1_zp") ||
      !strcmp(name, "output_zp"))
    return op == BCAST_OP_NEGATE;
  if (!strcmp(name, "to")) return op == BCAST_OP_CAST;
  return -1;
}

/* A clamp bound: a float for float data (NaN is parsed and refused by the
 * op), an exact integer otherwise; unsigned values beyond INT64_MAX go to
 * *uinteger. */
static int parse_bound(const char *name, const char *value, bcast_dtype data,
                       double *fp, int64_t *integer, uint64_t *uinteger) {
  if (bcast_dtype_kind_of(data) == BCAST_KIND_FLOAT) {
    if (parse_double(value, fp)) return 1;
    cli_error("run: --attr %s=%s: expected a number", name, value);
    return 0;
  }
  double d;
  if (parse_int(value, integer)) {
    /* TOSA gives the bounds the data's type: they must fit it. */
    size_t bits = 8 * bcast_dtype_size(data);
    int is_signed = bcast_dtype_kind_of(data) == BCAST_KIND_SIGNED;
    int64_t lo = is_signed ? (bits >= 64 ? INT64_MIN : -((int64_t)1 << (bits - 1))) : 0;
    int64_t hi = bits >= 64 ? INT64_MAX
                 : is_signed ? ((int64_t)1 << (bits - 1)) - 1
                             : ((int64_t)1 << bits) - 1;
    if (bcast_dtype_kind_of(data) == BCAST_KIND_BOOL) lo = 0, hi = 1;
    if (*integer >= lo && *integer <= hi) return 1;
    cli_error("run: --attr %s=%s is outside %s's range %lld..%lld", name, value,
              bcast_dtype_name(data), (long long)lo, (long long)hi);
    return 0;
  }
  if (bcast_dtype_kind_of(data) == BCAST_KIND_UNSIGNED && value[0] != '-') {
    char *end;
    errno = 0;
    unsigned long long u = strtoull(value, &end, 10);
    if (!errno && end != value && !*end) {
      /* min_int = max_int = INT64_MAX leave the unsigned bound to decide
       * (bcast_op_attrs: INT64_MAX is "no bound" above for unsigned). */
      *uinteger = u;
      *integer = INT64_MAX;
      return 1;
    }
  }
  if (parse_double(value, &d) && d == floor(d) && fabs(d) < 9.2e18) {
    *integer = (int64_t)d;
    return 1;
  }
  cli_error("run: --attr %s=%s: expected an integer for %s data", name, value,
            bcast_dtype_name(data));
  return 0;
}

/* Fills attrs from NAME=VALUE texts; data is the op's data type.  Returns 0
 * on a usage error (reported). */
static int parse_attrs(const run_opts *o, bcast_op op, bcast_dtype data,
                       bcast_op_attrs *attrs) {
  const char *opname = bcast_op_get(op)->name;
  for (int i = 0; i < o->n_attrs; i++) {
    const char *text = o->attrs[i];
    const char *eq = strchr(text, '=');
    if (!eq || eq == text) {
      cli_error("run: --attr '%s': expected NAME=VALUE", text);
      return 0;
    }
    char name[32];
    size_t len = (size_t)(eq - text);
    if (len >= sizeof name) len = sizeof name - 1;
    memcpy(name, text, len);
    name[len] = '\0';
    const char *value = eq + 1;
    const int applies = attr_applies(name, op);
    if (applies < 0) {
      cli_error("run: unknown attribute '%s' (shift, round, min_val, "
                "max_val, nan_mode, input_zp, output_zp, to)",
                name);
      return 0;
    }
    if (!applies) {
      cli_error("run: attribute '%s' does not apply to tosa.%s", name, opname);
      return 0;
    }
    int64_t n;
    if (!strcmp(name, "shift")) {
      if (!parse_int(value, &n) || n < INT32_MIN || n > INT32_MAX) {
        cli_error("run: --attr shift=%s: expected an integer", value);
        return 0;
      }
      attrs->shift = (int32_t)n;
    } else if (!strcmp(name, "round")) {
      if (!parse_bool(value, &attrs->round)) {
        cli_error("run: --attr round=%s: expected true or false", value);
        return 0;
      }
    } else if (!strcmp(name, "min_val")) {
      if (!parse_bound(name, value, data, &attrs->min_fp, &attrs->min_int,
                       &attrs->min_uint))
        return 0;
    } else if (!strcmp(name, "max_val")) {
      if (!parse_bound(name, value, data, &attrs->max_fp, &attrs->max_int,
                       &attrs->max_uint))
        return 0;
    } else if (!strcmp(name, "nan_mode")) {
      if (!strcmp(value, "PROPAGATE") || !strcmp(value, "propagate")) {
        attrs->nan_mode = BCAST_NAN_PROPAGATE;
      } else if (!strcmp(value, "IGNORE") || !strcmp(value, "ignore")) {
        attrs->nan_mode = BCAST_NAN_IGNORE;
      } else {
        cli_error("run: --attr nan_mode=%s: expected PROPAGATE or IGNORE",
                  value);
        return 0;
      }
    } else if (!strcmp(name, "input_zp") || !strcmp(name, "input1_zp") ||
               !strcmp(name, "output_zp")) {
      if (!parse_int(value, &n)) {
        cli_error("run: --attr %s=%s: expected an integer", name, value);
        return 0;
      }
      if (name[0] == 'i') attrs->input_zp = n;
      else attrs->output_zp = n;
    } else if (!strcmp(name, "to")) {
      if (bcast_dtype_parse(value, strlen(value), &attrs->cast_to) !=
              BCAST_OK ||
          attrs->cast_to == BCAST_STRING) {
        cli_error("run: --attr to=%s: unknown element type (int8, float16, "
                  "f32, i1, ...)",
                  value);
        return 0;
      }
    }
  }
  return 1;
}

/* ------------------------------------------------------------------------ */
/* --mlir. */

static int accept_any_op(const char *name, size_t len, void *ctx) {
  (void)name;
  (void)len;
  (void)ctx;
  return 1;
}

/* Parses the op line into *op.  Returns 0 on an error (reported). */
static int parse_mlir(const char *line, bcast_mlir_op *op, bcast_op *id) {
  bcast_mlir_scanner scanner;
  bcast_mlir_scanner_init(&scanner, line, strlen(line), accept_any_op, NULL);
  bcast_diag diag;
  int found = 0;
  if (bcast_mlir_scan_next(&scanner, op, &found, &diag) != BCAST_OK) {
    cli_diag("run: --mlir", &diag);
    return 0;
  }
  if (!found) {
    cli_error("run: --mlir: no operation with a type signature in '%s'",
              line);
    return 0;
  }
  if (bcast_op_lookup(op->name, op->name_len, id) != BCAST_OK) {
    cli_error("run: --mlir: '%.*s' is not one of the element-wise TOSA ops",
              (int)op->name_len, op->name);
    return 0;
  }
  return 1;
}

/* ------------------------------------------------------------------------ */

/* Exit status for a failed library call. */
static int status_exit(bcast_status st) {
  switch (st) {
  case BCAST_IO:
  case BCAST_NO_MEMORY:
  case BCAST_PARSE:
    return CLI_USAGE;
  default:
    return CLI_FAIL;
  }
}

static void format_shape(const bcast_tensor *t, char *buf, size_t cap) {
  size_t len = (size_t)snprintf(buf, cap, "(");
  for (int32_t i = 0; i < t->rank && len < cap; i++)
    len += (size_t)snprintf(buf + len, cap - len,
                            i ? ", %" PRId64 : "%" PRId64, t->shape[i]);
  if (len < cap) snprintf(buf + len, cap - len, t->rank == 1 ? ",)" : ")");
}

/* After a library error: name the files behind the operand numbers. */
static void name_operands(const bcast_diag *diag, const run_opts *o,
                          char **files, const bcast_tensor *x, int n) {
  for (int k = 0; k < 2; k++) {
    int op = diag->operand[k];
    if (op < 0 || op >= n || (k == 1 && op == diag->operand[0])) continue;
    char shape[BCAST_MAX_RANK * 24];
    format_shape(&x[op], shape, sizeof shape);
    fprintf(stderr, "bcast: run: operand #%d is %s (%s, shape %s)\n", op,
            files[op], bcast_dtype_name(x[op].dtype), shape);
  }
  (void)o;
}

/* --broadcast-dimensions: checks the map with XLA's rules and replaces the
 * lower-rank input by a view of rank equal to the other's, its dims at the
 * mapped positions and 1 elsewhere.  Returns 0 after reporting a failure. */
static int place_in_dims(const run_opts *o, int arity, char **files,
                         bcast_tensor *x) {
  int64_t dims[BCAST_MAX_RANK];
  size_t n_dims;
  if (arity != 2) {
    cli_error("run: --broadcast-dimensions applies to binary ops");
    return 0;
  }
  if (!cli_parse_dims(o->broadcast_dims, dims, &n_dims)) return 0;
  bcast_shape s[2], out;
  bcast_diag diag;
  for (int k = 0; k < 2; k++) bcast_shape_set(&s[k], x[k].rank, x[k].shape, NULL);
  if (bcast_xla_binary_shape(&s[0], &s[1], dims, n_dims, &out, &diag) !=
      BCAST_OK) {
    cli_diag("run", &diag);
    return 0;
  }
  int low = x[0].rank < x[1].rank ? 0 : 1;
  if (x[low].rank == x[1 - low].rank) return 1;
  /* A scalar (empty map) becomes all-1s of the other's rank. */
  int64_t placed[BCAST_MAX_RANK];
  int32_t rank = x[1 - low].rank;
  for (int32_t d = 0; d < rank; d++) placed[d] = 1;
  for (size_t i = 0; i < n_dims; i++) placed[dims[i]] = x[low].shape[i];
  bcast_tensor view;
  if (bcast_broadcast_in_dim(&view, &x[low], rank, placed, dims, n_dims,
                             BCAST_DIMS_INCREASING, &diag) != BCAST_OK) {
    cli_diag(files[low], &diag);
    return 0;
  }
  bcast_tensor_release(&x[low]);
  x[low] = view;
  return 1;
}

int cmd_run(int argc, char **argv) {
  run_opts o;
  int rc = CLI_USAGE;
  bcast_tensor x[3], result;
  int n_read = 0;
  bcast_mlir_op *mop = NULL;
  memset(&result, 0, sizeof result);
  if (!parse_opts(argc, argv, &o)) goto done;
  if (o.help) {
    run_help(stdout);
    rc = CLI_OK;
    goto done;
  }

  /* The op: from the MLIR line, or the first positional argument. */
  bcast_op op;
  char **files = o.files;
  int nfiles = o.nfiles;
  if (o.mlir) {
    mop = malloc(sizeof *mop);
    if (!mop) {
      cli_error("out of memory");
      goto done;
    }
    if (!parse_mlir(o.mlir, mop, &op)) goto done;
    /* An op name may still come first; it must agree with the line. */
    bcast_op named;
    struct stat st_buf;
    if (nfiles > 0 &&
        bcast_op_lookup(files[0], strlen(files[0]), &named) == BCAST_OK &&
        stat(files[0], &st_buf) != 0) {
      if (named != op) {
        cli_error("run: OP '%s' disagrees with the --mlir line's '%.*s'",
                  files[0], (int)mop->name_len, mop->name);
        goto done;
      }
      files++;
      nfiles--;
    }
  } else {
    if (nfiles == 0) {
      cli_error("run: no op given");
      run_help(stderr);
      goto done;
    }
    if (bcast_op_lookup(files[0], strlen(files[0]), &op) != BCAST_OK) {
      cli_error("run: unknown op '%s' (the 36 TOSA element-wise ops: add, "
                "mul, clamp, select, cast, ...; see 'bcast run --help')",
                files[0]);
      goto done;
    }
    files++;
    nfiles--;
  }
  const int arity = bcast_ew_arity(op);
  const char *opname = bcast_op_get(op)->name;
  if (nfiles != arity) {
    cli_error("run: tosa.%s takes %d input file%s, %d given", opname, arity,
              arity == 1 ? "" : "s", nfiles);
    goto done;
  }
  if (!o.output) {
    cli_error("run: give the output file with -o OUT.npy");
    goto done;
  }
  bcast_ew_options options;
  bcast_ew_options_init(&options);
  options.checked = o.checked;
  options.threads = o.threads;
  options.max_bytes = o.max_bytes;
  if (o.profile) {
    if (bcast_profile_parse(o.profile, &options.profile) != BCAST_OK ||
        (options.profile != BCAST_PROFILE_TOSA &&
         options.profile != BCAST_PROFILE_TRAIT &&
         options.profile != BCAST_PROFILE_NUMPY)) {
      cli_error("run: unknown profile '%s' (tosa, trait or numpy)", o.profile);
      goto done;
    }
  }

  /* Inputs. */
  for (int k = 0; k < arity; k++) {
    bcast_diag diag;
    bcast_status st = bcast_npy_read(files[k], &x[k], NULL, o.max_bytes, &diag);
    if (st != BCAST_OK) {
      cli_diag(NULL, &diag);
      rc = st == BCAST_BUDGET ? CLI_FAIL : CLI_USAGE;
      goto release;
    }
    n_read++;
  }

  /* XLA's InDim form: place the lower-rank operand in the higher rank
   * through the map (a view), then the op broadcasts size-1 dims. */
  if (o.broadcast_dims && !place_in_dims(&o, arity, files, x)) {
    rc = CLI_FAIL;
    goto release;
  }

  bcast_op_attrs attrs;
  bcast_op_attrs_init(&attrs);
  const bcast_dtype data = x[op == BCAST_OP_SELECT ? 1 : 0].dtype;
  if (!parse_attrs(&o, op, data, &attrs)) goto release;

  /* The signature of --mlir: verified, then its shapes and element types
   * bound to the files. */
  bcast_shape declared[3], declared_result;
  if (mop) {
    bcast_diag diag;
    if ((int)mop->n_operands < arity) {
      cli_error("run: --mlir: tosa.%s needs %d operands, the line has %zu",
                opname, arity, mop->n_operands);
      goto release;
    }
    bcast_status st = bcast_mlir_verify_op(mop, options.profile, &diag);
    if (st != BCAST_OK) {
      cli_error("run: --mlir: the line fails verification: %s",
                diag.mlir_message[0] ? diag.mlir_message : diag.message);
      rc = CLI_FAIL;
      goto release;
    }
    for (int k = 0; k <= arity; k++) {
      const bcast_mlir_type_ref *type =
          k < arity ? &mop->operands[k] : &mop->result;
      bcast_dtype want;
      if (bcast_dtype_parse(type->elem, type->elem_len, &want) != BCAST_OK) {
        cli_error("run: --mlir: element type '%.*s' is not supported",
                  (int)type->elem_len, type->elem);
        rc = CLI_FAIL;
        goto release;
      }
      if (k < arity) {
        bcast_mlir_op_shape(mop, type, &declared[k]);
        if (x[k].dtype != want) {
          cli_error("run: operand #%d (%s) is %s, but the signature declares "
                    "%.*s",
                    k, files[k], bcast_dtype_name(x[k].dtype),
                    (int)type->elem_len, type->elem);
          rc = CLI_FAIL;
          goto release;
        }
      } else {
        bcast_mlir_op_shape(mop, type, &declared_result);
        if (op == BCAST_OP_CAST && attrs.cast_to == BCAST_DTYPE_COUNT)
          attrs.cast_to = want;
        bcast_dtype got;
        bcast_dtype types[3];
        for (int j = 0; j < arity; j++) types[j] = x[j].dtype;
        if (bcast_ew_result_dtype(op, options.profile, (size_t)arity, types,
                                  &attrs, &got, NULL) == BCAST_OK &&
            got != want) {
          cli_error("run: tosa.%s gives %s here, but the signature declares "
                    "a %.*s result",
                    opname, bcast_dtype_name(got), (int)type->elem_len,
                    type->elem);
          rc = CLI_FAIL;
          goto release;
        }
      }
    }
    options.declared = declared;
    options.declared_result = &declared_result;
  }

  bcast_diag diag;
  bcast_status st =
      bcast_ew_compute(op, &attrs, (size_t)arity, x, &result, &options, &diag);
  if (st != BCAST_OK) {
    cli_diag("run", &diag);
    name_operands(&diag, &o, files, x, arity);
    rc = status_exit(st);
    goto release;
  }
  st = bcast_npy_write(o.output, &result, NULL, &diag);
  if (st != BCAST_OK) {
    cli_diag(NULL, &diag);
    rc = CLI_USAGE;
    goto release;
  }
  rc = CLI_OK;

release:
  bcast_tensor_release(&result);
  for (int k = 0; k < n_read; k++) bcast_tensor_release(&x[k]);
done:
  free(mop);
  free(o.files);
  return rc;
}
