/* The shape-text parser: the infer/--shape forms, named dims, '?', '*'.
 * Invariant: an accepted shape prints and re-parses to the same shape. */
#include "bcast/bcast.h"
#include "fuzz_common.h"

static void same_shape(const bcast_shape *a, const bcast_shape *b) {
  FUZZ_CHECK(a->rank == b->rank);
  for (int32_t i = 0; i < a->rank; i++) FUZZ_CHECK(a->dims[i] == b->dims[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *p = fuzz_exact_copy(data, size);
  bcast_shape shape, again;
  bcast_diag d;
  char text[4096];
  if (bcast_shape_parse(p, size, &shape, &d) == BCAST_OK) {
    size_t n =
        bcast_shape_format(&shape, BCAST_SHAPE_STYLE_LIST, text, sizeof text);
    FUZZ_CHECK(n < sizeof text);
    char *q = fuzz_exact_copy((const uint8_t *)text, n);
    FUZZ_CHECK(bcast_shape_parse(q, n, &again, &d) == BCAST_OK);
    same_shape(&shape, &again);
    free(q);
  } else {
    FUZZ_CHECK(d.message[0] != '\0');
  }
  bcast_symbols symbols, symbols2;
  bcast_symbols_init(&symbols);
  if (bcast_shape_parse_symbolic(p, size, &symbols, &shape, &d) == BCAST_OK) {
    size_t n = bcast_shape_format_symbolic(&shape, BCAST_SHAPE_STYLE_LIST,
                                           &symbols, text, sizeof text);
    FUZZ_CHECK(n < sizeof text);
    char *q = fuzz_exact_copy((const uint8_t *)text, n);
    bcast_symbols_init(&symbols2);
    FUZZ_CHECK(bcast_shape_parse_symbolic(q, n, &symbols2, &again, &d) ==
               BCAST_OK);
    same_shape(&shape, &again);
    FUZZ_CHECK(symbols2.count == symbols.count);
    free(q);
  }
  free(p);
  return 0;
}
