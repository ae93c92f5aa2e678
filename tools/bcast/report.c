/* Printing located diagnostics as text, JSON lines or SARIF (report.h). */
#include "report.h"

#include <string.h>

/* Longer source lines are not shown: a caret under column 40000 helps
 * nobody, and a 10 MB line of garbage should not be echoed. */
#define REPORT_MAX_SOURCE_LINE 4096
/* LLVM's SourceMgr expands tabs to this tab stop. */
#define REPORT_TAB_STOP 8

static const char *const severity_names[] = {"error", "warning", "note",
                                             "remark"};

const char *report_severity_name(report_severity s) {
  return severity_names[s];
}

int report_format_parse(const char *cmd, const char *value, int allow_sarif,
                        report_format *out) {
  if (value && !strcmp(value, "text"))
    *out = REPORT_TEXT;
  else if (value && !strcmp(value, "json"))
    *out = REPORT_JSON;
  else if (value && allow_sarif && !strcmp(value, "sarif"))
    *out = REPORT_SARIF;
  else {
    cli_error("%s: --format takes text or json%s%s%s", cmd,
              allow_sarif ? " or sarif" : "", value ? ", not " : "",
              value ? value : "");
    return 0;
  }
  return 1;
}

report_loc report_loc_at(const char *file, const char *text, size_t len,
                         size_t at) {
  report_loc loc;
  memset(&loc, 0, sizeof loc);
  loc.file = file;
  loc.line = 1;
  size_t start = 0;
  for (size_t i = 0; i < at && i < len; i++)
    if (text[i] == '\n') {
      loc.line++;
      start = i + 1;
    }
  loc.col = (uint32_t)(at - start + 1);
  loc.src = text + start;
  loc.src_end = text + len;
  return loc;
}

void report_cursor_init(report_cursor *c, const char *file, const char *text,
                        size_t len) {
  c->file = file;
  c->text = c->at = text;
  c->end = text + len;
  c->line = 1;
}

report_loc report_cursor_loc(report_cursor *c, uint32_t line, uint32_t col) {
  report_loc loc;
  memset(&loc, 0, sizeof loc);
  loc.file = c->file;
  loc.line = line;
  loc.col = col;
  if (line == 0) return loc;
  if (line < c->line) {
    c->at = c->text;
    c->line = 1;
  }
  while (c->line < line) {
    const char *nl = memchr(c->at, '\n', (size_t)(c->end - c->at));
    if (!nl) return loc; /* past the end: no source line */
    c->at = nl + 1;
    c->line++;
  }
  loc.src = c->at;
  loc.src_end = c->end;
  return loc;
}

void report_op_failure(report_diag *d, char *buf, size_t size,
                       bcast_profile profile, const bcast_diag *diag) {
  const char *mlir = diag->mlir_message;
  /* A name of any length leaves room for the message. */
  bcast_mlir_diag_format(d->op, d->op_len > 200 ? 200 : d->op_len, diag, buf,
                         size);
  d->severity = REPORT_ERROR;
  d->message = buf;
  d->rule = bcast_status_name(diag->status);
  if (!mlir[0]) {
    d->detail = diag;
    return;
  }
  d->n_notes = 1;
  d->notes[0].loc = d->loc;
  d->notes[0].message = diag->message;
  d->notes[0].detail = diag;
  d->notes[0].profile = bcast_profile_name(profile);
  d->notes[0].optional = 1;
}

void report_located_failure(report_diag *d, report_cursor *c,
                            const bcast_diag *diag) {
  const char *msg = diag->message;
  unsigned line = 0, col = 0;
  int used = 0;
  memset(d, 0, sizeof *d);
  d->loc.file = c->file;
  if (sscanf(msg, "%u:%u: %n", &line, &col, &used) == 2 && used > 0) {
    d->loc = report_cursor_loc(c, line, col);
    msg += used;
  }
  d->severity = REPORT_ERROR;
  d->message = msg;
  d->rule = bcast_status_name(diag->status);
  d->detail = diag;
}

/* The source line and the caret line under it, as LLVM's SMDiagnostic
 * prints them: tabs expanded, '^' at the column, '~' over the rest of the
 * range, trailing spaces dropped.  Each line is built in a buffer and
 * written at once: stderr is unbuffered. */
