/* bcast verify --verify-diagnostics: the expected-* annotations of a file
 * checked against the diagnostics verify produces, with the rules of
 * MLIR 22's SourceMgrDiagnosticVerifierHandler (mlir/lib/IR/Diagnostics.cpp):
 *
 *   // expected-error {{TEXT}}            TEXT is a substring of an error
 *                                         on this line
 *   // expected-note @+1 {{TEXT}}         ... of a note on the next line
 *   // expected-warning @-2 {{TEXT}}      two lines up
 *   // expected-error @above {{TEXT}}     the last line without an
 *                                         annotation
 *   // expected-error @below {{TEXT}}     the next line without one
 *   // expected-error @unknown {{TEXT}}   a diagnostic without location
 *   // expected-error-re {{a {{[0-9]+}} b}}  literal text with POSIX
 *                                         extended regex parts in {{ }}
 *   (also expected-remark)
 *
 * Each produced diagnostic and note must be matched by an annotation of
 * its line (near misses in severity are reported as MLIR does), and every
 * annotation must match one.  As mlir-opt 22 does, the annotations are
 * read from the whole file at the start (so @above and @below see across
 * "// -----" lines), mismatched diagnostics are reported as they come, and
 * the annotations nothing matched at the end of the file.  Mismatches are
 * reported as errors through the command's reporter, in
 * mlir-opt's words ("expected error \"...\" was not produced",
 * "unexpected error: ..."). */
#ifndef BCAST_CLI_VERIFY_DIAG_H
#define BCAST_CLI_VERIFY_DIAG_H

#include <regex.h>

#include "report.h"

typedef struct vexpect vexpect;

typedef struct vmatch {
  reporter *out;
  const char *file;
  vexpect *expect;
  size_t n_expect, cap_expect;
  regex_t annotation; /* MLIR's pattern of an annotation line */
  int annotation_ready;
  int failed;    /* a mismatch was reported */
  int no_memory; /* an allocation failed (reported) */
} vmatch;

void vmatch_init(vmatch *m, reporter *out);
/* Reads the annotations of the file text[0, len).  Malformed ones (a
 * regex without '}}' or that does not compile) are reported here. */
void vmatch_begin(vmatch *m, const char *file, const char *text, size_t len);
/* Checks one produced diagnostic and its notes. */
void vmatch_diag(vmatch *m, const report_diag *d);
/* Reports the annotations of the file that nothing matched. */
void vmatch_end(vmatch *m);
void vmatch_free(vmatch *m);

#endif
