/* A small streaming JSON writer for the CLI's --format json and sarif
 * output.  Commas and nesting are tracked here, so a command writes keys
 * and values in order and never prints punctuation itself.
 *
 * Strings are written as UTF-8: valid multi-byte sequences pass through,
 * control characters become \n, \t, ... or \u00XX, and every byte that is
 * not part of a valid UTF-8 sequence becomes \uFFFD (the replacement
 * character), so the output is valid JSON whatever bytes a file holds. */
#ifndef BCAST_CLI_JSON_H
#define BCAST_CLI_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bcast/status.h"

#define JSON_MAX_DEPTH 16

typedef struct json_writer {
  FILE *out;
  int depth;
  /* has_items[d]: the container open at depth d already holds a value. */
  unsigned char has_items[JSON_MAX_DEPTH];
  int after_key; /* a key was written; its value comes next */
} json_writer;

void json_init(json_writer *w, FILE *out);
void json_object_begin(json_writer *w);
void json_object_end(json_writer *w);
void json_array_begin(json_writer *w);
void json_array_end(json_writer *w);
/* Ends a top-level value with a newline (JSON lines). */
void json_line_end(json_writer *w);
void json_key(json_writer *w, const char *key);
void json_string(json_writer *w, const char *text);
void json_string_n(json_writer *w, const char *text, size_t len);
void json_int(json_writer *w, int64_t value);
void json_null(json_writer *w);
void json_bool(json_writer *w, int value);
/* A dim or size that may be dynamic: negative is null. */
void json_dim(json_writer *w, int64_t value);
/* n keys of the object being written with their integer values. */
typedef struct json_int_field {
  const char *key;
  int64_t value;
} json_int_field;
void json_int_fields(json_writer *w, size_t n, const json_int_field *fields);
/* The same as one object, a whole JSON line. */
void json_int_line(json_writer *w, size_t n, const json_int_field *fields);

/* The structured part of a library diagnostic, as keys of the object
 * being written: "status" (BCAST_...), "operands" (indices; "result" for
 * the result), "axis", "operand_axes" and "sizes" (null for '?').  Keys
 * whose value is "not applicable" are written as null. */
void json_diag_fields(json_writer *w, const bcast_diag *diag);

#endif
