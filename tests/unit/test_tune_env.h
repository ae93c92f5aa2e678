/* The tuning's environment in the unit tests: the variables the
 * thresholds read (src/plan/tune.c), saved and unset for a case and put
 * back afterwards, when the process's tuning state is reset
 * (bcast__tune_reset). */
#ifndef BCAST_TEST_TUNE_ENV_H
#define BCAST_TEST_TUNE_ENV_H

#include <stdlib.h>
#include <string.h>

#include "plan/tune.h"

static const char *const tune_vars[] = {"BCAST_TUNE",
                                        "BCAST_TUNE_FILE",
                                        "BCAST_NT_STORE_MIN_BYTES",
                                        "BCAST_STREAM_MIN_BYTES",
                                        "BCAST_PARALLEL_MIN_BYTES",
                                        "BCAST_NT_FILL_MIN_BYTES"};
#define TUNE_VARS (sizeof tune_vars / sizeof tune_vars[0])

typedef struct saved_env {
  char *value[TUNE_VARS];
} saved_env;

static inline void env_save(saved_env *s) {
  for (size_t k = 0; k < TUNE_VARS; k++) {
    const char *v = getenv(tune_vars[k]);
    s->value[k] = v ? strdup(v) : NULL;
    unsetenv(tune_vars[k]);
  }
}

static inline void env_restore(saved_env *s) {
  for (size_t k = 0; k < TUNE_VARS; k++) {
    if (s->value[k])
      setenv(tune_vars[k], s->value[k], 1);
    else
      unsetenv(tune_vars[k]);
    free(s->value[k]);
  }
  bcast__tune_reset();
}

#endif
