/* The attribute parsers: an MLIR attribute dictionary for an element-wise
 * op, one NAME=VALUE pair, and the scanner's dictionary lookup.  The first
 * byte picks the op.  Invariants: a failed parse leaves the attributes as
 * they were; an accepted dictionary ends inside the text, at a '}'. */
#include "bcast/bcast.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  bcast_op op = (bcast_op)(data[0] % BCAST_OP_COUNT);
  char *p = fuzz_exact_copy(data + 1, size - 1);
  size_t len = size - 1;
  bcast_op_attrs attrs, before;
  bcast_op_attrs_init(&attrs);
  before = attrs;
  bcast_diag d;
  size_t used = 0;
  if (bcast_op_attrs_parse_mlir(&attrs, op, p, len, &used, &d) == BCAST_OK) {
    FUZZ_CHECK(used >= 2 && used <= len && p[used - 1] == '}');
  } else {
    FUZZ_CHECK(memcmp(&attrs, &before, sizeof attrs) == 0);
    FUZZ_CHECK(d.message[0] != '\0');
  }
  bcast_op_attrs_init(&attrs);
  before = attrs;
  if (bcast_op_attr_parse(&attrs, op, p, len, &d) != BCAST_OK)
    FUZZ_CHECK(memcmp(&attrs, &before, sizeof attrs) == 0);
  bcast_mlir_op_profile rule;
  bcast_mlir_op_profile_parse(p, len, &rule, &d);
  free(p);
  return 0;
}
