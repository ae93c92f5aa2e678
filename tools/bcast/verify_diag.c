/* The expected-* annotation matcher of bcast verify --verify-diagnostics
 * (verify_diag.h). */
#include "verify_diag.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

/* One annotation. */
struct vexpect {
  report_severity kind;
  uint32_t line;   /* the line its diagnostic must be on; 0 = @unknown */
  report_loc loc;  /* where "expected-" starts, for its own reports */
  char *substring; /* the text between the outer {{ }}, NUL-terminated */
  int unknown;     /* @unknown: matches only diagnostics without a line */
  int is_regex;
  regex_t regex;
  int matched;
};

/* MLIR's pattern for an annotation, in POSIX extended syntax.  Groups:
 * 1 the severity, 2 "-re", 4 the line designator, 5 the expected text. */
static const char annotation_pattern[] =
    "expected-(error|note|remark|warning)(-re)? *"
    "(@([+-][0-9]+|above|below|unknown))? *\\{\\{(.*)\\}\\}$";

void vmatch_init(vmatch *m, reporter *out) {
  memset(m, 0, sizeof *m);
  m->out = out;
  m->annotation_ready =
      regcomp(&m->annotation, annotation_pattern, REG_EXTENDED) == 0;
}

static void free_expectations(vmatch *m) {
  for (size_t k = 0; k < m->n_expect; k++) {
    if (m->expect[k].is_regex) regfree(&m->expect[k].regex);
    free(m->expect[k].substring);
  }
  m->n_expect = 0;
}

void vmatch_free(vmatch *m) {
  free_expectations(m);
  free(m->expect);
  m->expect = NULL;
  m->cap_expect = 0;
  if (m->annotation_ready) regfree(&m->annotation);
  m->annotation_ready = 0;
}

/* Reports a mismatch: an error at loc, printed like any diagnostic. */
static void mismatch(vmatch *m, const report_loc *loc, const char *message) {
  report_diag d;
  memset(&d, 0, sizeof d);
  d.loc = *loc;
  d.severity = REPORT_ERROR;
  d.message = message;
  d.rule = "verify-diagnostics";
  report_emit(m->out, &d);
  m->failed = 1;
}

static const char *const kind_names[] = {"error", "note", "remark", "warning"};
static const report_severity kind_values[] = {REPORT_ERROR, REPORT_NOTE,
                                              REPORT_REMARK, REPORT_WARNING};

/* Turns "literal {{regex}} literal" into one POSIX extended regex: the
 * literal parts escaped, the regex parts in parentheses (as MLIR's
 * computeRegex does).  Returns NULL with *why set on a malformed one. */
static char *annotation_to_regex(const char *s, const char **why) {
  size_t n = strlen(s);
  char *out = malloc(2 * n + 1);
  if (!out) {
    *why = "out of memory";
    return NULL;
  }
  size_t o = 0;
  const char *p = s;
  for (;;) {
    const char *open = strstr(p, "{{");
    const char *literal_end = open ? open : p + strlen(p);
    for (; p < literal_end; p++) {
      if (strchr("()^$|*+?.[]\\{}", *p)) out[o++] = '\\';
      out[o++] = *p;
    }
    if (!open) break;
    const char *close = strstr(open + 2, "}}");
    if (!close) {
      *why = "found start of regex with no end '}}'";
      free(out);
      return NULL;
    }
    out[o++] = '(';
    memcpy(out + o, open + 2, (size_t)(close - open - 2));
    o += (size_t)(close - open - 2);
    out[o++] = ')';
    p = close + 2;
  }
  out[o] = '\0';
  return out;
}

static vexpect *new_expectation(vmatch *m) {
  if (m->n_expect == m->cap_expect) {
    size_t cap = m->cap_expect ? 2 * m->cap_expect : 16;
    vexpect *bigger = realloc(m->expect, cap * sizeof *bigger);
    if (!bigger) return NULL;
    m->expect = bigger;
    m->cap_expect = cap;
  }
  vexpect *e = &m->expect[m->n_expect];
  memset(e, 0, sizeof *e);
  return e;
}

/* Reads the annotation on one line (NUL-terminated, trailing spaces cut);
 * returns 1 if the line has one.  line_at is the line's place in the file. */
static int read_annotation(vmatch *m, const char *line, const char *line_at,
                           const char *text, size_t len, uint32_t line_no,
                           uint32_t last_plain_line, vexpect **out) {
  regmatch_t g[6];
  *out = NULL;
  if (!m->annotation_ready || !strstr(line, "expected-") ||
      regexec(&m->annotation, line, 6, g, 0) != 0)
    return 0;
  vexpect *e = new_expectation(m);
  char *substring = malloc((size_t)(g[5].rm_eo - g[5].rm_so) + 1);
  if (!e || !substring) {
    free(substring);
    m->no_memory = 1;
    return 1;
  }
  memcpy(substring, line + g[5].rm_so, (size_t)(g[5].rm_eo - g[5].rm_so));
  substring[g[5].rm_eo - g[5].rm_so] = '\0';
  e->substring = substring;
  for (size_t k = 0; k < 4; k++)
    if ((size_t)(g[1].rm_eo - g[1].rm_so) == strlen(kind_names[k]) &&
        !memcmp(line + g[1].rm_so, kind_names[k], strlen(kind_names[k])))
      e->kind = kind_values[k];
  e->line = line_no;
  e->loc.file = m->file;
  e->loc.line = line_no;
  e->loc.col = (uint32_t)g[0].rm_so + 1;
  e->loc.src = line_at;
  e->loc.src_end = text + len;
  e->loc.range = (uint32_t)strlen(substring);
  if (g[2].rm_so >= 0) {
    const char *why = NULL;
    char *pattern = annotation_to_regex(substring, &why);
    int rc =
        pattern ? regcomp(&e->regex, pattern, REG_EXTENDED | REG_NOSUB) : -1;
    free(pattern);
    if (rc != 0) {
      char message[300], reason[200];
      if (rc > 0) regerror(rc, &e->regex, reason, sizeof reason);
      snprintf(message, sizeof message, "%s%s",
               rc > 0 ? "invalid regex: " : "", rc > 0 ? reason : why);
      mismatch(m, &e->loc, message);
      free(substring);
      return 1; /* not kept */
    }
    e->is_regex = 1;
  }
  if (g[4].rm_so >= 0) {
    const char *d = line + g[4].rm_so;
    if (d[0] == '+' || d[0] == '-') {
      long offset = strtol(d + 1, NULL, 10);
      e->line = d[0] == '+' ? line_no + (uint32_t)offset
                            : line_no - (uint32_t)offset;
    } else if (!strncmp(d, "unknown", 7)) {
      e->line = 0;
      e->unknown = 1;
    } else if (!strncmp(d, "above", 5)) {
      e->line = last_plain_line;
    } else {
      *out = e; /* @below: the caller fixes the line */
    }
  }
  m->n_expect++;
  return 1;
}

