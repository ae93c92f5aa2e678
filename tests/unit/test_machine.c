/* Machine facts and the thresholds derived from them (core/machine.h),
 * the environment overrides, and non-temporal stores into outputs at every
 * offset from a 64-byte line (NumPy's arrays start 16 bytes past one). */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "bcast/bcast.h"
#include "core/machine.h"
#include "ew/ew_plan.h"
#include "plan/nt_store.h"
#include "test.h"

TEST(machine_parse_bytes_accepts_counts_with_binary_suffixes) {
  static const struct {
    const char *text;
    int64_t bytes;
  } good[] = {{"0", 0},
              {"123", 123},
              {"4K", 4096},
              {"4k", 4096},
              {"8M", (int64_t)8 << 20},
              {"2g", (int64_t)2 << 30},
              {"9223372036854775807", INT64_MAX}};
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
    int64_t v = -7;
    CHECK_INT(bcast__machine_parse_bytes(good[i].text, &v), 0);
    CHECK_INT(v, good[i].bytes);
  }
  static const char *const bad[] = {"",
                                    "-1",
                                    "+5",
                                    " 5",
                                    "5 ",
                                    "12x",
                                    "K",
                                    "8MB",
                                    "1.5M",
                                    "0x10",
                                    "9223372036854775808",
                                    "9223372036854775807K",
                                    "99999999999G"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    int64_t v = -7;
    if (bcast__machine_parse_bytes(bad[i], &v) != -1)
      test_fail(t, __FILE__, __LINE__, "\"%s\" was accepted", bad[i]);
    CHECK_INT(v, -7);
  }
  int64_t v = -7;
  CHECK_INT(bcast__machine_parse_bytes(NULL, &v), -1);
}

TEST(machine_derive_thresholds_from_cache_sizes) {
  const int64_t K = 1024, M = K * K;
  bcast__machine m;
  /* Unknown caches: today's constants. */
  bcast__machine_derive(&m, 0, 0, NULL);
  CHECK_INT(m.nt_store_min_bytes, 8 * M);
  CHECK_INT(m.parallel_min_bytes, 512 * K);
  /* A 32 MiB LLC with 1 MiB L2s: the same. */
  bcast__machine_derive(&m, M, 32 * M, NULL);
  CHECK_INT(m.nt_store_min_bytes, 8 * M);
  CHECK_INT(m.parallel_min_bytes, 512 * K);
  /* A VM reporting a whole socket's L3 (508 MiB): still 32 L2s' worth. */
  bcast__machine_derive(&m, M, 508 * M, NULL);
  CHECK_INT(m.nt_store_min_bytes, 8 * M);
  CHECK_INT(m.llc_bytes, 508 * M);
  /* 2 MiB L2s and a 105 MiB LLC; an L3 unknown with an L2 known. */
  bcast__machine_derive(&m, 2 * M, 105 * M, NULL);
  CHECK_INT(m.nt_store_min_bytes, 16 * M);
  CHECK_INT(m.parallel_min_bytes, M);
  bcast__machine_derive(&m, 2 * M, 0, NULL);
  CHECK_INT(m.nt_store_min_bytes, 8 * M);
  /* Tiny caches are clamped. */
  bcast__machine_derive(&m, 32 * K, 512 * K, NULL);
  CHECK_INT(m.nt_store_min_bytes, M);
  CHECK_INT(m.parallel_min_bytes, 64 * K);
}

