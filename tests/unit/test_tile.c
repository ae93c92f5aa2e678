/* Tile plans: random shapes, maps and budgets.  Running every tile equals
 * running the whole op; each input box is exactly what its tile reads; the
 * tiles partition the output into contiguous C-order runs within budget;
 * the inverse box is exactly where an input box's elements go. */
#include <stdlib.h>

#include "bcast/bcast.h"
#include "bcast/tile.h"
#include "test.h"

#define MAX_OPS 3

typedef struct tcase {
  bcast_shape out;
  size_t n;
  bcast_shape in[MAX_OPS];
  int64_t dims[MAX_OPS][BCAST_MAX_RANK]; /* the BroadcastInDim map */
  int implicit[MAX_OPS];
  bcast_tile_map maps[MAX_OPS];
} tcase;

static int64_t shape_count(const bcast_shape *s) {
  int64_t c = 1;
  for (int32_t d = 0; d < s->rank; d++) c *= s->dims[d];
  return c;
}

/* A random output shape (some dims 1, rarely 0) and n operands, each either
 * right-aligned or placed by a random BroadcastInDim map (any order). */
static void random_case(uint64_t *rng, tcase *c, size_t n) {
  memset(c, 0, sizeof *c);
  c->out.rank = (int32_t)test_rand_range(rng, 0, 4);
  for (int32_t d = 0; d < c->out.rank; d++) {
    int64_t r = test_rand_range(rng, 0, 19);
    c->out.dims[d] = r == 0 ? 0 : r < 5 ? 1 : test_rand_range(rng, 2, 7);
  }
  c->n = n;
  for (size_t k = 0; k < n; k++) {
    int32_t rank = (int32_t)test_rand_range(rng, 0, c->out.rank);
    c->in[k].rank = rank;
    c->implicit[k] = (int)test_rand_range(rng, 0, 1);
    int32_t pick[BCAST_MAX_RANK];
    if (c->implicit[k]) {
      for (int32_t i = 0; i < rank; i++) pick[i] = c->out.rank - rank + i;
    } else {
      int32_t all[BCAST_MAX_RANK];
      for (int32_t d = 0; d < c->out.rank; d++) all[d] = d;
      for (int32_t i = 0; i < rank; i++) { /* a partial shuffle */
        int32_t j = (int32_t)test_rand_range(rng, i, c->out.rank - 1);
        int32_t tmp = all[i];
        all[i] = all[j];
        all[j] = tmp;
        pick[i] = all[i];
      }
    }
    for (int32_t i = 0; i < rank; i++) {
      c->dims[k][i] = pick[i];
      int64_t od = c->out.dims[pick[i]];
      c->in[k].dims[i] = test_rand_range(rng, 0, 2) == 0 ? 1 : od;
    }
  }
}

static int build_maps(test_ctx *t, tcase *c) {
  for (size_t k = 0; k < c->n; k++) {
    bcast_diag diag;
    bcast_status st = bcast_tile_map_init(&c->maps[k], &c->in[k], &c->out,
                                          c->implicit[k] ? NULL : c->dims[k],
                                          (size_t)c->in[k].rank, &diag);
    if (st != BCAST_OK) {
      test_fail(t, __FILE__, __LINE__, "operand %zu: %s", k, diag.message);
      return 0;
    }
  }
  return 1;
}

/* A random case of 1 to MAX_OPS operands with their maps built; 0 after
 * reporting a map the library refused. */
static int random_mapped_case(test_ctx *t, uint64_t *rng, tcase *c) {
  random_case(rng, c, (size_t)test_rand_range(rng, 1, MAX_OPS));
  return build_maps(t, c);
}

