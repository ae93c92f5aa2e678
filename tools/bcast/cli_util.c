/* Helpers shared by the commands: messages, files, option values. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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

/* Reports that path passed max_bytes; NULL. */
static char *too_large(const char *path, int64_t max_bytes) {
  cli_error("%s: larger than the input cap of %" PRId64 " bytes; raise it "
            "with --max-input-bytes N",
            path, max_bytes);
  return NULL;
}

/* Reads fd to its end into a new buffer, growing by doubling up to
 * max_bytes plus one byte to see it passed and one for the final NUL,
 * whatever the file claims: devices and pipes have no size, and a regular
 * file may grow while read.  *n bytes are read; *err is a failed read's
 * errno; NULL when out of memory. */
static char *read_all(int fd, int64_t max_bytes, size_t *n, int *err) {
  const size_t limit =
      (uint64_t)max_bytes > SIZE_MAX - 2 ? SIZE_MAX : (size_t)max_bytes + 2;
  size_t cap = limit < ((size_t)1 << 16) ? limit : (size_t)1 << 16;
  char *buf = malloc(cap);
  while (buf) {
    if (*n + 1 >= cap) {
      if (cap >= limit) break; /* passed the cap */
      size_t grown = cap > limit / 2 ? limit : cap * 2;
      char *bigger = realloc(buf, grown);
      if (!bigger) {
        free(buf);
        return NULL;
      }
      buf = bigger;
      cap = grown;
    }
    ptrdiff_t got = cli_fd_read(fd, buf + *n, cap - 1 - *n);
    if (got < 0) *err = errno;
    if (got <= 0) break;
    *n += (size_t)got;
  }
  return buf;
}

char *cli_read_file(const char *path, size_t *len, int64_t max_bytes) {
  const int from_stdin = strcmp(path, "-") == 0;
  const char *name = from_stdin ? "<stdin>" : path;
  int fd = from_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    cli_error("%s: %s", path, strerror(errno));
    return NULL;
  }
  struct stat sb;
  int err = fstat(fd, &sb) != 0 ? errno : 0;
  if (!err && S_ISDIR(sb.st_mode)) err = EISDIR;
  if (!err && S_ISREG(sb.st_mode) && sb.st_size > max_bytes) {
    if (!from_stdin) close(fd);
    return too_large(name, max_bytes);
  }
  if (err) {
    cli_error("%s: %s", name, strerror(err));
    if (!from_stdin) close(fd);
    return NULL;
  }
  size_t n = 0;
  char *buf = read_all(fd, max_bytes, &n, &err);
  if (!from_stdin) close(fd);
  if (!buf) {
    cli_error("%s: out of memory reading the file", name);
    return NULL;
  }
  if (err) {
    cli_error("%s: %s", name, strerror(err));
    free(buf);
    return NULL;
  }
  if (n > (uint64_t)max_bytes) {
    free(buf);
    return too_large(name, max_bytes);
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}

/* A bare comma list "4,3" (as Python prints a shape without its
 * parentheses) is the tuple "(4,3)"; other text is kept.  Returns text or
 * buf. */
static const char *shape_text_form(const char *text, char *buf, size_t cap) {
  if (!strchr(text, ',') || strpbrk(text, "[(<") || strlen(text) + 3 > cap)
    return text;
  snprintf(buf, cap, "(%s)", text);
  return buf;
}

