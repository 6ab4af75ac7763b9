/* ptx_names: C++ names for what PTX calls by mangled symbols.
 *
 * A kernel's name is its demangled name without the parameter list (and,
 * for a template instance, without the return type the Itanium ABI encodes):
 * "_Z6reduceILi256EfEvPKT0_PS0_" is "reduce<256, float>".  Its parameters'
 * kinds come from the demangled signature (a pointer or reference is a
 * pointer, a scalar its kind) and their names from the kernel's declaration
 * in the CUDA source, where it can be found: mangled names carry types,
 * never names. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "front.h"
#include "ptx_int.h"
#include "util.h"

#ifdef HAVE___CXA_DEMANGLE
#include <dlfcn.h>
#include <pthread.h>

/* libstdc++'s demangler, the one c++filt uses (its type is C++'s
 * <cxxabi.h>, and this is C).  libstdc++ is opened at the first C++ name
 * (dlopen), not linked: loading it took every gpurace process ~0.4 ms. */
typedef char *demangle_fn(const char *mangled, char *buf, size_t *len, int *status);

static demangle_fn *demangle_ptr;

static void demangler_open(void) {
  void *h = dlopen(GR_STDCXX_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (h) *(void **)&demangle_ptr = dlsym(h, "__cxa_demangle");
  /* a broken installation: said once, and the names stay mangled */
  if (!demangle_ptr)
    fprintf(stderr, "gpurace: C++ names in PTX stay mangled: libstdc++'s demangler (%s) does not load: %s\n", GR_STDCXX_SONAME, dlerror());
}

/* once per process, whichever thread asks first (modules load on any) */
static demangle_fn *demangler(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, demangler_open);
  return demangle_ptr;
}
#endif

char *ptx_demangle(const char *sym) {
  if (strncmp(sym, "_Z", 2)) return NULL;
#ifdef HAVE___CXA_DEMANGLE
  demangle_fn *fn = demangler();
  if (!fn) return NULL;
  int status = 0;
  char *s = fn(sym, NULL, NULL, &status);
  if (status == 0 && s) return s;
  free(s);
#endif
  return NULL;
}

/* The index of the '(' that opens the parameter list closing at the end of s, or -1. */
static long param_open(const char *s) {
  long n = (long)strlen(s);
  while (n > 0 && s[n - 1] == ' ') n--;
  if (n == 0 || s[n - 1] != ')') return -1;
  int depth = 0;
  for (long i = n - 1; i >= 0; i--) {
    if (s[i] == ')') depth++;
    else if (s[i] == '(' && --depth == 0) return i;
  }
  return -1;
}

char *ptx_names_display(arena *ar, const char *sym, const char **sig) {
  *sig = NULL;
  char *dem = ptx_demangle(sym);
  if (!dem) return arena_strndup(ar, sym, strlen(sym));
  *sig = arena_strndup(ar, dem, strlen(dem));
  free(dem);
  long open = param_open(*sig);
  if (open < 0) return arena_strndup(ar, *sig, strlen(*sig));   /* a variable: its name is all there is */
  /* a template instance's return type comes first, up to a space at depth 0 */
  long start = 0;
  int depth = 0;
  for (long i = 0; i < open; i++) {
    char c = (*sig)[i];
    if (c == '<' || c == '(') depth++;
    else if (c == '>' || c == ')') depth--;
    else if (c == ' ' && depth == 0) start = i + 1;
  }
  return arena_strndup(ar, *sig + start, (size_t)(open - start));
}

