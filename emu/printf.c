/* printf: device printf and assert's text.  nvcc passes vprintf the format
 * string and a buffer of the arguments, each at its own alignment: 4 bytes
 * for int and smaller (promoted), 8 for long, long long, pointers and
 * double (float is promoted); the text is formatted on the host, as CUDA's
 * driver does when it flushes the device's printf buffer, and appended to
 * the device's output (emu_output), whose owner writes it out at the
 * points CUDA would. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "access.h"
#include "engine.h"

/* A lane's NUL-terminated string at addr, at most n-1 bytes of it, into out; -1 after a fault. */
static int peek_string(launch *L, warp *w, int lane, uint64_t addr, char *out, size_t n, int pc) {
  size_t k = 0;
  for (; k + 1 < n; k++) {
    char c;
    if (access_peek(L, w, lane, addr + k, &c, 1, pc)) return -1;
    if (!c) break;
    out[k] = c;
  }
  out[k] = 0;
  return 0;
}

static void out_put(emu_dev *e, const char *s, size_t n) { bytes_put(&e->output, s, n); }

int engine_printf(launch *L, warp *w, int lane, uint64_t fmt_addr, uint64_t args, int pc) {
  char fmt[4096], text[8192];
  if (fmt_addr == 0) return -1;
  if (peek_string(L, w, lane, fmt_addr, fmt, sizeof fmt, pc)) return -2;
  size_t len = 0, at = 0;   /* at: the next argument's offset in the buffer */
  for (const char *p = fmt; *p && len < sizeof text - 1;) {
    if (*p != '%') { text[len++] = *p++; continue; }
    if (p[1] == '%') { text[len++] = '%'; p += 2; continue; }
    /* one conversion: flags, width, precision, length, type */
    const char *start = p++;
    while (*p && strchr("-+ #0", *p)) p++;
    while (*p >= '0' && *p <= '9') p++;
    if (*p == '.') { p++; while (*p >= '0' && *p <= '9') p++; }
    int longs = 0;
    while (*p == 'h' || *p == 'l' || *p == 'L' || *p == 'z' || *p == 't' || *p == 'j') {
      if (*p == 'l' || *p == 'L' || *p == 'z' || *p == 't' || *p == 'j') longs++;
      p++;
    }
    char type = *p;
    if (!type || !strchr("diouxXcsfFeEgGaAp", type)) {   /* printed as written, as CUDA's printf does */
      size_t k = (size_t)(p - start) + (*p != 0);
      if (len + k >= sizeof text) break;
      memcpy(text + len, start, k);
      len += k;
      p += *p != 0;
      continue;
    }
    p++;
    /* the conversion's spec, without its length modifiers, for the host's snprintf */
    char spec[64];
    size_t sl = 0;
    for (const char *q = start; q < p && sl < sizeof spec - 4; q++)
      if (!strchr("hlLztj", *q)) spec[sl++] = *q;
    spec[sl] = 0;
    int wide = type == 's' || type == 'p' || strchr("fFeEgGaA", type) || longs > 0;
    int size = wide ? 8 : 4;
    at = (at + (size_t)size - 1) / (size_t)size * (size_t)size;
    uint64_t v = 0;
    if (access_peek(L, w, lane, args + at, &v, size, pc)) return -2;
    at += (size_t)size;
    size_t room = sizeof text - len;
    int k;
    if (type == 's') {
      char s[2048];
      if (v == 0) snprintf(s, sizeof s, "(null)");
      else if (peek_string(L, w, lane, v, s, sizeof s, pc)) return -2;
      k = snprintf(text + len, room, spec, s);
    } else if (type == 'p') {
      k = snprintf(text + len, room, spec, (void *)(uintptr_t)v);
    } else if (strchr("fFeEgGaA", type)) {
      double d;
      memcpy(&d, &v, 8);
      k = snprintf(text + len, room, spec, d);
    } else if (type == 'c') {
      k = snprintf(text + len, room, spec, (int)(unsigned char)v);
    } else {
      /* integers: the argument's width decides its value, the host's long long prints it */
      spec[sl - 1] = 'l', spec[sl] = 'l', spec[sl + 1] = type, spec[sl + 2] = 0;
      int is_signed = type == 'd' || type == 'i';
      if (size == 4) v = is_signed ? (uint64_t)(int64_t)(int32_t)v : (uint32_t)v;
      k = is_signed ? snprintf(text + len, room, spec, (long long)v) : snprintf(text + len, room, spec, (unsigned long long)v);
    }
    if (k < 0) return -1;
    len += (size_t)k < room ? (size_t)k : room - 1;
  }
  out_put(L->ctx, text, len);
  return (int)len;
}

void engine_assert_text(launch *L, warp *w, int lane, uint64_t msg, uint64_t file, uint64_t line, int pc, char *out, size_t n) {
  char m[512], f[512];
  if (peek_string(L, w, lane, msg, m, sizeof m, pc) || peek_string(L, w, lane, file, f, sizeof f, pc)) {
    snprintf(out, n, "assertion failed");
    return;
  }
  snprintf(out, n, "assertion `%s` failed (%s:%u)", m, f, (unsigned)line);
}
