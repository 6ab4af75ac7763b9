#include "lex.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Original files, loaded on demand to recover token columns. */
typedef struct { const char *name; const char *text; size_t len; const char **lines; const char **ends; int nlines; } origfile;

typedef struct {
  arena *a; diag *d;
  const char *p, *end, *line_start;
  srcpos pos;               /* file and line of the current line */
  int recover;
  vec files;                /* origfile */
  origfile *cur_orig;
  int orig_cursor;          /* search cursor within the current original line */
  int cursor_line;
  const char *main_name, *main_text;   /* the kernel file as the caller read it */
  size_t main_len;
} lx;

#define MAX_RECOVER_FILE ((size_t)64 << 20)

static const char *intern_file(lx *L, const char *name, size_t n) {
  for (size_t i = 0; i < L->files.len; i++) {
    origfile *f = vec_at(&L->files, i);
    if (strlen(f->name) == n && !memcmp(f->name, name, n)) { L->cur_orig = f; return f->name; }
  }
  origfile *f = vec_push(&L->files);
  f->name = arena_strndup(L->a, name, n);
  if (L->recover && L->main_text && !strcmp(f->name, L->main_name)) {
    f->text = L->main_text;
    f->len = L->main_len;
  } else if (L->recover) {
    /* only regular files: a header named as a FIFO or device must not block or grow */
    struct stat st;
    FILE *fp = stat(f->name, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size <= MAX_RECOVER_FILE ? fopen(f->name, "rb") : NULL;
    if (fp) {
      char *t = arena_alloc(L->a, (size_t)st.st_size + 1);
      f->len = fread(t, 1, (size_t)st.st_size, fp);
      fclose(fp);
      f->text = t;
    }
  }
  if (f->text) {
    int n_lines = 1;
    for (size_t i = 0; i < f->len; i++) n_lines += f->text[i] == '\n';
    f->lines = arena_alloc(L->a, sizeof(char *) * (size_t)(n_lines + 1));
    f->ends = arena_alloc(L->a, sizeof(char *) * (size_t)(n_lines + 1));
    f->lines[0] = f->text;
    int k = 1;
    for (size_t i = 0; i < f->len; i++) if (f->text[i] == '\n') { f->ends[k - 1] = f->text + i; f->lines[k++] = f->text + i + 1; }
    f->ends[k - 1] = f->text + f->len;
    f->nlines = n_lines;
  }
  L->cur_orig = f;
  return f->name;
}

/* Column of `spell` in the original line, searched from the cursor, so that
 * tokens after collapsed whitespace point where the user wrote them. */
static int recover_col(lx *L, const char *spell, size_t n, int fallback) {
  origfile *f = L->cur_orig;
  if (!L->recover || !f || !f->text || L->pos.line < 1 || L->pos.line > f->nlines) return fallback;
  if (L->cursor_line != L->pos.line) { L->cursor_line = L->pos.line; L->orig_cursor = 0; }
  const char *ls = f->lines[L->pos.line - 1];
  const char *le = f->ends[L->pos.line - 1];   /* not searched per token: one long line stays linear */
  for (const char *s = ls + L->orig_cursor; s + n <= le; s++) {
    if (*s == *spell && !memcmp(s, spell, n)) {
      L->orig_cursor = (int)(s - ls + (ptrdiff_t)n);
      return (int)(s - ls) + 1;
    }
  }
  return fallback;
}

static const char *puncts[] = {
  "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
  "+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=", "::",
  "[", "]", "(", ")", "{", "}", ".", "&", "*", "+", "-", "~", "!", "/", "%", "<", ">",
  "^", "|", "?", ":", ";", "=", ",", "#", NULL
};

static void line_marker(lx *L) {
  /* "# 12 "file" flags" or "#line 12 "file"" or "#pragma ..." */
  const char *s = L->p + 1;
  while (s < L->end && (*s == ' ' || *s == '\t')) s++;
  if (L->end - s >= 4 && !memcmp(s, "line", 4)) s += 4;
  while (s < L->end && (*s == ' ' || *s == '\t')) s++;
  if (s < L->end && isdigit((unsigned char)*s)) {
    long ln = 0;  /* bounded by the buffer: the text need not be NUL-terminated */
    while (s < L->end && isdigit((unsigned char)*s)) { if (ln < 100000000) ln = ln * 10 + (*s - '0'); s++; }
    while (s < L->end && *s == ' ') s++;
    if (s < L->end && *s == '"') {
      const char *q = ++s;
      while (q < L->end && *q != '"' && *q != '\n') q++;
      L->pos.file = intern_file(L, s, (size_t)(q - s));
    }
    L->pos.line = (int)ln - 1;  /* the newline that ends the marker advances it */
  }
  /* pragmas and markers alike: skip to end of line (#pragma unroll is a hint only) */
  while (L->p < L->end && *L->p != '\n') L->p++;
}

token *lex_all(arena *a, diag *d, const char *file, const char *text, size_t len,
               int recover, const char *main_text, size_t main_len, size_t *ntok) {
  lx L = {0};
  L.a = a; L.d = d; L.p = text; L.end = text + len; L.line_start = text; L.recover = recover;
  L.main_name = file; L.main_text = main_text; L.main_len = main_len;
  vec_init_arena(&L.files, sizeof(origfile), a);
  L.pos.file = intern_file(&L, file, strlen(file));
  L.pos.line = 1;
  vec toks; vec_init_arena(&toks, sizeof(token), a);
  int at_line_start = 1;
  for (;;) {
    const char *p = L.p;
    if (p >= L.end) break;
    char c = *p;
    if (c == '\n') { L.p++; L.pos.line++; L.line_start = L.p; at_line_start = 1; continue; }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') { L.p++; continue; }
    if (c == '\\' && p + 1 < L.end && p[1] == '\n') { L.p += 2; L.pos.line++; L.line_start = L.p; continue; }
    srcpos tp = L.pos;
    tp.col = (int)(p - L.line_start) + 1;
    if (c == '#' && at_line_start) {
      /* line markers exist only in cpp output; raw text has no preprocessor */
      if (!recover && !(L.end - p >= 7 && !memcmp(p, "#pragma", 7)))
        diag_fail(d, tp, "preprocessor directive in source that is not preprocessed (load the file by path)");
      line_marker(&L);
      continue;
    }
    at_line_start = 0;
    if (c == '/' && p + 1 < L.end && p[1] == '/') { while (L.p < L.end && *L.p != '\n') L.p++; continue; }
    if (c == '/' && p + 1 < L.end && p[1] == '*') {
      L.p += 2;
      while (L.p + 1 < L.end && !(L.p[0] == '*' && L.p[1] == '/')) {
        if (*L.p == '\n') { L.pos.line++; L.line_start = L.p + 1; }
        L.p++;
      }
      if (L.p + 1 >= L.end) diag_fail(d, tp, "unterminated comment");
      L.p += 2;
      continue;
    }
    token *t = vec_push(&toks);
    if (isalpha((unsigned char)c) || c == '_' || c == '$') {
      while (L.p < L.end && (isalnum((unsigned char)*L.p) || *L.p == '_' || *L.p == '$')) L.p++;
      t->kind = TK_IDENT;
    } else if (isdigit((unsigned char)c) || (c == '.' && p + 1 < L.end && isdigit((unsigned char)p[1]))) {
      const char *q = p;
      int is_float = 0, hex = 0;
      if (c == '0' && q + 1 < L.end && (q[1] == 'x' || q[1] == 'X')) { hex = 1; q += 2; }
      while (q < L.end) {
        char ch = *q;
        if (isalnum((unsigned char)ch) || ch == '.' || ch == '_') {
          if (ch == '.') is_float = 1;
          if (!hex && (ch == 'e' || ch == 'E')) {
            is_float = 1;
            if (q + 1 < L.end && (q[1] == '+' || q[1] == '-')) q++;
          }
          if (hex && (ch == 'p' || ch == 'P')) {
            is_float = 1;
            if (q + 1 < L.end && (q[1] == '+' || q[1] == '-')) q++;
          }
          q++;
        } else break;
      }
      L.p = q;
      char buf[128];
      size_t n = (size_t)(q - p);
      if (n >= sizeof buf) { t->bad = "numeric literal too long"; n = sizeof buf - 1; }
      memcpy(buf, p, n); buf[n] = 0;
      char *e;
      errno = 0;
      if (is_float) {
        t->kind = TK_FLOAT;
        t->fval = strtod(buf, &e);
        if (*e == 'f' || *e == 'F') { t->is_f32 = 1; e++; }
        else if (*e == 'l' || *e == 'L') e++;
      } else {
        t->kind = TK_INT;
        int base = hex ? 16 : (buf[0] == '0' && n > 1 && isdigit((unsigned char)buf[1])) ? 8 : 10;
        t->ival = strtoull(buf, &e, base);
        if (errno == ERANGE && !t->bad) t->bad = arena_printf(a, "integer literal '%s' is too large", buf);
        for (;;) {
          if (*e == 'u' || *e == 'U') { t->is_unsigned = 1; e++; }
          else if (*e == 'l' || *e == 'L') { t->is_long = 1; e++; }
          else break;
        }
      }
      if (*e && !t->bad) t->bad = arena_printf(a, "invalid numeric literal '%s'", buf);
    } else if (c == '\'' || c == '"') {
      char quote = c;
      L.p++;
      uint64_t v = 0;
      int nch = 0;
      while (L.p < L.end && *L.p != quote && *L.p != '\n') {
        unsigned char ch = (unsigned char)*L.p++;
        if (ch == '\\' && L.p < L.end) {
          char esc = *L.p++;
          switch (esc) {
          case 'n': ch = '\n'; break; case 't': ch = '\t'; break; case 'r': ch = '\r'; break;
          case '0': ch = 0; break; case '\\': ch = '\\'; break; case '\'': ch = '\''; break;
          case '"': ch = '"'; break; case 'a': ch = 7; break; case 'b': ch = 8; break;
          case 'f': ch = 12; break; case 'v': ch = 11; break;
          case 'x': {
            unsigned x = 0; int k = 0;
            while (L.p < L.end && isxdigit((unsigned char)*L.p) && k < 2) {
              char h = *L.p++; k++;
              x = x * 16 + (unsigned)(isdigit((unsigned char)h) ? h - '0' : (tolower((unsigned char)h) - 'a' + 10));
            }
            ch = (unsigned char)x; break;
          }
          default:
            /* host strings may hold any escape; device code never reads strings */
            if (!t->bad) t->bad = arena_printf(a, "unknown escape sequence '\\%c'", esc);
          }
        }
        v = ch; nch++;
      }
      if (L.p >= L.end || *L.p != quote) diag_fail(d, tp, "unterminated %s literal", quote == '"' ? "string" : "character");
      L.p++;
      if (quote == '\'') {
        if (nch != 1 && !t->bad) t->bad = "character literal must hold exactly one character";
        t->kind = TK_CHAR; t->ival = v;
      } else t->kind = TK_STRING;
    } else {
      const char *m = NULL;
      for (int i = 0; puncts[i]; i++) {
        if (puncts[i][0] != c) continue;
        size_t n = strlen(puncts[i]);
        if ((size_t)(L.end - p) >= n && !memcmp(p, puncts[i], n)) { m = puncts[i]; break; }
      }
      if (!m) {
        /* an error only where device code holds it: the parser checks */
        t->bad = isprint((unsigned char)c) ? arena_printf(a, "stray '%c' in program", c)
                                           : arena_printf(a, "stray byte 0x%02x in program", (unsigned char)c);
        L.p++;
      } else L.p += strlen(m);
      t->kind = TK_PUNCT;
    }
    t->text = arena_strndup(a, p, (size_t)(L.p - p));
    tp.col = recover_col(&L, p, (size_t)(L.p - p), tp.col);
    t->pos = tp;
  }
  token *e = vec_push(&toks);
  e->kind = TK_EOF; e->text = "end of file"; e->pos = L.pos; e->pos.col = (int)(L.p - L.line_start) + 1;
  *ntok = toks.len;
  return toks.data;
}
