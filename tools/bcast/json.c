/* The CLI's JSON writer (see json.h). */
#include "json.h"

#include <string.h>

void json_init(json_writer *w, FILE *out) {
  memset(w, 0, sizeof *w);
  w->out = out;
}

/* Writes the comma that separates this value from the previous one in
 * the open container (none after a key). */
static void before_value(json_writer *w) {
  if (w->after_key) {
    w->after_key = 0;
    return;
  }
  if (w->depth > 0 && w->depth <= JSON_MAX_DEPTH) {
    if (w->has_items[w->depth - 1]) fputc(',', w->out);
    w->has_items[w->depth - 1] = 1;
  }
}

static void open_container(json_writer *w, char c) {
  before_value(w);
  fputc(c, w->out);
  if (w->depth < JSON_MAX_DEPTH) w->has_items[w->depth] = 0;
  w->depth++;
}

static void close_container(json_writer *w, char c) {
  fputc(c, w->out);
  if (w->depth > 0) w->depth--;
}

void json_object_begin(json_writer *w) { open_container(w, '{'); }
void json_object_end(json_writer *w) { close_container(w, '}'); }
void json_array_begin(json_writer *w) { open_container(w, '['); }
void json_array_end(json_writer *w) { close_container(w, ']'); }

void json_line_end(json_writer *w) {
  fputc('\n', w->out);
  w->depth = 0;
  w->after_key = 0;
}

/* The length of the valid UTF-8 sequence at s[0..n), or 0 when s[0] does
 * not start one (overlong forms, surrogates and code points above
 * U+10FFFF are not valid). */
static size_t utf8_sequence(const unsigned char *s, size_t n) {
  size_t len;
  uint32_t cp;
  if (s[0] < 0x80) return 1;
  if (s[0] >= 0xC2 && s[0] <= 0xDF)
    len = 2, cp = s[0] & 0x1Fu;
  else if (s[0] >= 0xE0 && s[0] <= 0xEF)
    len = 3, cp = s[0] & 0x0Fu;
  else if (s[0] >= 0xF0 && s[0] <= 0xF4)
    len = 4, cp = s[0] & 0x07u;
  else
    return 0;
  if (len > n) return 0;
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (s[i] & 0x3Fu);
  }
  if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
      (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
    return 0;
  return len;
}

void json_string_n(json_writer *w, const char *text, size_t len) {
  before_value(w);
  const unsigned char *s = (const unsigned char *)text;
  fputc('"', w->out);
  size_t i = 0;
  while (i < len) {
    unsigned char c = s[i];
    const char *esc = NULL;
    switch (c) {
    case '"':
      esc = "\\\"";
      break;
    case '\\':
      esc = "\\\\";
      break;
    case '\n':
      esc = "\\n";
      break;
    case '\r':
      esc = "\\r";
      break;
    case '\t':
      esc = "\\t";
      break;
    case '\b':
      esc = "\\b";
      break;
    case '\f':
      esc = "\\f";
      break;
    default:
      break;
    }
    if (esc) {
      fputs(esc, w->out);
      i++;
    } else if (c < 0x20 || c == 0x7F) {
      fprintf(w->out, "\\u%04x", c);
      i++;
    } else {
      size_t seq = utf8_sequence(s + i, len - i);
      if (seq == 0) {
        fputs("\\ufffd", w->out);
        i++;
      } else {
        fwrite(s + i, 1, seq, w->out);
        i += seq;
      }
    }
  }
  fputc('"', w->out);
}

void json_string(json_writer *w, const char *text) {
  json_string_n(w, text, strlen(text));
}

void json_key(json_writer *w, const char *key) {
  json_string(w, key);
  fputc(':', w->out);
  w->after_key = 1;
}

void json_int(json_writer *w, int64_t value) {
  before_value(w);
  fprintf(w->out, "%lld", (long long)value);
}

void json_int_fields(json_writer *w, size_t n, const json_int_field *fields) {
  for (size_t k = 0; k < n; k++) {
    json_key(w, fields[k].key);
    json_int(w, fields[k].value);
  }
}

void json_int_line(json_writer *w, size_t n, const json_int_field *fields) {
  json_object_begin(w);
  json_int_fields(w, n, fields);
  json_object_end(w);
  json_line_end(w);
}

void json_null(json_writer *w) {
  before_value(w);
  fputs("null", w->out);
}

void json_bool(json_writer *w, int value) {
  before_value(w);
  fputs(value ? "true" : "false", w->out);
}

void json_dim(json_writer *w, int64_t value) {
  if (value < 0)
    json_null(w);
  else
    json_int(w, value);
}

/* An operand index of a diagnostic: a number, "result", or null. */
static void json_operand(json_writer *w, int operand) {
  if (operand == BCAST_DIAG_RESULT)
    json_string(w, "result");
  else if (operand < 0)
    json_null(w);
  else
    json_int(w, operand);
}

void json_diag_fields(json_writer *w, const bcast_diag *diag) {
  const int has_operand[2] = {diag->operand[0] != BCAST_DIAG_NONE,
                              diag->operand[1] != BCAST_DIAG_NONE};
  json_key(w, "status");
  json_string(w, bcast_status_name(diag->status));
  json_key(w, "operands");
  json_array_begin(w);
  for (int k = 0; k < 2; k++)
    if (has_operand[k]) json_operand(w, diag->operand[k]);
  json_array_end(w);
  json_key(w, "axis");
  if (diag->axis < 0)
    json_null(w);
  else
    json_int(w, diag->axis);
  json_key(w, "operand_axes");
  json_array_begin(w);
  for (int k = 0; k < 2; k++)
    if (has_operand[k]) {
      if (diag->operand_axis[k] < 0)
        json_null(w);
      else
        json_int(w, diag->operand_axis[k]);
    }
  json_array_end(w);
  json_key(w, "sizes");
  json_array_begin(w);
  for (int k = 0; k < 2; k++)
    if (has_operand[k]) json_dim(w, diag->size[k]);
  json_array_end(w);
}