static void print_source(FILE *out, const report_loc *loc) {
  if (!loc->src || loc->line == 0) return;
  size_t n = 0;
  while (loc->src + n < loc->src_end && loc->src[n] != '\n' &&
         loc->src[n] != '\r')
    n++;
  if (n > REPORT_MAX_SOURCE_LINE) return;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)loc->src[i];
    if (c < 0x20 && c != '\t') return; /* binary: not shown */
  }
  char buf[(REPORT_MAX_SOURCE_LINE + 1) * REPORT_TAB_STOP + 1];
  size_t w = 0; /* display columns written so far */
  for (size_t i = 0; i < n; i++) {
    if (loc->src[i] == '\t') {
      do buf[w] = ' ';
      while (++w % REPORT_TAB_STOP);
    } else {
      buf[w++] = loc->src[i];
    }
  }
  buf[w++] = '\n';
  fwrite(buf, 1, w, out);
  /* The caret line covers the source line plus one column past its end. */
  size_t col = loc->col - 1, range = loc->range ? loc->range : 1;
  if (col > n) return; /* column outside the line: LLVM shows none */
  size_t last = col + range < n + 1 ? col + range : n + 1;
  w = 0;
  for (size_t i = 0; i < last; i++) {
    char c = i < col ? ' ' : i == col ? '^' : '~';
    buf[w++] = c;
    if (i < n && loc->src[i] == '\t')
      while (w % REPORT_TAB_STOP) buf[w++] = c == ' ' ? ' ' : '~';
  }
  buf[w++] = '\n';
  fwrite(buf, 1, w, out);
}

void report_note_text(const report_note *n, char *buf, size_t size) {
  if (n->profile)
    snprintf(buf, size, "%s [%s profile]", n->message, n->profile);
  else
    snprintf(buf, size, "%s", n->message);
}

static int same_loc(const report_loc *a, const report_loc *b) {
  return a->line == b->line && a->col == b->col &&
         ((!a->file && !b->file) ||
          (a->file && b->file && !strcmp(a->file, b->file)));
}

static void print_text_line(FILE *out, const report_loc *loc,
                            const char *severity, const char *message) {
  if (loc->line)
    fprintf(out, "%s:%u:%u: %s: %s\n", loc->file, loc->line, loc->col,
            severity, message);
  else
    fprintf(out, "%s: %s: %s\n", loc->file, severity, message);
}

static void emit_text(reporter *r, const report_diag *d) {
  print_text_line(r->out, &d->loc, report_severity_name(d->severity),
                  d->message);
  print_source(r->out, &d->loc);
  const report_loc *prev = &d->loc;
  for (size_t k = 0; k < d->n_notes; k++) {
    const report_note *n = &d->notes[k];
    char text[REPORT_NOTE_TEXT_MAX];
    report_note_text(n, text, sizeof text);
    print_text_line(r->out, &n->loc, "note", text);
    if (!same_loc(prev, &n->loc)) print_source(r->out, &n->loc);
    prev = &n->loc;
  }
}

/* "file", "line", "column" keys of a location (null when unknown). */
static void json_loc(json_writer *w, const report_loc *loc) {
  json_key(w, "file");
  if (loc->file)
    json_string(w, loc->file);
  else
    json_null(w);
  json_key(w, "line");
  if (loc->line)
    json_int(w, loc->line);
  else
    json_null(w);
  json_key(w, "column");
  if (loc->line)
    json_int(w, loc->col);
  else
    json_null(w);
}

static void emit_json(reporter *r, const report_diag *d) {
  json_writer *w = &r->json;
  json_object_begin(w);
  json_loc(w, &d->loc);
  json_key(w, "severity");
  json_string(w, report_severity_name(d->severity));
  json_key(w, "op");
  if (d->op)
    json_string_n(w, d->op, d->op_len);
  else
    json_null(w);
  json_key(w, "message");
  json_string(w, d->message);
  json_key(w, "rule");
  json_string(w, d->rule);
  if (d->detail) json_diag_fields(w, d->detail);
  json_key(w, "notes");
  json_array_begin(w);
  for (size_t k = 0; k < d->n_notes; k++) {
    const report_note *n = &d->notes[k];
    json_object_begin(w);
    json_loc(w, &n->loc);
    json_key(w, "severity");
    json_string(w, "note");
    json_key(w, "message");
    json_string(w, n->message);
    json_key(w, "profile");
    if (n->profile)
      json_string(w, n->profile);
    else
      json_null(w);
    if (n->detail) json_diag_fields(w, n->detail);
    json_object_end(w);
  }
  json_array_end(w);
  json_object_end(w);
  json_line_end(w);
}

