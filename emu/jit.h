/* jit: the compiled engine (engine-internal).
 *
 * A kernel's KIR becomes C (jit_emit), which the system's C compiler, the
 * one configure found (GR_JIT_CC), compiles into a shared object that the
 * engine loads with dlopen; simt_run_ahead calls it where a full warp
 * reaches one of its entries (jit_abi.h says what it runs and where it
 * stops).  Its meaning is the interpreter's by construction: every op's
 * lane function is kir_sem.h's, the header the interpreter inlines, its
 * text embedded in gpurace and compiled into the object; the control
 * (stops, back edges, fused comparisons) is the run-ahead's, checked by
 * tests/engines.sh and the differential fuzzer (jit_fuzz).
 *
 * Why C and the system compiler, not LLVM's ORC JIT or libgccjit: the
 * compiler is already on every machine that builds gpurace (no new
 * dependency), the code it makes from this C is what LLVM or libgccjit
 * would make (the same optimisers), and the latency that LLVM would save
 * (tens of milliseconds a kernel) is paid once per kernel, machine and
 * gpurace build: objects are cached on disk by the hash of their C text,
 * the compiler's command and the CPU's vector extensions (bounded by
 * JIT_CACHE_MAX bytes, oldest first out), and in memory for
 * the process.  docs/engine.md has the measurements. */
#ifndef GR_JIT_H
#define GR_JIT_H

#include <stddef.h>
#include <stdint.h>

#include "jit_abi.h"
#include "kir.h"

typedef struct jit_code {
  jit_fn fn;                             /* the stretches' function, or NULL: */
  jit_whole_fn whole_check, whole_run;   /* a whole warp's (jit_whole_key), or NULL */
  const uint8_t *entry;   /* per pc: 1 where fn may be entered */
  int ncode;
} jit_code;

/* jit_code.entry's bits: JIT_ENTRY where fn may be entered; JIT_STOP
 * where a reconvergence point is (a stretch entered with its rpc at any
 * other pc but -1 and the end must not run compiled code: it would not
 * stop there). */
enum { JIT_ENTRY = 1, JIT_STOP = 2 };

/* The C text of f's compiled code, appended to out. */
void jit_emit(const kir_func *f, bytes *out);

/* f's compiled code (key: jit_key(f)), compiled now (the compiler's
 * seconds added to *compile_s) or found in a cache (cache_dir: the
 * disk's, "" for the default place: $XDG_CACHE_HOME/gpurace, else
 * $HOME/.cache/gpurace, else /tmp/gpurace-cache-UID), or NULL with the
 * reason in why.  Thread-safe; the code lives as long as the process. */
const jit_code *jit_get(const kir_func *f, uint64_t key, const char *cache_dir, double *compile_s, char *why, size_t n);

/* In the background (--engine auto): jit_key is the key of f's code (its
 * C text's hash, as the cache names it); jit_begin starts the compiler
 * unless the code is in memory, on disk or being compiled already (0), or
 * says why it cannot (-1); jit_ready gives the code where it is ready,
 * loading it from the disk or from a background compile that ended (the
 * compile's seconds, from its start, added to *compile_s), else NULL, with
 * *failed and why where that compile failed. */
uint64_t jit_key(const kir_func *f);
int jit_begin(const kir_func *f, uint64_t key, const char *cache_dir, char *why, size_t n);
const jit_code *jit_ready(const kir_func *f, uint64_t key, const char *cache_dir, double *compile_s, int *failed, char *why,
                          size_t n);

/* f's whole warp's functions (jit_abi.h's JIT_WHOLE), an object of their
 * own (its jit_code's fn NULL, whole_check and whole_run set), made only
 * for a launch that can run a warp at a time (emu/whole.h), as jit_get,
 * jit_begin and jit_ready make the stretches' (jit_ready takes either
 * key).  jit_whole_key: its key, or 0 where f has none (an instruction
 * other than those, or code too large). */
uint64_t jit_whole_key(const kir_func *f);
const jit_code *jit_whole_get(const kir_func *f, uint64_t key, const char *cache_dir, double *compile_s, char *why, size_t n);
int jit_whole_begin(const kir_func *f, uint64_t key, const char *cache_dir, char *why, size_t n);

#define JIT_CACHE_MAX ((uint64_t)256 << 20)

#endif
