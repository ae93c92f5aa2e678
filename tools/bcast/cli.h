/* The bcast command line: one function per command, listed once. */
#ifndef BCAST_CLI_H
#define BCAST_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "bcast/bcast.h"

/* Exit codes of every command. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* X(name, function, one-line summary) */
#define CLI_COMMAND_LIST(X)                                                   \
  X("verify", cmd_verify,                                                     \
    "check ops in .mlir files against the broadcast rules")                   \
  X("infer", cmd_infer, "infer the broadcast shape of shapes or MLIR types")  \
  X("broadcast", cmd_broadcast,                                               \
    "ONNX Broadcast: write z0.npy..zL.npy of N inputs")                       \
  X("broadcast-to", cmd_broadcast_to, "broadcast one .npy file to a shape")   \
  X("lower", cmd_lower,                                                       \
    "lower TOSA element-wise ops in .mlir to linalg.generic")                 \
  X("info", cmd_info,                                                         \
    "print dtype, shape, order and first elements of .npy files")             \
  X("run", cmd_run,                                                           \
    "run a TOSA element-wise op over .npy files (broadcast, no copies)")      \
  X("broadcast-in-dim", cmd_broadcast_in_dim,                                 \
    "XLA BroadcastInDim of a .npy file or a shape")                           \
  X("explain", cmd_explain,                                                   \
    "spell implicit broadcasting out as broadcast_dimensions")               \
  X("tune", cmd_tune,                                                         \
    "measure this machine's store kind and thread thresholds, cache them")

#define CLI_DECLARE_(name, fn, summary) int fn(int argc, char **argv);
CLI_COMMAND_LIST(CLI_DECLARE_)
#undef CLI_DECLARE_

/* The process's own descriptors (fdio.c).  Reads up to cap bytes of fd:
 * the count (0 at the end), or -1 with errno set.  A signal (EINTR) is
 * retried and a non-blocking descriptor not ready yet (EAGAIN) is waited
 * for with poll, never reported. */
ptrdiff_t cli_fd_read(int fd, void *buf, size_t cap);
/* Writes all len bytes to fd, retrying and waiting like cli_fd_read: 0, or
 * the errno of the failure (EPIPE when the reader has gone). */
int cli_fd_write(int fd, const void *bytes, size_t len);
/* Called first by main: SIGPIPE ignored (a reader gone is a write error,
 * reported), stdout and stderr written through cli_fd_write. */
void cli_stdio_init(void);
/* Called last by main with the command's exit code: flushes standard
 * output; a write that failed there is reported ("<stdout>: write failed:
 * REASON") and the exit code becomes CLI_USAGE. */
int cli_stdio_finish(int rc);

/* Output directories (cli_util.c).  Makes directory path for a command's
 * outputs unless it exists (a directory, or a link to one): 1, or 0 after
 * reporting.  A directory made here is recorded, and removed again by
 * cli_remove_created when the command fails or a signal ends it; a path
 * that existed before is never removed. */
int cli_make_output_dir(const char *path);
/* Removes the recorded directories (rmdir: only while empty) and forgets
 * them.  Async-signal-safe, for the signal handler. */
void cli_remove_created(void);

/* Prints "bcast: " + message to stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints a library diagnostic: "bcast: <what>: <message>". */
void cli_diag(const char *what, const bcast_diag *diag);
/* Reads a whole file (or stdin for "-") into a NUL-terminated buffer;
 * NULL after reporting (the OS's reason and the path, or more than
 * max_bytes: --max-input-bytes). */
char *cli_read_file(const char *path, size_t *len, int64_t max_bytes);
/* The default of --max-input-bytes: the most MLIR text read from a file. */
#define CLI_DEFAULT_MAX_INPUT_BYTES ((int64_t)1 << 30)
/* Parses a shape option value: "4x3", "[4,3]", "[]". */
int cli_parse_shape(const char *text, bcast_shape *out);
/* Parses a comma-separated list of dim indices ("0,2"; "" is none). */
int cli_parse_dims(const char *text, int64_t *dims, size_t *n);
/* Reads an input .npy: "-" is standard input (a file named "-" is ./-);
 * "ARCHIVE.npz:NAME" is member NAME of an archive, unless a file of that
 * whole name exists (an existing file always wins); "ARCHIVE.npz" alone is
 * its only member.  Returns CLI_OK, or reports the failure and returns its
 * exit code: a file that cannot be read or decoded is 2, like any other
 * input error; only the byte budget, a refusal of what the file asks for,
 * is 1. */
