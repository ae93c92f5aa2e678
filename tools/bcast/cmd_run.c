/* bcast run: one element-wise op over .npy files.
 *
 *   bcast run OP IN.npy... (-o OUT.npy | --print) [--attr NAME=VALUE]...
 *             [--profile tosa|numpy|trait] [--checked] [--threads N]
 *             [--mlir 'OP-LINE'] [--max-bytes N]
 *
 * Every input is read whole before the output is written (to a temporary
 * file, renamed), so OUT.npy may name an input. */
#include <errno.h>
#include <inttypes.h>
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
  int print;     /* --print: show the result instead of writing it */
  int quiet;     /* --quiet: no progress line */
  int list_ops;  /* --list-ops */
  int64_t max_bytes;
  int max_bytes_given; /* without --max-bytes, a streamed output has no cap */
  int64_t memory; /* --memory: above it the output streams (stream.c) */
  int n_attrs;
  const char *attrs[RUN_MAX_ATTRS];
  int nfiles;
  char **files;
} run_opts;

static void run_help(FILE *out) {
  fputs(
      "usage: bcast run OP IN.npy|SCALAR... (-o OUT.npy | --print) [options]\n"
      "       bcast run --mlir 'OP-LINE' IN.npy... (-o OUT.npy | --print) [options]\n"
      "       bcast run --list-ops\n"
      "\n"
      "Runs one of the 36 TOSA element-wise ops (or NumPy's, below) over\n"
      ".npy files: inputs broadcast without copies, result written with\n"
      "numpy.save's bytes.\n"
      "OP is a TOSA name with or without 'tosa.' (add, mul, clamp, select,\n"
      "cast, ...; intdiv, int_div and div are the same op), or one of\n"
      "NumPy's (--profile numpy): divide, floor_divide, remainder (mod),\n"
      "sqrt, square, less, less_equal, not_equal, fmax, fmin, and NumPy's\n"
      "names subtract, multiply, negative, absolute, power, where, invert,\n"
      "left_shift, right_shift.  With --profile numpy, inputs of different\n"
      "types are promoted as NumPy does (int8 + uint8 -> int16).\n"
      "An operand may be a scalar: 3, -1, 2.5, nan, inf, true, false, typed\n"
      "as NumPy types a Python scalar beside the arrays (NEP 50: int8 array\n"
      "+ 3 is int8, + 2.5 is float64); a file named 3 is ./3.\n"
      CLI_INPUT_FORMS_HELP
      CLI_ARCHIVE_OUTPUT_HELP
      "\n"
      "options:\n"
      "  -o, --output FILE     the result .npy file; '-' standard output;\n"
      "                        X.npz or X.npz:NAME an archive (member arr_0\n"
      "                        or NAME)\n"
      "  --print               print the result instead of writing it\n"
      "  --quiet               no progress line (shown on a terminal for\n"
      "                        results of 256 MiB or more)\n"
      "  --list-ops            list the ops: input types per profile, result\n"
      "                        type, attributes\n"
      "  --attr NAME=VALUE     an attribute (repeatable):\n"
      "                          shift=N          mul: right shift, 0..63 (int32)\n"
      "                          round=true|false arithmetic_right_shift\n"
      "                          min_val=V, max_val=V  clamp bounds: values\n"
      "                                           of the input's type\n"
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
      "                        verified under the profile\n",
      out);
  fputs(
      "  --max-bytes N         the most bytes of each input read, and of the\n"
      "                        output made, in memory (K/M/G/T suffixes;\n"
      "                        default 1G); when given, also the largest\n"
      "                        output written tile by tile\n"
      "  --memory N            an output larger than N bytes (default 1G) is\n"
      "                        written to its .npy file tile by tile, holding\n"
      "                        one tile (at most N/2, 64M at most), limited by\n"
      "                        free disk space, and by --max-bytes if given;\n"
      "                        .npy inputs of 64M or more are mapped, not read\n"
      "  -h, --help            this text\n"
      "\n"
      "exit status: 0 ok; 1 the op rejects the types, shapes or attributes,\n"
      "or --checked found an unpredictable result; 2 usage, unreadable or\n"
      "malformed files, write errors.\n",
      out);
}

/* "-1", "-2.5", "-inf": a negative scalar operand, not an option. */
static int is_negative_literal(const char *arg) {
  return arg[0] == '-' &&
         ((arg[1] >= '0' && arg[1] <= '9') || arg[1] == '.' ||
          !strcmp(arg, "-inf") || !strcmp(arg, "-nan"));
}