/* C-order position of an index; the operand index an output index reads. */
static int64_t linear(const bcast_shape *s, const int64_t *idx) {
  int64_t p = 0;
  for (int32_t d = 0; d < s->rank; d++) p = p * s->dims[d] + idx[d];
  return p;
}
static void operand_index(const bcast_tile_map *m, const int64_t *out_idx,
                          int64_t *in_idx) {
  for (int32_t i = 0; i < m->in.rank; i++)
    in_idx[i] = m->in.dims[i] == 1 ? 0 : out_idx[m->dims[i]];
}
/* Steps idx through box in C order; 0 after the last. */
static int box_step(const bcast_box *b, int64_t *idx) {
  for (int32_t d = b->rank - 1; d >= 0; d--) {
    if (++idx[d] < b->hi[d]) return 1;
    idx[d] = b->lo[d];
  }
  return 0;
}
static int box_first(const bcast_box *b, int64_t *idx) {
  for (int32_t d = 0; d < b->rank; d++) idx[d] = b->lo[d];
  return bcast_box_elem_count(b) > 0;
}
static int box_has(const bcast_box *b, const int64_t *idx) {
  for (int32_t d = 0; d < b->rank; d++)
    if (idx[d] < b->lo[d] || idx[d] >= b->hi[d]) return 0;
  return 1;
}

/* The input box is exactly the set of operand elements the output box
 * reads: every element it reads lies in it, and it holds no other. */
static void check_input_box(test_ctx *t, const bcast_tile_map *m,
                            const bcast_box *out_box,
                            const bcast_box *in_box) {
  int64_t total = shape_count(&m->in);
  char *read = calloc((size_t)total + 1, 1);
  int64_t idx[BCAST_MAX_RANK], in_idx[BCAST_MAX_RANK];
  if (box_first(out_box, idx)) do {
      operand_index(m, idx, in_idx);
      CHECK(box_has(in_box, in_idx));
      read[linear(&m->in, in_idx)] = 1;
    } while (box_step(out_box, idx));
  int64_t marked = 0;
  for (int64_t p = 0; p < total; p++) marked += read[p];
  if (bcast_box_elem_count(out_box) == 0 && m->in.rank == 0)
    CHECK_INT(marked, 0); /* a scalar's box is its one element */
  else
    CHECK_INT(marked, bcast_box_elem_count(in_box));
  free(read);
}

TEST(tile_input_boxes_are_exactly_what_tiles_read) {
  uint64_t rng = test_seed();
  for (int iter = 0; iter < 2000; iter++) {
    tcase c;
    if (!random_mapped_case(t, &rng, &c)) return;
    /* A random output box, sometimes empty. */
    bcast_box ob;
    ob.rank = c.out.rank;
    for (int32_t d = 0; d < c.out.rank; d++) {
      int64_t a = test_rand_range(&rng, 0, c.out.dims[d]);
      int64_t b = test_rand_range(&rng, 0, c.out.dims[d]);
      ob.lo[d] = a < b ? a : b;
      ob.hi[d] = a < b ? b : a;
    }
    for (size_t k = 0; k < c.n; k++) {
      bcast_box ib;
      bcast_diag diag;
      CHECK_INT(bcast_tile_input_box(&c.maps[k], &ob, &ib, &diag), BCAST_OK);
      check_input_box(t, &c.maps[k], &ob, &ib);
    }
  }
}

TEST(tile_output_box_is_exactly_where_an_input_box_goes) {
  uint64_t rng = test_seed();
  for (int iter = 0; iter < 2000; iter++) {
    tcase c;
    random_case(&rng, &c, 1);
    if (!build_maps(t, &c)) return;
    const bcast_tile_map *m = &c.maps[0];
    bcast_box ib, ob;
    ib.rank = m->in.rank;
    for (int32_t i = 0; i < m->in.rank; i++) {
      int64_t a = test_rand_range(&rng, 0, m->in.dims[i]);
      int64_t b = test_rand_range(&rng, 0, m->in.dims[i]);
      ib.lo[i] = a < b ? a : b;
      ib.hi[i] = a < b ? b : a;
    }
    bcast_diag diag;
    CHECK_INT(bcast_tile_output_box(m, &ib, &ob, &diag), BCAST_OK);
    /* Every output element reading ib lies in ob, and ob holds no other. */
    bcast_box whole;
    bcast_box_full(&whole, c.out.rank, c.out.dims);
    int64_t idx[BCAST_MAX_RANK], in_idx[BCAST_MAX_RANK], hits = 0;
    if (box_first(&whole, idx)) do {
        operand_index(m, idx, in_idx);
        int reads = bcast_box_elem_count(&ib) > 0 && box_has(&ib, in_idx);
        CHECK_INT(reads, box_has(&ob, idx));
        hits += reads;
      } while (box_step(&whole, idx));
    CHECK_INT(hits, bcast_box_elem_count(&ob));
  }
}

