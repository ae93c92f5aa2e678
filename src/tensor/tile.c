/* Tile plans: input boxes of output boxes, the inverse, the tiler, and the
 * views one tile computes from.  Nothing here allocates or touches data. */
#include <limits.h>
#include <string.h>

#include "bcast/tile.h"
#include "core/diag.h"
#include "tensor/buffer.h"

void bcast_box_full(bcast_box *box, int32_t rank, const int64_t *shape) {
  memset(box, 0, sizeof *box);
  box->rank = rank;
  for (int32_t d = 0; d < rank; d++) box->hi[d] = shape[d];
}

int64_t bcast_box_elem_count(const bcast_box *box) {
  int64_t count = 1;
  for (int32_t d = 0; d < box->rank; d++) {
    int64_t n = box->hi[d] - box->lo[d];
    if (n <= 0) return 0;
    if (__builtin_mul_overflow(count, n, &count)) count = INT64_MAX;
  }
  return count;
}

/* Output dim d's operand dim, or -1 when the operand does not reach it. */
static int32_t operand_dim_of(const bcast_tile_map *m, int32_t d) {
  for (int32_t i = 0; i < m->in.rank; i++)
    if (m->dims[i] == d) return i;
  return -1;
}

/* Operand dim i expands: size 1 against a larger output dim. */
static int expands(const bcast_tile_map *m, int32_t i) {
  return m->in.dims[i] == 1 && m->out.dims[m->dims[i]] != 1;
}

static bcast_status check_static(const bcast_shape *s, const char *what,
                                 bcast_diag *diag) {
  if (s->rank < 0)
    return bcast__fail(
        diag, BCAST_INVALID_ARGUMENT,
        "tile map: the %s is unranked; tiles need static shapes", what);
  for (int32_t d = 0; d < s->rank; d++)
    if (s->dims[d] < 0)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "tile map: %s dim %d is dynamic; tiles need static "
                         "shapes",
                         what, (int)d);
  return BCAST_OK;
}

bcast_status bcast_tile_map_init(bcast_tile_map *map, const bcast_shape *in,
                                 const bcast_shape *out, const int64_t *dims,
                                 size_t n_dims, bcast_diag *diag) {
  if (!map || !in || !out)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_tile_map_init: NULL argument");
  memset(map, 0, sizeof *map);
  bcast_status st = check_static(in, "operand", diag);
  if (st == BCAST_OK) st = check_static(out, "output", diag);
  if (st != BCAST_OK) return st;
  int64_t implicit[BCAST_MAX_RANK];
  if (!dims) {
    if (in->rank > out->rank)
      return bcast__fail(diag, BCAST_RANK_MISMATCH,
                         "tile map: operand of rank %d does not broadcast "
                         "to an output of rank %d",
                         (int)in->rank, (int)out->rank);
    for (int32_t i = 0; i < in->rank; i++)
      implicit[i] = out->rank - in->rank + i;
    dims = implicit;
    n_dims = (size_t)in->rank;
  }
  st = bcast_broadcast_in_dim_check(in, out, dims, n_dims,
                                    BCAST_DIMS_ANY_ORDER, diag);
  if (st != BCAST_OK) return st;
  map->in = *in;
  map->out = *out;
  for (int32_t i = 0; i < in->rank; i++) map->dims[i] = (int32_t)dims[i];
  return BCAST_OK;
}

static bcast_status check_box(const bcast_box *box, const bcast_shape *s,
                              const char *what, bcast_diag *diag) {
  if (box->rank != s->rank)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "%s box has rank %d, the %s has rank %d", what,
                       (int)box->rank, what, (int)s->rank);
  for (int32_t d = 0; d < s->rank; d++)
    if (box->lo[d] < 0 || box->lo[d] > box->hi[d] || box->hi[d] > s->dims[d])
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "%s box dim %d is [%lld, %lld), outside [0, %lld)",
                         what, (int)d, (long long)box->lo[d],
                         (long long)box->hi[d], (long long)s->dims[d]);
  return BCAST_OK;
}

