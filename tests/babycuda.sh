#!/bin/sh
# BabyCUDA from the command line: gpurace check's verdicts on the kernels
# of kernels/babycuda (their //@ meta babycuda label), its exit statuses and
# JSON, the reader's errors on tests/malformed/bc, babycuda eval's
# semantics agreeing with the checker on well-typed kernels, and the CUDA
# translation running on the emulator.
G=${GPURACE:-./gpurace}
S=${GR_SRCDIR:-.}
. "$S/tests/lib.sh"

if ! "$G" check "$S/kernels/babycuda/fig4.bc" >/dev/null 2>"$T/z3"; then
  if grep -q "without Z3" "$T/z3"; then echo "SKIPPED: gpurace was built without Z3 (apt-get install libz3-dev)"; exit 77; fi
fi

# -- every kernel's static verdict, its exit status, and the semantics where the calculus holds it
for f in "$S"/kernels/babycuda/*.cu "$S"/kernels/babycuda/*.bc; do
  label=$(sed -n 's|^//@ meta babycuda \([a-z]*\).*|\1|p' "$f")
  [ -n "$label" ] || { fail=$((fail + 1)); echo "FAIL: $f has no //@ meta babycuda label"; continue; }
  case $label in drf) st=0 v="DRF (proved)";; racy) st=4 v="racy (true alarm: well-typed)";;
                possible) st=4 v="racy (possible false alarm: not well-typed";; outside) st=5 v="outside the calculus";; esac
  expect $st "check $f" -- "$G" check "$f"
  contains "$T/out" "$v" "check $f says $label"
  case $label in
    drf) expect 0 "eval $f" -- "$G" babycuda eval "$f" -q; contains "$T/out" ": DRF" "the semantics agrees on $f";;
    racy) expect 4 "eval $f" -- "$G" babycuda eval "$f" -q; contains "$T/out" ": racy:" "the semantics agrees on $f";;
  esac
done
# the possible false alarm of scatter_perm is false (a permutation), histogram_plain's is real
expect 0 "eval scatter_perm" -- "$G" babycuda eval "$S/kernels/babycuda/scatter_perm.cu" -q
expect 4 "eval histogram_plain" -- "$G" babycuda eval "$S/kernels/babycuda/histogram_plain.cu" -q
expect 0 "eval ill_typed.bc" -- "$G" babycuda eval "$S/kernels/babycuda/ill_typed.bc" -q

# -- witnesses: two threads, the index, the phase, the loop variables
expect 4 "check fig3.cu" -- "$G" check "$S/kernels/babycuda/fig3.cu"
contains "$T/out" "witness: tid 0 reads A[0] at 11:9 (x1=0), tid 1 writes it at 12:10 (x1=0), phase 0; M=1" "fig3's witness"
expect 4 "check strided_overlap.cu" -- "$G" check "$S/kernels/babycuda/strided_overlap.cu"
contains "$T/out" "of block 1 writes it at 13:12 (x1=0)" "a witness across blocks"
# a loop that carries an accumulator beside its counter: the accumulator is a payload
expect 0 "an accumulator loop" -- "$G" check "$S/kernels/babycuda/dot_accumulator.cu"
contains "$T/out" "b: DRF (proved)" "the accumulator loop is a for of the calculus"
expect 5 "an accumulator as an index" -- "$G" check "$S/tests/data/babycuda/acc_index.cu"
contains "$T/out" "acc_index.cu:10:6: outside the calculus: a pointer's offset is a value a loop accumulated" "what puts a kernel outside, and where"

# -- the same files give the same output, byte for byte (--time adds what varies)
"$G" check "$S"/kernels/babycuda/*.cu "$S"/kernels/babycuda/*.bc >"$T/run1" 2>&1
"$G" check "$S"/kernels/babycuda/*.cu "$S"/kernels/babycuda/*.bc >"$T/run2" 2>&1
if cmp -s "$T/run1" "$T/run2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: two runs of check differ"; diff "$T/run1" "$T/run2"; fi
lacks "$T/run1" "queries" "no timing without --time"
expect 0 "check --time" -- "$G" check --time "$S/kernels/babycuda/fig4.cu"
contains "$T/out" "queries," "--time gives queries and seconds"

# -- a column of gpurace table: one static verdict per file, the same on every seed; outside is "not watched"
expect 1 "table --detect babycuda" -- "$G" table "$S/kernels/babycuda" --detect babycuda --seeds 2 -q --out "$T/tab"
contains "$T/tab.md" "| fig3 | fig3 |  | race | race (1): true alarm |" "a true alarm in the table"
contains "$T/tab.md" "| scatter_perm | scatter_perm |  | norace | **false alarm** race (1): possible false alarm |" "a possible false alarm in the table"
contains "$T/tab.md" "| ticket_atomic | ticket_atomic |  | norace | **not watched** on 2/2 seeds: outside the calculus: a pointer's offset is the value an atomic returns (from 10:16) |" "outside the calculus is no verdict"

# -- JSON
expect 4 "check --json" -- "$G" check --json "$S/kernels/babycuda/fig3.cu" "$S/kernels/babycuda/transpose.cu" "$S/kernels/babycuda/ticket_atomic.cu"
if python3 -c 'import json,sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert [r["verdict"] for r in rows] == ["racy", "drf", "outside"], rows
w = rows[0]["arrays"][0]["witness"]
assert w["index"] == 0 and w["threads"][0]["tid"][0] != w["threads"][1]["tid"][0], w
assert "atomic" in rows[2]["why"]' "$T/out"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: check --json"; cat "$T/out"; fi
expect 0 "check --array" -- "$G" check --array tile "$S/kernels/babycuda/transpose_nosync.cu" --array in
lacks "$T/out" "tile:" "--array: the last one given"

# -- //@ assume: over any integer parameter, used or not; a bad one is bad input with its line
printf '//@ launch k grid(1) block(4)\n//@ buffer A i32[8]\n//@ arg m = 2\n//@ assume m > 0\n__global__ void k(int *A, int m) { A[threadIdx.x] = 1; }\n' >"$T/a1.cu"
expect 0 "an assumption on an unused parameter" -- "$G" check "$T/a1.cu"
printf '//@ launch k grid(1) block(4)\n//@ buffer A i32[8]\n//@ arg m = 2\n//@ assume m >\n__global__ void k(int *A, int m) { A[threadIdx.x] = m; }\n' >"$T/a2.cu"
expect 2 "a malformed assumption" -- "$G" check "$T/a2.cu"
contains "$T/err" "a2.cu:4: error: in //@ assume: expected an expression" "the assumption's error and line"

# -- bad input: usage and the reader's positioned errors
expect 2 "no file" -- "$G" check
expect 2 "missing file" -- "$G" check "$T/none.bc"
expect 2 "bad timeout" -- "$G" check --timeout 0 "$S/kernels/babycuda/fig4.bc"
expect 2 "unknown array" -- "$G" check --array nope "$S/kernels/babycuda/fig4.bc"
expect 2 "a kernel file that does not load" -- "$G" check "$S/tests/malformed/arg_count.cu"
for f in "$S"/tests/malformed/bc/*.bc; do
  err=$(sed -n 's|^// expect: ||p' "$f")
  expect 2 "malformed ${f##*/}" -- "$G" check "$f"
  contains "$T/err" "${f##*/}:$err" "the error of ${f##*/}"
  expect 2 "malformed eval ${f##*/}" -- "$G" babycuda eval "$f"