/* Returns 0 on a usage error (already reported). */
static int parse_opts(int argc, char **argv, run_opts *o) {
  memset(o, 0, sizeof *o);
  o->max_bytes = BCAST_DEFAULT_MAX_BYTES;
  o->memory = CLI_DEFAULT_MEMORY;
  o->files = calloc((size_t)argc, sizeof *o->files);
  if (!o->files) {
    cli_error("out of memory");
    return 0;
  }
  int only_files = 0;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *value;
    if (only_files || arg[0] != '-' || strcmp(arg, "-") == 0 ||
        is_negative_literal(arg)) {
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
    } else if (!strcmp(arg, "--print")) {
      o->print = 1;
    } else if (!strcmp(arg, "--quiet") || !strcmp(arg, "-q")) {
      o->quiet = 1;
    } else if (!strcmp(arg, "--list-ops")) {
      o->list_ops = 1;
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
      o->max_bytes_given = 1;
    } else if (cli_option_is(arg, "--memory")) {
      if (!(value = cli_option_value(argc, argv, &i, "--memory", arg)))
        return 0;
      if (!cli_parse_bytes(value, &o->memory)) return 0;
    } else {
      cli_error("run: unknown option '%s' (see 'bcast run --help')", arg);
      return 0;
    }
  }
  return 1;
}

/* ------------------------------------------------------------------------ */
/* Attributes. */

/* Fills attrs from the NAME=VALUE texts through the library's parser,
 * which also decides which op reads which attribute.  Whether a bound fits
 * the data type is the op's check, made when it runs.  Returns 0 on a
 * usage error (reported). */
static int parse_attrs(const run_opts *o, bcast_op op, bcast_op_attrs *attrs) {
  for (int i = 0; i < o->n_attrs; i++) {
    bcast_diag diag;
    if (bcast_op_attr_parse(attrs, op, o->attrs[i], strlen(o->attrs[i]),
                            &diag) != BCAST_OK) {
      cli_diag("run: --attr", &diag);
      return 0;
    }
  }
  return 1;
}

/* ------------------------------------------------------------------------ */
/* Scalar operands. */

/* An operand written as a literal: true or false (also True, False), an
 * integer (-1, 3), or a float (2.5, -1e3, nan, inf, -inf).  Returns 1 with
 * *out set, 0 when text is no literal (a file: one named "3" is given as
 * ./3), -1 after reporting an integer beyond every type. */
static int parse_scalar_literal(const char *text, bcast_scalar *out) {
  if (!strcmp(text, "true") || !strcmp(text, "True") ||
      !strcmp(text, "false") || !strcmp(text, "False")) {
    *out = bcast_scalar_bool(text[0] == 't' || text[0] == 'T');
    return 1;
  }
  const char *digits = text + (text[0] == '-' || text[0] == '+');
  if (digits[0] && strspn(digits, "0123456789") == strlen(digits)) {
    errno = 0;
    const long long v = strtoll(text, NULL, 10);
    if (!errno) {
      *out = bcast_scalar_int(v);
      return 1;
    }
    errno = 0;
    const unsigned long long u = strtoull(digits, NULL, 10);
    if (text[0] != '-' && !errno) {
      *out = bcast_scalar_uint(u);
      return 1;
    }
    cli_error("run: the integer %s is outside int64 and uint64", text);
    return -1;
  }
  char *end;
  const double f = strtod(text, &end);
  if (end == text || *end) return 0;
  *out = bcast_scalar_float(f);
  return 1;
}

/* Types the scalar operands (is_scalar[k]) by NEP 50 beside the array
 * operands and makes each a rank-0 tensor in x[k].  SELECT's condition is
 * typed on its own, its values beside each other.  Returns 0 after
 * reporting a failure. */