/* The kind of a C++ scalar type's name, without cv-qualifiers; SK_COUNT if not a scalar. */
static kir_sk scalar_kind(const char *t, size_t n) {
  char buf[128];
  size_t k = 0;
  /* drop const, volatile, __restrict__ words and extra spaces */
  for (size_t i = 0; i < n && k + 1 < sizeof buf;) {
    while (i < n && t[i] == ' ') i++;
    size_t j = i;
    while (j < n && t[j] != ' ') j++;
    size_t w = j - i;
    if (w && !((w == 5 && !strncmp(t + i, "const", 5)) || (w == 8 && !strncmp(t + i, "volatile", 8)) ||
               (w == 12 && !strncmp(t + i, "__restrict__", 12)) || (w == 10 && !strncmp(t + i, "__restrict", 10)))) {
      if (k && k + 1 < sizeof buf) buf[k++] = ' ';
      for (size_t q = i; q < j && k + 1 < sizeof buf; q++) buf[k++] = t[q];
    }
    i = j;
  }
  buf[k] = 0;
  static const struct { const char *n; kir_sk sk; } m[] = {
    {"int", SK_I32}, {"unsigned int", SK_U32}, {"unsigned", SK_U32}, {"float", SK_F32}, {"double", SK_F64},
    {"long", SK_I64}, {"long long", SK_I64}, {"unsigned long", SK_U64}, {"unsigned long long", SK_U64},
    {"short", SK_I16}, {"unsigned short", SK_U16}, {"char", SK_I8}, {"signed char", SK_I8}, {"unsigned char", SK_U8},
    {"bool", SK_BOOL}, {"int8_t", SK_I8}, {"uint8_t", SK_U8}, {"int16_t", SK_I16}, {"uint16_t", SK_U16},
    {"int32_t", SK_I32}, {"uint32_t", SK_U32}, {"int64_t", SK_I64}, {"uint64_t", SK_U64}, {"size_t", SK_U64},
    {"uint", SK_U32}, {"long int", SK_I64}, {"unsigned long int", SK_U64}};
  for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) if (!strcmp(buf, m[i].n)) return m[i].sk;
  return SK_COUNT;
}

/* The kind (and pointee) of a parameter's C++ type text. */
static void type_kind(const char *t, size_t n, kir_sk *sk, kir_sk *pointee) {
  while (n > 0 && (t[n - 1] == ' ')) n--;
  /* a trailing const/volatile/__restrict__ qualifies the pointer itself */
  for (;;) {
    static const char *q[] = {"const", "volatile", "__restrict__", "__restrict"};
    int cut = 0;
    for (size_t k = 0; k < 4; k++) {
      size_t l = strlen(q[k]);
      if (n > l && !strncmp(t + n - l, q[k], l) && (t[n - l - 1] == ' ' || t[n - l - 1] == '*')) { n -= l; cut = 1; }
    }
    while (n > 0 && t[n - 1] == ' ') n--;
    if (!cut) break;
  }
  if (n > 0 && (t[n - 1] == '*' || t[n - 1] == '&')) {
    *sk = SK_PTR;
    size_t b = n - 1;
    int levels = 1;
    while (b > 0 && (t[b - 1] == '*' || t[b - 1] == '&' || t[b - 1] == ' ')) levels += t[--b] != ' ';
    kir_sk e = levels > 1 ? SK_COUNT : scalar_kind(t, b);   /* a pointer to a pointer points at bytes */
    *pointee = e == SK_COUNT ? SK_U8 : e;
    return;
  }
  kir_sk e = scalar_kind(t, n);
  if (e != SK_COUNT) *sk = e;
}

/* Splits a parameter list (without its parentheses) at depth-0 commas. */
static int split_params(const char *s, size_t n, size_t *start, size_t *len, int max) {
  int k = 0, depth = 0;
  size_t b = 0;
  if (n == 0) return 0;
  for (size_t i = 0; i <= n; i++) {
    char c = i < n ? s[i] : ',';
    if (c == '<' || c == '(' || c == '[' || c == '{') depth++;
    else if (c == '>' || c == ')' || c == ']' || c == '}') depth--;
    else if (c == ',' && depth == 0) {
      if (k < max) { start[k] = b; len[k] = i - b; }
      k++;
      b = i + 1;
    }
  }
  return k;
}

