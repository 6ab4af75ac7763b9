/* lex: tokens of the CUDA C subset, read from preprocessed text.  cpp line
 * markers set the file and line; columns are recovered from the original
 * source lines because cpp collapses whitespace. */
#ifndef GR_LEX_H
#define GR_LEX_H

#include "util.h"

typedef enum {
  TK_EOF, TK_IDENT, TK_INT, TK_FLOAT, TK_CHAR, TK_STRING, TK_PUNCT
} tok_kind;

typedef struct {
  tok_kind kind;
  srcpos pos;
  const char *text;   /* spelling, NUL-terminated (arena) */
  uint64_t ival;
  double fval;
  int is_unsigned, is_long, is_f32;  /* literal suffixes */
  const char *bad;    /* a lexical error, raised only if device code holds the token */
} token;

typedef struct lexer lexer;

/* Tokenises `text` (len bytes).  `file` names the source for positions.
 * With `recover_columns`, line markers are honoured and columns are
 * re-derived from the original files they name; `main_text` (or NULL) is
 * the original of `file` as the caller read it. */
token *lex_all(arena *a, diag *d, const char *file, const char *text, size_t len,
               int recover_columns, const char *main_text, size_t main_len, size_t *ntok);

#endif
