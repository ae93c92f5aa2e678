/* Kernels of SELECT: a bool condition picks between two values of any
 * type, copied as stored. */
#include "ew/ew_kernel.h"

#define EW_S_(X, ID, S, ST, VT, VS, LD, SD, ...)                              \
  X(ewk_select_##S, SELECT, ANY, ID, ID, ST)

#define EW_SELECT_LIST(X) EW_FOR_ALL(EW_S_, X) EW_FOR_FP8(EW_S_, X)

#define EW_DEFINE_(NAME, OP, FL, IN, OUT, T) EW_SELECT_(NAME, T)
EW_SELECT_LIST(EW_DEFINE_)

EW_TABLE_(select, EW_SELECT_LIST)
