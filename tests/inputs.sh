#!/bin/sh
# Inputs that used to crash, hang or be misread (issue 16, part 2): each is
# now a loud error with a position and a non-zero status, or runs right.
G=${GPURACE:-./gpurace}
S=${GR_SRCDIR:-.}
. "$S/tests/lib.sh"

k() { cat > "$T/$1"; }   # k NAME <<'K' ... K: writes a kernel file

# 1. long right-associative chains are bounded, not a stack overflow
python3 - "$T" <<'P'
import sys
t = sys.argv[1]
n = 20000
open(t + "/cond.cu", "w").write("__global__ void k(int *o) { o[0] = " + "1 ? " * n + "1" + " : 0" * n + "; }\n")
open(t + "/assign.cu", "w").write("__global__ void k(int *o) { int a; a" + " = a" * n + " = 1; o[0] = a; }\n")
open(t + "/plus.cu", "w").write("__global__ void k(int *o) { int a = 0; a" + " += a" * n + "; o[0] = a; }\n")
open(t + "/longline.cu", "w").write("//@ launch k grid(1) block(1)\n//@ buffer o i32[1]\n//@ check o = 0\n__global__ void k(int *o) { int a = 0; " + "a = a + 0; " * 400000 + "o[0] = a; }\n")
defs = ["__device__ int f0(int x) { return x + 1; }"]
for i in range(1, 41): defs.append("__device__ int f%d(int x) { return f%d(x) + f%d(x); }" % (i, i - 1, i - 1))
open(t + "/blowup.cu", "w").write("\n".join(defs) + "\n__global__ void k(int *o) { o[0] = f40(1); }\n")
P
for f in cond assign plus; do
  expect 2 "$f chain of 20000 levels" -- "$G" ir "$T/$f.cu"
  contains "$T/err" "nesting too deep (more than 200 levels; --max-nesting raises it)" "$f chain: the nesting bound"
done
expect 2 "--max-nesting is capped by the C stack" -- "$G" ir --max-nesting 100000 "$T/cond.cu"
contains "$T/err" "--max-nesting needs an integer from 1 to 1000" "the cap is named"
expect 2 "--max-nesting 1000 still refuses 20000 levels" -- "$G" ir --max-nesting 1000 "$T/cond.cu"
contains "$T/err" "more than 1000 levels" "the raised bound is used"
# 8. one 4 MB line: column recovery is linear (this ran 98 s)
expect 0 "a 4 MB line" -- timeout 60 "$G" run "$T/longline.cu"
# 8. inlining without bound: 2^40 calls
expect 2 "inlining blow-up is bounded" -- timeout 60 "$G" ir "$T/blowup.cu"
contains "$T/err" "kernel code exceeds 1048576 KIR instructions" "the code bound is named"
expect 2 "--max-code lowers it" -- "$G" ir --max-code 10 "$S/kernels/examples/reduce.cu"

# 2. a NUL byte and a byte-order mark
printf '//@ launch k grid(1) block(1)\n//@ buffer o i32[1]\n__global__ void k(int *o) { o[0] = 1; }\n\000\n//@ check o = 2\n' > "$T/nul.cu"
expect 2 "a NUL byte is an error, not the end of the directives" -- "$G" run "$T/nul.cu"
contains "$T/err" "nul.cu:4:1: error: the file holds a NUL byte" "NUL: position"
printf '\357\273\277//@ launch k grid(1) block(1)\n//@ buffer o i32[1]\n//@ check o = 1\n__global__ void k(int *o) { o[0] = 1; }\n' > "$T/bom.cu"
expect 0 "a BOM does not hide the directive on line 1" -- "$G" run "$T/bom.cu"

# 3. sizes never wrap
k big2d.cu <<'K'
__global__ void k(int *o) { __shared__ char a[1LL << 32][1LL << 32]; a[0][0] = 1; o[0] = sizeof(a); }
K
expect 2 "2^64-byte shared array" -- "$G" ir "$T/big2d.cu"
contains "$T/err" "array too large (2^40 bytes or more)" "2^64 bytes: too large"
k bigstruct.cu <<'K'
struct S { char a[4294967296]; int b; };
//@ launch k grid(1) block(1)
//@ buffer o u64[1]
//@ check o = 4294967300
__global__ void k(unsigned long *o) { o[0] = sizeof(struct S); }
K
expect 0 "a 2^32+4-byte struct has that size" -- "$G" run "$T/bigstruct.cu"
k biglocal.cu <<'K'
struct S { char a[4294967296]; int b; };
__global__ void k(int *o) { struct S s; s.b = 1; o[0] = s.b; }
K
expect 2 "a 4 GiB local struct exceeds the 1 MiB frame" -- "$G" ir "$T/biglocal.cu"
contains "$T/err" "biglocal.cu:2:38: error: local memory of a thread exceeds 1 MiB" "local bound: position"

