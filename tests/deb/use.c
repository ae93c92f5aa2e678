/* The C program the package tests build against the installed bcast
 * (test_deb.sh, test_deb_fresh.sh): the headers' and the loaded library's
 * versions and one inferred shape. */
#include <stdio.h>
#include <bcast/bcast.h>
int main(void) {
  bcast_shape ops[2] = {{2, {4, 1}}, {1, {5}}}, out;
  char text[64];
  if (bcast_shape_infer(2, ops, BCAST_PROFILE_TRAIT, &out, NULL) != BCAST_OK)
    return 1;
  bcast_shape_format(&out, BCAST_SHAPE_STYLE_LIST, text, sizeof text);
  printf("%s %s %s\n", bcast_version(), BCAST_VERSION_STRING, text);
  return 0;
}