/* A SARIF physicalLocation object for loc. */
static void sarif_location(json_writer *w, const report_loc *loc,
                           const char *message) {
  json_object_begin(w);
  json_key(w, "physicalLocation");
  json_object_begin(w);
  json_key(w, "artifactLocation");
  json_object_begin(w);
  json_key(w, "uri");
  json_string(w, loc->file);
  json_object_end(w);
  if (loc->line) {
    json_key(w, "region");
    json_object_begin(w);
    json_key(w, "startLine");
    json_int(w, loc->line);
    json_key(w, "startColumn");
    json_int(w, loc->col);
    json_object_end(w);
  }
  json_object_end(w);
  if (message) {
    json_key(w, "message");
    json_object_begin(w);
    json_key(w, "text");
    json_string(w, message);
    json_object_end(w);
  }
  json_object_end(w);
}

/* The rules of the SARIF log: the status list, then the two rules that are
 * not statuses. */
#define REPORT_SARIF_RULE_(id, text, exit_class, py_exception)                \
  {"BCAST_" #id, text},
static const struct {
  const char *id, *text;
} sarif_rules[] = {
    BCAST_STATUS_LIST(REPORT_SARIF_RULE_){"no-ops",
                                          "the file holds no op to check"},
    {"verify-diagnostics",
     "a diagnostic differs from the file's expected-* annotations"}};
#undef REPORT_SARIF_RULE_

static void sarif_begin(reporter *r) {
  json_writer *w = &r->json;
  json_object_begin(w);
  json_key(w, "version");
  json_string(w, "2.1.0");
  json_key(w, "$schema");
  json_string(w, "https://json.schemastore.org/sarif-2.1.0.json");
  json_key(w, "runs");
  json_array_begin(w);
  json_object_begin(w);
  json_key(w, "tool");
  json_object_begin(w);
  json_key(w, "driver");
  json_object_begin(w);
  json_key(w, "name");
  json_string(w, "bcast");
  json_key(w, "informationUri");
  json_string(w, "https://mlir.llvm.org/docs/Traits/Broadcastable/");
  json_key(w, "rules");
  json_array_begin(w);
  /* From 1: BCAST_OK is no rule. */
  for (size_t k = 1; k < sizeof sarif_rules / sizeof sarif_rules[0]; k++) {
    json_object_begin(w);
    json_key(w, "id");
    json_string(w, sarif_rules[k].id);
    json_key(w, "shortDescription");
    json_object_begin(w);
    json_key(w, "text");
    json_string(w, sarif_rules[k].text);
    json_object_end(w);
    json_object_end(w);
  }
  json_array_end(w);
  json_object_end(w); /* driver */
  json_object_end(w); /* tool */
  json_key(w, "results");
  json_array_begin(w);
  r->sarif_results = 1;
}

static void emit_sarif(reporter *r, const report_diag *d) {
  json_writer *w = &r->json;
  json_object_begin(w);
  json_key(w, "ruleId");
  json_string(w, d->rule);
  json_key(w, "level");
  json_string(w, d->severity == REPORT_REMARK
                     ? "note"
                     : report_severity_name(d->severity));
  json_key(w, "message");
  json_object_begin(w);
  json_key(w, "text");
  json_string(w, d->message);
  json_object_end(w);
  json_key(w, "locations");
  json_array_begin(w);
  sarif_location(w, &d->loc, NULL);
  json_array_end(w);
  if (d->n_notes) {
    json_key(w, "relatedLocations");
    json_array_begin(w);
    for (size_t k = 0; k < d->n_notes; k++)
      sarif_location(w, &d->notes[k].loc, d->notes[k].message);
    json_array_end(w);
  }
  json_object_end(w);
}

void report_begin(reporter *r, report_format format, FILE *out) {
  memset(r, 0, sizeof *r);
  r->format = format;
  r->out = out;
  json_init(&r->json, out);
  if (format == REPORT_SARIF) sarif_begin(r);
}

void report_emit(reporter *r, const report_diag *d) {
  switch (r->format) {
  case REPORT_TEXT:
    emit_text(r, d);
    break;
  case REPORT_JSON:
    emit_json(r, d);
    break;
  case REPORT_SARIF:
    emit_sarif(r, d);
    break;
  }
}

void report_json_failure(FILE *out, const bcast_diag *diag) {
  reporter r;
  report_begin(&r, REPORT_JSON, out);
  report_diag d;
  memset(&d, 0, sizeof d);
  d.severity = REPORT_ERROR;
  d.message = diag->message;
  d.rule = bcast_status_name(diag->status);
  d.detail = diag;
  report_emit(&r, &d);
}

void report_end(reporter *r) {
  if (r->format != REPORT_SARIF || !r->sarif_results) return;
  json_writer *w = &r->json;
  json_array_end(w);  /* results */
  json_object_end(w); /* run */
  json_array_end(w);  /* runs */
  json_object_end(w);
  json_line_end(w);
  r->sarif_results = 0;
}