int cli_parse_shape(const char *text, bcast_shape *out) {
  bcast_symbols symbols;
  bcast_symbols_init(&symbols);
  if (!cli_parse_symbolic_shape(text, &symbols, out)) return 0;
  if (symbols.count > 0) {
    cli_error("shape '%s' names a dim ('%s'); a size is needed here", text,
              symbols.names[0]);
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
  /* K, M, G, T: 2^10, 2^20, 2^30, 2^40 (either case). */
  static const char units[] = "KMGT";
  const char *unit = *end ? strchr(units, toupper((unsigned char)*end)) : NULL;
  const int shift = unit ? 10 * (int)(unit - units + 1) : 0;
  if (unit) end++;
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

int cli_parse_symbolic_shape(const char *text, bcast_symbols *symbols,
                             bcast_shape *out) {
  bcast_diag diag;
  char buf[1024];
  const char *form = shape_text_form(text, buf, sizeof buf);
  if (bcast_shape_parse_symbolic(form, strlen(form), symbols, out, &diag) ==
      BCAST_OK)
    return 1;
  cli_diag(NULL, &diag);
  return 0;
}

/* ------------------------------------------------------------------------ */
/* .npy inputs and outputs: files, "-" and .npz archives. */

int cli_is_std(const char *path) { return strcmp(path, "-") == 0; }

int cli_stdin_once(char **files, int n) {
  int seen = 0;
  for (int i = 0; i < n; i++) seen += cli_is_std(files[i]);
  if (seen <= 1) return 1;
  cli_error("standard input ('-') can be read only once; a file named '-' "
            "is ./-");
  return 0;
}

static ptrdiff_t stdin_read(void *ctx, void *buf, size_t cap) {
  (void)ctx;
  return cli_fd_read(STDIN_FILENO, buf, cap);
}

static int has_suffix(const char *s, size_t len, const char *suffix) {
  size_t n = strlen(suffix);
  return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

/* Splits "ARCHIVE.npz:NAME" at its last ".npz:" into an allocated archive
 * path and *member (pointing into path).  0 when path has no such part,
 * -1 (reported) when out of memory. */
static int split_member(const char *path, char **archive,
                        const char **member) {
  const char *at = NULL;
  for (const char *p = strstr(path, ".npz:"); p; p = strstr(p + 1, ".npz:"))
    at = p;
  if (!at || !at[5]) return 0;
  size_t len = (size_t)(at - path) + 4;
  *archive = malloc(len + 1);
  if (!*archive) {
    cli_error("%s: out of memory", path);
    return -1;
  }
  memcpy(*archive, path, len);
  (*archive)[len] = '\0';
  *member = at + 5;
  return 1;
}

int64_t cli_map_min_bytes(void) {
  const char *env = getenv("BCAST_MAP_MIN_BYTES");
  int64_t n;
  if (env && *env && cli_parse_bytes(env, &n)) return n;
  return CLI_MAP_MIN_BYTES;
}

int cli_read_npy(const char *path, bcast_tensor *out, bcast_npy_info *info,
                 int64_t max_bytes) {
  bcast_diag diag;
  bcast_status st;
  struct stat sb;
  int have_stat = 0;
  char *archive = NULL;
  const char *member = NULL;
  int split = 0;
  if (cli_is_std(path)) {
    st = bcast_npy_read_stream(stdin_read, NULL, "<stdin>", out, info,
                               max_bytes, &diag);
  } else if (!(have_stat = stat(path, &sb) == 0) &&
             (split = split_member(path, &archive, &member)) != 0) {
    if (split < 0) return CLI_USAGE;
    st = bcast_npz_read(archive, member, out, info, max_bytes, &diag);
    free(archive);
  } else if (has_suffix(path, strlen(path), ".npz")) {
    st = bcast_npz_read(path, NULL, out, info, max_bytes, &diag);
  } else {
    /* Large files are mapped, not read: they take no memory of their own
     * (the pages a computation touches come from the page cache), so an
     * input may be larger than memory.  What cannot be used in place
     * (big-endian or string data) is read as before. */
    st = BCAST_UNSUPPORTED;
    if (have_stat && S_ISREG(sb.st_mode) && sb.st_size >= cli_map_min_bytes())
      st = bcast_npy_map(path, out, info, &diag);
    if (st == BCAST_UNSUPPORTED)
      st = bcast_npy_read(path, out, info, max_bytes, &diag);
  }
  if (st == BCAST_OK) return CLI_OK;
  cli_diag(NULL, &diag);
  return st == BCAST_BUDGET ? CLI_FAIL : CLI_USAGE;
}

int cli_output_is_archive(const char *output) {
  return has_suffix(output, strlen(output), ".npz") ||
         strstr(output, ".npz:") != NULL;
}

static bcast_status stdout_write(void *ctx, const void *bytes, size_t len) {
  (void)ctx;
  const int err = cli_fd_write(STDOUT_FILENO, bytes, len);
  if (!err) return BCAST_OK;
  errno = err; /* for the writer's message */
  return BCAST_IO;
}

int cli_write_npy(const char *output, size_t n, const bcast_tensor *t,
                  const bcast_npy_write_opts *opts) {
  bcast_diag diag;
  bcast_status st;
  char *archive = NULL;
  const char *member = NULL;
  int split = 0;
  if (cli_is_std(output)) {
    if (n != 1) {
      cli_error("-o -: %zu results cannot share standard output; write them "
                "to an .npz archive or a directory",
                n);
      return CLI_USAGE;
    }
    if (isatty(STDOUT_FILENO)) {
      cli_error("-o -: standard output is a terminal; pipe or redirect the "
                ".npy bytes");
      return CLI_USAGE;
    }
    st =
        bcast_npy_write_stream(stdout_write, NULL, "<stdout>", t, opts, &diag);
  } else if ((split = split_member(output, &archive, &member)) != 0) {
    if (split < 0) return CLI_USAGE;
    if (n != 1) {
      cli_error("%s: %zu results need an archive without a member name "
                "(members arr_0..arr_%zu)",
                output, n, n - 1);
      free(archive);
      return CLI_USAGE;
    }
    st = bcast_npz_update(archive, 1, &member, t, opts, &diag);
    free(archive);
  } else if (cli_output_is_archive(output)) {
    st = bcast_npz_update(output, n, NULL, t, opts, &diag);
  } else if (n == 1) {
    st = bcast_npy_write(output, t, opts, &diag);
  } else {
    cli_error("%s: %zu results need a directory or an .npz archive", output,
              n);
    return CLI_USAGE;
  }
  if (st == BCAST_OK) return CLI_OK;
  cli_diag(NULL, &diag);
  return CLI_USAGE;
}

int cli_write_npy_files(size_t n, char *const *paths, const bcast_tensor *t,
                        const bcast_npy_write_opts *opts) {
  bcast_output **out = calloc(n ? n : 1, sizeof *out);
  if (!out) {
    cli_error("out of memory");
    return CLI_USAGE;
  }
  bcast_diag diag;
  bcast_status st = BCAST_OK;
  size_t opened = 0;
  for (; opened < n && st == BCAST_OK; opened++) {
    st = bcast_output_open(paths[opened], &out[opened], &diag);
    if (st == BCAST_OK)
      st = bcast_npy_write_stream(bcast_output_write, out[opened],
                                  paths[opened], &t[opened],
                                  opts ? &opts[opened] : NULL, &diag);
  }
  if (st == BCAST_OK) {
    st = bcast_output_commit_all(n, out, &diag);
  } else {
    for (size_t i = 0; i < opened; i++) bcast_output_discard(out[i]);
  }
  free(out);
  if (st == BCAST_OK) return CLI_OK;
  cli_diag(NULL, &diag);
  return CLI_USAGE;
}

/* ------------------------------------------------------------------------ */
/* Output directories this run made: removed again when the command fails
 * (main) or a signal ends it (main's handler), so a failure leaves no
 * trace.  rmdir(2) removes only an empty directory, and only these are
 * recorded, so nothing that existed before the run, and no file published
 * into one, is ever removed.  The handler may run in any thread at any
 * moment: an entry is complete before the count covers it. */

#define CLI_MAX_CREATED 8
#define CLI_CREATED_PATH_MAX 4096
static char created[CLI_MAX_CREATED][CLI_CREATED_PATH_MAX];
static atomic_int n_created;

int cli_make_output_dir(const char *path) {
  if (mkdir(path, 0777) == 0) {
    const int i = atomic_load(&n_created);
    const size_t len = strlen(path);
    if (i < CLI_MAX_CREATED && len < CLI_CREATED_PATH_MAX) {
      memcpy(created[i], path, len + 1);
      atomic_store(&n_created, i + 1);
    }
    return 1;
  }
  const int err = errno;
  struct stat sb;
  if (err == EEXIST && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) return 1;
  if (err == EEXIST)
    cli_error("%s: exists and is not a directory", path);
  else
    cli_error("%s: cannot create the directory: %s", path, strerror(err));
  return 0;
}

void cli_remove_created(void) {
  for (int i = atomic_exchange(&n_created, 0); i > 0; i--)
    rmdir(created[i - 1]);
}

/* ------------------------------------------------------------------------ */
/* Progress on a terminal. */

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void cli_progress_init(cli_progress *p, int quiet) {
  memset(p, 0, sizeof *p);
  p->enabled = !quiet && isatty(STDERR_FILENO);
  p->start = now_seconds();
}

void cli_progress_update(void *ctx, int64_t done, int64_t total) {
  cli_progress *p = ctx;
  if (!p->enabled || total < CLI_PROGRESS_MIN_BYTES) return;
  const double t = now_seconds();
  if (done < total && t - p->last < 0.1) return;
  p->last = t;
  const double elapsed = t - p->start > 1e-9 ? t - p->start : 1e-9;
  const double rate = (double)done / elapsed;
  const double eta = rate > 0 ? (double)(total - done) / rate : 0;
  fprintf(stderr, "\r\033[Kbcast: %.0f / %.0f MiB  %.2f GB/s  ETA %.1f s",
          (double)done / (1 << 20), (double)total / (1 << 20), rate / 1e9,
          eta);
  fflush(stderr);
  p->shown = 1;
}

void cli_progress_end(cli_progress *p) {
  if (!p->shown) return;
  fputs("\r\033[K", stderr);
  fflush(stderr);
  p->shown = 0;
}

/* ------------------------------------------------------------------------ */
/* --list-ops: the op table, as text. */

static void list_types(FILE *out, const char *label, uint32_t mask) {
  fprintf(out, "  %-12s", label);
  int any = 0;
  for (int d = 0; d < BCAST_DTYPE_COUNT; d++) {
    if (!(mask & (UINT32_C(1) << d))) continue;
    fprintf(out, " %s", bcast_dtype_name((bcast_dtype)d));
    any = 1;
  }
  fputs(any ? "\n" : " none\n", out);
}

void cli_list_ops(FILE *out) {
  fputs("Every op of the table: inputs, input types per profile (select: of\n"
        "its two values; its condition is bool; tosa, trait: MLIR 22's\n"
        "dialect, the default --types mlir; tosa-1.0: --types tosa-1.0),\n"
        "result type, attributes.\n",
        out);
  for (int k = 0; k < BCAST_OP_COUNT; k++) {
    const bcast_op op = (bcast_op)k;
    const bcast_op_info *info = bcast_op_get(op);
    const int arity = bcast_op_arity(op);
    fprintf(out, "\n%s: %d input%s -> %s\n", info->name, arity,
            arity == 1 ? "" : "s", bcast_op_result_rule_text(info->result));
    fprintf(out, "  %-12s", "also named:");
    int named = 0;
    bcast_op of;
    const char *alias;
    for (size_t a = 0; (alias = bcast_op_alias(a, &of)) != NULL; a++) {
      if (of != op) continue;
      fprintf(out, " %s", alias);
      named = 1;
    }
    fputs(named ? "\n" : " -\n", out);
    list_types(out, "tosa, trait:", bcast_op_types(op, BCAST_PROFILE_TOSA));
    list_types(out, "numpy:", bcast_op_types(op, BCAST_PROFILE_NUMPY));
    list_types(out, "tosa-1.0:",
               bcast_op_types_in(op, BCAST_PROFILE_TOSA,
                                 BCAST_TYPE_TABLES_TOSA_1_0));
    fprintf(out, "  %-12s", "attributes:");
    int any = 0;
    for (int a = 0; a < BCAST_ATTR_COUNT; a++) {
      if (!bcast_op_reads_attr(op, (bcast_attr)a)) continue;
      fprintf(out, " %s", bcast_attr_name((bcast_attr)a));
      any = 1;
    }
    fputs(any ? "\n" : " none\n", out);
  }
}