done

# -- babycuda eval: the history and Definition 1
expect 4 "eval fig3.bc" -- "$G" babycuda eval "$S/kernels/babycuda/fig3.bc"
contains "$T/out" "  t3: R{A[0], A[1], A[2], A[3]} W{A[0]=1, A[1]=1, A[2]=1, A[3]=1}" "the history of fig3"
contains "$T/out" "fig3.bc: racy: t0 of block 0 writes A[0] in phase 0, t1 of block 0 reads it in phase 0" "fig3's racing pair"
expect 0 "eval with fewer threads" -- "$G" babycuda eval "$S/kernels/babycuda/fig3.bc" --threads 1 -q
expect 4 "eval with M = 8" -- "$G" babycuda eval "$S/kernels/babycuda/fig3.bc" --param M=8 -q
expect 5 "an assumption the values break" -- "$G" babycuda eval "$S/kernels/babycuda/fig3.bc" --param M=9 -q
contains "$T/out" "do not satisfy this assumption" "assumptions hold for eval's values"
expect 2 "bad --param" -- "$G" babycuda eval "$S/kernels/babycuda/fig3.bc" --param N=1
expect 2 "bad --threads" -- "$G" babycuda eval "$S/kernels/babycuda/fig3.bc" --threads 2048
expect 5 "step bound" -- "$G" babycuda eval "$S/kernels/babycuda/fig3.bc" --max-steps 10 -q
contains "$T/out" "step bound" "a step bound is no verdict"

