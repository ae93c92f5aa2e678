/* bcast run: one element-wise op over .npy files.
 *
 *   bcast run OP IN.npy... (-o OUT.npy | --print) [--attr NAME=VALUE]...
 *             [--profile tosa|numpy|trait] [--checked] [--threads N]
 *             [--mlir 'OP-LINE'] [--max-bytes N]
 *
 * Every input is read whole before the output is written (to a temporary
 * file, renamed), so OUT.npy may name an input.  A run goes through
 * stages, each a function: the options (a table), the op, the inputs,
 * the attributes and --mlir's signature, the output. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "options.h"

/* The --help of bcast run, after the op names (print_op_names); its
 * options are options.c's rows. */
static void print_op_names(FILE *out);

static const char run_help_text[] =
    "An operand may be a scalar: 3, -1, 2.5, nan, inf, true, false, typed\n"
    "as NumPy types a Python scalar beside the arrays (NEP 50: int8 array\n"
    "+ 3 is int8, + 2.5 is float64); a file named 3 is "
    "./3.\n" CLI_INPUT_FORMS_HELP CLI_ARCHIVE_OUTPUT_HELP "\n"
    "options:\n"
    "  -o, --output FILE     the result .npy file; '-' standard output;\n"
    "                        X.npz or X.npz:NAME an archive (member arr_0\n"
    "                        or NAME)\n"
    "  --print               print the result instead of writing it\n"
    "  -q, --quiet           no progress line (shown on a terminal for\n"
    "                        results of 256 MiB or more)\n"
    "  --list-ops            list the ops: input types per profile, result\n"
    "                        type, attributes\n"
    "  --attr NAME=VALUE     an attribute (repeatable):\n"
    "                          shift=N          mul: right shift, 0..63 "
    "(int32)\n"
    "                          round=true|false arithmetic_right_shift\n"
    "                          min_val=V, max_val=V  clamp bounds: values\n"
    "                                           of the input's type\n"
    "                          nan_mode=PROPAGATE|IGNORE  clamp, maximum,\n"
    "                                           minimum\n"
    "                          input_zp=N, output_zp=N  negate (int8)\n"
    "                          to=TYPE          cast target: int8, float16,\n"
    "                                           f32, i1, bfloat16, ...\n"
    "  --profile P           tosa (default: TOSA's types and numerics, equal\n"
    "                        ranks), trait (tosa numerics, ranks expanded) "
    "or\n"
    "                        numpy (every numeric type, NumPy's results)\n"
    "  --types T             the element types of the tosa and trait\n"
    "                        profiles: mlir (default: as MLIR 22's TOSA\n"
    "                        dialect and tosa-to-linalg, int64, float64,\n"
    "                        int8 minimum, ...) or tosa-1.0 (TOSA 1.0.2's\n"
    "                        profile tables)\n"
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
    "                        shapes ('?' checked at run time), element\n"
    "                        types and attributes (--attr replaces one);\n"
    "                        the line is also verified under the profile\n"
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
    "malformed files, write errors.\n";

static const cli_help run_help = {print_op_names, run_help_text};

/* Prints item, the next of a comma-separated list wrapped at 72 columns
 * on lines indented by two (*used: the columns of the line so far, 0
 * before the first); the last ends in '.'. */
static void print_item(FILE *out, size_t *used, const char *item, int last) {
  const size_t len = strlen(item) + 1;
  if (*used == 0 || *used + 1 + len > 72) {
    fputs(*used ? ",\n  " : "  ", out);
    *used = 2;
  } else {
    fputs(", ", out);
    *used += 2;
  }
  fputs(item, out);
  *used += len - 1;
  if (last) fputs(".\n", out);
}

/* The op names run takes, from the op table: TOSA's ops, NumPy's (the
 * rows with no TOSA types) and the other names bcast_op_lookup accepts,
 * each with the op it names. */
