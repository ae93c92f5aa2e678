/* Rewriting a module's text: find each selected TOSA op with the MLIR
 * scanner, which records its statement (byte range, result, operand names,
 * attribute spans) and signature, and replace exactly the bytes of that
 * statement with its lowering. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit_internal.h"
#include "op/op_attrs.h"
#include "type/mlir_internal.h"
#include "type/text.h"

void bcast_emit_options_init(bcast_emit_options *opts) {
  memset(opts, 0, sizeof *opts);
  opts->profile = BCAST_PROFILE_TOSA;
}

/* Of the ops bcast verifies, the ones it lowers: the TOSA element-wise
 * ops opts->only names (all of them when it names none). */
static int lowers_op(const char *name, size_t len, void *ctx) {
  const bcast_emit_options *opts = ctx;
  bcast_op op;
  if (len <= 5 || memcmp(name, "tosa.", 5) != 0) return 0;
  if (bcast_op_lookup(name, len, &op) != BCAST_OK) return 0;
  if (!opts->only || opts->n_only == 0) return 1;
  for (size_t i = 0; i < opts->n_only; i++)
    if (opts->only[i] == op) return 1;
  return 0;
}

/* Does "<sigil><prefix>" occur in the text? */
static int text_uses(const char *t, size_t len, char sigil,
                     const char *prefix) {
  size_t n = strlen(prefix);
  for (size_t i = 0; i + n < len; i++)
    if (t[i] == sigil && memcmp(t + i + 1, prefix, n) == 0) return 1;
  return 0;
}

/* A prefix that no name of the text starts with, for the names the
 * emitter invents (each is "<sigil><prefix>" followed by more text):
 * base when "<sigil>base" never occurs, else "base_<k>_" with k one more
 * than the largest k of any "<sigil>base_<k>_" in the text.  A name
 * starting with that prefix would be such a "<sigil>base_<k>_", so the
 * choice cannot collide, whatever the text; one pass over the text finds
 * it.  Fails (returns 0) only when k would pass UINT64_MAX, which takes a
 * 20-digit k in the text.  out must hold strlen(base) + 23 bytes. */
static int pick_prefix(const char *t, size_t len, char sigil, const char *base,
                       char *out, size_t size) {
  snprintf(out, size, "%s", base);
  if (!text_uses(t, len, sigil, base)) return 1;
  size_t n = strlen(base);
  uint64_t next = 0; /* one more than the largest k seen */
  for (size_t i = 0; i + n + 1 < len; i++) {
    if (t[i] != sigil || memcmp(t + i + 1, base, n) != 0 ||
        t[i + 1 + n] != '_')
      continue;
    size_t j = i + 2 + n;
    uint64_t k = 0;
    int digits = 0, overflow = 0;
    for (; j < len && t[j] >= '0' && t[j] <= '9'; j++, digits++) {
      unsigned d = (unsigned)(t[j] - '0');
      if (k > (UINT64_MAX - d) / 10)
        overflow = 1;
      else
        k = k * 10 + d;
    }
    if (digits == 0 || j >= len || t[j] != '_') continue;
    if (overflow || k == UINT64_MAX) return 0;
    if (k + 1 > next) next = k + 1;
  }
  snprintf(out, size, "%s_%" PRIu64 "_", base, next);
  return 1;
}

static bcast_status stmt_error(const bcast_mlir_op *m, bcast_diag *diag,
                               const char *what) {
  return bcast__fail(diag, BCAST_PARSE, "%u:%u: '%.*s' op %s", m->line, m->col,
                     (int)m->name_len, m->name, what);
}

/* Fails with a library diagnostic d about the op, located at the op and
 * without d's own "tosa.<op>: " prefix. */