/* Element sizes of the add test: int32 operands and output. */
static const size_t four[MAX_OPS] = {4, 4, 4};

TEST(tiler_partitions_into_contiguous_runs_within_budget) {
  uint64_t rng = test_seed();
  for (int iter = 0; iter < 1000; iter++) {
    tcase c;
    if (!random_mapped_case(t, &rng, &c)) return;
    int64_t budget = test_rand_range(&rng, 4 * (int64_t)(c.n + 1), 2000);
    bcast_tiler tl;
    bcast_diag diag;
    CHECK_INT(bcast_tiler_init(&tl, c.n, c.maps, four, 4, budget, &diag),
              BCAST_OK);
    int64_t total = shape_count(&c.out);
    int *seen = calloc((size_t)total + 1, sizeof *seen);
    bcast_box box;
    int64_t tiles = 0;
    while (bcast_tiler_next(&tl, &box)) {
      tiles++;
      /* Within budget: the output box and every input box. */
      int64_t bytes = 4 * bcast_box_elem_count(&box);
      for (size_t k = 0; k < c.n; k++) {
        bcast_box ib;
        CHECK_INT(bcast_tile_input_box(&c.maps[k], &box, &ib, &diag),
                  BCAST_OK);
        bytes += 4 * bcast_box_elem_count(&ib);
      }
      CHECK(bytes <= budget);
      CHECK(bytes <= tl.tile_bytes);
      /* One contiguous C-order run, after the previous tile's. */
      int64_t idx[BCAST_MAX_RANK], first = -1, last = -1, n = 0;
      CHECK(box_first(&box, idx));
      do {
        int64_t p = linear(&c.out, idx);
        if (first < 0) first = p;
        CHECK(p > last);
        last = p;
        seen[p]++;
        n++;
      } while (box_step(&box, idx));
      CHECK_INT(last - first + 1, n);
    }
    CHECK_INT(tiles, tl.count);
    for (int64_t p = 0; p < total; p++) CHECK_INT(seen[p], 1);
    if (total == 0) CHECK_INT(tl.count, 0);
    free(seen);
  }
}

/* Fills a tensor of shape s with distinct values from the seed state. */
static void fill_random(uint64_t *rng, bcast_tensor *x, bcast_dtype dtype,
                        const bcast_shape *s) {
  bcast_diag diag;
  bcast_tensor_alloc(x, dtype, s->rank, s->dims, BCAST_DEFAULT_MAX_BYTES,
                     &diag);
  int64_t n = shape_count(s);
  for (int64_t i = 0; i < n; i++) {
    if (dtype == BCAST_BOOL)
      ((uint8_t *)x->data)[i] = (uint8_t)test_rand_range(rng, 0, 1);
    else
      ((int32_t *)x->data)[i] = (int32_t)test_rand_range(rng, -1000, 1000);
  }
}

/* The whole op, the reference: every operand laid over the output by its
 * map (bcast_broadcast_in_dim), one call. */
static bcast_status run_whole(const tcase *c, bcast_op op,
                              const bcast_tensor *in, bcast_tensor *out) {
  bcast_tensor views[MAX_OPS];
  bcast_box whole;
  bcast_box_full(&whole, c->out.rank, c->out.dims);
  bcast_status st =
      bcast_tile_views(c->n, c->maps, in, NULL, &whole, views, NULL);
  if (st != BCAST_OK) return st;
  bcast_ew_options o;
  bcast_ew_options_init(&o);
  o.profile = BCAST_PROFILE_NUMPY;
  st = c->n == 1 ? bcast_tensor_copy(out, &views[0], 1, NULL)
                 : bcast_ew_compute_into(op, NULL, c->n, views, out, &o, NULL);
  for (size_t k = 0; k < c->n; k++) bcast_tensor_release(&views[k]);
  return st;
}

