/* bcast/bcast.h - everything: include this one header. */
#ifndef BCAST_BCAST_H
#define BCAST_BCAST_H

#include "bcast/version.h"
#include "bcast/status.h"
#include "bcast/allocator.h"
#include "bcast/shape.h"
#include "bcast/explicit.h"
#include "bcast/op.h"
#include "bcast/mlir.h"
#include "bcast/dtype.h"
#include "bcast/tensor.h"
#include "bcast/plan.h"
#include "bcast/npy.h"
#include "bcast/output.h"
#include "bcast/emit.h"
#include "bcast/elementwise.h"
#include "bcast/tile.h"
#include "bcast/save.h"

#endif