TEST(machine_environment_overrides_and_bad_values_are_ignored) {
  const int64_t K = 1024, M = K * K;
  bcast__machine m;
  bcast__machine_derive(&m, M, 32 * M, &(bcast__machine_env){"0", NULL, "3M", NULL});
  CHECK_INT(m.nt_store_min_bytes, 0);
  CHECK_INT(m.parallel_min_bytes, 3 * M);
  CHECK_INT(m.nt_fill_min_bytes, 0); /* fills follow the store threshold */
  CHECK(m.nt_fill_from_env);
  bcast__machine_derive(&m, M, 32 * M,
                        &(bcast__machine_env){NULL, NULL, NULL, "256M"});
  CHECK_INT(m.nt_fill_min_bytes, 256 * M);
  CHECK_INT(m.nt_store_min_bytes, 8 * M);
  CHECK(m.nt_fill_from_env && !m.nt_store_from_env);
  bcast__machine_derive(&m, M, 32 * M, NULL);
  CHECK_INT(m.nt_fill_min_bytes, 8 * M);
  CHECK(!m.nt_fill_from_env);
  bcast__machine_derive(&m, M, 32 * M,
                        &(bcast__machine_env){"64M", NULL, "100", NULL});
  CHECK_INT(m.nt_store_min_bytes, 64 * M);
  CHECK_INT(m.parallel_min_bytes, 100);
  static const char *const bad[] = {"", "-1", "lots", "8MB", "1e6"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    bcast__machine_derive(&m, M, 32 * M,
                          &(bcast__machine_env){bad[i], bad[i], bad[i], bad[i]});
    CHECK_INT(m.nt_store_min_bytes, 8 * M);
    CHECK_INT(m.nt_fill_min_bytes, 8 * M);
    CHECK_INT(m.parallel_min_bytes, 512 * K);
  }
  /* BCAST_STREAM_MIN_BYTES, the older name, still counts; the new name
   * wins when both are valid, and an invalid new value leaves the old. */
  bcast__machine_derive(&m, M, 32 * M,
                        &(bcast__machine_env){NULL, "2M", NULL, NULL});
  CHECK_INT(m.nt_store_min_bytes, 2 * M);
  bcast__machine_derive(&m, M, 32 * M,
                        &(bcast__machine_env){"4M", "2M", NULL, NULL});
  CHECK_INT(m.nt_store_min_bytes, 4 * M);
  bcast__machine_derive(&m, M, 32 * M,
                        &(bcast__machine_env){"4MB", "2M", NULL, NULL});
  CHECK_INT(m.nt_store_min_bytes, 2 * M);
  /* The process's facts: computed once, the same struct every call. */
  const bcast__machine *a = bcast__machine_get(), *b = bcast__machine_get();
  CHECK(a == b);
  CHECK(a->nt_store_min_bytes >= 0);
  CHECK(a->parallel_min_bytes >= 0);
  /* The engine reads the tuned value (src/plan/tune.h), which starts
   * from these facts and is what bcast_tuning_get reports. */
  bcast_tuning tuning;
  CHECK_INT(bcast_tuning_get(&tuning, NULL), BCAST_OK);
  CHECK_INT(bcast__tuned_nt_store_min(), tuning.nt_store_min_bytes);
}

/* The variables the process's thresholds read, by name: the
 * non-temporal threshold under BCAST_NT_STORE_MIN_BYTES and under its
 * older name BCAST_STREAM_MIN_BYTES (scripts such as the shared benchmark
 * harness may still set that one).  Whatever the variables held before
 * the test is put back. */
TEST(machine_env_reads_the_documented_names) {
  static const char *const names[3] = {"BCAST_NT_STORE_MIN_BYTES",
                                       "BCAST_STREAM_MIN_BYTES",
                                       "BCAST_PARALLEL_MIN_BYTES"};
  char *saved[3];
  for (int k = 0; k < 3; k++) {
    const char *v = getenv(names[k]);
    saved[k] = v ? strdup(v) : NULL;
  }
  setenv(names[0], "5M", 1);
  setenv(names[1], "6M", 1);
  setenv(names[2], "7K", 1);
  bcast__machine_env env;
  bcast__machine_env_read(&env);
  CHECK(env.nt_store_min && strcmp(env.nt_store_min, "5M") == 0);
  CHECK(env.nt_store_min_old && strcmp(env.nt_store_min_old, "6M") == 0);
  CHECK(env.parallel_min && strcmp(env.parallel_min, "7K") == 0);
  unsetenv(names[0]);
  bcast__machine_env_read(&env);
  bcast__machine m;
  bcast__machine_derive(&m, 0, 0, &env);
  CHECK_INT(m.nt_store_min_bytes, (int64_t)6 << 20);
  CHECK_INT(m.parallel_min_bytes, (int64_t)7 << 10);
  for (int k = 0; k < 3; k++) {
    if (saved[k])
      setenv(names[k], saved[k], 1);
    else
      unsetenv(names[k]);
    free(saved[k]);
  }
}

/* Every destination offset in a line, every source offset in 16 bytes,
 * lengths around the line boundaries: the bytes equal memcpy's and nothing
 * outside [dst, dst + bytes) is written. */
TEST(nt_store_copy_at_every_line_offset) {
  static const int64_t lengths[] = {0,  1,  15, 16,  17,  47,  48,  63,
                                    64, 65, 79, 127, 128, 129, 200, 1000};
  _Alignas(64) static char dst[1280], src[1280];
  for (int i = 0; i < 1280; i++) src[i] = (char)(i * 7 + 3);
  for (int d = 0; d < 64; d++)
    for (int s = 0; s < 16; s += 5)
      for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
        memset(dst, 0x5a, sizeof dst);
        bcast__nt_store_copy(dst + 64 + d, src + s, lengths[l]);
        bcast__nt_store_fence();
        int ok = memcmp(dst + 64 + d, src + s, (size_t)lengths[l]) == 0;
        for (int i = 0; i < 64 + d; i++) ok = ok && dst[i] == 0x5a;
        for (int64_t i = 64 + d + lengths[l]; i < 1280; i++)
          ok = ok && dst[i] == 0x5a;
        if (!ok)
          test_fail(t, __FILE__, __LINE__,
                    "dst offset %d src offset %d %lld bytes", d, s,
                    (long long)lengths[l]);
      }
}