static void print_op_names(FILE *out) {
  int n_tosa = 0, n_numpy = 0;
  for (int k = 0; k < BCAST_OP_COUNT; k++)
    bcast_op_get((bcast_op)k)->tosa_types ? n_tosa++ : n_numpy++;
  fprintf(
      out,
      "usage: bcast run OP IN.npy|SCALAR... (-o OUT.npy | --print) [options]\n"
      "       bcast run --mlir 'OP-LINE' IN.npy... (-o OUT.npy | --print) "
      "[options]\n"
      "       bcast run --list-ops\n"
      "\n"
      "Runs one of the %d TOSA element-wise ops (or NumPy's, below) over\n"
      ".npy files: inputs broadcast without copies, result written with\n"
      "numpy.save's bytes.  OP is one of them, with or without 'tosa.':\n",
      n_tosa);
  for (int tosa = 1; tosa >= 0; tosa--) {
    if (!tosa) fputs("or one of NumPy's (--profile numpy):\n", out);
    size_t used = 0;
    int left = tosa ? n_tosa : n_numpy;
    for (int k = 0; k < BCAST_OP_COUNT; k++) {
      const bcast_op_info *info = bcast_op_get((bcast_op)k);
      if (!info->tosa_types == !tosa)
        print_item(out, &used, info->name, !--left);
    }
  }
  fputs("or another name of one of them (NumPy's, TOSA's old ones):\n", out);
  size_t used = 0;
  bcast_op op, next;
  const char *alias;
  for (size_t a = 0; (alias = bcast_op_alias(a, &op)) != NULL; a++) {
    char item[96];
    snprintf(item, sizeof item, "%s (%s)", alias, bcast_op_get(op)->name);
    print_item(out, &used, item, bcast_op_alias(a + 1, &next) == NULL);
  }
  fputs("With --profile numpy, inputs of different types are promoted as\n"
        "NumPy does (int8 + uint8 -> int16).\n",
        out);
}

/* ------------------------------------------------------------------------ */
/* What a run works on, stage by stage. */

typedef struct run_state {
  run_opts o;
  bcast_op op;
  int arity;
  char **files;       /* the operands as given, after the op's name */
  bcast_mlir_op *mop; /* --mlir's line, parsed */
  bcast_tensor x[3];
  int is_scalar[3]; /* x[k] came from a literal, not a file */
  int n_read;       /* x[0..n_read) are held */
  bcast_op_attrs attrs;
  bcast_ew_options options;
  /* --mlir's signature, which options point at. */
  bcast_shape declared[3], declared_result;
  bcast_dtype declared_dtypes[3], declared_result_dtype;
} run_state;

/* ------------------------------------------------------------------------ */
/* The op. */

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
    cli_error("run: --mlir: no operation with a type signature in '%s'", line);
    return 0;
  }
  if (bcast_op_lookup(op->name, op->name_len, id) != BCAST_OK) {
    cli_error("run: --mlir: '%.*s' is not one of the element-wise TOSA ops",
              (int)op->name_len, op->name);
    return 0;
  }
  return 1;
}

/* The op of --mlir's line; an op name may still come first, and must
 * agree with it.  Returns 0 on an error (reported). */
static int op_from_mlir(run_state *r) {
  if (!(r->mop = malloc(sizeof *r->mop))) {
    cli_error("out of memory");
    return 0;
  }
  if (!parse_mlir(r->o.mlir, r->mop, &r->op)) return 0;
  bcast_op named;
  struct stat st_buf;
  if (r->o.files.n > 0 &&
      bcast_op_lookup(r->files[0], strlen(r->files[0]), &named) == BCAST_OK &&
      stat(r->files[0], &st_buf) != 0) {
    if (named != r->op) {
      cli_error("run: OP '%s' disagrees with the --mlir line's '%.*s'",
                r->files[0], (int)r->mop->name_len, r->mop->name);
      return 0;
    }
    r->files++;
    r->o.files.n--;
  }
  return 1;
}

/* The op: from the MLIR line, or the first argument; then the operand
 * count and the output.  Returns 0 on an error (reported). */