static bcast_status op_fail(const bcast_mlir_op *m, bcast_status st,
                            const bcast_diag *d, bcast_diag *diag) {
  if (!diag) return st;
  const char *msg = d->message;
  const char *colon = strstr(msg, ": ");
  if (strncmp(msg, "tosa.", 5) == 0 && colon) msg = colon + 2;
  return bcast__fail(diag, st, "%u:%u: '%.*s' op %s", m->line, m->col,
                     (int)m->name_len, m->name, msg);
}

/* Reads the attributes the op reads from one dictionary as the scanner
 * recorded it, "{...}" or the generic form's "<{...}>", with the library's
 * attribute parser (the one `bcast run --attr` uses); entries the op does
 * not read are skipped. */
static bcast_status read_attrs(const bcast_mlir_op *m, bcast_mlir_span dict,
                               emit_op *op, bcast_diag *diag) {
  const char *t = dict.text;
  size_t len = dict.len;
  if (len == 0) return BCAST_OK;
  if (t[0] == '<' && len >= 2) {
    t++;
    len -= 2;
  }
  bcast_diag d;
  bcast_status st = bcast_op_attrs_parse_mlir(&op->attrs, op->op, t, len, NULL,
                                              diag ? &d : NULL);
  return st == BCAST_OK ? BCAST_OK : op_fail(m, st, &d, diag);
}

/* Fills an emit_op from a scanned op: its one result, the operand names
 * matched with their types, and the attributes the lowering reads. */
static bcast_status describe_op(const bcast_mlir_op *m, bcast_profile profile,
                                emit_op *op, bcast_diag *diag) {
  memset(op, 0, sizeof *op);
  if (bcast_op_lookup(m->name, m->name_len, &op->op) != BCAST_OK)
    return stmt_error(m, diag, "is not an element-wise op");
  const bcast_op_info *info = bcast_op_get(op->op);
  op->op_name = m->name;
  op->op_name_len = m->name_len;
  op->line = m->line;
  op->col = m->col;
  op->profile = profile;
  op->result_name = m->results.text;
  op->result_name_len = m->results.len;
  bcast_mlir_op_type(m, &m->result, &op->result);
  size_t n_vals = m->n_operand_names;
  if (n_vals > 5)
    return stmt_error(m, diag, "has more operands than bcast lowers");
  bcast_op_attrs_init(&op->attrs);
  bcast_status ast = read_attrs(m, m->properties, op, diag);
  if (ast == BCAST_OK) ast = read_attrs(m, m->attrs, op, diag);
  if (ast != BCAST_OK) return ast;
  size_t nb = (size_t)info->broadcast_operands;
  if (n_vals != m->n_operands || n_vals < nb ||
      n_vals > nb + (size_t)info->extra_operands)
    return stmt_error(m, diag, "operand names and types do not match the op");
  op->n_in = nb;
  op->n_extra = n_vals - nb;
  for (size_t k = 0; k < n_vals; k++) {
    emit_value *v = k < nb ? &op->in[k] : &op->extra[k - nb];
    v->name = m->operand_names[k].text;
    v->name_len = m->operand_names[k].len;
    bcast_mlir_op_type(m, &m->operands[k], &v->type);
    if (v->type.elem == NULL ||
        bcast_dtype_parse(v->type.elem, v->type.elem_len, &v->dtype) !=
            BCAST_OK)
      return bcast__fail(
          diag, BCAST_TYPE,
          "%u:%u: '%.*s' op operand #%zu: unsupported element type", m->line,
          m->col, (int)m->name_len, m->name, k);
  }
  if (op->result.elem == NULL ||
      bcast_dtype_parse(op->result.elem, op->result.elem_len,
                        &op->result_dtype) != BCAST_OK)
    return bcast__fail(diag, BCAST_TYPE,
                       "%u:%u: '%.*s' op result: unsupported element type",
                       m->line, m->col, (int)m->name_len, m->name);
  if (op->op == BCAST_OP_CLAMP &&
      (op->attrs.min_val.kind == BCAST_SCALAR_NONE ||
       op->attrs.max_val.kind == BCAST_SCALAR_NONE))
    return stmt_error(m, diag, "needs min_val and max_val attributes");
  bcast_status st = bcast__emit_result_dtype(op, &op->result_dtype, diag);
  if (st != BCAST_OK || op->op != BCAST_OP_CLAMP) return st;
  /* The bounds obey the same rule as in bcast run: values of the input's
   * type, min_val <= max_val. */
  bcast__clamp_bounds bounds;
  bcast_diag d;
  st = bcast__op_clamp_bounds(&op->attrs, op->in[0].dtype, &bounds,
                              diag ? &d : NULL);
  return st == BCAST_OK ? BCAST_OK : op_fail(m, st, &d, diag);
}

