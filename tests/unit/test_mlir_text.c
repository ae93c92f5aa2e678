/* bcast_mlir_verify_text, the one entry point that verifies MLIR text,
 * and bcast_mlir_diag_format, the one formatter of a failed op. */
#include <stdlib.h>

#include "test.h"
#include "bcast/bcast.h"

/* One op of each kind the run tells apart: line 2 passes, 3 is not
 * selected, 4 fails under tosa, 5 cannot be read (no signature before
 * the next statement), 6 is selected by name (ops) and passes under the
 * trait profile, 7 is selected by a rule that names it exactly and fails
 * under that rule's profile, 8 matches only a "DIALECT.*" rule (not
 * selected), 9 has an invalid broadcast_dimensions (failure located at
 * the attribute) and 10 defines no value (not seen). */
static const char module_text[] =
    "func.func @f(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %c: "
    "tensor<2x4xf32>) {\n"
    "  %0 = tosa.add %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> "
    "tensor<2x3xf32>\n"
    "  %1 = arith.addf %a, %a : tensor<2x3xf32>\n"
    "  %2 = tosa.add %a, %c : (tensor<2x3xf32>, tensor<2x4xf32>) -> "
    "tensor<2x4xf32>\n"
    "  %3 = tosa.mul %a, %b\n"
    "  %4 = my.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> "
    "tensor<2x3xf32>\n"
    "  %5 = my.sub %a, %c : (tensor<2x3xf32>, tensor<2x4xf32>) -> "
    "tensor<2x3xf32>\n"
    "  %6 = other.add %a, %c : (tensor<2x3xf32>, tensor<2x4xf32>) -> "
    "tensor<2x3xf32>\n"
    "  %7 = chlo.broadcast_add %a, %b {broadcast_dimensions = array<i64: 7>} "
    ": (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>\n"
    "  func.return\n"
    "}\n";

/* What the callback saw of each op. */
typedef struct seen_op {
  char name[32];
  int read;
  bcast_mlir_outcome outcome;
  bcast_status status;
  uint32_t op_line, line, col;
  bcast_profile profile;
  int has_diag;
  char text[256]; /* bcast_mlir_diag_format's text, when failed */
} seen_op;

typedef struct recorder {
  seen_op ops[16];
  size_t n;
  size_t stop_after; /* stop the run after this many ops; 0: never */
} recorder;

static int record(void *ctx, const bcast_mlir_checked *c) {
  recorder *r = ctx;
  if (r->n < sizeof r->ops / sizeof r->ops[0]) {
    seen_op *s = &r->ops[r->n];
    snprintf(s->name, sizeof s->name, "%.*s", (int)c->op->name_len,
             c->op->name);
    s->read = c->read;
    s->outcome = c->outcome;
    s->status = c->status;
    s->op_line = c->op->line;
    s->line = c->verdict.line;
    s->col = c->verdict.col;
    s->profile = c->verdict.profile;
    s->has_diag = c->diag != NULL;
    s->text[0] = '\0';
    if (c->diag)
      bcast_mlir_diag_format(c->read ? c->op->name : NULL, c->op->name_len,
                             c->diag, s->text, sizeof s->text);
  }
  r->n++;
  return r->stop_after != 0 && r->n == r->stop_after;
}

/* A run over module_text with the options of its comment: my.add by
 * name, my.sub=numpy by an exact rule, other.*=trait by a pattern. */
typedef struct module_run {
  bcast_mlir_verify_options o;
  bcast_mlir_op_profile rules[2];
  bcast_mlir_span extra;
  recorder r;
  bcast_mlir_counts n;
  bcast_diag d;
} module_run;

static void module_init(module_run *m) {
  memset(m, 0, sizeof *m);
  bcast_mlir_verify_options_init(&m->o);
  m->rules[0] = (bcast_mlir_op_profile){"my.sub", 6, BCAST_PROFILE_NUMPY};
  m->rules[1] = (bcast_mlir_op_profile){"other.*", 7, BCAST_PROFILE_TRAIT};
  m->extra = (bcast_mlir_span){"my.add", 6};
  m->o.rules = m->rules;
  m->o.n_rules = 2;
  m->o.ops = &m->extra;
  m->o.n_ops = 1;
  m->o.chlo_xla_rule = 1; /* chlo.broadcast_add's array<i64: 7> fails */
}