/* Copies operand k's input box into a tensor of its own (the block a
 * sharded input would hold). */
static void take_block(const bcast_tensor *whole, const bcast_box *ib,
                       bcast_tensor *block) {
  bcast_tensor win;
  bcast_tensor_box(&win, whole, NULL, ib, NULL);
  bcast_materialize(block, &win, BCAST_DEFAULT_MAX_BYTES, 1, NULL);
  bcast_tensor_release(&win);
}

TEST(tile_runs_equal_the_whole_op_from_whole_and_block_inputs) {
  uint64_t rng = test_seed();
  for (int iter = 0; iter < 1000; iter++) {
    tcase c;
    size_t n = (size_t)test_rand_range(&rng, 1, MAX_OPS);
    random_case(&rng, &c, n);
    if (!build_maps(t, &c)) return;
    /* copy (materialize) for one operand, add for two, select for three. */
    bcast_op op = n == 3 ? BCAST_OP_SELECT : BCAST_OP_ADD;
    bcast_tensor in[MAX_OPS], want, got, got_blocks;
    for (size_t k = 0; k < n; k++)
      fill_random(&rng, &in[k], n == 3 && k == 0 ? BCAST_BOOL : BCAST_INT32,
                  &c.in[k]);
    bcast_diag diag;
    bcast_tensor_alloc(&want, BCAST_INT32, c.out.rank, c.out.dims,
                       BCAST_DEFAULT_MAX_BYTES, &diag);
    bcast_tensor_alloc(&got, BCAST_INT32, c.out.rank, c.out.dims,
                       BCAST_DEFAULT_MAX_BYTES, &diag);
    bcast_tensor_alloc(&got_blocks, BCAST_INT32, c.out.rank, c.out.dims,
                       BCAST_DEFAULT_MAX_BYTES, &diag);
    CHECK_INT(run_whole(&c, op, in, &want), BCAST_OK);

    size_t bytes[MAX_OPS] = {n == 3 ? 1 : 4, 4, 4};
    bcast_tiler tl;
    int64_t budget = test_rand_range(&rng, 4 * (int64_t)(n + 1), 600);
    CHECK_INT(bcast_tiler_init(&tl, n, c.maps, bytes, 4, budget, &diag),
              BCAST_OK);
    bcast_ew_options o;
    bcast_ew_options_init(&o);
    o.profile = BCAST_PROFILE_NUMPY;
    bcast_box box;
    while (bcast_tiler_next(&tl, &box)) {
      bcast_tensor views[MAX_OPS], out_box, blocks[MAX_OPS];
      const int64_t *origins[MAX_OPS];
      CHECK_INT(bcast_tensor_box(&out_box, &got, NULL, &box, &diag), BCAST_OK);
      /* From the whole operands. */
      CHECK_INT(bcast_tile_views(n, c.maps, in, NULL, &box, views, &diag),
                BCAST_OK);
      CHECK_INT(n == 1 ? bcast_tensor_copy(&out_box, &views[0], 1, &diag)
                       : bcast_ew_compute_into(op, NULL, n, views, &out_box,
                                               &o, &diag),
                BCAST_OK);
      for (size_t k = 0; k < n; k++) bcast_tensor_release(&views[k]);
      bcast_tensor_release(&out_box);
      /* From blocks holding exactly each input box. */
      bcast_box ibs[MAX_OPS];
      for (size_t k = 0; k < n; k++) {
        bcast_tile_input_box(&c.maps[k], &box, &ibs[k], &diag);
        take_block(&in[k], &ibs[k], &blocks[k]);
        origins[k] = ibs[k].lo;
      }
      CHECK_INT(bcast_tensor_box(&out_box, &got_blocks, NULL, &box, &diag),
                BCAST_OK);
      CHECK_INT(
          bcast_tile_views(n, c.maps, blocks, origins, &box, views, &diag),
          BCAST_OK);
      CHECK_INT(n == 1 ? bcast_tensor_copy(&out_box, &views[0], 1, &diag)
                       : bcast_ew_compute_into(op, NULL, n, views, &out_box,
                                               &o, &diag),
                BCAST_OK);
      for (size_t k = 0; k < n; k++) {
        bcast_tensor_release(&views[k]);
        bcast_tensor_release(&blocks[k]);
      }
      bcast_tensor_release(&out_box);
    }
    int64_t count = shape_count(&c.out);
    CHECK(memcmp(want.data, got.data, (size_t)count * 4) == 0);
    CHECK(memcmp(want.data, got_blocks.data, (size_t)count * 4) == 0);
    bcast_tensor_release(&want);
    bcast_tensor_release(&got);
    bcast_tensor_release(&got_blocks);
    for (size_t k = 0; k < n; k++) bcast_tensor_release(&in[k]);
  }
}