int cli_read_npy(const char *path, bcast_tensor *out, bcast_npy_info *info,
                 int64_t max_bytes);
/* Plain .npy files of at least this many bytes are mapped, not read
 * (bcast_npy_map); BCAST_MAP_MIN_BYTES in the environment overrides it. */
#define CLI_MAP_MIN_BYTES ((int64_t)64 << 20)
int64_t cli_map_min_bytes(void);
/* The help text paragraph on input names (cli_read_npy). */
#define CLI_INPUT_FORMS_HELP                                                  \
  "Inputs: a .npy file; '-' for standard input (once; a file named '-' is\n"  \
  "./-); ARCHIVE.npz:NAME for member NAME of an np.savez or\n"                \
  "np.savez_compressed archive, or ARCHIVE.npz for its only member.\n"
/* The help text paragraph on archive outputs (cli_write_npy). */
#define CLI_ARCHIVE_OUTPUT_HELP                                               \
  "An archive output (-o X.npz, -o X.npz:NAME) is added to an existing\n"     \
  "archive: members of the names written are replaced, every other member\n"  \
  "is kept as it is (remove the file first for a fresh archive).\n"

/* Whether path is "-" (standard input or output). */
int cli_is_std(const char *path);
/* 0 (reported) when more than one of files is "-". */
int cli_stdin_once(char **files, int n);
/* Whether output names an .npz archive ("x.npz" or "x.npz:NAME"). */
int cli_output_is_archive(const char *output);
/* Writes n results t[0..n) (opts: NULL or n entries) to output: "-" is
 * standard output (one result, not a terminal); "x.npz" members arr_0..
 * (numpy.savez's names) and "x.npz:NAME" one member NAME of an archive,
 * added to an existing one, whose other members are kept
 * (bcast_npz_update); anything else one .npy file.  CLI_OK or reported
 * CLI_USAGE. */
int cli_write_npy(const char *output, size_t n, const bcast_tensor *t,
                  const bcast_npy_write_opts *opts);
/* Writes t[i] to the .npy file paths[i] for i < n, all or none: no file
 * is replaced unless every one was written completely (bcast/output.h).
 * CLI_OK or reported CLI_USAGE. */
int cli_write_npy_files(size_t n, char *const *paths, const bcast_tensor *t,
                        const bcast_npy_write_opts *opts);

/* A progress line on standard error while a large output is computed:
 * only when stderr is a terminal, the output has at least
 * CLI_PROGRESS_MIN_BYTES and --quiet was not given; at most ten updates a
 * second; erased by cli_progress_end. */
#define CLI_PROGRESS_MIN_BYTES ((int64_t)256 << 20)
typedef struct cli_progress {
  int enabled, shown;
  double start, last;
} cli_progress;
void cli_progress_init(cli_progress *p, int quiet);
/* The bcast_ew_options.progress callback; ctx is a cli_progress. */
void cli_progress_update(void *ctx, int64_t done, int64_t total);
void cli_progress_end(cli_progress *p);

/* Streaming (write.c): an output larger than --memory is computed tile
 * by tile and written as it is made by the library (bcast/save.h), so the
 * process holds one tile (at most half of --memory, 64 MiB at most), not
 * the output. */
#define CLI_DEFAULT_MEMORY ((int64_t)1 << 30)
/* Whether an output of this layout streams under --memory (not strings,
 * whose width depends on the data). */
