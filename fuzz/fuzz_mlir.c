/* The MLIR scanner, type parser and verifier, text in.  Invariants: the
 * scanner moves forward and ends; every type of a scanned op prints and
 * re-parses to the same type; verification of a scanned op returns;
 * bcast_mlir_verify_text checks the ops a scan of the default ops finds,
 * fails the ones that fail to scan or verify, and its counts add up. */
#include "bcast/bcast.h"
#include "fuzz_common.h"

static int accept_all(const char *name, size_t len, void *ctx) {
  (void)name, (void)len, (void)ctx;
  return 1;
}

static int accept_default(const char *name, size_t len, void *ctx) {
  (void)ctx;
  return bcast_mlir_is_broadcasting_op(name, len);
}

/* What bcast_mlir_verify_text reported, op by op. */
typedef struct text_tally {
  size_t ops, failed;
  uint32_t last_line;
} text_tally;

static int tally_op(void *ctx, const bcast_mlir_checked *c) {
  text_tally *t = ctx;
  FUZZ_CHECK(c->op->line >= t->last_line); /* source order */
  t->last_line = c->op->line;
  FUZZ_CHECK(c->outcome != BCAST_MLIR_CANNOT_CHECK);
  FUZZ_CHECK((c->outcome == BCAST_MLIR_PASSED) == (c->status == BCAST_OK));
  FUZZ_CHECK((c->diag == NULL) == (c->status == BCAST_OK));
  FUZZ_CHECK(c->read || c->status != BCAST_OK);
  t->ops++;
  if (c->diag) {
    t->failed++;
    char text[BCAST_DIAG_TEXT_MAX + BCAST_DIAG_MLIR_TEXT_MAX + 64];
    const char *op = c->read ? c->op->name : NULL;
    size_t n = bcast_mlir_diag_format(op, c->op->name_len, c->diag, text,
                                      sizeof text);
    FUZZ_CHECK(n > 0);
    FUZZ_CHECK(n ==
               bcast_mlir_diag_format(op, c->op->name_len, c->diag, NULL, 0));
    FUZZ_CHECK(text[n < sizeof text ? n : sizeof text - 1] == '\0');
  }
  return 0;
}

static void check_text(const char *p, size_t size) {
  /* The building blocks by hand, over the default ops. */
  bcast_mlir_op *op = malloc(sizeof *op);
  bcast_mlir_scanner s;
  bcast_mlir_scanner_init(&s, p, size, accept_default, NULL);
  size_t found_ops = 0, failed = 0;
  for (;;) {
    int found;
    bcast_status st = bcast_mlir_scan_next(&s, op, &found, NULL);
    if (!found) break;
    found_ops++;
    if (st != BCAST_OK || bcast_mlir_verify(op, NULL, NULL, NULL) != BCAST_OK)
      failed++;
  }
  free(op);
  text_tally t = {0, 0, 0};
  bcast_mlir_counts n;
  bcast_diag d;
  bcast_status st =
      bcast_mlir_verify_text(p, size, NULL, tally_op, &t, &n, &d);
  FUZZ_CHECK(n.checked == found_ops && t.ops == found_ops);
  FUZZ_CHECK(n.failed == failed && t.failed == failed);
  FUZZ_CHECK(n.seen == n.checked + n.skipped && n.cannot_check == 0);
  FUZZ_CHECK((st == BCAST_OK) == (failed == 0));
  if (st != BCAST_OK) FUZZ_CHECK(d.status == st && d.message[0] != '\0');
}

static void check_type(const bcast_mlir_op *op,
                       const bcast_mlir_type_ref *ref) {
  bcast_mlir_type type, again;
  bcast_mlir_op_type(op, ref, &type);
  if (type.container == BCAST_CONTAINER_NONE) return;
  char text[8192];
  size_t n = bcast_mlir_type_format(&type, text, sizeof text);
  if (n >= sizeof text) return;
  char *p = fuzz_exact_copy((const uint8_t *)text, n);
  size_t used;
  bcast_diag d;
  FUZZ_CHECK(bcast_mlir_type_parse(p, n, &again, &used, &d) == BCAST_OK);
  FUZZ_CHECK(used == n);
  FUZZ_CHECK(again.container == type.container);
  FUZZ_CHECK(again.shape.rank == type.shape.rank);
  for (int32_t i = 0; i < type.shape.rank; i++)
    FUZZ_CHECK(again.shape.dims[i] == type.shape.dims[i]);
  FUZZ_CHECK(again.elem_len == type.elem_len &&
             memcmp(again.elem, type.elem, type.elem_len) == 0);
  free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *p = fuzz_exact_copy(data, size);
  bcast_mlir_op *op = malloc(sizeof *op);
  bcast_mlir_scanner s;
  bcast_mlir_scanner_init(&s, p, size, accept_all, NULL);
  size_t last = 0;
  for (;;) {
    int found;
    bcast_diag d;
    bcast_status st = bcast_mlir_scan_next(&s, op, &found, &d);
    FUZZ_CHECK(s.pos <= size);
    if (!found) break;
    FUZZ_CHECK(s.pos > last); /* progress: the scan ends */
    last = s.pos;
    if (st != BCAST_OK) continue;
    FUZZ_CHECK(op->stmt_start < op->stmt_end && op->stmt_end <= size);
    for (size_t k = 0; k < op->n_operands; k++)
      check_type(op, &op->operands[k]);
    check_type(op, &op->result);
    bcast_mlir_verdict verdict;
    st = bcast_mlir_verify(op, NULL, &verdict, &d);
    if (st != BCAST_OK) FUZZ_CHECK(d.message[0] != '\0');
  }
  check_text(p, size);
  /* The type parser on its own, from the start of the text. */
  bcast_mlir_type type;
  size_t used;
  bcast_diag d;
  if (bcast_mlir_type_parse(p, size, &type, &used, &d) == BCAST_OK)
    FUZZ_CHECK(used <= size);
  free(op);
  free(p);
  return 0;
}