static int choose_op(run_state *r) {
  r->files = r->o.files.items;
  if (r->o.mlir) {
    if (!op_from_mlir(r)) return 0;
  } else if (r->o.files.n == 0) {
    cli_error("run: no op given");
    cli_print_help(stderr, &run_help);
    return 0;
  } else if (bcast_op_lookup(r->files[0], strlen(r->files[0]), &r->op) !=
             BCAST_OK) {
    cli_error("run: unknown op '%s' (the 36 TOSA element-wise ops: add, "
              "mul, clamp, select, cast, ...; NumPy's: divide, where, ...; "
              "see 'bcast --list-ops')",
              r->files[0]);
    return 0;
  } else {
    r->files++;
    r->o.files.n--;
  }
  r->arity = bcast_op_arity(r->op);
  if (r->o.files.n != r->arity) {
    cli_error("run: tosa.%s takes %d input file%s, %d given",
              bcast_op_get(r->op)->name, r->arity, r->arity == 1 ? "" : "s",
              r->o.files.n);
    return 0;
  }
  if (!r->o.out.output && !r->o.out.print) {
    cli_error("run: give the output file with -o OUT.npy, or --print");
    return 0;
  }
  return cli_stdin_once(r->files, r->arity);
}

/* The options of the op's execution.  Returns 0 on an error (reported). */
static int set_options(run_state *r) {
  bcast_ew_options *options = &r->options;
  bcast_ew_options_init(options);
  options->checked = r->o.checked;
  options->threads = r->o.out.threads;
  options->max_bytes = r->o.out.max_bytes;
  options->tables = r->o.tables;
  if (r->o.profile &&
      (bcast_profile_parse(r->o.profile, &options->profile) != BCAST_OK ||
       (options->profile != BCAST_PROFILE_TOSA &&
        options->profile != BCAST_PROFILE_TRAIT &&
        options->profile != BCAST_PROFILE_NUMPY))) {
    cli_error("run: unknown profile '%s' (tosa, trait or numpy)",
              r->o.profile);
    return 0;
  }
  return 1;
}

/* ------------------------------------------------------------------------ */
/* Inputs: files, or scalar literals typed beside them. */

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
static int type_scalars(bcast_op op, bcast_profile profile, int arity,
                        const int *is_scalar, const bcast_scalar *scalars,
                        bcast_tensor *x) {
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
    if (bcast_op_scalar_dtype(op, profile, &scalars[k], n_strong, strong,
                              &dtype, &diag) != BCAST_OK ||
        bcast_scalar_tensor(&scalars[k], dtype, &x[k], &diag) != BCAST_OK) {
      cli_diag("run: scalar operand", &diag);
      return 0;
    }
  }
  return 1;
}

/* --broadcast-dimensions: the library checks the map with XLA's rules and
 * places the lower-rank input in the higher rank (views).  Returns 0 after
 * reporting a failure. */