bcast_status bcast_tile_input_box(const bcast_tile_map *map,
                                  const bcast_box *out_box, bcast_box *in_box,
                                  bcast_diag *diag) {
  if (!map || !out_box || !in_box)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_tile_input_box: NULL argument");
  bcast_status st = check_box(out_box, &map->out, "output", diag);
  if (st != BCAST_OK) return st;
  memset(in_box, 0, sizeof *in_box);
  in_box->rank = map->in.rank;
  /* Reading nothing needs nothing (left [0, 0) on every dim). */
  if (bcast_box_elem_count(out_box) == 0) return BCAST_OK;
  for (int32_t i = 0; i < map->in.rank; i++) {
    if (expands(map, i)) {
      in_box->hi[i] = 1;
    } else {
      in_box->lo[i] = out_box->lo[map->dims[i]];
      in_box->hi[i] = out_box->hi[map->dims[i]];
    }
  }
  return BCAST_OK;
}

bcast_status bcast_tile_output_box(const bcast_tile_map *map,
                                   const bcast_box *in_box, bcast_box *out_box,
                                   bcast_diag *diag) {
  if (!map || !in_box || !out_box)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_tile_output_box: NULL argument");
  bcast_status st = check_box(in_box, &map->in, "operand", diag);
  if (st != BCAST_OK) return st;
  memset(out_box, 0, sizeof *out_box);
  out_box->rank = map->out.rank;
  if (bcast_box_elem_count(in_box) == 0) return BCAST_OK;
  for (int32_t d = 0; d < map->out.rank; d++) {
    int32_t i = operand_dim_of(map, d);
    if (i >= 0 && !expands(map, i)) {
      out_box->lo[d] = in_box->lo[i];
      out_box->hi[d] = in_box->hi[i];
    } else {
      out_box->hi[d] = map->out.dims[d];
    }
  }
  return BCAST_OK;
}

/* Bytes of a tile of the given extents: the output box and every operand's
 * input box.  Saturates at INT64_MAX. */
static int64_t tile_bytes(const int64_t *ext, int32_t rank, size_t n,
                          const bcast_tile_map *maps, const size_t *in_bytes,
                          size_t out_bytes) {
  int64_t total = 0, count = 1;
  for (int32_t d = 0; d < rank; d++)
    if (__builtin_mul_overflow(count, ext[d], &count)) return INT64_MAX;
  if (__builtin_mul_overflow(count, (int64_t)out_bytes, &total))
    return INT64_MAX;
  for (size_t k = 0; k < n; k++) {
    int64_t c = 1, b;
    for (int32_t i = 0; i < maps[k].in.rank; i++)
      if (!expands(&maps[k], i) &&
          __builtin_mul_overflow(c, ext[maps[k].dims[i]], &c))
        return INT64_MAX;
    if (__builtin_mul_overflow(c, (int64_t)in_bytes[k], &b) ||
        __builtin_add_overflow(total, b, &total))
      return INT64_MAX;
  }
  return total;
}

/* Whether a tile of the given bytes is within the budget: a saturated
 * count (tile_bytes' INT64_MAX) never is, whatever the budget. */
static int fits(int64_t bytes, int64_t budget_bytes) {
  return bytes < INT64_MAX && bytes <= budget_bytes;
}

/* ceil(n / d) for n >= 0 and d > 0, without forming n + d - 1 (which
 * overflows for an n near INT64_MAX). */
static int64_t ceil_div(int64_t n, int64_t d) { return n / d + (n % d != 0); }

/* The refusal of an output whose elements (so whose tiles, positions and
 * box bounds) cannot all be numbered in int64. */
static bcast_status too_many_elements(const bcast_shape *out,
                                      bcast_diag *diag) {
  char text[BCAST_MAX_RANK * 24];
  bcast_shape_format_dims(out->rank, out->dims, BCAST_SHAPE_STYLE_LIST, text,
                          sizeof text);
  return bcast__fail(diag, BCAST_OVERFLOW,
                     "tiler: the output shape %s has more than %lld "
                     "elements; tiles are numbered in 64 bits",
                     text, (long long)INT64_MAX);
}