# -- the CUDA translation runs on the emulator, where hb agrees (threads as agents)
expect 0 "babycuda cuda" -- "$G" babycuda cuda "$S/kernels/babycuda/fig3.bc"
cp "$T/out" "$T/fig3.cu"
expect 4 "the translation under hb" -- "$G" run "$T/fig3.cu" --detect hb --warps its
expect 0 "print" -- "$G" babycuda print "$S/kernels/babycuda/reduction.cu"
contains "$T/out" "// MAP of s: well-typed" "print shows the MAP"

# -- Theorem 1, a few programs from the command line (the Check suite runs thousands)
expect 0 "prop" -- "$G" babycuda prop --seed 7 --count 50 --ill 50 --emulate-every 5
contains "$T/out" "Theorem 1 held on every program" "the property from the CLI"
OMP_NUM_THREADS=1 "$G" babycuda prop --seed 7 --count 50 --ill 50 --emulate-every 5 >"$T/one" 2>&1
OMP_NUM_THREADS=2 "$G" babycuda prop --seed 7 --count 50 --ill 50 --emulate-every 5 >"$T/two" 2>&1
if cmp -s "$T/one" "$T/two"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: prop differs with 1 and 2 threads"; diff "$T/one" "$T/two"; fi

# -- CUDA's integers and names (issue 43): no proof where an index may wrap, the machine's
#    mask of a signed value, no name of one kind captures one of another; each kernel racy on
#    the emulator (hb), which the old extraction proved DRF or called a true alarm wrongly
B="$S/tests/data/babycuda"
expect 4 "a loop variable does not capture a read" -- "$G" check "$B/capture.cu"
contains "$T/out" "A: racy (possible false alarm: not well-typed, because the index of the write at 9:58 uses 'x1', read from x at 8:7" "the read stays a read"
contains "$T/out" "(x2=" "the loop variable has a name of its own"
expect 4 "an int parameter called tid" -- "$G" check "$B/param_tid.cu"
contains "$T/out" "A: racy (true alarm: well-typed)" "tid the parameter is not tid the thread"
expect 4 "a mask of a signed value" -- "$G" check "$B/signed_mask.cu"
contains "$T/out" "witness: tid 30 writes A[31] at 7:20, tid 62 writes it at 7:20" "the machine's mask"
expect 5 "unsigned arithmetic that wraps" -- "$G" check "$B/wrap.cu"
contains "$T/out" "A: unknown: not proved: the integers of the write's index at 7:26 leave their C type's range for tid 1" "no proof over wrapping integers"
for f in capture param_tid signed_mask wrap; do
  expect 4 "$f races on the emulator" -- "$G" run "$B/$f.cu" --warps its --detect hb
done
expect 0 "guards, unsigned masks and conversions that fit" -- "$G" check "$B/nowrap.cu"
contains "$T/out" "B: DRF (proved)" "proved where nothing wraps"
expect 0 "an enumeration parameter holds the enumeration's values" -- "$G" check "$B/enum.cu"
contains "$T/out" "y: DRF (proved)" "mode in 0..3: DRF"
expect 4 "an enumeration whose values reach 7" -- "$G" check -D WIDE "$B/enum.cu"
contains "$T/out" "mode=4" "the witness takes a value of the enumeration"
expect 0 "a local array" -- "$G" check "$B/local_array.cu"
contains "$T/out" "out: DRF (proved)" "local memory races with nothing"
expect 5 "a value from a local array as an index" -- "$G" check -D INDEX "$B/local_array.cu"
contains "$T/out" "local_array.cu:13:6: outside the calculus: a pointer's offset is a value read from local memory" "it cannot index"
# struct parameters by value, arrays of structs, dynamic shared memory and
# atomics: each verdict, and hb on the emulator (--warps its: the calculus's
# threads are not warps) agreeing with it
for c in "0 struct_param.cu" "4 struct_param.cu -D OVERLAP" "5 struct_param.cu -D STORE" "5 struct_param.cu -D ATOMIC" \
         "0 struct_array.cu" "4 struct_array.cu -D RACY" "0 dyn_shared.cu" "4 dyn_shared.cu -D RACY" \
         "0 atomic_mix.cu" "4 atomic_mix.cu -D PLAIN" "5 atomic_mix.cu -D BLOCK_SCOPE" \
         "0 loop_down.cu" "4 loop_down.cu -D NOSYNC" "0 loop_down.cu -D UNSIGNED" "4 loop_down.cu -D UNSIGNED -D NOSYNC" \
         "0 loop_down.cu -D NE" "4 loop_down.cu -D NE -D NOSYNC" "5 loop_down.cu -D NE -D START=9"; do
  set -- $c
  st=$1 f=$2
  shift 2
  expect "$st" "check $f $*" -- "$G" check "$@" "$B/$f"
  [ "$st" = 5 ] && continue
  "$G" run "$@" "$B/$f" --detect hb --warps its >"$T/hb" 2>&1
  if [ "$st" = 0 ]; then contains "$T/hb" "hb 0 race reports" "hb agrees: $f $* is race-free"
  else lacks "$T/hb" "hb 0 race reports" "hb agrees: $f $* races"; fi