/* The source with comments and string literals blanked (same length). */
static char *blank_comments(const char *src) {
  size_t n = strlen(src);
  char *s = xmalloc(n + 1);
  memcpy(s, src, n + 1);
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '/' && s[i + 1] == '/') { while (i < n && s[i] != '\n') s[i++] = ' '; }
    else if (s[i] == '/' && s[i + 1] == '*') {
      s[i] = s[i + 1] = ' ';
      i += 2;
      while (i < n && !(s[i] == '*' && s[i + 1] == '/')) { if (s[i] != '\n') s[i] = ' '; i++; }
      if (i < n) { s[i] = s[i + 1] = ' '; i++; }
    } else if (s[i] == '"' || s[i] == '\'') {
      char q = s[i++];
      while (i < n && s[i] != q && s[i] != '\n') { if (s[i] == '\\' && i + 1 < n) s[i++] = ' '; s[i++] = ' '; }
    }
  }
  return s;
}

#define MAXP 256

/* The replacement text of an object-like macro `#define NAME ...` of the
 * source (its continuation lines joined), where the n bytes at id are one
 * identifier NAME; malloc'd, or NULL. */
static char *macro_body(const char *src, const char *id, size_t n) {
  while (n && isspace((unsigned char)*id)) id++, n--;
  while (n && isspace((unsigned char)id[n - 1])) n--;
  if (!n || isdigit((unsigned char)*id)) return NULL;
  for (size_t k = 0; k < n; k++) if (!isalnum((unsigned char)id[k]) && id[k] != '_') return NULL;
  for (const char *d = strstr(src, "#define"); d; d = strstr(d + 7, "#define")) {
    const char *p = d + 7;
    while (*p == ' ' || *p == '\t') p++;
    if (strncmp(p, id, n) || isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '(') continue;
    p += n;
    bytes b = {0};
    for (; *p && *p != '\n'; p++) {
      if (*p == '\\' && p[1] == '\n') { p++; bytes_put(&b, " ", 1); continue; }
      bytes_put(&b, p, 1);
    }
    bytes_put(&b, "", 1);
    return (char *)b.p;
  }
  return NULL;
}

/* Finds `__global__ ... name(params)` with n parameters in the source. */
static int source_params(const char *source, const char *base, int n, char **texts) {
  if (!source || !*base) return 0;
  char *s = blank_comments(source);
  size_t bl = strlen(base);
  int found = 0;
  for (char *g = strstr(s, "__global__"); g && !found; g = strstr(g + 10, "__global__")) {
    /* the name: the identifier before the first '(' after __global__ that
     * does not open __launch_bounds__(...) or another attribute */
    char *paren = strchr(g + 10, '(');
    for (;;) {
      if (!paren) break;
      char *w = paren;
      while (w > g && w[-1] == ' ') w--;
      char *wb = w;
      while (wb > g && (isalnum((unsigned char)wb[-1]) || wb[-1] == '_')) wb--;
      size_t wl = (size_t)(w - wb);
      int attr = (wl == 17 && !strncmp(wb, "__launch_bounds__", 17)) || (wl == 13 && !strncmp(wb, "__attribute__", 13)) ||
                 (wl == 9 && !strncmp(wb, "__align__", 9)) || (wl == 7 && !strncmp(wb, "alignas", 7)) ||
                 (wl == 9 && !strncmp(wb, "__nv_pure", 9)) || (wl == 11 && !strncmp(wb, "__maxnreg__", 11));
      if (!attr) break;
      int depth = 0;
      char *q = paren;
      for (; *q; q++) { if (*q == '(') depth++; else if (*q == ')' && --depth == 0) break; }
      paren = *q ? strchr(q + 1, '(') : NULL;
    }
    if (!paren) break;
    char *e = paren;
    while (e > g && e[-1] == ' ') e--;
    if (e > g && e[-1] == '>') {   /* an explicit specialisation: name<...>( */
      int depth = 0;
      while (e > g) { e--; if (*e == '>') depth++; else if (*e == '<' && --depth == 0) break; }
      while (e > g && e[-1] == ' ') e--;
    }
    char *b = e;
    while (b > g && (isalnum((unsigned char)b[-1]) || b[-1] == '_')) b--;
    if ((size_t)(e - b) != bl || strncmp(b, base, bl)) continue;
    int depth = 0;
    char *q = paren;
    for (; *q; q++) { if (*q == '(') depth++; else if (*q == ')' && --depth == 0) break; }
    if (!*q) break;
    size_t st[MAXP], ln[MAXP];
    char *list = paren + 1;
    size_t list_len = (size_t)(q - paren - 1);
    int np = split_params(list, list_len, st, ln, MAXP);
    char *macro = np == 1 && n > 1 ? macro_body(s, list + st[0], ln[0]) : NULL;
    if (macro) {   /* the list is a macro's: kernel(GCOL_PARAMS) */
      list = macro;
      list_len = strlen(macro);
      np = split_params(list, list_len, st, ln, MAXP);
    }
    if (np == 1) {   /* (void) or () */
      const char *t = paren + 1 + st[0];
      size_t l = ln[0];
      while (l && isspace((unsigned char)*t)) t++, l--;
      while (l && isspace((unsigned char)t[l - 1])) l--;
      if (l == 0 || (l == 4 && !strncmp(t, "void", 4))) np = 0;
    }
    if (np != n || n > MAXP) { free(macro); continue; }
    for (int k = 0; k < n; k++) {
      texts[k] = xmalloc(ln[k] + 1);
      memcpy(texts[k], list + st[k], ln[k]);
      texts[k][ln[k]] = 0;
      for (char *c = texts[k]; *c; c++) if (isspace((unsigned char)*c)) *c = ' ';
    }
    free(macro);
    found = 1;
  }
  free(s);
  return found;
}

