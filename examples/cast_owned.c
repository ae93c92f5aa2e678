/* An op whose result the library allocates: CAST float32 -> int8 with
 * TOSA's rounding (half to even) and saturation, through
 * bcast_ew_compute.  The result tensor owns its memory until
 * bcast_tensor_release; a budget refusal is shown too. */
#include <stdio.h>

#include <bcast/bcast.h>

int main(void) {
  float x[6] = {2.5f, 3.5f, -2.5f, 300.0f, -300.0f, 0.4f};
  const int64_t shape[1] = {6};
  bcast_tensor in;
  bcast_diag diag;
  if (bcast_tensor_wrap(&in, BCAST_FLOAT32, 1, shape, NULL, x, &diag)) {
    fprintf(stderr, "wrap: %s\n", diag.message);
    return 1;
  }
  bcast_op_attrs attrs = {0};
  const bcast_dtype to = BCAST_INT8;
  attrs.cast_to = &to; /* read during the call only */

  bcast_tensor result;
  bcast_status st =
      bcast_ew_compute(BCAST_OP_CAST, &attrs, 1, &in, &result, NULL, &diag);
  if (st != BCAST_OK) {
    fprintf(stderr, "cast: %s\n", diag.message);
    return 1;
  }
  const int8_t *r = result.data;
  for (int i = 0; i < 6; i++) printf("%d%c", r[i], i < 5 ? ' ' : '\n');
  bcast_tensor_release(&result);

  /* A budget of 4 bytes refuses the 6-byte result; result stays empty. */
  bcast_ew_options opts = {0};
  opts.max_bytes = 4;
  st = bcast_ew_compute(BCAST_OP_CAST, &attrs, 1, &in, &result, &opts, &diag);
  printf("%s\n", bcast_status_name(st));
  bcast_tensor_release(&result);
  return st == BCAST_BUDGET ? 0 : 1;
}