/* One run of the emitter over a module: the ops come from
 * bcast_mlir_verify_text, verified, in source order. */
typedef struct lower_run {
  emit_ctx *c;
  const char *text;
  emit_op *op;
  bcast_diag *odiag;  /* the emitter's own failures */
  bcast_diag *diag;   /* the caller's: the first failure */
  size_t copied;      /* text[0..copied) is in c->out or replaced */
  bcast_status first; /* the first failure */
  bcast_status stop;  /* the failure that ended the run early */
} lower_run;

/* An op failed with status st; f->diag says why: the verifier's
 * diagnostic (f->verified 0) or one whose message starts with the line
 * and column.  Passes the failure to the caller's callback, keeps the
 * first one in the caller's diagnostic (located as
 * bcast_mlir_verify_text's) and returns whether lowering goes on. */
static int op_failed(lower_run *r, const bcast_emit_failure *f,
                     bcast_status st) {
  const bcast_emit_options *opts = r->c->opts;
  if (opts->on_failure) opts->on_failure(opts->failure_ctx, f);
  if (r->first == BCAST_OK) {
    r->first = st;
    if (!f->verified)
      bcast__mlir_failure(r->diag, f->line, f->col, f->op_name, f->op_name_len,
                          f->profile, f->diag);
    else if (r->diag)
      *r->diag = *f->diag;
  }
  if (opts->on_failure != NULL && st != BCAST_NO_MEMORY) return 1;
  r->stop = st;
  return 0;
}

/* Lowers one checked op, or reports why it cannot be; returns nonzero to
 * stop the run. */
static int lower_checked(void *ctx, const bcast_mlir_checked *k) {
  lower_run *r = ctx;
  emit_ctx *c = r->c;
  const bcast_mlir_op *m = k->op;
  bcast_emit_failure f = {NULL, 0,       m->line, m->col, BCAST_PROFILE_TOSA,
                          1,    r->odiag};
  bcast_status st;
  if (!k->read) {
    st = bcast__mlir_failure(r->odiag, m->line, m->col, NULL, 0,
                             BCAST_PROFILE_TOSA, k->diag);
    return !op_failed(r, &f, st);
  }
  f.op_name = m->name;
  f.op_name_len = m->name_len;
  if (m->n_results != 1 || memchr(m->results.text, ':', m->results.len)) {
    st = stmt_error(m, r->odiag,
                    m->n_results != 1
                        ? "bcast lowers ops with one result"
                        : "bcast lowers ops with one named result");
    return !op_failed(r, &f, st);
  }
  f.profile = k->verdict.profile;
  if (k->outcome == BCAST_MLIR_FAILED) {
    f.line = k->verdict.line;
    f.col = k->verdict.col;
    f.verified = 0;
    f.diag = k->diag;
    return !op_failed(r, &f, k->status);
  }
  if ((st = describe_op(m, k->verdict.profile, r->op, r->odiag)) != BCAST_OK)
    return !op_failed(r, &f, st);

  const char *text = r->text;
  bcast__emit_buf_put(&c->out, text + r->copied, m->stmt_start - r->copied);
  /* The statement's indentation: the white space that starts its line. */
  size_t ls = m->stmt_start;
  while (ls > 0 && text[ls - 1] != '\n') ls--;
  size_t ie = ls;
  while (ie < m->stmt_start && (text[ie] == ' ' || text[ie] == '\t')) ie++;
  c->indent = text + ls;
  c->indent_len = ie - ls;
  c->first_line = 1;
  c->op_number = c->stats.ops_lowered;
  r->copied = m->stmt_end;
  if ((st = bcast__emit_lower_op(c, r->op, r->odiag)) != BCAST_OK)
    return !op_failed(r, &f, st);
  c->stats.ops_lowered++;
  return 0;
}