bcast_status bcast_tiler_init(bcast_tiler *tiler, size_t n,
                              const bcast_tile_map *maps,
                              const size_t *in_elem_bytes,
                              size_t out_elem_bytes, int64_t budget_bytes,
                              bcast_diag *diag) {
  if (!tiler || !maps || !in_elem_bytes || n == 0)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_tiler_init: NULL argument or no operand");
  memset(tiler, 0, sizeof *tiler);
  const bcast_shape *out = &maps[0].out;
  for (size_t k = 1; k < n; k++) {
    int same = maps[k].out.rank == out->rank;
    for (int32_t d = 0; same && d < out->rank; d++)
      same = maps[k].out.dims[d] == out->dims[d];
    if (!same)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "bcast_tiler_init: operand %zu's map has another "
                         "output shape than operand 0's",
                         k);
  }
  const int32_t rank = out->rank;
  bcast_box_full(&tiler->whole, rank, out->dims);
  tiler->split = -1;
  tiler->step = 1;
  /* An empty output has no tiles, however large its other dims. */
  if (bcast_box_elem_count(&tiler->whole) == 0) return BCAST_OK;
  int64_t elems = 1;
  for (int32_t d = 0; d < rank; d++)
    if (__builtin_mul_overflow(elems, out->dims[d], &elems))
      return too_many_elements(out, diag);

  int64_t ext[BCAST_MAX_RANK] = {0};
  for (int32_t d = 0; d < rank; d++) ext[d] = out->dims[d];
  int64_t bytes =
      tile_bytes(ext, rank, n, maps, in_elem_bytes, out_elem_bytes);
  /* Cut the outer dims to 1 until the rest fits; the last one cut is the
   * split dim, given as many of its elements as fit. */
  int32_t k = 0;
  while (!fits(bytes, budget_bytes) && k < rank) {
    ext[k++] = 1;
    bytes = tile_bytes(ext, rank, n, maps, in_elem_bytes, out_elem_bytes);
  }
  if (!fits(bytes, budget_bytes))
    return bcast__fail(diag, BCAST_BUDGET,
                       "tiles of one element need %lld bytes, over the "
                       "budget of %lld",
                       (long long)bytes, (long long)budget_bytes);
  int64_t count = 1;
  if (k > 0) {
    const int32_t s = k - 1;
    int64_t lo = 1,
            hi = out->dims[s]; /* lo fits; find the largest that does */
    while (lo < hi) {
      int64_t mid = lo + (hi - lo + 1) / 2;
      ext[s] = mid;
      if (fits(tile_bytes(ext, rank, n, maps, in_elem_bytes, out_elem_bytes),
               budget_bytes))
        lo = mid;
      else
        hi = mid - 1;
    }
    ext[s] = lo;
    bytes = tile_bytes(ext, rank, n, maps, in_elem_bytes, out_elem_bytes);
    tiler->split = s;
    tiler->step = lo;
    /* count <= elems, so these products fit; checked all the same. */
    count = ceil_div(out->dims[s], lo);
    for (int32_t d = 0; d < s; d++)
      if (__builtin_mul_overflow(count, out->dims[d], &count))
        return too_many_elements(out, diag);
  }
  tiler->count = count;
  tiler->tile_bytes = bytes;
  return BCAST_OK;
}

int bcast_tiler_tile(const bcast_tiler *tiler, int64_t k, bcast_box *box) {
  if (k < 0 || k >= tiler->count) return 0;
  *box = tiler->whole;
  const int32_t s = tiler->split;
  if (s < 0) return 1;
  const int64_t size = tiler->whole.hi[s];
  const int64_t chunks = ceil_div(size, tiler->step);
  int64_t c = k % chunks, rest = k / chunks;
  /* c * step < size; the run ends at size (lo + step may overflow). */
  box->lo[s] = c * tiler->step;
  box->hi[s] =
      size - box->lo[s] > tiler->step ? box->lo[s] + tiler->step : size;
  for (int32_t d = s - 1; d >= 0; d--) {
    int64_t i = rest % tiler->whole.hi[d];
    rest /= tiler->whole.hi[d];
    box->lo[d] = i;
    box->hi[d] = i + 1;
  }
  return 1;
}

int bcast_tiler_next(bcast_tiler *tiler, bcast_box *box) {
  if (!bcast_tiler_tile(tiler, tiler->next, box)) return 0;
  tiler->next++;
  return 1;
}