static bcast_status module_verify(module_run *m) {
  return bcast_mlir_verify_text(module_text, strlen(module_text), &m->o,
                                record, &m->r, &m->n, &m->d);
}

TEST(mlir_verify_text_reports_every_checked_op) {
  module_run m;
  module_init(&m);
  bcast_status st = module_verify(&m);
  const recorder *r = &m.r;
  const bcast_mlir_counts n = m.n;
  const bcast_diag *d = &m.d;
  CHECK_INT(n.seen, 8);
  CHECK_INT(n.checked, 6);
  CHECK_INT(n.failed, 4);
  CHECK_INT(n.cannot_check, 0);
  CHECK_INT(n.skipped, 2);
  CHECK_INT(r->n, 6);
  if (r->n != 6) return;
  static const struct {
    const char *name;
    int read;
    bcast_mlir_outcome outcome;
    bcast_status status;
    uint32_t line, col;
    bcast_profile profile;
    const char *text; /* NULL: passed */
  } want[] = {
      {"tosa.add", 1, BCAST_MLIR_PASSED, BCAST_OK, 2, 8, BCAST_PROFILE_TOSA,
       NULL},
      {"tosa.add", 1, BCAST_MLIR_FAILED, BCAST_INCOMPATIBLE, 4, 8,
       BCAST_PROFILE_TOSA,
       "'tosa.add' op operands don't have broadcast-compatible shapes"},
      {"tosa.mul", 0, BCAST_MLIR_FAILED, BCAST_PARSE, 5, 8, BCAST_PROFILE_TOSA,
       "'tosa.mul' op: expected ':' and a type signature"},
      {"my.add", 1, BCAST_MLIR_PASSED, BCAST_OK, 6, 8, BCAST_PROFILE_TRAIT,
       NULL},
      {"my.sub", 1, BCAST_MLIR_FAILED, BCAST_INCOMPATIBLE, 7, 8,
       BCAST_PROFILE_NUMPY,
       "'my.sub' op operands don't have broadcast-compatible shapes"},
      {"chlo.broadcast_add", 1, BCAST_MLIR_FAILED, BCAST_INVALID_ARGUMENT, 9,
       35, BCAST_PROFILE_XLA,
       "'chlo.broadcast_add' op invalid broadcast_dimensions = array<i64: 7>"},
  };
  for (size_t k = 0; k < r->n; k++) {
    const seen_op *s = &r->ops[k];
    CHECK_STR(s->name, want[k].name);
    CHECK_INT(s->read, want[k].read);
    CHECK_INT(s->outcome, want[k].outcome);
    CHECK_INT(s->status, want[k].status);
    CHECK_INT(s->line, want[k].line);
    CHECK_INT(s->col, want[k].col);
    CHECK_INT(s->profile, want[k].profile);
    CHECK_INT(s->has_diag, want[k].text != NULL);
    if (want[k].text) CHECK_CONTAINS(s->text, want[k].text);
  }
  /* The attribute's failure lies on the op's line, at the attribute. */
  CHECK_INT(r->ops[5].op_line, 9);
  /* The result is the first failure's, located, with its profile. */
  CHECK_INT(st, BCAST_INCOMPATIBLE);
  CHECK_INT(d->status, BCAST_INCOMPATIBLE);
  CHECK_STR(d->message, "4:8: 'tosa.add' op operands don't have "
                        "broadcast-compatible shapes [tosa profile]");
}

TEST(mlir_verify_text_first_failure_unread) {
  /* An unread statement is the first failure: its message has no op in
   * front and no profile after. */
  static const char text[] = "%0 = tosa.sub %a, %b\n"
                             "%1 = tosa.add %a, %c : (tensor<2xf32>, "
                             "tensor<3xf32>) -> tensor<3xf32>\n";
  bcast_diag d;
  bcast_mlir_counts n;
  CHECK_INT(
      bcast_mlir_verify_text(text, strlen(text), NULL, NULL, NULL, &n, &d),
      BCAST_PARSE);
  CHECK_STR(d.message,
            "1:6: 'tosa.sub' op: expected ':' and a type signature");
  CHECK_INT(n.checked, 2);
  CHECK_INT(n.failed, 2);
}

TEST(mlir_verify_text_callback_stops_the_run) {
  module_run m;
  module_init(&m);
  m.r.stop_after = 2; /* after line 4's failure */
  CHECK_INT(module_verify(&m), BCAST_INCOMPATIBLE);
  CHECK_INT(m.r.n, 2);
  CHECK_INT(m.n.seen, 3);
  CHECK_INT(m.n.checked, 2);
  CHECK_INT(m.n.failed, 1);
  CHECK_INT(m.n.skipped, 1);
}

