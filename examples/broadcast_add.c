/* A broadcast add on the caller's own buffers: a [2,3] matrix plus a [3]
 * row, written into the caller's [2,3] array.  Nothing is copied or
 * allocated for the data: the row is read through a stride-0 view.
 * The plan is prepared once and executed on two sets of buffers. */
#include <stdio.h>

#include <bcast/bcast.h>

static void print2x3(const float *y) {
  for (int i = 0; i < 2; i++)
    printf("%g %g %g\n", y[3 * i], y[3 * i + 1], y[3 * i + 2]);
}

int main(void) {
  float a[6] = {1, 2, 3, 4, 5, 6};
  float row[3] = {10, 20, 30};
  float y[6];
  const int64_t a_shape[2] = {2, 3}, row_shape[1] = {3};

  bcast_tensor in[2];
  bcast_diag diag;
  /* Borrowed views of the caller's memory (C order: strides NULL). */
  if (bcast_tensor_wrap(&in[0], BCAST_FLOAT32, 2, a_shape, NULL, a, &diag) ||
      bcast_tensor_wrap(&in[1], BCAST_FLOAT32, 1, row_shape, NULL, row,
                        &diag)) {
    fprintf(stderr, "wrap: %s\n", diag.message);
    return 1;
  }
  bcast_tensor out;
  if (bcast_tensor_wrap(&out, BCAST_FLOAT32, 2, a_shape, NULL, y, &diag)) {
    fprintf(stderr, "wrap: %s\n", diag.message);
    return 1;
  }

  /* Zeroed options are the defaults; the tosa profile wants equal ranks,
   * the trait profile expands the row to [1,3]. */
  bcast_ew_options opts = {0};
  opts.profile = BCAST_PROFILE_TRAIT;
  bcast_ew_plan *plan;
  bcast_status st = bcast_ew_plan_create(&plan, BCAST_OP_ADD, NULL, 2, in,
                                         &out, &opts, &diag);
  if (st != BCAST_OK) {
    fprintf(stderr, "plan: %s: %s\n", bcast_status_name(st), diag.message);
    return 1;
  }
  const void *data[2] = {a, row};
  st = bcast_ew_plan_execute(plan, y, data, &diag);
  if (st == BCAST_OK) print2x3(y);

  /* The same plan on new buffers of the same layout: in place on a. */
  row[0] = -1;
  row[1] = -2;
  row[2] = -3;
  if (st == BCAST_OK) st = bcast_ew_plan_execute(plan, a, data, &diag);
  if (st == BCAST_OK) print2x3(a);
  bcast_ew_plan_destroy(plan);
  if (st != BCAST_OK) {
    fprintf(stderr, "execute: %s\n", diag.message);
    return 1;
  }
  return 0;
}
