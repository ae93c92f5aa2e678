/* Shape literals for the unit tests: SHAPE(2, Q, 3) is the bcast_shape
 * [2, ?, 3]; Q is a dynamic dim. */
#ifndef BCAST_TEST_SHAPES_H
#define BCAST_TEST_SHAPES_H

#include "bcast/bcast.h"

#define Q BCAST_DIM_DYNAMIC

static inline bcast_shape S(int32_t rank, const int64_t *dims) {
  bcast_shape s;
  s.rank = rank;
  for (int32_t i = 0; i < rank; i++) s.dims[i] = dims[i];
  return s;
}
#define SHAPE(...)                                                            \
  S((int32_t)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)),            \
    (int64_t[]){__VA_ARGS__})

/* Formats dims[0..rank) in style (a BCAST_SHAPE_STYLE_*) and checks that
 * the text is want; needs test.h. */
#define CHECK_DIMS_TEXT(rank, dims, style, want)                              \
  do {                                                                        \
    char dims_text_[128];                                                     \
    bcast_shape_format_dims(rank, dims, style, dims_text_,                    \
                            sizeof dims_text_);                               \
    CHECK_STR(dims_text_, want);                                              \
  } while (0)

#endif
