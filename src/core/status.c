/* Status names and the diagnostic helpers. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/diag.h"

static const char *const status_names[] = {
#define NAME_(id, text, exit_class, py_exception) "BCAST_" #id,
    BCAST_STATUS_LIST(NAME_)
#undef NAME_
};

static const char *const status_texts[] = {
#define TEXT_(id, text, exit_class, py_exception) text,
    BCAST_STATUS_LIST(TEXT_)
#undef TEXT_
};

static const unsigned char status_exit_classes[] = {
#define EXIT_CLASS_(id, text, exit_class, py_exception) exit_class,
    BCAST_STATUS_LIST(EXIT_CLASS_)
#undef EXIT_CLASS_
};

const char *bcast_status_name(bcast_status status) {
  if ((unsigned)status >= BCAST_STATUS_COUNT) return "BCAST_UNKNOWN";
  return status_names[status];
}

const char *bcast_status_text(bcast_status status) {
  if ((unsigned)status >= BCAST_STATUS_COUNT) return "unknown status";
  return status_texts[status];
}

int bcast_status_exit_class(bcast_status status) {
  if ((unsigned)status >= BCAST_STATUS_COUNT) return 2;
  return status_exit_classes[status];
}

/* Marks a buffer of size cap whose text was cut at cap - 1 bytes: the
 * text ends in dots from the start of the UTF-8 character holding byte
 * cap - 4 (a file name in a message may hold any bytes), so a reader sees
 * that something is missing and no character is left half written.  The
 * text keeps its length of cap - 1 bytes. */
static void mark_truncated(char *buf, size_t cap) {
  if (cap < 4) return;
  size_t end = cap - 4;
  while (end > 0 && ((unsigned char)buf[end] & 0xC0) == 0x80) end--;
  memset(buf + end, '.', cap - 1 - end);
  buf[cap - 1] = '\0';
}

/* vsnprintf into buf, marking a cut message. */
static void format_message(char *buf, size_t cap, const char *fmt,
                           va_list ap) {
  int n = vsnprintf(buf, cap, fmt, ap);
  if (n < 0)
    buf[0] = '\0';
  else if ((size_t)n >= cap)
    mark_truncated(buf, cap);
}

void bcast_diag_clear(bcast_diag *diag) {
  if (!diag) return;
  diag->status = BCAST_OK;
  diag->operand[0] = diag->operand[1] = BCAST_DIAG_NONE;
  diag->axis = BCAST_DIAG_NONE;
  diag->operand_axis[0] = diag->operand_axis[1] = BCAST_DIAG_NONE;
  diag->size[0] = diag->size[1] = 0;
  diag->mlir_op_prefix = 0;
  diag->message[0] = '\0';
  diag->mlir_message[0] = '\0';
  diag->element.flat = -1;
  diag->element.rank = 0;
  diag->element.operands = 0;
}

bcast_status bcast__fail(bcast_diag *diag, bcast_status status,
                         const char *fmt, ...) {
  if (!diag) return status;
  bcast_diag_clear(diag);
  diag->status = status;
  va_list ap;
  va_start(ap, fmt);
  format_message(diag->message, sizeof diag->message, fmt, ap);
  va_end(ap);
  return status;
}

void bcast__prefix(bcast_diag *diag, const char *fmt, ...) {
  if (!diag) return;
  char rest[sizeof diag->message];
  memcpy(rest, diag->message, sizeof rest);
  va_list ap;
  va_start(ap, fmt);
  format_message(diag->message, sizeof diag->message, fmt, ap);
  va_end(ap);
  const size_t len = strlen(diag->message);
  const int n =
      snprintf(diag->message + len, sizeof diag->message - len, "%s", rest);
  if (n > 0 && len + (size_t)n >= sizeof diag->message)
    mark_truncated(diag->message, sizeof diag->message);
}

void bcast__mlir_message(bcast_diag *diag, int op_prefix, const char *fmt,
                         ...) {
  if (!diag) return;
  diag->mlir_op_prefix = op_prefix;
  va_list ap;
  va_start(ap, fmt);
  format_message(diag->mlir_message, sizeof diag->mlir_message, fmt, ap);
  va_end(ap);
}

void bcast__locate(bcast_diag *diag, int operand0, int axis0, int64_t size0,
                   int operand1, int axis1, int64_t size1, int axis) {
  if (!diag) return;
  diag->operand[0] = operand0;
  diag->operand[1] = operand1;
  diag->operand_axis[0] = axis0;
  diag->operand_axis[1] = axis1;
  diag->size[0] = size0;
  diag->size[1] = size1;
  diag->axis = axis;
}

/* Proven (docs/proofs.md): WP proves the body against this contract, with
 * vsnprintf as C11 describes it; the EVA run takes the contract at every
 * call instead of the body, whose vsnprintf(buf + *len, cap - *len) pairs
 * an offset with a length in a way a non-relational analysis cannot read. */
/*@ requires len: \valid(len) && *len < cap;
    requires buf: \valid(buf + (0 .. cap - 1));
    requires apart: \separated(len, buf + (0 .. cap - 1));
    assigns *len \from *len, cap, fmt[0 ..];
    assigns buf[*len .. cap - 1] \from *len, cap, fmt[0 ..];
    ensures len: *len < cap;
 */
void bcast__append(char *buf, size_t cap, size_t *len, const char *fmt, ...) {
  if (*len + 1 >= cap) return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf + *len, cap - *len, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  *len += (size_t)n;
  if (*len >= cap) *len = cap - 1;
}