# 4. address arithmetic never carries into another allocation or space
k farindex.cu <<'K'
//@ launch k grid(1) block(1)
//@ buffer o i32[4]
//@ buffer p i32[4]
__global__ void k(int *o, int *p) { o[1 << 30] = 7; p[0] = 1; }
K
expect 3 "o[1<<30] is out of bounds of o" -- "$G" run "$T/farindex.cu"
contains "$T/err" "out-of-bounds global store of 4 bytes at offset 4294967296 of 'o' (16 bytes): the address was computed by arithmetic that left it" "o[1<<30]: names o"
k below.cu <<'K'
//@ launch k grid(1) block(1)
//@ buffer nlist i32[4]
//@ buffer o i32[4]
__global__ void k(int *o, int *nlist) { o[0] = nlist[-1]; }
K
expect 3 "nlist[-1] names nlist" -- "$G" run "$T/below.cu"
contains "$T/err" "out-of-bounds global load of 4 bytes at offset -4 of 'nlist' (16 bytes)" "nlist[-1]"
k sharedneg.cu <<'K'
//@ launch k grid(1) block(32)
//@ buffer o i32[32]
__global__ void k(int *o) { __shared__ int s[32]; s[threadIdx.x - 1] = 1; __syncthreads(); o[threadIdx.x] = s[threadIdx.x]; }
K
expect 3 "s[-1] is a shared store" -- "$G" run "$T/sharedneg.cu"
contains "$T/err" "out-of-bounds shared store of 4 bytes" "s[-1]: a shared store"
k localneg.cu <<'K'
//@ launch k grid(1) block(1)
//@ buffer o i32[4]
__global__ void k(int *o) { int a[4]; int i = o[0] - 1; a[i] = 1; o[1] = a[0]; }
K
expect 3 "a[-1] on a local array is a local store" -- "$G" run "$T/localneg.cu"
contains "$T/err" "out-of-bounds local store of 4 bytes" "a[-1]: local"
k localhuge.cu <<'K'
//@ launch k grid(1) block(1)
//@ buffer o i32[4]
__global__ void k(int *o) { int a[4]; long i = -(1L << 54) + o[0]; a[i] = 1; o[1] = a[0]; }
K
expect 3 "a[-(1<<54)] stays in local memory" -- "$G" run "$T/localhuge.cu"
contains "$T/err" "out-of-bounds local store of 4 bytes at offset -72057594037927936 of local memory of the thread" "a[-2^54]: local"