static int place_in_dims(const char *text, int arity, bcast_tensor *x) {
  int64_t dims[BCAST_MAX_RANK];
  size_t n_dims;
  if (arity != 2) {
    cli_error("run: --broadcast-dimensions applies to binary ops");
    return 0;
  }
  if (!cli_parse_dims(text, dims, &n_dims)) return 0;
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

/* Reads the operands: files, or scalars typed beside them; XLA's InDim
 * form then places the lower-rank operand in the higher rank through the
 * map (a view), and the op broadcasts size-1 dims.  CLI_OK or the exit
 * code of the failure (reported). */
static int read_operands(run_state *r) {
  int *is_scalar = r->is_scalar;
  bcast_scalar scalars[3];
  for (int k = 0; k < r->arity; k++) {
    const int lit = parse_scalar_literal(r->files[k], &scalars[k]);
    if (lit < 0) return CLI_USAGE;
    r->n_read++;
    if ((is_scalar[k] = lit)) continue;
    const int rc =
        cli_read_npy(r->files[k], &r->x[k], NULL, r->o.out.max_bytes);
    if (rc != CLI_OK) return rc;
  }
  if (!type_scalars(r->op, r->options.profile, r->arity, is_scalar, scalars,
                    r->x))
    return CLI_FAIL;
  if (r->o.broadcast_dims &&
      !place_in_dims(r->o.broadcast_dims, r->arity, r->x))
    return CLI_FAIL;
  return CLI_OK;
}

/* ------------------------------------------------------------------------ */
/* Attributes and --mlir's signature. */

/* Reads one attribute dictionary of --mlir's line as the scanner recorded
 * it, "{...}" or the generic form's "<{...}>" (len 0: none), through the
 * library's MLIR attribute parser.  Returns 0 on an error (reported). */
static int parse_mlir_attrs(run_state *r, bcast_mlir_span dict) {
  const char *t = dict.text;
  size_t len = dict.len;
  if (len == 0) return 1;
  if (t[0] == '<' && len >= 2) {
    t++;
    len -= 2;
  }
  bcast_diag diag;
  if (bcast_op_attrs_parse_mlir(&r->attrs, r->op, t, len, NULL, &diag) !=
      BCAST_OK) {
    cli_diag("run: --mlir: attributes", &diag);
    return 0;
  }
  return 1;
}

/* Fills the attributes: --mlir's line's own (its properties, then its
 * dictionary), then the NAME=VALUE texts of --attr, which replace a value
 * the line set, through the library's parsers, which also decide which op
 * reads which attribute.  Whether a bound fits the data type is the op's
 * check, made when it runs.  Returns 0 on a usage error (reported). */
static int parse_attrs(run_state *r) {
  bcast_op_attrs_init(&r->attrs);
  if (r->mop && (!parse_mlir_attrs(r, r->mop->properties) ||
                 !parse_mlir_attrs(r, r->mop->attrs)))
    return 0;
  for (int i = 0; i < r->o.attrs.n; i++) {
    const char *text = r->o.attrs.items[i];
    bcast_diag diag;
    if (bcast_op_attr_parse(&r->attrs, r->op, text, strlen(text), &diag) !=
        BCAST_OK) {
      cli_diag("run: --attr", &diag);
      return 0;
    }
  }
  return 1;
}

/* The signature of --mlir: verified, then its shapes and element types
 * bound to the files when the op runs.  CLI_OK or the exit code of the
 * failure (reported). */
static int bind_signature(run_state *r) {
  const bcast_mlir_op *mop = r->mop;
  const char *opname = bcast_op_get(r->op)->name;
  if ((int)mop->n_operands < r->arity) {
    cli_error("run: --mlir: tosa.%s needs %d operands, the line has %zu",
              opname, r->arity, mop->n_operands);
    return CLI_USAGE;
  }
  bcast_diag diag;
  if (bcast_mlir_verify_op(mop, r->options.profile, &diag) != BCAST_OK) {
    cli_error("run: --mlir: the line fails verification: %s",
              diag.mlir_message[0] ? diag.mlir_message : diag.message);
    return CLI_FAIL;
  }
  for (int k = 0; k <= r->arity; k++) {
    const int result = k == r->arity;
    const bcast_mlir_type_ref *type =
        result ? &mop->result : &mop->operands[k];
    bcast_dtype *want =
        result ? &r->declared_result_dtype : &r->declared_dtypes[k];
    if (bcast_dtype_parse(type->elem, type->elem_len, want) != BCAST_OK) {
      cli_error("run: --mlir: element type '%.*s' is not supported",
                (int)type->elem_len, type->elem);
      return CLI_FAIL;
    }
    /* .npy has no 8-bit float type ('|V1' does not say which): a uint8
     * file declared f8E4M3FN or f8E5M2 holds that type's bits. */
    if (!result && !r->is_scalar[k] && r->x[k].dtype == BCAST_UINT8 &&
        bcast_dtype_kind_of(*want) == BCAST_KIND_FLOAT &&
        bcast_dtype_size(*want) == 1)
      r->x[k].dtype = *want;
    bcast_mlir_op_shape(mop, type,
                        result ? &r->declared_result : &r->declared[k]);
  }
  r->options.declared_dtypes = r->declared_dtypes;
  r->options.declared_result_dtype = &r->declared_result_dtype;
  r->options.declared = r->declared;
  r->options.declared_result = &r->declared_result;
  return CLI_OK;
}

/* ------------------------------------------------------------------------ */
/* The output. */

/* After a library error: name the files behind the operand numbers. */
static void name_operands(const bcast_diag *diag, char **files,
                          const bcast_tensor *x, int n) {
  for (int k = 0; k < 2; k++) {
    int op = diag->operand[k];
    if (op < 0 || op >= n || (k == 1 && op == diag->operand[0])) continue;
    char shape[BCAST_MAX_RANK * 24];
    bcast_shape_format_dims(x[op].rank, x[op].shape, BCAST_SHAPE_STYLE_NUMPY,
                            shape, sizeof shape);
    fprintf(stderr, "bcast: run: operand #%d is %s (%s, shape %s)\n", op,
            files[op], bcast_dtype_name(x[op].dtype), shape);
  }
}

/* Whether the output goes tile by tile: planned here (a plan that fails
 * is reported by the whole computation), then over --memory.  *layout is
 * the output's. */
static int streams(const run_state *r, bcast_tensor *layout) {
  bcast_ew_plan *plan = NULL;
  if (r->o.out.print ||
      bcast_ew_plan_create(&plan, r->op, &r->attrs, (size_t)r->arity, r->x,
                           NULL, &r->options, NULL) != BCAST_OK)
    return 0;
  *layout = *bcast_ew_plan_output(plan);
  bcast_ew_plan_destroy(plan);
  return cli_stream_wanted(layout, r->o.out.memory);
}

/* Computes the op and prints or writes the result; an output over
 * --memory is written tile by tile instead.  The exit code. */
static int compute(run_state *r) {
  bcast_tensor layout;
  if (streams(r, &layout))
    return cli_stream_op(&layout, (size_t)r->arity, r->x, r->op, &r->attrs,
                         &r->options, &r->o.out);
  cli_progress progress;
  cli_progress_init(&progress, r->o.out.quiet);
  r->options.progress = cli_progress_update;
  r->options.progress_ctx = &progress;
  bcast_tensor result;
  bcast_diag diag;
  const bcast_status st = bcast_ew_compute(r->op, &r->attrs, (size_t)r->arity,
                                           r->x, &result, &r->options, &diag);
  cli_progress_end(&progress);
  if (st != BCAST_OK) {
    cli_diag("run", &diag);
    name_operands(&diag, r->files, r->x, r->arity);
    return bcast_status_exit_class(st);
  }
  const int rc = cli_out_tensor(&r->o.out, &result, NULL);
  bcast_tensor_release(&result);
  return rc;
}

/* The stages after the options: each returns CLI_OK or the exit code of
 * its failure (reported). */
static int run(run_state *r) {
  if (!choose_op(r) || !set_options(r)) return CLI_USAGE;
  int rc = read_operands(r);
  if (rc == CLI_OK && !parse_attrs(r)) rc = CLI_USAGE;
  if (rc == CLI_OK && r->mop) rc = bind_signature(r);
  return rc == CLI_OK ? compute(r) : rc;
}

/* --list-ops, or the stages; what they held released. */
static int run_body(void *opts) {
  run_state *r = opts; /* its options come first */
  int rc = CLI_OK;
  if (r->o.list_ops)
    cli_list_ops(stdout);
  else
    rc = run(r);
  for (int k = 0; k < r->n_read; k++) bcast_tensor_release(&r->x[k]);
  free(r->mop);
  return rc;
}

int cmd_run(int argc, char **argv) {
  run_state r;
  memset(&r, 0, sizeof r);
  return cli_main("run", &run_help, &r, run_body, argc, argv);
}