bcast_status bcast_emit_lower_module(const char *text, size_t len,
                                     const bcast_emit_options *opts,
                                     bcast_emit_write_fn write, void *wctx,
                                     bcast_emit_stats *stats,
                                     bcast_diag *diag) {
  if (!text || !opts || !write)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_emit_lower_module: NULL argument");
  emit_ctx *c = bcast__calloc(1, sizeof *c);
  emit_op *op = bcast__malloc(sizeof *op);
  bcast_diag *odiag = bcast__malloc(sizeof *odiag);
  bcast_status st = BCAST_OK;
  if (!c || !op || !odiag) {
    st = bcast__fail(diag, BCAST_NO_MEMORY, "out of memory");
    goto done;
  }
  c->opts = opts;
  if (!pick_prefix(text, len, '%', "bc", c->prefix, sizeof c->prefix) ||
      !pick_prefix(text, len, '#', "bcast_map", c->map_prefix,
                   sizeof c->map_prefix)) {
    st = bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                     "cannot choose fresh names: the input uses %%bc_K_ or "
                     "#bcast_map_K_ names with K up to 2^64-1");
    goto done;
  }

  bcast_mlir_verify_options vopts;
  bcast_mlir_verify_options_init(&vopts);
  if (opts->profile_given) vopts.profile = opts->profile;
  vopts.rules = opts->rules;
  vopts.n_rules = opts->n_rules;
  vopts.only = lowers_op;
  vopts.only_ctx = (void *)opts;
  lower_run run = {c, text, op, odiag, diag, 0, BCAST_OK, BCAST_OK};
  bcast_mlir_verify_text(text, len, &vopts, lower_checked, &run, NULL, NULL);
  if (run.first != BCAST_OK) {
    /* A run stopped early fails with the status that stopped it. */
    st = run.stop != BCAST_OK ? run.stop : run.first;
    goto done;
  }
  bcast__emit_buf_put(&c->out, text + run.copied, len - run.copied);
  if (c->out.err != BCAST_OK) {
    st = bcast__fail(diag, c->out.err, "%s", bcast_status_text(c->out.err));
    goto done;
  }

  /* The map aliases, then the module. */
  c->stats.maps = c->n_maps;
  {
    emit_buf head = {0};
    for (size_t k = 0; k < c->n_maps; k++)
      bcast__emit_buf_printf(&head, "#%s%zu = %s\n", c->map_prefix, k,
                             c->maps[k]);
    if (head.err != BCAST_OK) {
      st = bcast__fail(diag, head.err, "%s", bcast_status_text(head.err));
    } else {
      if (head.len) st = write(wctx, head.data, head.len);
      if (st == BCAST_OK && c->out.len)
        st = write(wctx, c->out.data, c->out.len);
      if (st != BCAST_OK)
        st = bcast__fail(diag, st, "writing the output failed");
    }
    bcast__emit_buf_free(&head);
  }
  if (st == BCAST_OK && stats) *stats = c->stats;
done:
  if (c) {
    for (size_t k = 0; k < c->n_maps; k++) bcast__free(c->maps[k]);
    bcast__emit_buf_free(&c->out);
  }
  bcast__free(c);
  bcast__free(op);
  bcast__free(odiag);
  return st;
}