int cli_stream_wanted(const bcast_tensor *layout, int64_t memory);
struct cli_out_opts;
/* Streams views[k] to paths[k] for k < n, all or none, keeping the byte
 * order info[k] gives; the outputs must be .npy files and within
 * --max-bytes when it was given (reported otherwise: exit 2 and 1).
 * CLI_OK or the reported exit code. */
int cli_stream_views(size_t n, char *const *paths, const bcast_tensor *views,
                     const bcast_npy_info *info, const struct cli_out_opts *o);
/* Streams op over inputs (already planned: layout is the output's) to
 * -o, with the same checks. */
int cli_stream_op(const bcast_tensor *layout, size_t n,
                  const bcast_tensor *inputs, bcast_op op,
                  const bcast_op_attrs *attrs, const bcast_ew_options *options,
                  const struct cli_out_opts *o);

/* Prints the machine and the thresholds in effect, with where each came
 * from and the timings behind them (tune, info --machine). */
void cli_print_tuning(FILE *out, const bcast_tuning *tuning);

/* Prints every op of the op table with its input count, input types per
 * profile, result type and attributes (bcast --list-ops). */
void cli_list_ops(FILE *out);
/* Write options that keep what numpy keeps through a copy (string kind and
 * width, byte order). */
bcast_npy_write_opts cli_npy_write_opts(const bcast_npy_info *info);
/* Prints "label: dtype [shape]" and the values (all up to 64, else the
 * first 16). */
void cli_print_tensor(FILE *out, const char *label, const bcast_tensor *t);
/* Parses a shape argument that may name dims; 0 after reporting. */
int cli_parse_symbolic_shape(const char *text, bcast_symbols *symbols,
                             bcast_shape *out);
/* Parses a byte count with optional K/M/G/T suffix (binary). */
int cli_parse_bytes(const char *text, int64_t *out);

/* ------------------------------------------------------------------------ */
/* What the options of several commands are stored as (options.h has each
 * command's struct; options.c fills them). */

/* Arguments collected in order. */
typedef struct cli_args {
  int n;
  char **items;
} cli_args;
/* Room for every argument of argv; 0 (reported) when out of memory. */
int cli_args_init(cli_args *a, int argc);
/* --profile P. */
typedef struct cli_profile_opt {
  bcast_profile profile;
  int given;
} cli_profile_opt;
/* --op-profile PATTERN=PROFILE, repeatable (verify, lower). */
#define CLI_MAX_OP_PROFILES 64
typedef struct cli_op_profiles {
  bcast_mlir_op_profile rules[CLI_MAX_OP_PROFILES];
  size_t n_rules;
} cli_op_profiles;

/* ------------------------------------------------------------------------ */
/* Reading inputs and writing results (write.c): what the commands that
 * write arrays share. */

/* -o, --print, --max-bytes, --memory, --threads, --quiet. */
typedef struct cli_out_opts {
  const char *output;
  int print;
  int64_t max_bytes;   /* default BCAST_DEFAULT_MAX_BYTES */
  int max_bytes_given; /* without it a streamed output has no cap */
  int64_t memory;      /* default CLI_DEFAULT_MEMORY */
  int threads;
  int quiet;
} cli_out_opts;
/* Reads files[0..n) into x and info (NULL for none) after checking that
 * standard input is read once: CLI_OK, or the exit code of the first
 * failure (reported; nothing held). */
int cli_read_inputs(int n, char **files, bcast_tensor *x, bcast_npy_info *info,
                    int64_t max_bytes);
/* A result t as the options say: printed ("result: ...") with --print,
 * else written to -o (cli_write_npy) with write options w (NULL:
 * defaults).  CLI_OK or the reported exit code. */
int cli_out_tensor(const cli_out_opts *o, const bcast_tensor *t,
                   const bcast_npy_write_opts *w);
/* A view of x (read from a file described by info) as the options say:
 * streamed when over --memory, else materialized within --max-bytes and
 * given to cli_out_tensor, keeping x's byte order and string kind.  A
 * failure names what.  CLI_OK or the reported exit code. */
int cli_out_view(const cli_out_opts *o, const char *what,
                 const bcast_tensor *view, const bcast_npy_info *info);
#endif