TEST(tile_errors_name_the_culprit) {
  bcast_shape in, out;
  bcast_diag diag;
  bcast_tile_map m;
  int64_t s3[] = {3}, s23[] = {2, 3}, s24[] = {2, 4}, dyn[] = {2, -1};
  bcast_shape_set(&in, 1, s3, NULL);
  bcast_shape_set(&out, 2, s24, NULL);
  CHECK_INT(bcast_tile_map_init(&m, &in, &out, NULL, 0, &diag),
            BCAST_INCOMPATIBLE);
  bcast_shape_set(&out, 2, dyn, NULL);
  CHECK_INT(bcast_tile_map_init(&m, &in, &out, NULL, 0, &diag),
            BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(diag.message, "output dim 1 is dynamic");
  bcast_shape_set(&out, 2, s23, NULL);
  int64_t bad_map[] = {2};
  CHECK(bcast_tile_map_init(&m, &in, &out, bad_map, 1, &diag) != BCAST_OK);
  CHECK_INT(bcast_tile_map_init(&m, &in, &out, NULL, 0, &diag), BCAST_OK);
  bcast_box ob, ib;
  bcast_box_full(&ob, 2, s23);
  ob.hi[1] = 4;
  CHECK_INT(bcast_tile_input_box(&m, &ob, &ib, &diag), BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(diag.message, "output box dim 1 is [0, 4), outside [0, 3)");
  /* A budget below one element's bytes. */
  bcast_tiler tl;
  size_t eb = 4;
  CHECK_INT(bcast_tiler_init(&tl, 1, &m, &eb, 4, 7, &diag), BCAST_BUDGET);
  CHECK_CONTAINS(diag.message, "tiles of one element need 8 bytes");
  /* A block that does not hold the box. */
  int32_t data[3] = {1, 2, 3};
  bcast_tensor x, views[1];
  bcast_tensor_wrap(&x, BCAST_INT32, 1, s3, NULL, data, NULL);
  int64_t origin[] = {1};
  const int64_t *origins[] = {origin};
  bcast_box_full(&ob, 2, s23);
  CHECK_INT(bcast_tile_views(1, &m, &x, origins, &ob, views, &diag),
            BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(diag.message, "operand 0: box dim 0 is [0, 3), outside the "
                               "tensor's [1, 4)");
}

TEST(tiler_picks_whole_rows_of_a_big_outer_product) {
  /* (4096, 1) + (1, 4096) float32 under 1 MiB: whole rows of 4096, the
   * split on dim 0 in runs of (1 MiB - 16 KiB row) / (16 KiB + 4) rows. */
  int64_t col[] = {4096, 1}, row[] = {1, 4096}, o[] = {4096, 4096};
  bcast_shape sc, sr, so;
  bcast_shape_set(&sc, 2, col, NULL);
  bcast_shape_set(&sr, 2, row, NULL);
  bcast_shape_set(&so, 2, o, NULL);
  bcast_tile_map maps[2];
  CHECK_INT(bcast_tile_map_init(&maps[0], &sc, &so, NULL, 0, NULL), BCAST_OK);
  CHECK_INT(bcast_tile_map_init(&maps[1], &sr, &so, NULL, 0, NULL), BCAST_OK);
  size_t eb[] = {4, 4};
  bcast_tiler tl;
  CHECK_INT(bcast_tiler_init(&tl, 2, maps, eb, 4, 1 << 20, NULL), BCAST_OK);
  const int64_t rows = ((1 << 20) - 4096 * 4) / (4096 * 4 + 4);
  CHECK_INT(tl.split, 0);
  CHECK_INT(tl.step, rows);
  CHECK_INT(tl.count, (4096 + rows - 1) / rows);
  bcast_box last;
  CHECK(bcast_tiler_tile(&tl, tl.count - 1, &last));
  CHECK_INT(last.hi[0], 4096);
  CHECK_INT(last.lo[1], 0);
  CHECK_INT(last.hi[1], 4096);
  CHECK(!bcast_tiler_tile(&tl, tl.count, &last));
}

/* ------------------------------------------------------------------------ */
/* Sizes near INT64_MAX: the tiler's arithmetic never overflows. */

/* The map of an operand of shape in (rank r) onto out, implicit. */
static int near_max_map(test_ctx *t, int32_t r, const int64_t *in,
                        const int64_t *out, bcast_tile_map *m) {
  bcast_shape si, so;
  bcast_shape_set(&si, r, in, NULL);
  bcast_shape_set(&so, r, out, NULL);
  bcast_diag diag;
  if (bcast_tile_map_init(m, &si, &so, NULL, 0, &diag) == BCAST_OK) return 1;
  test_fail(t, __FILE__, __LINE__, "%s", diag.message);
  return 0;
}

/* A tile's bytes (its output box and its operand's input box, 1 byte an
 * element), or -1 when they overflow. */
static int64_t near_max_bytes(const bcast_tile_map *m, const bcast_box *box) {
  bcast_box ib;
  int64_t total;
  if (bcast_tile_input_box(m, box, &ib, NULL) != BCAST_OK ||
      __builtin_add_overflow(bcast_box_elem_count(box),
                             bcast_box_elem_count(&ib), &total) ||
      total == INT64_MAX)
    return -1;
  return total;
}

/* The C-order positions of a box's first and last elements. */
static void box_ends(const bcast_shape *s, const bcast_box *b, int64_t *first,
                     int64_t *last) {
  int64_t idx[BCAST_MAX_RANK];
  for (int32_t d = 0; d < b->rank; d++) idx[d] = b->lo[d];
  *first = linear(s, idx);
  for (int32_t d = 0; d < b->rank; d++) idx[d] = b->hi[d] - 1;
  *last = linear(s, idx);
}

/* Checks tile k of a one-operand plan (1-byte elements): within budget,
 * one contiguous C-order run of the output, starting right after the
 * previous tile (*end: its last position + 1). */
static void check_near_max_tile(test_ctx *t, const bcast_tiler *tl,
                                const bcast_tile_map *m, int64_t budget,
                                int64_t k, int64_t *end) {
  bcast_box box;
  if (!bcast_tiler_tile(tl, k, &box)) {
    test_fail(t, __FILE__, __LINE__, "no tile %lld of %lld", (long long)k,
              (long long)tl->count);
    return;
  }
  for (int32_t d = 0; d < box.rank; d++)
    if (!(0 <= box.lo[d] && box.lo[d] < box.hi[d] &&
          box.hi[d] <= m->out.dims[d]))
      test_fail(t, __FILE__, __LINE__, "tile %lld dim %d is [%lld, %lld)",
                (long long)k, (int)d, (long long)box.lo[d],
                (long long)box.hi[d]);
  const int64_t bytes = near_max_bytes(m, &box);
  CHECK(bytes >= 0 && bytes <= budget && bytes <= tl->tile_bytes);
  int64_t first, last;
  box_ends(&m->out, &box, &first, &last);
  CHECK_INT(last - first + 1, bcast_box_elem_count(&box));
  if (*end >= 0) CHECK_INT(first, *end);
  *end = last + 1;
}

/* Every tile at both ends and runs of tiles in between (seeded). */
static void check_near_max_plan(test_ctx *t, uint64_t *rng,
                                const bcast_tile_map *m, int64_t budget,
                                int64_t elems) {
  bcast_tiler tl;
  bcast_diag diag;
  size_t one = 1;
  if (bcast_tiler_init(&tl, 1, m, &one, 1, budget, &diag) != BCAST_OK) {
    test_fail(t, __FILE__, __LINE__, "%s", diag.message);
    return;
  }
  CHECK(tl.count > 0);
  int64_t end = 0;
  for (int64_t k = 0; k < tl.count && k < 4; k++)
    check_near_max_tile(t, &tl, m, budget, k, &end);
  for (int run = 0; run < 16 && tl.count > 8; run++) {
    int64_t k = test_rand_range(rng, 4, tl.count - 5);
    end = -1;
    check_near_max_tile(t, &tl, m, budget, k, &end);
    check_near_max_tile(t, &tl, m, budget, k + 1, &end);
  }
  end = tl.count > 4 ? -1 : end;
  for (int64_t k = tl.count > 4 ? tl.count - 4 : tl.count; k < tl.count; k++)
    check_near_max_tile(t, &tl, m, budget, k, &end);
  CHECK_INT(end, elems); /* the last tile ends at the last element */
  bcast_box box;
  CHECK(!bcast_tiler_tile(&tl, tl.count, &box));
}

TEST(tiler_plans_outputs_near_int64_max_exactly) {
  uint64_t rng = test_seed();
  /* (rank, operand, output, budget): the CLI's 2^63 - 257 under 1 MiB; a
   * last run whose lo + step passes INT64_MAX; a whole output of 2^64
   * bytes, which a saturated count must not take for one that fits; a
   * split inner dim under outer ones. */
  static const struct {
    int32_t rank;
    int64_t in[2], out[2], budget;
  } cases[] = {
      {1, {1}, {INT64_MAX - 256}, (int64_t)1 << 20},
      {1, {1}, {INT64_MAX}, (int64_t)1 << 62},
      {1, {INT64_MAX}, {INT64_MAX}, INT64_MAX},
      {1, {1}, {INT64_MAX}, 3},
      {2, {3, 1}, {3, INT64_MAX / 3}, (int64_t)1 << 20},
      {2, {1, 1}, {INT64_MAX / 7, 7}, (int64_t)1 << 40},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    bcast_tile_map m;
    if (!near_max_map(t, cases[c].rank, cases[c].in, cases[c].out, &m))
      continue;
    int64_t elems = 1;
    for (int32_t d = 0; d < cases[c].rank; d++) elems *= cases[c].out[d];
    check_near_max_plan(t, &rng, &m, cases[c].budget, elems);
  }
}

TEST(tiler_refuses_outputs_past_int64_elements_and_plans_empty_ones) {
  /* More elements than int64 counts: refused, the shape named. */
  const int64_t huge[] = {(int64_t)1 << 32, (int64_t)1 << 32};
  const int64_t one[] = {1, 1};
  bcast_tile_map m;
  if (!near_max_map(t, 2, one, huge, &m)) return;
  bcast_tiler tl;
  bcast_diag diag;
  size_t eb = 1;
  CHECK_INT(bcast_tiler_init(&tl, 1, &m, &eb, 1, 2, &diag), BCAST_OVERFLOW);
  CHECK_CONTAINS(diag.message, "[4294967296,4294967296]");
  CHECK_INT(bcast_tiler_init(&tl, 1, &m, &eb, 1, INT64_MAX, &diag),
            BCAST_OVERFLOW);
  /* A 0 dim beside huge ones: an empty output, no tiles. */
  static const int64_t empty[][3] = {{0, INT64_MAX, 1},
                                     {INT64_MAX, 0, 1},
                                     {(int64_t)1 << 62, 0, (int64_t)1 << 62},
                                     {INT64_MAX, INT64_MAX, 0}};
  const int64_t ones[] = {1, 1, 1};
  for (size_t c = 0; c < sizeof empty / sizeof empty[0]; c++) {
    if (!near_max_map(t, 3, ones, empty[c], &m)) continue;
    CHECK_INT(bcast_tiler_init(&tl, 1, &m, &eb, 1, 16, &diag), BCAST_OK);
    CHECK_INT(tl.count, 0);
    bcast_box box;
    CHECK(!bcast_tiler_next(&tl, &box));
  }
}
