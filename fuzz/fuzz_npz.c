/* The .npz reader and updater on an archive file (the input, written to a
 * file in a private directory on /dev/shm, else $TMPDIR or /tmp).
 * Invariants: a refusal has a message; an accepted member writes back as
 * .npy; adding a member either fails and leaves the file byte for byte as
 * it was, or gives an archive whose new member reads back and whose other
 * members read exactly as before. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#endif
#include <stdlib.h>
#include <unistd.h>

#include "bcast/bcast.h"
#include "fuzz_common.h"

/* The names tried: the only member, then names the seeds use. */
static const char *const keys[] = {NULL, "a", "b", "arr_0", "x", "a.npy"};
#define NKEYS (sizeof keys / sizeof keys[0])

static char dir[256], path[300];

static void remove_dir(void) {
  unlink(path);
  rmdir(dir);
}

static void make_dir(void) {
  if (dir[0]) return;
  const char *base =
      access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/bcast-fuzz-npz-XXXXXX", base ? base : "/tmp");
  if (!mkdtemp(dir)) abort();
  snprintf(path, sizeof path, "%s/in.npz", dir);
  atexit(remove_dir);
}

static void put_file(const void *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
    abort();
}

static char *get_file(size_t *size) {
  FILE *f = fopen(path, "rb");
  fuzz_sink s = {0};
  char buf[4096];
  size_t n;
  if (!f) abort();
  while ((n = fread(buf, 1, sizeof buf, f)) > 0)
    if (!fuzz_sink_put(&s, buf, n)) abort();
  fclose(f);
  *size = s.len;
  return s.data;
}

static bcast_status sink_write(void *ctx, const void *bytes, size_t len) {
  return fuzz_sink_put(ctx, bytes, len) ? BCAST_OK : BCAST_NO_MEMORY;
}

/* Reads member key; its .npy bytes go to *npy when it is accepted. */
static bcast_status read_key(const char *key, fuzz_sink *npy) {
  bcast_tensor t;
  bcast_npy_info info;
  bcast_diag d;
  bcast_status st = bcast_npz_read(path, key, &t, &info, 1 << 20, &d);
  if (st != BCAST_OK) {
    FUZZ_CHECK(d.message[0] != '\0');
    return st;
  }
  bcast_npy_write_opts opts = {0};
  opts.string_kind = info.string_kind;
  opts.string_width = info.string_width;
  opts.fortran_order = info.fortran_order;
  opts.big_endian = info.big_endian;
  FUZZ_CHECK(bcast_npy_write_stream(sink_write, npy, "m.npy", &t, &opts, &d) ==
             BCAST_OK);
  bcast_tensor_release(&t);
  return BCAST_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  make_dir();
  put_file(data, size);
  fuzz_sink before[NKEYS] = {{0}};
  bcast_status read_st[NKEYS];
  for (size_t k = 0; k < NKEYS; k++)
    read_st[k] = read_key(keys[k], &before[k]);

  int32_t values[3] = {7, -1, 9};
  int64_t shape[1] = {3};
  bcast_tensor t;
  bcast_diag d;
  FUZZ_CHECK(bcast_tensor_wrap(&t, BCAST_INT32, 1, shape, NULL, values, &d) ==
             BCAST_OK);
  const char *name = "new";
  bcast_status st = bcast_npz_update(path, 1, &name, &t, NULL, &d);
  if (st != BCAST_OK) {
    FUZZ_CHECK(d.message[0] != '\0');
    size_t len;
    char *now = get_file(&len);
    FUZZ_CHECK(len == size && (size == 0 || memcmp(now, data, size) == 0));
    free(now);
  } else {
    bcast_tensor u;
    FUZZ_CHECK(bcast_npz_read(path, "new", &u, NULL, 1 << 20, &d) == BCAST_OK);
    FUZZ_CHECK(u.dtype == BCAST_INT32 && u.rank == 1 && u.shape[0] == 3 &&
               memcmp(u.data, values, sizeof values) == 0);
    bcast_tensor_release(&u);
    for (size_t k = 1; k < NKEYS; k++) {
      if (read_st[k] != BCAST_OK) continue;
      fuzz_sink after = {0};
      FUZZ_CHECK(read_key(keys[k], &after) == BCAST_OK);
      FUZZ_CHECK(after.len == before[k].len &&
                 memcmp(after.data, before[k].data, after.len) == 0);
      free(after.data);
    }
  }
  for (size_t k = 0; k < NKEYS; k++) free(before[k].data);
  return 0;
}
