/* The commands on shapes given on the command line: bcast infer (the
 * broadcast shape and the run-time checks it depends on) and bcast
 * explain (implicit broadcasting spelled out as BroadcastInDim). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

/* The --help of bcast infer; its options are options.c's rows. */
static const char infer_help_text[] =
    "usage: bcast infer [--profile P] [--broadcast-dimensions D,...]\n"
    "                   [--format text|json] SHAPE...\n"
    "\n"
    "Prints the shape the operands broadcast to, then one 'check:' line\n"
    "per run-time condition the result depends on, e.g.\n"
    "  bcast infer [2,?,1] [3]            ->  [2,?,3]\n"
    "  bcast infer [n,1] [1,m]            ->  [n,m]\n"
    "  bcast infer [n] [m]                ->  [?]\n"
    "                                         check: n == m or n == 1 or m == "
    "1\n"
    "A SHAPE is [d,...] or (d,...) with sizes, '?' or names (n, batch:\n"
    "the same name is the same size everywhere), [] for a scalar, '*' for\n"
    "unranked, d x d x ... (4x?x3), or an MLIR type (tensor<2x?xf32>,\n"
    "vector<4xf16>, tensor<*xi32>).  Unranked operands are skipped; with\n"
    "none ranked the result is '*'.\n"
    "\n"
    "options:\n"
    "  --profile P   trait (default) | mlir | numpy: lower ranks get leading\n"
    "                1s; tosa: ranks must be equal; xla: ranks must be\n"
    "                equal unless --broadcast-dimensions places the\n"
    "                lower-rank operand (scalars always broadcast)\n"
    "  --broadcast-dimensions D,...\n"
    "                with --profile xla and two shapes: the output dims the\n"
    "                lower-rank operand's dims map to (strictly increasing);\n"
    "                then size-1 dims broadcast both ways\n"
    "  --format F    text (default) | json: one object on stdout, the\n"
    "                result and its checks, or the failure\n"
    "  -h, --help    this text\n"
    "\n"
    "exit status: 0 inferred, 1 the shapes do not broadcast, 2 usage error.\n";

static const cli_help infer_help = {NULL, infer_help_text};

/* The --help of bcast explain; its options are options.c's rows. */
static const char explain_help_text[] =
    "usage: bcast explain [--profile P] [--format text|json] SHAPE...\n"
    "\n"
    "Spells implicit (NumPy / ONNX / trait) broadcasting out explicitly:\n"
    "for each operand, the broadcast_dimensions that place it in the\n"
    "result (as XLA's BroadcastInDim takes them), the dims expanded from\n"
    "1, and the dims that need a run-time check.  Shapes as for 'bcast\n"
    "infer' (names allowed: [n,1]).\n"
    "\n"
    "options:\n"
    "  --profile P   trait (default) | mlir | numpy | tosa | xla\n"
    "  --format F    text (default) | json: one object on stdout, the\n"
    "                result and one entry per operand, or the failure\n"
    "  -h, --help    this text\n"
    "\n"
    "exit status: 0 explained, 1 the shapes do not broadcast, 2 usage "
    "error.\n";

static const cli_help explain_help = {NULL, explain_help_text};

/* A shape as text, with its names. */
typedef char shape_text[BCAST_MAX_RANK * (BCAST_SYMBOL_NAME_MAX + 1) + 4];

static const char *format_shape(const shapes_opts *o, const bcast_shape *s,
                                shape_text text) {
  bcast_shape_format_symbolic(s, BCAST_SHAPE_STYLE_LIST, o->symbols, text,
                              sizeof(shape_text));
  return text;
}

/* A failure: as JSON on standard output, or as a message. */
static int shapes_failure(const shapes_opts *o, const char *cmd,
                          const bcast_diag *diag) {
  if (o->format == REPORT_JSON)
    report_json_failure(stdout, diag);
  else
    cli_diag(cmd, diag);
  return CLI_FAIL;
}

/* ------------------------------------------------------------------------ */
/* bcast infer */

#define INFER_MAX_CHECKS 64

/* The inferred shape and its checks (at most INFER_MAX_CHECKS kept). */
typedef struct inferred {
  bcast_shape out;
  bcast_constraint constraints[INFER_MAX_CHECKS];
  size_t n_constraints;
} inferred;

/* The result as one JSON object: {"result", "rank", "checks": [...],
 * "checks_total"}. */