int ptx_names_params(arena *ar, const char *sig, const char *source, const char *display, int n, const char **names,
                     kir_sk *sk, kir_sk *pointee) {
  /* the kinds from the signature */
  if (sig) {
    long open = param_open(sig);
    if (open >= 0) {
      size_t st[MAXP], ln[MAXP];
      size_t end = strlen(sig);
      while (end > 0 && sig[end - 1] != ')') end--;
      int np = split_params(sig + open + 1, end - 1 - (size_t)open - 1, st, ln, MAXP);
      if (np == 1 && ln[0] == 0) np = 0;
      if (np == n)
        for (int k = 0; k < n && k < MAXP; k++) if (sk[k] != SK_COUNT) type_kind(sig + open + 1 + st[k], ln[k], &sk[k], &pointee[k]);
    }
  }
  /* the names (and, for extern "C" kernels, the kinds) from the source */
  const char *base = display;
  const char *colon = strrchr(display, ':');
  char *tmpl = NULL;
  if (colon && !strchr(colon, '<')) base = colon + 1;
  const char *lt = strchr(base, '<');
  if (lt) { tmpl = xmalloc((size_t)(lt - base) + 1); memcpy(tmpl, base, (size_t)(lt - base)); tmpl[lt - base] = 0; base = tmpl; }
  const char *c2 = strrchr(base, ':');
  if (c2) base = c2 + 1;
  char *texts[MAXP];
  int got = n <= MAXP && source_params(source, base, n, texts);
  free(tmpl);
  if (!got) return 0;
  for (int k = 0; k < n; k++) {
    char *t = texts[k];
    char *eq = NULL;
    int depth = 0;
    for (char *c = t; *c; c++) {
      if (*c == '<' || *c == '(' || *c == '[') depth++;
      else if (*c == '>' || *c == ')' || *c == ']') depth--;
      else if (*c == '=' && depth == 0) { eq = c; break; }
    }
    if (eq) *eq = 0;
    size_t l = strlen(t);
    while (l && (t[l - 1] == ' ')) t[--l] = 0;
    while (l && t[l - 1] == ']') {   /* an array parameter is a pointer */
      char *ob = strrchr(t, '[');
      if (!ob) break;
      *ob = 0;
      l = strlen(t);
      while (l && t[l - 1] == ' ') t[--l] = 0;
    }
    size_t e = l;
    while (e > 0 && (isalnum((unsigned char)t[e - 1]) || t[e - 1] == '_')) e--;
    /* a lone word is a type, not a name */
    int named = e < l && e > 0 && !isdigit((unsigned char)t[e]);
    if (named) {
      names[k] = arena_strndup(ar, t + e, l - e);
      if (!sig && sk[k] != SK_COUNT) type_kind(t, e, &sk[k], &pointee[k]);
    }
    free(t);
  }
  return 1;
}
