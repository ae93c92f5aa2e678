/* The .npy reader from memory.  Invariant: an accepted array written back
 * reads back as the same array, and writing that gives the same bytes
 * (write after read is a fixed point). */
#include "bcast/bcast.h"
#include "fuzz_common.h"

static bcast_status sink_write(void *ctx, const void *bytes, size_t len) {
  return fuzz_sink_put(ctx, bytes, len) ? BCAST_OK : BCAST_NO_MEMORY;
}

/* Writes t with the options its file had; the bytes go to *out. */
static bcast_status write_back(const bcast_tensor *t,
                               const bcast_npy_info *info, fuzz_sink *out) {
  bcast_npy_write_opts opts = {0};
  opts.string_kind = info->string_kind;
  opts.string_width = info->string_width;
  opts.fortran_order = info->fortran_order;
  opts.big_endian = info->big_endian;
  bcast_diag d;
  return bcast_npy_write_stream(sink_write, out, "fuzz.npy", t, &opts, &d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *p = fuzz_exact_copy(data, size);
  bcast_tensor t;
  bcast_npy_info info;
  bcast_diag d;
  bcast_status st =
      bcast_npy_read_mem(p, size, "fuzz.npy", &t, &info, 1 << 20, &d);
  free(p);
  if (st != BCAST_OK) {
    FUZZ_CHECK(d.message[0] != '\0');
    return 0;
  }
  fuzz_sink first = {0}, second = {0};
  st = write_back(&t, &info, &first);
  if (st == BCAST_OK) {
    bcast_tensor u;
    bcast_npy_info info2;
    char *q = fuzz_exact_copy((const uint8_t *)first.data, first.len);
    st =
        bcast_npy_read_mem(q, first.len, "again.npy", &u, &info2, 1 << 21, &d);
    free(q);
    FUZZ_CHECK(st == BCAST_OK);
    FUZZ_CHECK(u.dtype == t.dtype && u.rank == t.rank);
    for (int32_t i = 0; i < t.rank; i++) FUZZ_CHECK(u.shape[i] == t.shape[i]);
    FUZZ_CHECK(info2.fortran_order == info.fortran_order);
    FUZZ_CHECK(write_back(&u, &info2, &second) == BCAST_OK);
    FUZZ_CHECK(second.len == first.len &&
               memcmp(second.data, first.data, first.len) == 0);
    bcast_tensor_release(&u);
  }
  free(first.data);
  free(second.data);
  bcast_tensor_release(&t);
  return 0;
}