static void infer_print_json(const shapes_opts *o, const inferred *r) {
  shape_text text;
  json_writer w;
  json_init(&w, stdout);
  json_object_begin(&w);
  json_key(&w, "result");
  json_string(&w, format_shape(o, &r->out, text));
  json_key(&w, "rank");
  if (r->out.rank == BCAST_RANK_UNRANKED)
    json_null(&w);
  else
    json_int(&w, r->out.rank);
  json_key(&w, "checks");
  json_array_begin(&w);
  for (size_t c = 0; c < r->n_constraints && c < INFER_MAX_CHECKS; c++) {
    const bcast_constraint *k = &r->constraints[c];
    char condition[2 * (BCAST_SYMBOL_NAME_MAX + 24) + 64];
    bcast_constraint_format(k, o->symbols, condition, sizeof condition);
    json_object_begin(&w);
    json_key(&w, "condition");
    json_string(&w, condition);
    json_key(&w, "axis");
    json_int(&w, k->axis);
    json_key(&w, "operands");
    json_array_begin(&w);
    json_int(&w, k->operand[0]);
    json_int(&w, k->operand[1]);
    json_array_end(&w);
    json_key(&w, "operand_axes");
    json_array_begin(&w);
    json_int(&w, k->operand_axis[0]);
    json_int(&w, k->operand_axis[1]);
    json_array_end(&w);
    json_object_end(&w);
  }
  json_array_end(&w);
  json_key(&w, "checks_total");
  json_int(&w, (int64_t)r->n_constraints);
  json_object_end(&w);
  json_line_end(&w);
}

/* The result as text: the shape, then one 'check:' line per condition. */
static void infer_print_text(const shapes_opts *o, const inferred *r) {
  shape_text text;
  printf("%s\n", format_shape(o, &r->out, text));
  for (size_t c = 0; c < r->n_constraints && c < INFER_MAX_CHECKS; c++) {
    const bcast_constraint *k = &r->constraints[c];
    bcast_constraint_format(k, o->symbols, text, sizeof text);
    printf("check: %s (broadcast dim %d: operand #%d dim %d, operand #%d "
           "dim %d)\n",
           text, (int)k->axis, k->operand[0], (int)k->operand_axis[0],
           k->operand[1], (int)k->operand_axis[1]);
  }
  if (r->n_constraints > INFER_MAX_CHECKS)
    printf("check: ... and %zu more\n", r->n_constraints - INFER_MAX_CHECKS);
}

/* The commands need at least one shape: 0 after saying so. */
static int has_shapes(const shapes_opts *o, const char *cmd) {
  if (o->n > 0) return 1;
  cli_error("%s: give at least one SHAPE (see 'bcast %s --help')", cmd, cmd);
  return 0;
}

static int infer(void *opts) {
  const shapes_opts *o = opts;
  if (!has_shapes(o, "infer")) return CLI_USAGE;
  const bcast_profile profile = o->profile.profile;
  if (o->bdims.given && (profile != BCAST_PROFILE_XLA || o->n != 2)) {
    cli_error("infer: --broadcast-dimensions goes with --profile xla and "
              "exactly two shapes");
    return CLI_USAGE;
  }
  inferred r;
  r.n_constraints = 0;
  bcast_diag diag;
  bcast_status st;
  if (profile == BCAST_PROFILE_XLA && o->n == 2)
    st = bcast_xla_binary_shape(&o->shapes[0], &o->shapes[1], o->bdims.dims,
                                o->bdims.n, &r.out, &diag);
  else
    st = bcast_shape_infer_constrained(o->n, o->shapes, profile, &r.out,
                                       r.constraints, INFER_MAX_CHECKS,
                                       &r.n_constraints, &diag);
  if (st != BCAST_OK) return shapes_failure(o, "infer", &diag);
  if (o->format == REPORT_JSON)
    infer_print_json(o, &r);
  else
    infer_print_text(o, &r);
  return CLI_OK;
}

int cmd_infer(int argc, char **argv) {
  shapes_opts o;
  return cli_main("infer", &infer_help, &o, infer, argc, argv);
}

/* ------------------------------------------------------------------------ */
/* bcast explain */

/* Prints the dims whose bit is set in mask, as "1, 3". */
static void print_mask(uint64_t mask, int32_t rank) {
  int first = 1;
  for (int32_t i = 0; i < rank; i++) {
    if (!((mask >> i) & 1)) continue;
    printf("%s%d", first ? "" : ", ", (int)i);
    first = 0;
  }
}

/* The dims whose bit is set in mask, as a JSON array. */
static void json_mask(json_writer *w, const char *key, uint64_t mask,
                      int32_t rank) {
  json_key(w, key);
  json_array_begin(w);
  for (int32_t i = 0; i < rank; i++)
    if ((mask >> i) & 1) json_int(w, i);
  json_array_end(w);
}