void vmatch_begin(vmatch *m, const char *file, const char *text, size_t len) {
  free_expectations(m);
  m->file = file;
  /* @below annotations waiting for the next line without one (indices). */
  size_t *below = NULL, n_below = 0;
  uint32_t line_no = 1, last_plain = 1;
  char *line = NULL;
  size_t line_cap = 0;
  for (size_t at = 0; at < len; line_no++) {
    size_t eol = at;
    while (eol < len && text[eol] != '\n') eol++;
    size_t n = eol - at;
    while (n > 0 && (text[at + n - 1] == ' ' || text[at + n - 1] == '\t' ||
                     text[at + n - 1] == '\r'))
      n--;
    if (n + 1 > line_cap) {
      char *bigger = realloc(line, n + 1);
      if (!bigger) {
        m->no_memory = 1;
        break;
      }
      line = bigger;
      line_cap = n + 1;
    }
    memcpy(line, text + at, n);
    line[n] = '\0';
    vexpect *pending;
    if (memchr(line, '\0', n) ||
        !read_annotation(m, line, text + at, text, len, line_no, last_plain,
                         &pending)) {
      for (size_t k = 0; k < n_below; k++) m->expect[below[k]].line = line_no;
      n_below = 0;
      last_plain = line_no;
    } else if (pending) {
      size_t *bigger = realloc(below, (n_below + 1) * sizeof *below);
      if (!bigger) {
        m->no_memory = 1;
        break;
      }
      below = bigger;
      below[n_below++] = (size_t)(pending - m->expect);
      pending->line = 0; /* set below; dangling ones get the last line */
    }
    at = eol + 1;
  }
  for (size_t k = 0; k < n_below; k++) m->expect[below[k]].line = line_no - 1;
  free(below);
  free(line);
}

static int expectation_matches(const vexpect *e, const char *message) {
  if (e->is_regex) return regexec(&e->regex, message, 0, NULL, 0) == 0;
  return strstr(message, e->substring) != NULL;
}

/* Checks one diagnostic (or note) against the file's annotations. */
static void check_one(vmatch *m, const report_loc *loc, report_severity kind,
                      const char *message, int optional) {
  vexpect *near_miss = NULL;
  for (size_t k = 0; k < m->n_expect; k++) {
    vexpect *e = &m->expect[k];
    if (e->line != loc->line || !expectation_matches(e, message)) continue;
    if (e->kind == kind) {
      e->matched = 1;
      return;
    }
    near_miss = e;
  }
  if (optional && !near_miss) return;
  size_t size = strlen(message) + 64;
  char *text = malloc(size);
  if (!text) {
    m->no_memory = 1;
    return;
  }
  if (near_miss) {
    snprintf(text, size, "'%s' diagnostic emitted when expecting a '%s'",
             report_severity_name(kind),
             report_severity_name(near_miss->kind));
    report_loc at = near_miss->loc;
    at.range = 0;
    mismatch(m, &at, text);
  } else {
    snprintf(text, size, "unexpected %s: %s", report_severity_name(kind),
             message);
    mismatch(m, loc, text);
  }
  free(text);
}

void vmatch_diag(vmatch *m, const report_diag *d) {
  check_one(m, &d->loc, d->severity, d->message, 0);
  for (size_t k = 0; k < d->n_notes; k++) {
    const report_note *n = &d->notes[k];
    char text[REPORT_NOTE_TEXT_MAX];
    report_note_text(n, text, sizeof text);
    check_one(m, &n->loc, REPORT_NOTE, text, n->optional);
  }
}

void vmatch_end(vmatch *m) {
  /* Located annotations first, in file order, then the @unknown ones
   * (which MLIR reports without a location). */
  for (int unknown = 0; unknown < 2; unknown++) {
    for (size_t k = 0; k < m->n_expect; k++) {
      const vexpect *e = &m->expect[k];
      if (e->matched || e->unknown != unknown) continue;
      size_t size = strlen(e->substring) + 64;
      char *text = malloc(size);
      if (!text) {
        m->no_memory = 1;
        continue;
      }
      snprintf(text, size, "expected %s \"%s\" was not produced",
               report_severity_name(e->kind), e->substring);
      report_loc nowhere = {"<unknown>:0", 0, 0, NULL, NULL, 0};
      mismatch(m, unknown ? &nowhere : &e->loc, text);
      free(text);
    }
  }
  free_expectations(m);
}
