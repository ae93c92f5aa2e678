/* Located diagnostics of the commands that read .mlir files (verify,
 * lower), printed three ways:
 *
 *   text   as mlir-opt 22 prints them: "FILE:LINE:COL: error: MESSAGE",
 *          the source line, and a caret under the column (with '~' under
 *          a range); a note at the same place as the line before it gets
 *          no source line, as in MLIR's SourceMgrDiagnosticHandler;
 *   json   one JSON object per diagnostic and line (docs/cli.md, "Machine-
 *          readable output", has the schema);
 *   sarif  one SARIF 2.1.0 log for the whole run. */
#ifndef BCAST_CLI_REPORT_H
#define BCAST_CLI_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "json.h"

typedef enum report_format {
  REPORT_TEXT,
  REPORT_JSON,
  REPORT_SARIF
} report_format;

typedef enum report_severity {
  REPORT_ERROR,
  REPORT_WARNING,
  REPORT_NOTE,
  REPORT_REMARK
} report_severity;

#define REPORT_MAX_NOTES 4

/* A place in a file, with its source line for the caret. */
typedef struct report_loc {
  const char *file;
  uint32_t line, col; /* 1-based; line 0 is "no location" */
  /* The line's text runs from src to the first '\n' or '\r' before
   * src_end; src NULL means no source line is shown. */
  const char *src, *src_end;
  uint32_t range; /* bytes underlined from col ('^' then '~'); 0 = 1 */
} report_loc;

/* The location of byte offset at in text[0..len): line, column and the
 * line's start, counting lines from the start of text. */
report_loc report_loc_at(const char *file, const char *text, size_t len,
                         size_t at);

/* Locations by line and column in one file.  The cursor walks forward
 * from the last line it found (back to the start only for an earlier
 * line), so a file's diagnostics, which come in source order, cost one
 * pass over it. */
typedef struct report_cursor {
  const char *file, *text, *end;
  const char *at; /* the start of line `line` */
  uint32_t line;
} report_cursor;
void report_cursor_init(report_cursor *c, const char *file, const char *text,
                        size_t len);
report_loc report_cursor_loc(report_cursor *c, uint32_t line, uint32_t col);

typedef struct report_note {
  report_loc loc;
  const char *message;
  const bcast_diag *detail; /* structured fields, or NULL */
  const char *profile;      /* the profile the op was judged by, or NULL */
  /* bcast's own explanation, which mlir-opt does not print: under
   * --verify-diagnostics an expected-note may match it, but it is not
   * "unexpected" when none does. */
  int optional;
} report_note;

typedef struct report_diag {
  report_loc loc;
  report_severity severity;
  const char *op; /* op name, or NULL */
  size_t op_len;
  const char *message;
  /* The rule in SARIF and "rule" in JSON: a status name (BCAST_PARSE, ...)
   * or "no-ops", "verify-diagnostics". */
  const char *rule;
  const bcast_diag *detail; /* structured fields of the diagnostic itself */
  size_t n_notes;
  report_note notes[REPORT_MAX_NOTES];
} report_diag;

typedef struct reporter {
  report_format format;
  FILE *out;
  json_writer json;
  int sarif_results; /* a SARIF log is open */
} reporter;

/* Emits a warning for an op whose nan_mode MLIR 22 drops (a string such as
 * "IGNORE" instead of the enum; bcast_mlir_nan_mode_dropped): bcast
 * follows MLIR 22 and keeps PROPAGATE.  Nothing for any other op. */
void report_nan_mode_warning(reporter *r, report_cursor *src,
                             const bcast_mlir_op *op);

/* Fills d->message (in buf) and the note for an op that failed its
 * broadcast check under profile, as bcast verify and bcast lower report
 * it: MLIR's words for the failure where MLIR has any, with its "'OP' op "
 * prefix where MLIR puts one, then bcast's explanation as a note at the
 * same place.  d->loc, d->op and d->op_len must be set. */
void report_op_failure(report_diag *d, char *buf, size_t size,
                       bcast_profile profile, const bcast_diag *diag);
/* A library failure whose message starts "LINE:COL: " (the emitter's),
 * located there through c, or unlocated in c's file. */
void report_located_failure(report_diag *d, report_cursor *c,
                            const bcast_diag *diag);

/* Parses a --format value (text, json, and sarif when allow_sarif);
 * reports a bad one and returns 0. */
int report_format_parse(const char *cmd, const char *value, int allow_sarif,
                        report_format *out);
/* Starts output on out (a SARIF log opens here). */
void report_begin(reporter *r, report_format format, FILE *out);
void report_emit(reporter *r, const report_diag *d);
/* Writes a library failure without a location (infer, explain) as one
 * JSON diagnostic object and line. */
void report_json_failure(FILE *out, const bcast_diag *diag);
/* Ends output (a SARIF log closes here). */
void report_end(reporter *r);
const char *report_severity_name(report_severity s);
/* A note's text as printed: its message, then " [P profile]" when it
 * names the profile. */
#define REPORT_NOTE_TEXT_MAX (BCAST_DIAG_TEXT_MAX + 64)
void report_note_text(const report_note *n, char *buf, size_t size);

#endif