/* One operand's explanation as a JSON object: {"shape", "unranked",
 * "broadcast_dimensions", "expanded", "maybe_expanded", "runtime_check",
 * "new_leading_dims"}. */
static void explain_operand_json(json_writer *w, const char *shape,
                                 const bcast_explained *ex,
                                 const bcast_shape *out) {
  json_object_begin(w);
  json_key(w, "shape");
  json_string(w, shape);
  const int unranked = ex->rank == BCAST_RANK_UNRANKED;
  const int32_t rank = unranked ? 0 : ex->rank;
  json_key(w, "unranked");
  json_bool(w, unranked);
  json_key(w, "broadcast_dimensions");
  json_array_begin(w);
  for (int32_t i = 0; i < rank; i++) json_int(w, ex->broadcast_dimensions[i]);
  json_array_end(w);
  json_mask(w, "expanded", ex->expanded, rank);
  json_mask(w, "maybe_expanded", ex->maybe_expanded, rank);
  json_mask(w, "runtime_check", ex->runtime_check, rank);
  json_key(w, "new_leading_dims");
  json_int(w, unranked || out->rank < rank ? 0 : out->rank - rank);
  json_object_end(w);
}

/* The explanation as one JSON object: {"result", "operands": [...]}. */
static void explain_print_json(const shapes_opts *o, const bcast_shape *out,
                               const bcast_explained *ex) {
  shape_text text;
  json_writer w;
  json_init(&w, stdout);
  json_object_begin(&w);
  json_key(&w, "result");
  json_string(&w, format_shape(o, out, text));
  json_key(&w, "operands");
  json_array_begin(&w);
  for (size_t k = 0; k < o->n; k++)
    explain_operand_json(&w, format_shape(o, &o->shapes[k], text), &ex[k],
                         out);
  json_array_end(&w);
  json_object_end(&w);
  json_line_end(&w);
}

/* One operand's line: its broadcast_dimensions, the dims it expands and
 * checks, the leading dims it gains. */
static void explain_operand_text(const bcast_explained *ex,
                                 const bcast_shape *out) {
  printf(" broadcast_dimensions=[");
  for (int32_t i = 0; i < ex->rank; i++)
    printf("%s%lld", i ? "," : "", (long long)ex->broadcast_dimensions[i]);
  printf("]");
  if (ex->expanded) {
    printf("; expands dim ");
    print_mask(ex->expanded, ex->rank);
    printf(" from 1");
  }
  if (ex->maybe_expanded) {
    printf("; dim ");
    print_mask(ex->maybe_expanded, ex->rank);
    printf(" (size 1) expands if the result's size is not 1");
  }
  if (ex->runtime_check) {
    printf("; run-time check on dim ");
    print_mask(ex->runtime_check, ex->rank);
  }
  const int new_dims = out->rank - ex->rank;
  if (new_dims > 0)
    printf("; adds %d leading dim%s", new_dims, new_dims > 1 ? "s" : "");
  printf("\n");
}

static void explain_print_text(const shapes_opts *o, const bcast_shape *out,
                               const bcast_explained *ex) {
  shape_text text;
  printf("result %s\n", format_shape(o, out, text));
  for (size_t k = 0; k < o->n; k++) {
    printf("operand #%zu %s:", k, format_shape(o, &o->shapes[k], text));
    if (ex[k].rank == BCAST_RANK_UNRANKED)
      printf(" unranked, skipped (its rank is known only at run time)\n");
    else
      explain_operand_text(&ex[k], out);
  }
}

static int explain(void *opts) {
  const shapes_opts *o = opts;
  if (!has_shapes(o, "explain")) return CLI_USAGE;
  bcast_explained *ex = calloc(o->n, sizeof *ex);
  if (!ex) {
    cli_error("out of memory");
    return CLI_USAGE;
  }
  bcast_shape out;
  bcast_diag diag;
  int rc = CLI_OK;
  if (bcast_explain(o->n, o->shapes, o->profile.profile, &out, ex, &diag) !=
      BCAST_OK)
    rc = shapes_failure(o, "explain", &diag);
  else if (o->format == REPORT_JSON)
    explain_print_json(o, &out, ex);
  else
    explain_print_text(o, &out, ex);
  free(ex);
  return rc;
}

int cmd_explain(int argc, char **argv) {
  shapes_opts o;
  return cli_main("explain", &explain_help, &o, explain, argc, argv);
}