#if BCAST__HAVE_NT_STORE
/* Both ways, through lines of each store width up to the CPU's (the
 * portable run, BCAST_ISA=portable, takes the 16-byte ones whatever the
 * width asked). */
TEST(nt_store_fill_pattern_at_every_16_byte_offset) {
  _Alignas(64) static unsigned char dst[1024];
  const __m128i pattern =
      _mm_setr_epi8(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
  for (int widest = 16; widest <= 64; widest *= 2)
    for (int nt = 0; nt < 2; nt++)
      for (int d = 0; d < 64; d += 16)
        for (int64_t bytes = 0; bytes <= 400; bytes += 16) {
          memset(dst, 0, sizeof dst);
          bcast__fill_pattern_upto((char *)dst + 64 + d, bytes, pattern, nt,
                                   widest);
          bcast__nt_store_fence();
          int ok = 1;
          for (int i = 0; i < 1024; i++) {
            const int in = i >= 64 + d && i < 64 + d + bytes;
            ok = ok && dst[i] == (in ? (i - 64 - d) % 16 + 1 : 0);
          }
          if (!ok)
            test_fail(t, __FILE__, __LINE__,
                      "widest %d, nt %d, offset %d, %lld bytes", widest, nt,
                      d, (long long)bytes);
        }
}
#endif

/* Element-wise plans with non-temporal stores writing outputs at each element offset from
 * a line (16 is NumPy's), against the reference path, for a long run cut
 * into blocks, packed short rows and an outer sum, in float16, float32 and
 * float64.  Seeded inputs (BCAST_TEST_SEED replays). */
TEST(ew_nt_store_outputs_off_line_match_the_reference) {
  uint64_t rng = test_seed();
  static const bcast_dtype types[] = {BCAST_FLOAT16, BCAST_FLOAT32,
                                      BCAST_FLOAT64};
  static const int64_t shapes[][3][2] = {
      {{3, 5003}, {3, 5003}, {3, 5003}}, /* long runs, several blocks */
      {{700, 24}, {700, 24}, {1, 24}},   /* packed short rows */
      {{40, 333}, {40, 1}, {1, 333}},    /* outer */
  };
  for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++)
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
      const bcast_dtype dt = types[ti];
      const size_t size = bcast_dtype_size(dt);
      bcast_tensor in[2];
      void *mem[2];
      for (int k = 0; k < 2; k++) {
        const int64_t count = shapes[si][k + 1][0] * shapes[si][k + 1][1];
        mem[k] = malloc((size_t)count * size);
        /* Small integers: exact in every type, whatever the bits. */
        for (int64_t i = 0; i < count; i++) {
          const double v = (double)test_rand_range(&rng, -50, 50);
          if (dt == BCAST_FLOAT64) ((double *)mem[k])[i] = v;
          if (dt == BCAST_FLOAT32) ((float *)mem[k])[i] = (float)v;
          if (dt == BCAST_FLOAT16) { /* small integer as half bits */
            const float f = (float)v;
            uint32_t u;
            memcpy(&u, &f, 4);
            const uint32_t sign = (u >> 16) & 0x8000u;
            const uint32_t e = (u >> 23) & 0xffu;
            ((uint16_t *)mem[k])[i] =
                f == 0 ? (uint16_t)sign
                       : (uint16_t)(sign | ((e - 112u) << 10) |
                                    ((u >> 13) & 0x3ffu));
          }
        }
        bcast_tensor_wrap(&in[k], dt, 2, shapes[si][k + 1], NULL, mem[k],
                          NULL);
      }
      const void *in_data[2] = {mem[0], mem[1]};
      bcast_ew_options options;
      bcast_ew_options_init(&options);
      options.profile = BCAST_PROFILE_NUMPY; /* float64 too */
      bcast_ew_plan *plan;
      CHECK_INT(bcast_ew_plan_create(&plan, BCAST_OP_ADD, NULL, 2, in, NULL,
                                     &options, NULL),
                BCAST_OK);
      const size_t bytes =
          (size_t)(shapes[si][0][0] * shapes[si][0][1]) * size;
      const size_t cap = (bytes + 127) / 64 * 64;
      char *want = malloc(bytes);
      char *got = aligned_alloc(64, cap);
      bcast__ew_plan_reference(plan, want, in_data);
      /* The wrapper, and the non-temporal kernels where the CPU has the
       * v3 set (BCAST_ISA=portable runs the wrapper only). */
      for (int how = EW_NT_WRAPPER; how <= EW_NT_KERNEL; how++) {
        if (!bcast__ew_plan_set_nt_store(plan, how)) {
          CHECK(how == EW_NT_KERNEL && !bcast__ew_use_v3());
          continue;
        }
        CHECK_INT(bcast__ew_plan_nt_stores(plan), how);
        for (size_t off = 0; off < 64; off += size) {
          memset(got, 0x77, cap);
          CHECK_INT(bcast_ew_plan_execute(plan, got + off, in_data, NULL),
                    BCAST_OK);
          int ok = memcmp(got + off, want, bytes) == 0;
          for (size_t i = 0; i < off; i++) ok = ok && got[i] == 0x77;
          for (size_t i = off + bytes; i < cap; i++)
            ok = ok && got[i] == 0x77;
          if (!ok)
            test_fail(t, __FILE__, __LINE__, "%s shape %zu offset %zu via %s",
                      bcast_dtype_name(dt), si, off,
                      how == EW_NT_KERNEL ? "kernels" : "wrapper");
        }
      }
      free(got);
      free(want);
      bcast_ew_plan_destroy(plan);
      free(mem[0]);
      free(mem[1]);
    }
}

