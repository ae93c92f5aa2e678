/* The lowering emitter, text in, text out.  Invariant: where it accepts
 * the module, its output scans with bcast's own scanner without error
 * (every op statement reads back), and it lowers again: no broadcasting
 * op is left, so the second pass succeeds and changes nothing. */
#include "bcast/bcast.h"
#include "fuzz_common.h"

static bcast_status sink_write(void *ctx, const char *data, size_t len) {
  return fuzz_sink_put(ctx, data, len) ? BCAST_OK : BCAST_NO_MEMORY;
}

/* The ops the emitter lowers (its own filter): TOSA element-wise ops. */
static int accept_tosa(const char *name, size_t len, void *ctx) {
  (void)ctx;
  bcast_op op;
  return len > 5 && memcmp(name, "tosa.", 5) == 0 &&
         bcast_op_lookup(name, len, &op) == BCAST_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *p = fuzz_exact_copy(data, size);
  bcast_emit_options o;
  bcast_emit_options_init(&o);
  o.assert_broadcast = size > 0 && (data[0] & 1);
  fuzz_sink out = {0};
  bcast_emit_stats stats;
  bcast_diag d;
  bcast_status st =
      bcast_emit_lower_module(p, size, &o, sink_write, &out, &stats, &d);
  free(p);
  if (st != BCAST_OK) {
    FUZZ_CHECK(d.message[0] != '\0');
    free(out.data);
    return 0;
  }
  char *q = fuzz_exact_copy((const uint8_t *)out.data, out.len);
  bcast_mlir_op *op = malloc(sizeof *op);
  bcast_mlir_scanner s;
  bcast_mlir_scanner_init(&s, q, out.len, accept_tosa, NULL);
  for (;;) {
    int found;
    st = bcast_mlir_scan_next(&s, op, &found, &d);
    if (!found) break;
    if (st != BCAST_OK) {
      fprintf(stderr, "output does not re-scan: %s\n", d.message);
      FUZZ_CHECK(st == BCAST_OK);
    }
  }
  fuzz_sink again = {0};
  bcast_emit_stats stats2;
  st =
      bcast_emit_lower_module(q, out.len, &o, sink_write, &again, &stats2, &d);
  if (st != BCAST_OK)
    fprintf(stderr, "output does not lower again: %s\n", d.message);
  FUZZ_CHECK(st == BCAST_OK);
  FUZZ_CHECK(stats2.ops_lowered == 0);
  free(again.data);
  free(op);
  free(q);
  free(out.data);
  return 0;
}