/* The narrowing filter: only the "my." ops. */
static int only_my(const char *name, size_t len, void *ctx) {
  int *asked = ctx;
  (*asked)++;
  return len > 3 && memcmp(name, "my.", 3) == 0;
}

TEST(mlir_verify_text_only_narrows_the_selection) {
  module_run m;
  module_init(&m);
  int asked = 0;
  m.o.only = only_my;
  m.o.only_ctx = &asked;
  CHECK_INT(module_verify(&m), BCAST_INCOMPATIBLE);
  /* Asked only about the ops the rule selects. */
  CHECK_INT(asked, 6);
  CHECK_INT(m.n.seen, 8);
  CHECK_INT(m.n.checked, 2);
  CHECK_INT(m.n.failed, 1);
  CHECK_INT(m.n.skipped, 6);
  CHECK_INT(m.r.n, 2);
  CHECK_STR(m.r.ops[0].name, "my.add");
  CHECK_STR(m.r.ops[1].name, "my.sub");
  CHECK_CONTAINS(m.d.message, "7:8: 'my.sub' op ");
  CHECK_CONTAINS(m.d.message, " [numpy profile]");
}

TEST(mlir_verify_text_defaults_and_arguments) {
  /* NULL options: the default ops only, other ops by the trait profile;
   * no callback and no diagnostic. */
  bcast_mlir_counts n;
  CHECK_INT(bcast_mlir_verify_text(module_text, strlen(module_text), NULL,
                                   NULL, NULL, &n, NULL),
            BCAST_INCOMPATIBLE);
  CHECK_INT(n.seen, 8);
  CHECK_INT(n.checked, 4); /* the tosa ops and chlo.broadcast_add */
  /* CHLO's own rule by default: an illegal broadcast_dimensions infers an
   * unranked result, which chlo.broadcast_add's result type matches. */
  CHECK_INT(n.failed, 2);
  CHECK_INT(n.skipped, 4);
  /* A text with nothing to check passes with nothing checked. */
  static const char plain[] = "%0 = arith.addf %a, %b : f32\n";
  CHECK_INT(
      bcast_mlir_verify_text(plain, strlen(plain), NULL, NULL, NULL, &n, NULL),
      BCAST_OK);
  CHECK_INT(n.seen, 1);
  CHECK_INT(n.checked, 0);
  CHECK_INT(n.skipped, 1);
  CHECK_INT(bcast_mlir_verify_text(NULL, 0, NULL, NULL, NULL, &n, NULL),
            BCAST_OK);
  CHECK_INT(n.seen, 0);
  bcast_diag d;
  CHECK_INT(bcast_mlir_verify_text(NULL, 5, NULL, NULL, NULL, &n, &d),
            BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(d.message, "NULL text");
}

/* A diagnostic with bcast's message and, when mlir is not NULL, MLIR's. */
static bcast_diag make_diag(const char *message, const char *mlir,
                            int op_prefix) {
  bcast_diag d;
  bcast_diag_clear(&d);
  d.status = BCAST_INCOMPATIBLE;
  snprintf(d.message, sizeof d.message, "%s", message);
  if (mlir) snprintf(d.mlir_message, sizeof d.mlir_message, "%s", mlir);
  d.mlir_op_prefix = op_prefix;
  return d;
}

TEST(mlir_diag_format_wording) {
  char buf[128];
  bcast_diag d = make_diag("bcast says", "mlir says", 1);
  CHECK_INT(bcast_mlir_diag_format("tosa.add", 8, &d, buf, sizeof buf), 23);
  CHECK_STR(buf, "'tosa.add' op mlir says");
  /* MLIR's words without its op prefix (emitError). */
  d = make_diag("bcast says", "cannot broadcast vector with tensor", 0);
  bcast_mlir_diag_format("tosa.add", 8, &d, buf, sizeof buf);
  CHECK_STR(buf, "cannot broadcast vector with tensor");
  /* No words from MLIR: bcast's, with the prefix. */
  d = make_diag("bcast says", NULL, 0);
  bcast_mlir_diag_format("my.op", 5, &d, buf, sizeof buf);
  CHECK_STR(buf, "'my.op' op bcast says");
  /* The name is taken by its length, not up to a NUL. */
  bcast_mlir_diag_format("my.opXYZ", 5, &d, buf, sizeof buf);
  CHECK_STR(buf, "'my.op' op bcast says");
  /* No op (an unread statement): the message alone. */
  d = make_diag("bcast says", "mlir says", 1);
  CHECK_INT(bcast_mlir_diag_format(NULL, 0, &d, buf, sizeof buf), 9);
  CHECK_STR(buf, "mlir says");
  d = make_diag("bcast says", NULL, 0);
  bcast_mlir_diag_format(NULL, 0, &d, buf, sizeof buf);
  CHECK_STR(buf, "bcast says");
}

TEST(mlir_diag_format_is_snprintf_like) {
  bcast_diag d = make_diag("bcast says", NULL, 0);
  const char *full = "'tosa.add' op bcast says";
  size_t len = strlen(full);
  CHECK_INT(bcast_mlir_diag_format("tosa.add", 8, &d, NULL, 0), len);
  /* Every buffer size: the longest prefix that fits, NUL-terminated, and
   * nothing written past size. */
  for (size_t size = 1; size <= len + 2; size++) {
    char buf[64];
    memset(buf, '#', sizeof buf);
    CHECK_INT(bcast_mlir_diag_format("tosa.add", 8, &d, buf, size), len);
    size_t kept = size - 1 < len ? size - 1 : len;
    CHECK_INT(strlen(buf), kept);
    CHECK(memcmp(buf, full, kept) == 0);
    CHECK(buf[size] == '#');
  }
}

/* The validation pass's type checks, on request only: the op that
 * verifies fails under tosa_validate with mlir-opt's words in
 * mlir_message and bcast's own in message; a legal op still passes. */
static int keep_message(void *ctx, const bcast_mlir_checked *c) {
  char *out = ctx;
  out[0] = '\0';
  if (c->diag)
    bcast_mlir_diag_format(c->op->name, c->op->name_len, c->diag, out, 512);
  return 0;
}

TEST(mlir_verify_text_tosa_validate) {
  static const struct {
    const char *text, *want;
  } cases[] = {
      {"%0 = tosa.add %a, %b : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>",
       "'tosa.add' op illegal: operation operand/result data types did not "
       "align with any profile or extension, got (i1,i1,i1), did you mean "
       "(i32,i32,i32)? Otherwise, please refer to the 'supported data types' "
       "for 'tosa.add' in the specification."},
      {"%0 = tosa.mul %a, %b, %s : (tensor<2xi8>, tensor<2xi8>, "
       "tensor<1xi8>) -> tensor<2xi16>",
       "got (i8,i8,i16), did you mean (i8,i8,i32)?"},
      {"%0 = tosa.cast %a : (tensor<2xi4>) -> tensor<2xf8E4M3FN>",
       "got (i4,fp8e4m3), did you mean (bf16,fp8e4m3)?"},
      {"%0 = tosa.select %c, %a, %b : (tensor<2xi1>, tensor<2xi64>, "
       "tensor<2xi64>) -> tensor<2xi64>",
       "'tosa.select' op illegal: requires [int64] but not enabled in "
       "target"},
      {"%0 = tosa.abs %a : (tensor<2xf64>) -> tensor<2xf64>",
       "'tosa.abs' op is not profile-aligned: element type 'f64' is not "
       "legal"},
      {"%0 = tosa.cast %a : (tensor<2xbf16>) -> tensor<2xf8E5M2>", ""},
      {"%0 = tosa.greater %a, %b : (tensor<2xf16>, tensor<2xf16>) -> "
       "tensor<2xi1>",
       ""},
  };
  bcast_mlir_verify_options o;
  bcast_mlir_verify_options_init(&o);
  o.tosa_validate = 1;
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    char got[512];
    const char *text = cases[k].text;
    bcast_status st = bcast_mlir_verify_text(text, strlen(text), &o,
                                             keep_message, got, NULL, NULL);
    if (cases[k].want[0]) {
      CHECK_INT(st, BCAST_TYPE);
      CHECK_CONTAINS(got, cases[k].want);
    } else {
      CHECK_INT(st, BCAST_OK);
    }
    /* Without the option MLIR 22's verifier accepts every one. */
    CHECK_INT(bcast_mlir_verify_text(text, strlen(text), NULL, NULL, NULL,
                                     NULL, NULL),
              BCAST_OK);
  }
}