# 5. redefinitions nvcc rejects
for c in "dup_local:__global__ void k(int *o) { int a = 1; int a = 2; o[0] = a; }:1:44: error: redefinition of 'a'" \
         "dup_param:__device__ int f(int x, int x) { return x; } __global__ void k(int *o) { o[0] = f(1, 2); }:1:16: error: redefinition of parameter 'x'" \
         "dup_enum:__global__ void k(int *o) { enum { A, B, A }; o[0] = A; }:1:42: error: redefinition of 'A'" \
         "dup_global:__device__ int g = 1; __device__ int g = 2; __global__ void k(int *o) { o[0] = g; }:1:38: error: redefinition of 'g'" \
         "dup_kernel:__global__ void k(int *o); __global__ void k(float *o) { o[0] = 1; }:1:44: error: conflicting types for 'k'" \
         "const_write:__constant__ int c[4]; __global__ void k(int *o) { c[0] = 1; o[0] = c[0]; }:1:57: error: assignment of read-only location"; do
  name=${c%%:*}; rest=${c#*:}; src=${rest%%:1:*}; msg=1:${rest#*:1:}
  printf '%s\n' "$src" > "$T/$name.cu"
  expect 2 "$name" -- "$G" ir "$T/$name.cu"
  contains "$T/err" "$name.cu:$msg" "$name: message and position"
done

# 6. and 7. directive values are checked against their types, never wrapped
d() {  # d NAME DIRECTIVES... : a kernel file with one u8 buffer o and an int arg n
  name=$1; shift
  { for x in "$@"; do printf '//@ %s\n' "$x"; done
    printf '__global__ void k(unsigned char *o, int n) { o[0] = (unsigned char)n; }\n'; } > "$T/$name.cu"
}
d chk256 "launch k grid(1) block(1)" "buffer o u8[1]" "arg n = 0" "check o = 256"
expect 2 "check o = 256 on u8" -- "$G" run "$T/chk256.cu"
contains "$T/err" "chk256.cu:4:1: error: check value 1 of 'o' is out of range (u8)" "256 on u8: position"
d buf300 "launch k grid(1) block(1)" "buffer o u8[1] = 300" "arg n = 0"
expect 2 "buffer u8 = 300" -- "$G" run "$T/buf300.cu"
contains "$T/err" "buf300.cu:2:22: error: value 300 is out of range (u8)" "300 on u8: position"
d arg32 "launch k grid(1) block(1)" "buffer o u8[1]" "arg n = 4294967296"
expect 2 "int arg of 2^32" -- "$G" run "$T/arg32.cu"
contains "$T/err" "arg32.cu:3:1: error: argument 'n' is out of range for parameter type i32" "2^32 for an int"
d chkfloat "launch k grid(1) block(1)" "buffer o u8[1]" "arg n = 1" "check o = 1.0"
expect 2 "check = 1.0 on an integer buffer" -- "$G" run "$T/chkfloat.cu"
contains "$T/err" "chkfloat.cu:4:1: error: check value 1 of 'o' is not an integer (u8)" "1.0 on u8"
d chkname "launch k grid(1) block(1)" "buffer o u8[1]" "arg n = 1" "check q = 1"
expect 2 "check names no buffer" -- "$G" run "$T/chkname.cu"
contains "$T/err" "chkname.cu:4:1: error: check names 'q'" "unknown check name: position"
d grid2 "launch k grid(1) block(1) grid(2)" "buffer o u8[1]" "arg n = 1"
expect 2 "grid twice" -- "$G" run "$T/grid2.cu"
contains "$T/err" "grid2.cu:1:31: error: 'grid' given twice in one launch" "grid twice: position"
d expect2 "launch k grid(1) block(1)" "buffer o u8[1]" "arg n = 1" "expect race" "expect norace"
expect 2 "expect twice" -- "$G" run "$T/expect2.cu"
contains "$T/err" "expect2.cu:5:5: error: a second expect directive (the first is on line 4)" "expect twice: position"
long=$(printf 'K%.0s' $(seq 1 300))
d knob "launch k grid(1) block(1)" "buffer o u8[1]" "arg n = 1" "expect race if $long"
expect 2 "a knob name over the limit" -- "$G" run "$T/knob.cu"
contains "$T/err" "knob.cu:4:20: error: name too long (at most 255 characters)" "long knob: one error, not two knobs"
d meta "launch k grid(1) block(1)" "buffer o u8[1]" "arg n = 1" "meta id $long"
expect 2 "a meta value over the limit" -- "$G" run "$T/meta.cu"
contains "$T/err" "meta value too long (at most 255 characters)" "long meta value"
k f32.cu <<'K'
//@ launch k grid(1) block(1)
//@ buffer o f32[1]
//@ check o = 0.1
__global__ void k(float *o) { o[0] = 0.1f; }
K
expect 0 "f32 check values are rounded to f32" -- "$G" run "$T/f32.cu"
k u64.cu <<'K'
//@ launch k grid(1) block(1)
//@ buffer o u64[4] = random(1, 0, 18446744073709551615)
__global__ void k(unsigned long *o) { o[0] = o[0]; }
K
expect 0 "random(1, 0, 2^64-1) on u64 is not empty" -- "$G" run "$T/u64.cu"
d iota "launch k grid(1) block(1)" "buffer o u8[10] = iota(250)" "arg n = 1"
expect 2 "iota past the type's range" -- "$G" run "$T/iota.cu"
contains "$T/err" "iota's last element (index 9) leaves the range of u8" "iota wraps no more"

# 8. preprocessor inputs that never end
printf '#include "/dev/zero"\n__global__ void k(int *o) { o[0] = 1; }\n' > "$T/zero.cu"
expect 2 "#include \"/dev/zero\" is bounded" -- timeout 60 "$G" ir --max-source 1000000 "$T/zero.cu"
contains "$T/err" "zero.cu:1:1: error: the preprocessor ran out of its 2048 MiB of memory" "cpp is bounded, at the #include"
printf '#include "self.cu"\n__global__ void k(int *o) { o[0] = 1; }\n' > "$T/self.cu"
expect 2 "a self-#include" -- "$G" ir "$T/self.cu"
contains "$T/err" "#include nested depth" "cpp's own error is shown"

# 9. undefined warp operations
w() {  # w NAME BODY: a one-warp kernel
  printf '//@ launch k grid(1) block(32)\n//@ buffer o i32[32]\n__global__ void k(int *o) { int t = threadIdx.x; int v = t; %s o[t] = v; }\n' "$2" > "$T/$1.cu"
}
w sw0 '__syncwarp(0);'
w swlane 'if (t < 16) __syncwarp(0xffff0000);'
w swhalf 'if (t < 16) __syncwarp();'
w shfl0 'v = __shfl_sync(0, v, 0);'
w width3 'v = __shfl_sync(0xffffffff, v, 0, 3);'
w width64 'v = __shfl_sync(0xffffffff, v, 0, 64);'
w halfshfl 'if (t < 16) v = __shfl_sync(0xffffffff, v, 0);'
for c in "sw0:__syncwarp(0x00000000) by thread (0,0,0)" "swlane:the mask does not name the calling lane" \
         "swhalf:the mask names live lanes that are not executing it with this lane (lanes 16-31)" \
         "shfl0:__shfl_sync(0x00000000)" "width3:shuffle width 3" "width64:shuffle width 64" \
         "halfshfl:the mask names live lanes that are not executing it"; do
  expect 3 "${c%%:*}" -- "$G" run "$T/${c%%:*}.cu"
  contains "$T/err" "${c#*:}" "${c%%:*}: the error"
done
w swpart 'if (t < 16) __syncwarp(0xffff); else __syncwarp(0xffff0000);'
expect 0 "__syncwarp with each half's own mask is fine" -- "$G" run "$T/swpart.cu"
w atomlocal 'int x = 0; atomicAdd(&x, 1); v = x;'
expect 3 "atomicAdd on local memory" -- "$G" run "$T/atomlocal.cu"
contains "$T/err" "atomic add on local memory" "atomics on local memory are refused"

# --keep-going: a memory error and a race, both reported
k oobrace.cu <<'K'
//@ launch k grid(2) block(32)
//@ buffer o i32[32]
//@ buffer r i32[1]
__global__ void k(int *o, int *r) {
  o[threadIdx.x + 32 * blockIdx.x] = 1;   /* block 1 is out of bounds */
  r[0] = blockIdx.x;                      /* a race between the blocks */
}
K
expect 3 "first memory error ends the run" -- "$G" run --detect hb "$T/oobrace.cu"
expect 3 "--keep-going: exit 3 with every report" -- "$G" run --keep-going --detect hb "$T/oobrace.cu"
contains "$T/err" "oobrace.cu:5:36: error: out-of-bounds global store" "the memory error"
contains "$T/err" "error: 32 memory errors in 'k' (accesses dropped, loads read 0)" "the summary"
contains "$T/out" "hb 1 race report" "and the race"

# 8. table --notes reads a bounded file; litmus --exhaustive has a time bound
expect 2 "table --notes /dev/zero" -- timeout 60 "$G" table "$S/kernels/examples/reduce.cu" --detect hb --notes /dev/zero --out "$T/tab" -q
contains "$T/err" "the notes file '/dev/zero' is larger than 4 MiB" "notes bound"
k big.cu <<'K'
//@ litmus BIG G
//@ launch litmus grid(4) block(1)
//@ buffer x u32[4] = 0
//@ buffer out u32[16] = 0
//@ observe r0=out[0] r1=out[1]
//@ outcome r0=1 r1=0 allowed-optional
__global__ void litmus(unsigned *x, unsigned *out) {
  unsigned b = blockIdx.x;
  for (int i = 0; i < 4; i++) { x[(b + i) % 4] = b + i; out[b * 4 + i] = x[(b + i + 1) % 4]; }
}
K
expect 1 "an exhaustive search that runs out of time fails" -- timeout 120 "$G" litmus --exhaustive --max-seconds 1 "$T/big.cu"
contains "$T/out" "time bound of 1 s reached after" "the time bound is named"
contains "$T/out" "1 tests, 0 passed, 1 failed" "and the test is failed"

# 10. a litmus observe outside its buffer fails at load, and is counted failed
sed 's/observe r1=out\[0\]/observe r1=out[99]/' "$S/kernels/litmus/M1_mp_W.cu" > "$T/obs.cu"
grep -q 'out\[99\]' "$T/obs.cu" || echo "FAIL: the observe test's sed did not apply"
expect 2 "observe index out of range" -- "$G" litmus --runs 5 "$T/obs.cu"
contains "$T/err" "error: observe r1=out[99]: 'out' has" "the observe error has a position"
contains "$T/out" "1 tests, 0 passed, 1 failed" "a file that fails to load is a failed test"

# struct parameters: the list matches the struct, values fit their fields
k sp.cu <<'K'
//@ launch k grid(1) block(1)
//@ buffer o i32[1]
//@ arg s = {1, 300}
struct S { int a; unsigned char b; };
__global__ void k(S s, int *o) { o[0] = s.a + s.b; }
K
expect 2 "a struct field value out of range" -- "$G" run "$T/sp.cu"
contains "$T/err" "sp.cu:3:1: error: argument 's': value 2 is out of range (u8)" "struct leaf range"
sed -i 's/^\/\/@ arg s = {1, 300}/\/\/@ arg s = {1}/' "$T/sp.cu"
expect 2 "a struct list of the wrong length" -- "$G" run "$T/sp.cu"
contains "$T/err" "argument 's' has 1 values; the struct has 2 scalar fields" "struct list length"
sed -i 's/^\/\/@ arg s = {1}/\/\/@ arg s = 1/' "$T/sp.cu"
expect 2 "a number for a struct" -- "$G" run "$T/sp.cu"
contains "$T/err" "argument 's' is a struct: give its 2 values" "struct needs a list"

# --keep-going reaches table runs: the race is found, the failure named
k tabkg.cu <<'K'
//@ launch k grid(2) block(32)
//@ buffer o i32[32]
//@ buffer r i32[1]
//@ expect race
__global__ void k(int *o, int *r) { o[threadIdx.x + 32 * blockIdx.x] = 1; r[0] = blockIdx.x; }
K
expect 0 "table --keep-going" -- "$G" table "$T/tabkg.cu" --detect hb --keep-going --out "$T/tabkg" -q
contains "$T/tabkg.md" "race (1): missing device fence; run failed on 1/1 seeds" "the race and the failure"
expect 1 "table without it misses the race" -- "$G" table "$T/tabkg.cu" --detect hb --out "$T/tabkg" -q

# GCC's builtins as nvcc accepts them (NVRTC does not: emulator only)
k builtins.cu <<'K'
//@ launch k grid(1) block(4)
//@ buffer o i32[4]
//@ check o = {7, 7, 0, 0}
__global__ void k(int *o) {
  int src[2] = {7, 7}, dst[4];
  __builtin_memset(dst, 0, sizeof dst);
  __builtin_memcpy(dst, src, sizeof src);
  o[threadIdx.x] = dst[threadIdx.x];
}
K
expect 0 "__builtin_memcpy and __builtin_memset" -- "$G" run "$T/builtins.cu"

# global memory is bounded: the buffers of a file cannot exhaust the machine
k bigbufs.cu <<'K'
//@ launch k grid(1) block(1)
//@ buffer a u8[268435456]
//@ buffer b u8[268435456]
__global__ void k(unsigned char *a, unsigned char *b) { a[0] = b[0]; }
K
expect 2 "two 256 MiB buffers under --max-memory 300000000" -- "$G" run --max-memory 300000000 "$T/bigbufs.cu"
contains "$T/err" "allocating 268435456 bytes for 'b' would pass the 300000000 bytes of global memory the context may hold (--max-memory)" "the memory bound is named"

# a failed device assert() stops the run with its position; NDEBUG removes it
k assertfail.cu <<'K'
#include <assert.h>
//@ launch k grid(1) block(32)
//@ buffer o i32[32]
__global__ void k(int *o) {
  int t = threadIdx.x;
  assert(t != 17);
  o[t] = t;
}
K
expect 3 "a failed assert" -- "$G" run "$T/assertfail.cu"
contains "$T/err" "assertfail.cu:6:" "the assertion's line"
contains "$T/err" "assertion failed in thread (17,0,0) of block (0,0,0) [warp 0 lane 17]" "the failing thread"
expect 0 "-D NDEBUG removes asserts" -- "$G" run -D NDEBUG "$T/assertfail.cu"

# Issue 43's inputs.
# /dev/stdin redirected from a file is read as the file (cpp, its stdin
# /dev/null, once opened it as empty: "no kernel")
expect 0 "/dev/stdin from a file" -- sh -c "'$G' run /dev/stdin < '$S/kernels/examples/reduce.cu'"
contains "$T/out" "check out: ok" "the kernel read through /dev/stdin ran"
# a struct holding a struct never completed is ill-formed C++ (nvcc rejects
# it); one whose definition the subset skipped as host code is skipped too
k rec.cu <<'K'
//@ launch k grid(1) block(1)
//@ buffer o i32[1]
struct B;
struct A { int x; B b; };
struct B { int y; A a; };
__global__ void k(int *o) { o[0] = 1; }
K
expect 2 "mutually recursive structs" -- "$G" run "$T/rec.cu" --cc subset
contains "$T/err" "rec.cu:4:21: error: incomplete type 'struct B'" "the incomplete member, at its position"
k skipb.cu <<'K'
//@ launch k grid(1) block(1)
//@ buffer o i32[1]
//@ check o = 1
struct B;
struct B { int y; template <typename T> T get() { return T(); } };
struct A { int x; B b; };
__global__ void k(int *o) { o[0] = 1; }
K
expect 0 "a host struct of a skipped struct is skipped, not an error" -- "$G" run "$T/skipb.cu" --cc subset
# a check list of the wrong length is a mistake of the file, as a buffer list is
k chk.cu <<'K'
//@ launch k grid(1) block(4)
//@ buffer o i32[4]
//@ check o = {1, 1, 1}
__global__ void k(int *o) { o[threadIdx.x] = 1; }
K
expect 2 "a check list of the wrong length" -- "$G" run "$T/chk.cu"
contains "$T/err" "chk.cu:3:1: error: check lists 3 values for 'o', which has 4 elements" "says both lengths"
# the preprocessor's bounds, at the line being expanded, and never handed on
# to a CUDA compiler that has none
python3 - "$T" <<'P'
import sys
t = sys.argv[1]
va = " ".join(["__VA_ARGS__"] * 10)
head = "//@ launch k grid(1) block(1)\n//@ buffer o i32[1]\n//@ check o = 1000000\n#define A(...) %s\n#define B(...) A(A(A(__VA_ARGS__)))\n#define E 1000000,\n" % va
open(t + "/wide.cu", "w").write(head + "__device__ int tab[] = { A(B(B(E))) 0 };\n__global__ void k(int *o) { o[0] = tab[5]; }\n")
open(t + "/huge.cu", "w").write(head + "__device__ int tab[] = { A(A(A(B(B(E))))) 0 };\n__global__ void k(int *o) { o[0] = tab[5]; }\n")
P
expect 2 "the preprocessed text's bound" -- "$G" run "$T/wide.cu" --max-source 10000000
contains "$T/err" "wide.cu:7:1: error: the preprocessed text exceeds 10000000 bytes here" "the bound at the line it expands"
expect 2 "the preprocessor's memory" -- timeout 120 "$G" run "$T/huge.cu"
contains "$T/err" "huge.cu:7:1: error: the preprocessor ran out of its 2048 MiB of memory expanding the file here; raise the bound with --max-source" "cpp's memory at the line"
lacks "$T/err" "NVRTC" "no CUDA compiler tried after a bound"
# a __device__ variable past --max-memory, at its declaration
python3 - "$T" <<'P'
import sys
t = sys.argv[1]
open(t + "/big.cu", "w").write("//@ launch k grid(1) block(1)\n" + "".join("__device__ char big%d[400000];\n" % i for i in range(3)) + "__global__ void k() { big0[0] = 1; big2[1] = 2; }\n")
P
expect 2 "__device__ variables past --max-memory" -- "$G" run "$T/big.cu" --max-memory 1000000
contains "$T/err" "big.cu:4:17: error: allocating 400000 bytes for 'big2' would pass the 1000000 bytes of global memory" "the declaration named"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