bcast_status bcast_tensor_box(bcast_tensor *dst, const bcast_tensor *src,
                              const int64_t *origin, const bcast_box *box,
                              bcast_diag *diag) {
  if (!dst || !src || !box)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_tensor_box: NULL argument");
  if (box->rank != src->rank)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "box has rank %d, the tensor has rank %d",
                       (int)box->rank, (int)src->rank);
  bcast_tensor view = *src;
  char *p = (char *)src->data;
  for (int32_t d = 0; d < src->rank; d++) {
    const int64_t o = origin ? origin[d] : 0;
    int64_t lo, hi;
    if (__builtin_sub_overflow(box->lo[d], o, &lo) ||
        __builtin_sub_overflow(box->hi[d], o, &hi) || lo < 0 || lo > hi ||
        hi > src->shape[d])
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "box dim %d is [%lld, %lld), outside the tensor's "
                         "[%lld, %lld)",
                         (int)d, (long long)box->lo[d], (long long)box->hi[d],
                         (long long)o, (long long)(o + src->shape[d]));
    view.shape[d] = hi - lo;
    /* An empty view never reads, so its pointer stays put. */
    if (hi > lo) p += lo * src->stride_bytes[d];
  }
  if (bcast_box_elem_count(box) > 0) view.data = p;
  bcast__buffer_retain(view.owner);
  *dst = view;
  return BCAST_OK;
}

/* Operand k's view over the output box. */
static bcast_status tile_view(const bcast_tile_map *m, const bcast_tensor *in,
                              const int64_t *origin, const bcast_box *out_box,
                              bcast_tensor *view, bcast_diag *diag) {
  if (in->rank != m->in.rank)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "tensor of rank %d for an operand of rank %d",
                       (int)in->rank, (int)m->in.rank);
  int64_t ext[BCAST_MAX_RANK], dims[BCAST_MAX_RANK];
  for (int32_t d = 0; d < out_box->rank; d++)
    ext[d] = out_box->hi[d] - out_box->lo[d];
  if (bcast_box_elem_count(out_box) == 0) {
    /* Nothing is read: a view of the box's shape that never reads. */
    memset(view, 0, sizeof *view);
    view->dtype = in->dtype;
    view->rank = out_box->rank;
    memcpy(view->shape, ext, sizeof(int64_t) * (size_t)out_box->rank);
    view->data = in->data;
    view->owner = in->owner;
    bcast__buffer_retain(view->owner);
    return BCAST_OK;
  }
  bcast_box in_box;
  bcast_status st = bcast_tile_input_box(m, out_box, &in_box, diag);
  bcast_tensor window;
  if (st == BCAST_OK)
    st = bcast_tensor_box(&window, in, origin, &in_box, diag);
  if (st != BCAST_OK) return st;
  for (int32_t i = 0; i < m->in.rank; i++) dims[i] = m->dims[i];
  st = bcast_broadcast_in_dim(view, &window, out_box->rank, ext, dims,
                              (size_t)m->in.rank, BCAST_DIMS_ANY_ORDER, diag);
  bcast_tensor_release(&window);
  return st;
}

bcast_status bcast_tile_views(size_t n, const bcast_tile_map *maps,
                              const bcast_tensor *inputs,
                              const int64_t *const *origins,
                              const bcast_box *out_box, bcast_tensor *views,
                              bcast_diag *diag) {
  if (!maps || !inputs || !out_box || !views)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_tile_views: NULL argument");
  for (size_t k = 0; k < n; k++) {
    bcast_status st = check_box(out_box, &maps[k].out, "output", diag);
    if (st == BCAST_OK)
      st = tile_view(&maps[k], &inputs[k], origins ? origins[k] : NULL,
                     out_box, &views[k], diag);
    if (st != BCAST_OK) {
      if (diag) {
        char msg[sizeof diag->message];
        memcpy(msg, diag->message, sizeof msg);
        bcast__fail(diag, st, "operand %zu: %s", k, msg);
      }
      while (k > 0) bcast_tensor_release(&views[--k]);
      return st;
    }
  }
  return BCAST_OK;
}