/* bcast__memory_resident: a fresh anonymous mapping's pages are not in
 * memory until written, and are after; each end counts (a buffer written
 * at its start only is not resident); an element-wise plan that would
 * write with non-temporal stores writes a fresh output correctly either
 * way (ordinary stores then). */
TEST(memory_resident_tells_fresh_pages_from_written_ones) {
#if defined(__linux__)
  const size_t bytes = (size_t)4 << 20;
  char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(p != MAP_FAILED);
  if (p == MAP_FAILED) return;
  CHECK_INT(bcast__memory_resident(p, bytes), 0);
  p[0] = 1;
  CHECK_INT(bcast__memory_resident(p, bytes), 0);
  CHECK_INT(bcast__memory_resident(p, 1), 1);
  memset(p, 2, bytes);
  CHECK_INT(bcast__memory_resident(p, bytes), 1);
  CHECK_INT(bcast__memory_resident(p + 100, bytes - 200), 1);
  CHECK_INT(bcast__memory_resident(p, 0), 1);
  munmap(p, bytes);

  /* A float32 add of 1024 x 1024 (4 MiB) into a fresh mapping and into a
   * written one, both with non-temporal stores asked for. */
  const int64_t shape[2] = {1024, 1024};
  const size_t n = 1024 * 1024;
  float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  for (size_t i = 0; i < n; i++) {
    a[i] = (float)(i % 1000);
    b[i] = 0.5f;
  }
  bcast_tensor in[2];
  bcast_tensor_wrap(&in[0], BCAST_FLOAT32, 2, shape, NULL, a, NULL);
  bcast_tensor_wrap(&in[1], BCAST_FLOAT32, 2, shape, NULL, b, NULL);
  bcast_ew_plan *plan = NULL;
  CHECK_INT(bcast_ew_plan_create(&plan, BCAST_OP_ADD, NULL, 2, in, NULL,
                                 NULL, NULL),
            BCAST_OK);
  for (int how = EW_NT_WRAPPER; plan && how <= EW_NT_KERNEL; how++) {
    if (!bcast__ew_plan_set_nt_store(plan, how)) continue;
    for (int fresh = 1; fresh >= 0; fresh--) {
      float *out = mmap(NULL, n * sizeof *out, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      CHECK(out != MAP_FAILED);
      if (out == MAP_FAILED) break;
      if (!fresh) memset(out, 0x77, n * sizeof *out);
      const void *data[2] = {a, b};
      CHECK_INT(bcast_ew_plan_execute(plan, out, data, NULL), BCAST_OK);
      int ok = 1;
      for (size_t i = 0; i < n; i++) ok = ok && out[i] == a[i] + 0.5f;
      if (!ok)
        test_fail(t, __FILE__, __LINE__, "%s output, %s",
                  fresh ? "fresh" : "written",
                  how == EW_NT_KERNEL ? "kernels" : "wrapper");
      munmap(out, n * sizeof *out);
    }
  }
  bcast_ew_plan_destroy(plan);
  free(a);
  free(b);
#else
  (void)t;
#endif
}
