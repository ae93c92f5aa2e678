/* Helpers shared by the commands: messages, files, option values. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cli_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("bcast: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

void cli_diag(const char *what, const bcast_diag *diag) {
  /* The library names the bytes and the budget; the option that sets the
   * budget is the CLI's to name. */
  const char *hint = diag->status == BCAST_BUDGET ? "; raise --max-bytes" : "";
  if (what && *what)
    fprintf(stderr, "bcast: %s: %s%s\n", what, diag->message, hint);
  else
    fprintf(stderr, "bcast: %s%s\n", diag->message, hint);
}

char *cli_read_file(const char *path, size_t *len) {
  FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (!f) {
    cli_error("%s: %s", path, strerror(errno));
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    if (n + 1 >= cap) {
      char *bigger = cap > ((size_t)-1) / 2 ? NULL : realloc(buf, cap * 2);
      if (!bigger) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = bigger;
      cap *= 2;
    }
    size_t got = fread(buf + n, 1, cap - 1 - n, f);
    n += got;
    if (got == 0) break;
  }
  int failed = ferror(f);
  if (f != stdin) fclose(f);
  if (!buf) {
    cli_error("%s: out of memory reading the file", path);
    return NULL;
  }
  if (failed) {
    cli_error("%s: read error", path);
    free(buf);
    return NULL;
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}

int cli_parse_shape(const char *text, bcast_shape *out) {
  bcast_diag diag;
  if (bcast_shape_parse(text, strlen(text), out, &diag) != BCAST_OK) {
    cli_diag(NULL, &diag);
    return 0;
  }
  return 1;
}

int cli_parse_bytes(const char *text, int64_t *out) {
  char *end;
  errno = 0;
  if (*text == '-' || *text == '\0') goto bad;
  unsigned long long v = strtoull(text, &end, 10);
  if (errno || end == text) goto bad;
  int shift = 0;
  switch (*end) {
  case 'K': case 'k': shift = 10; end++; break;
  case 'M': case 'm': shift = 20; end++; break;
  case 'G': case 'g': shift = 30; end++; break;
  case 'T': case 't': shift = 40; end++; break;
  default: break;
  }
  if (*end == 'i' && shift) end++;
  if (*end == 'B' || *end == 'b') end++;
  if (*end != '\0') goto bad;
  if (v > (unsigned long long)(INT64_MAX >> shift)) goto bad;
  *out = (int64_t)(v << shift);
  return 1;
bad:
  cli_error("invalid byte count '%s' (expected a number with an optional "
            "K, M, G or T suffix)",
            text);
  return 0;
}

/* Parses "1,2" (or "" for none) into dims. */
int cli_parse_dims(const char *text, int64_t *dims, size_t *n) {
  *n = 0;
  const char *p = text;
  while (*p) {
    char *end;
    if (*n == BCAST_MAX_RANK) {
      cli_error("more than %d dims in '%s'", BCAST_MAX_RANK, text);
      return 0;
    }
    if (!(*p >= '0' && *p <= '9')) {
      cli_error("invalid dims '%s' (expected indices like 0,2)", text);
      return 0;
    }
    long long v = strtoll(p, &end, 10);
    if (v > INT32_MAX) {
      cli_error("dim index %lld in '%s' is too large", v, text);
      return 0;
    }
    dims[(*n)++] = v;
    p = end;
    if (*p == ',') {
      p++;
      if (!*p) {
        cli_error("invalid dims '%s' (trailing comma)", text);
        return 0;
      }
    } else if (*p) {
      cli_error("invalid dims '%s' (expected indices like 0,2)", text);
      return 0;
    }
  }
  return 1;
}

int cli_option_is(const char *arg, const char *name) {
  size_t n = strlen(name);
  return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

const char *cli_option_value(int argc, char **argv, int *i, const char *name,
                             const char *arg) {
  size_t n = strlen(name);
  if (arg[n] == '=') return arg + n + 1;
  if (*i + 1 >= argc) {
    cli_error("%s needs a value", name);
    return NULL;
  }
  return argv[++*i];
}

int cli_profile_option(const char *cmd, int argc, char **argv, int *i,
                       const char *arg, bcast_profile *out) {
  if (!cli_option_is(arg, "--profile")) return 0;
  const char *v = cli_option_value(argc, argv, i, "--profile", arg);
  if (!v) return -1;
  if (bcast_profile_parse(v, out) != BCAST_OK) {
    cli_error("%s: --profile takes trait, mlir, tosa, numpy or xla, not '%s'",
              cmd, v);
    return -1;
  }
  return 1;
}

int cli_parse_symbolic_shape(const char *text, bcast_symbols *symbols,
                             bcast_shape *out) {
  bcast_diag diag;
  if (bcast_shape_parse_symbolic(text, strlen(text), symbols, out, &diag) ==
      BCAST_OK)
    return 1;
  cli_diag(NULL, &diag);
  return 0;
}

int cli_read_npy(const char *path, bcast_tensor *out, bcast_npy_info *info,
                 int64_t max_bytes) {
  bcast_diag diag;
  const bcast_status st = bcast_npy_read(path, out, info, max_bytes, &diag);
  if (st == BCAST_OK) return CLI_OK;
  cli_diag(NULL, &diag);
  return st == BCAST_BUDGET ? CLI_FAIL : CLI_USAGE;
}
