/* Shape inference and the error-handling pattern: every call returns a
 * bcast_status; a bcast_diag, when given, says which operand and dim
 * failed and why.  Prints the broadcast of [4,1] and [5] under the trait
 * rules, then the refusal of [2,3] against [4,3]. */
#include <stdio.h>

#include <bcast/bcast.h>

/* Infers and prints the broadcast of two shapes written as text. */
static int show(const char *a, const char *b) {
  bcast_shape shapes[2], out;
  bcast_diag diag;
  const char *texts[2] = {a, b};
  for (int k = 0; k < 2; k++) {
    size_t len = 0;
    while (texts[k][len]) len++;
    if (bcast_shape_parse(texts[k], len, &shapes[k], &diag) != BCAST_OK) {
      printf("%s: %s\n", texts[k], diag.message);
      return 1;
    }
  }
  bcast_status st =
      bcast_shape_infer(2, shapes, BCAST_PROFILE_TRAIT, &out, &diag);
  if (st != BCAST_OK) {
    /* The status names the kind of failure, the diagnostic the place. */
    printf("%s %s: %s (operands %d and %d, dim %d)\n", a, b,
           bcast_status_name(st), diag.operand[0], diag.operand[1], diag.axis);
    return 1;
  }
  char text[64];
  bcast_shape_format(&out, BCAST_SHAPE_STYLE_LIST, text, sizeof text);
  printf("%s %s -> %s\n", a, b, text);
  return 0;
}

int main(void) {
  printf("bcast %s (headers %s)\n", bcast_version(), BCAST_VERSION_STRING);
  int failed = show("[4,1]", "[5]");
  failed += show("[2,3]", "[4,3]");
  return failed == 1 ? 0 : 1; /* exactly the second one fails */
}