done
expect 5 "a != loop from above" -- "$G" check -D NE -D START=9 "$B/loop_down.cu"
contains "$T/out" "the integers of the loop's bounds at 18:25 leave their C type's range" "j != n from above is no proof"
expect 4 "a loop that shrinks" -- "$G" check -D NOSYNC "$B/loop_down.cu"
contains "$T/out" "witness: tid 0 reads A[1] at 22:84 (x1=1), tid 1 writes it at 22:35 (x1=2), phase 0; n=8" "j = n - x, in the loop's order"
"$G" check -D BLOCK_SCOPE "$B/atomic_mix.cu" >"$T/out" 2>&1
contains "$T/out" "a block-scope atomic on global memory" "a block-scope atomic across blocks is outside"
expect 0 "struct leaves by name" -- "$G" check "$B/struct_param.cu"
contains "$T/out" "g.base: DRF (proved)" "a pointer field is an array named by its field"
expect 4 "a leaf in a witness" -- "$G" check -D OVERLAP "$B/struct_param.cu"
contains "$T/out" "g.stride=2, g.n=2" "the fields are parameters of the check, assumed as //@ assume says"
expect 5 "a store into a struct parameter" -- "$G" check -D STORE "$B/struct_param.cu"
contains "$T/out" "struct_param.cu:12:12: outside the calculus: a store into the struct parameter 'g'" "a struct copy the thread changes is outside"
expect 5 "an atomic on a struct parameter" -- "$G" check -D ATOMIC "$B/struct_param.cu"
contains "$T/out" "struct_param.cu:15:3: outside the calculus: a store into the struct parameter 'g'" "an atomic on the struct's copy changes it too"
expect 4 "dynamic shared memory" -- "$G" check -D RACY "$B/dyn_shared.cu"
contains "$T/out" "dynamic.shared: racy (true alarm: well-typed)" "extern __shared__ arrays are one region"
printf 'global array A[4];\nthreads 2;\nkernel {\n  atomic A[0] := tid;\n  let x = A[tid + 2] in\n  atomic A[1] := x\n}\n' >"$T/at.bc"
expect 0 "atomics in the calculus" -- "$G" check "$T/at.bc"
expect 0 "atomics in the semantics" -- "$G" babycuda eval "$T/at.bc" -q
printf 'global array A[4];\nthreads 2;\nkernel {\n  atomic A[0] := tid;\n  let x = A[0] in skip\n}\n' >"$T/at2.bc"
expect 4 "an atomic and a plain read" -- "$G" check "$T/at2.bc"
contains "$T/out" "witness: tid 0 writes A[0] at 4:3, tid 1 reads it at 5:3" "an atomic races with a plain access"
expect 4 "an atomic and a plain read, in the semantics" -- "$G" babycuda eval "$T/at2.bc" -q

# -- extraction as a property: generated CUDA with those traps, check against hb
expect 0 "prop --cuda" -- "$G" babycuda prop --cuda --seed 3 --count 60
contains "$T/out" "; 0 failed" "check agrees with hb wherever it claims"

# -- a Z3 that does not load (a library of its name without its functions,
# found first through LD_LIBRARY_PATH; the checker opens Z3 when it first
# asks): every verdict unknown, saying why, never DRF
so=$(sed -n 's/^#define GR_Z3_SONAME "\(.*\)"$/\1/p' "${GR_BUILDDIR:-.}/config.h" 2>/dev/null)
mkdir -p "$T/fakez3"
if [ -n "$so" ] && echo 'int not_z3;' | ${CC:-cc} -shared -fPIC -x c - -o "$T/fakez3/$so" 2>/dev/null; then
  expect 5 "check with a Z3 that does not load" -- env LD_LIBRARY_PATH="$T/fakez3" "$G" check "$S/kernels/babycuda/fig4.cu"
  contains "$T/out" "A: unknown: Z3 could not be loaded ($so has no Z3_" "each verdict says why"
  contains "$T/err" "gpurace check: Z3 could not be loaded ($so has no Z3_" "said once on stderr"
  lacks "$T/out" "DRF" "nothing proved"
else
  echo "SKIPPED: a Z3 that does not load (no GR_Z3_SONAME in config.h, or no C compiler to make a stand-in)"
fi

echo "babycuda.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