static int type_scalars(bcast_op op, int arity, const int *is_scalar,
                        const bcast_scalar *scalars, bcast_tensor *x) {
  for (int k = 0; k < arity; k++) {
    if (!is_scalar[k]) continue;
    bcast_dtype strong[3];
    size_t n_strong = 0;
    const int first = op == BCAST_OP_SELECT && k > 0 ? 1 : 0;
    if (!(op == BCAST_OP_SELECT && k == 0))
      for (int j = first; j < arity; j++)
        if (!is_scalar[j]) strong[n_strong++] = x[j].dtype;
    bcast_dtype dtype;
    bcast_diag diag;
    if (bcast_scalar_weak_dtype(&scalars[k], n_strong, strong, &dtype,
                                &diag) != BCAST_OK ||
        bcast_scalar_tensor(&scalars[k], dtype, &x[k], &diag) != BCAST_OK) {
      cli_diag("run: scalar operand", &diag);
      return 0;
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
/* A tensor's shape as NumPy prints it: "(4, 3)", "(4,)", "()". */
static void format_shape(const bcast_tensor *t, char *buf, size_t cap) {
  bcast_shape_format_dims(t->rank, t->shape, BCAST_SHAPE_STYLE_NUMPY, buf,
                          cap);
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

/* --broadcast-dimensions: the library checks the map with XLA's rules and
 * places the lower-rank input in the higher rank (views).  Returns 0 after
 * reporting a failure. */
static int place_in_dims(const run_opts *o, int arity, bcast_tensor *x) {
  int64_t dims[BCAST_MAX_RANK];
  size_t n_dims;
  if (arity != 2) {
    cli_error("run: --broadcast-dimensions applies to binary ops");
    return 0;
  }
  if (!cli_parse_dims(o->broadcast_dims, dims, &n_dims)) return 0;
  bcast_tensor views[2];
  bcast_diag diag;
  if (bcast_xla_binary_views(views, &x[0], &x[1], dims, n_dims, &diag) !=
      BCAST_OK) {
    cli_diag("run", &diag);
    return 0;
  }
  for (int k = 0; k < 2; k++) {
    bcast_tensor_release(&x[k]);
    x[k] = views[k];
  }
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
  if (o.help || o.list_ops) {
    if (o.help) run_help(stdout);
    else cli_list_ops(stdout);
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
                "mul, clamp, select, cast, ...; NumPy's: divide, where, ...; "
                "see 'bcast --list-ops')",
                files[0]);
      goto done;
    }
    files++;
    nfiles--;
  }
  const int arity = bcast_op_arity(op);
  const char *opname = bcast_op_get(op)->name;
  if (nfiles != arity) {
    cli_error("run: tosa.%s takes %d input file%s, %d given", opname, arity,
              arity == 1 ? "" : "s", nfiles);
    goto done;
  }
  if (!o.output && !o.print) {
    cli_error("run: give the output file with -o OUT.npy, or --print");
    goto done;
  }
  if (!cli_stdin_once(files, nfiles)) goto done;
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

  /* Inputs: files, or scalar literals typed beside them. */
  int is_scalar[3] = {0, 0, 0};
  bcast_scalar scalars[3];
  memset(x, 0, sizeof x);
  for (int k = 0; k < arity; k++) {
    const int lit = parse_scalar_literal(files[k], &scalars[k]);
    if (lit < 0) goto release;
    n_read++;
    if ((is_scalar[k] = lit)) continue;
    const int read_rc = cli_read_npy(files[k], &x[k], NULL, o.max_bytes);
    if (read_rc != CLI_OK) {
      rc = read_rc;
      goto release;
    }
  }
  if (!type_scalars(op, arity, is_scalar, scalars, x)) {
    rc = CLI_FAIL;
    goto release;
  }

  /* XLA's InDim form: place the lower-rank operand in the higher rank
   * through the map (a view), then the op broadcasts size-1 dims. */
  if (o.broadcast_dims && !place_in_dims(&o, arity, x)) {
    rc = CLI_FAIL;
    goto release;
  }

  bcast_op_attrs attrs;
  bcast_op_attrs_init(&attrs);
  if (!parse_attrs(&o, op, &attrs)) goto release;

  /* The signature of --mlir: verified, then its shapes and element types
   * bound to the files. */
  bcast_shape declared[3], declared_result;
  bcast_dtype declared_dtypes[3], declared_result_dtype;
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
    /* The element types the line declares; the op binds them to the
     * files' types when it runs. */
    for (int k = 0; k <= arity; k++) {
      const bcast_mlir_type_ref *type =
          k < arity ? &mop->operands[k] : &mop->result;
      bcast_dtype *want = k < arity ? &declared_dtypes[k] : &declared_result_dtype;
      if (bcast_dtype_parse(type->elem, type->elem_len, want) != BCAST_OK) {
        cli_error("run: --mlir: element type '%.*s' is not supported",
                  (int)type->elem_len, type->elem);
        rc = CLI_FAIL;
        goto release;
      }
      if (k < arity) bcast_mlir_op_shape(mop, type, &declared[k]);
      else bcast_mlir_op_shape(mop, type, &declared_result);
    }
    options.declared_dtypes = declared_dtypes;
    options.declared_result_dtype = &declared_result_dtype;
    options.declared = declared;
    options.declared_result = &declared_result;
  }

  bcast_diag diag;
  if (!o.print) {
    /* An output over --memory is planned here, then written tile by tile;
     * a plan that fails falls through to report as usual. */
    bcast_ew_plan *plan = NULL;
    if (bcast_ew_plan_create(&plan, op, &attrs, (size_t)arity, x, NULL,
                             &options, NULL) == BCAST_OK) {
      bcast_tensor layout = *bcast_ew_plan_output(plan);
      bcast_ew_plan_destroy(plan);
      if (cli_stream_wanted(&layout, o.memory)) {
        const cli_stream_opts so = {
            o.max_bytes_given ? o.max_bytes : INT64_MAX, o.memory, o.threads,
            o.quiet};
        rc = cli_stream_op(o.output, &layout, (size_t)arity, x, op, &attrs,
                           &options, &so);
        goto release;
      }
    }
  }
  cli_progress progress;
  cli_progress_init(&progress, o.quiet);
  options.progress = cli_progress_update;
  options.progress_ctx = &progress;
  bcast_status st =
      bcast_ew_compute(op, &attrs, (size_t)arity, x, &result, &options, &diag);
  cli_progress_end(&progress);
  if (st != BCAST_OK) {
    cli_diag("run", &diag);
    name_operands(&diag, &o, files, x, arity);
    rc = bcast_status_exit_class(st);
    goto release;
  }
  if (o.print) {
    cli_print_tensor(stdout, "result", &result);
    rc = CLI_OK;
  } else {
    rc = cli_write_npy(o.output, 1, &result, NULL);
  }

release:
  bcast_tensor_release(&result);
  for (int k = 0; k < n_read; k++) bcast_tensor_release(&x[k]);
done:
  free(mop);
  free(o.files);
  return rc;
}
