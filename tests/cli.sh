#!/bin/sh
# The gpurace command: exit statuses 0/1/2/3, help, dumps, -D knobs.
G=${GPURACE:-./gpurace}
S=${GR_SRCDIR:-.}
. "$S/tests/lib.sh"

expect 0 "help" -- "$G" --help
contains "$T/out" "commands:" "help lists commands"
expect 0 "run --help" -- "$G" run --help
contains "$T/out" "--sched rr|random" "run help documents options"
expect 0 "help ir" -- "$G" help ir
expect 2 "no command" -- "$G"
expect 2 "unknown command" -- "$G" frobnicate
expect 2 "unknown option" -- "$G" run --bogus "$S/kernels/examples/reduce.cu"
expect 2 "bad seed" -- "$G" run --seed -3 "$S/kernels/examples/reduce.cu"
expect 2 "bad sched" -- "$G" run --sched fifo "$S/kernels/examples/reduce.cu"
expect 2 "missing file" -- "$G" run "$T/none.cu"
expect 0 "checks hold" -- "$G" run "$S/kernels/examples/reduce.cu"
contains "$T/out" "check out: ok" "check line printed"
expect 0 "random schedule" -- "$G" run --sched random --seed 9 --sms 2 "$S/kernels/examples/scan.cu"
expect 0 "dump" -- "$G" run --dump out "$S/kernels/examples/reduce.cu"
contains "$T/out" "out i32[4] = {32640, 98176, 163712, 229248}" "dump format"
expect 2 "dump unknown" -- "$G" run --dump nothere "$S/kernels/examples/reduce.cu"
expect 0 "ir" -- "$G" ir "$S/kernels/examples/reduce.cu"
contains "$T/out" ".kernel reduce" "ir prints the kernel"
# an index is scaled in its padd (no cvt, no mul.i64 before it), and a pointer whose element's
# address is taken (&bins[...]) stays in a register, not in local memory
expect 0 "ir of triad" -- "$G" ir "$S/bench/peer/triad.cu"
contains "$T/out" "padd   r11, r2, r4 * 4" "p[i] is one scaled padd"
lacks "$T/out" "mul.i64" "no multiply of the index"
lacks "$T/out" "cvt.i64.i32" "no conversion of the index"
expect 0 "ir of histogram" -- "$G" ir "$S/bench/peer/histogram.cu"
contains "$T/out" "0 bytes local per thread" "&bins[i] leaves bins in a register"
cat > "$T/index.cu" <<'K'
//@ launch k grid(1) block(32) if NEG
//@ launch k2 grid(1) block(1) if FAR
//@ buffer out i32[64] = 0
//@ arg u = 4294967295
__global__ void k(int *out, unsigned u) { int *q = out + 32; q[-(int)threadIdx.x - 1] = threadIdx.x; }
__global__ void k2(int *out, unsigned u) { out[u] = 1; }
K
expect 0 "a negative int index" -- "$G" run -DNEG --dump out "$T/index.cu"
contains "$T/out" "out i32[64] = {31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0," "q[-i - 1] is out[31 - i]"
expect 3 "an unsigned index of 2^32 - 1 is far above, not -1" -- "$G" run -DFAR "$T/index.cu"
contains "$T/err" "out-of-bounds global store of 4 bytes at offset 8589934588 of 'out'" "its offset, 4 (2^32 - 1) in the offset's range, not -4"

cat > "$T/bad.cu" <<'K'
//@ launch k grid(1) block(32)
//@ buffer o i32[32]
//@ check o = 5
__global__ void k(int *o) { o[threadIdx.x] = 4 + (threadIdx.x == 3); }
K
expect 1 "failed check" -- "$G" run "$T/bad.cu"
contains "$T/out" "check o: FAILED" "failed check reported"
expect 1 "quiet failed check" -- "$G" run -q "$T/bad.cu"

cat > "$T/knob.cu" <<'K'
//@ launch k grid(1) block(1)
//@ buffer o i32[1]
//@ check o = 42
__global__ void k(int *o) { o[0] = VALUE; }
K
expect 2 "undefined knob" -- "$G" run "$T/knob.cu"
contains "$T/err" "knob.cu:4:" "error has a position"
expect 0 "-D knob" -- "$G" run -D VALUE=42 "$T/knob.cu"
expect 0 "-DNAME=V knob" -- "$G" run -DVALUE=42 "$T/knob.cu"

cat > "$T/oob.cu" <<'K'
//@ launch k grid(1) block(33)
//@ buffer o i32[32]
__global__ void k(int *o) { o[threadIdx.x] = 1; }
K
expect 3 "out of bounds" -- "$G" run "$T/oob.cu"
contains "$T/err" "oob.cu:3:44: error: out-of-bounds global store" "oob position"

cat > "$T/spin.cu" <<'K'
//@ launch k grid(1) block(32)
//@ buffer o i32[1]
__global__ void k(volatile int *o) { while (o[0] == 0) { } }
K
expect 3 "deadlock" -- "$G" run "$T/spin.cu"
contains "$T/err" "deadlock" "deadlock reported"
cat > "$T/count.cu" <<'K'
//@ launch k grid(1) block(32)
//@ buffer o i32[1]
__global__ void k(int *o) { for (int i = 0; ; i++) o[0] = i; }
K
expect 3 "step limit" -- "$G" run --max-steps 1000 "$T/count.cu"
contains "$T/err" "step limit reached" "step limit reported"

# race detectors
M="$S/scor/micro"
expect 0 "detectors list" -- "$G" detectors
contains "$T/out" "scord-nocache" "the registry lists scord-nocache"
expect 4 "a race exits 4" -- "$G" run --detect scord,hb "$M/race_interblock_blkatom.cu"
contains "$T/out" "race [scord] scoped atomic: global data+0" "text report names detector, class, buffer, offset"
contains "$T/out" "race_interblock_blkatom.cu:20:25: atomic exch (block scope) by block (1,0,0) warp 0 lane 0" "text report gives the second access"
contains "$T/out" "detectors: scord 1 race report, hb 1 race report" "summary line"
expect 4 "json" -- "$G" run --detect scord --json --seed 3 --sched random "$M/race_interblock_none-lock_rtraw.cu"
cp "$T/out" "$T/json1"
contains "$T/out" '{"detector":"scord","class":"' "json report"
contains "$T/out" '"space":"global","buffer":"data","offset":0,"count":1,"first":{"file":' "json report fields"
if grep -qv '^{' "$T/out"; then fail=$((fail + 1)); echo "FAIL: --json stdout has a line that is not JSON"; cat "$T/out"; else pass=$((pass + 1)); fi
contains "$T/err" "detectors: scord 2 race reports" "with --json the summary goes to stderr"
expect 4 "json again" -- "$G" run --detect scord --json --seed 3 --sched random "$M/race_interblock_none-lock_rtraw.cu"
if cmp -s "$T/out" "$T/json1"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: same seed, different reports"; fi
expect 4 "a race under -q is still printed" -- "$G" run -q --detect hb "$M/race_interwarp_none-lock_waw.cu"
contains "$T/out" "race [hb] missing block fence: global data+0" "quiet race report"
expect 0 "race-free with detectors" -- "$G" run --detect scord,scord-nocache,hb,hb-ptx "$M/norace_interwarp-block_fence_hrf-indirect.cu"

contains "$T/out" "detectors: scord 0 race reports" "race-free summary"
contains "$T/out" "check dummy: ok" "checks still run"
# hb and hb-ptx watch shared memory: a missing barrier is a race for both;
# the warp-synchronous tail only for hb-ptx (threads are its agents), and
# for neither with __syncwarp between the steps
expect 4 "hb on shared memory" -- "$G" run --detect hb,hb-ptx "$S/kernels/boyer/fig1.cu"
contains "$T/out" "race [hb] missing block fence: shared memory+" "hb sees a shared-memory race"
contains "$T/out" "race [hb-ptx] not morally strong: shared memory+" "hb-ptx sees it"
expect 4 "warp-synchronous tail under hb-ptx" -- "$G" run --detect hb,hb-ptx "$S/tests/data/warp_tail.cu"
contains "$T/out" "detectors: hb 0 race reports, hb-ptx 1 race report" "lockstep warps for hb, threads for hb-ptx"
expect 0 "tail with __syncwarp" -- "$G" run --detect hb,hb-ptx -D SYNCWARP=1 "$S/tests/data/warp_tail.cu"
expect 0 "shared atomic counter" -- "$G" run --detect hb,hb-ptx "$S/kernels/boyer/shared_atomic_counter.cu"

# a detector that stops watching never passes a run: exit 5 and a table cell "not watched"
expect 0 "hb-ptx watches a launch of 8192 threads" -- "$G" run --detect hb,hb-ptx "$S/tests/data/big_launch.cu"
contains "$T/out" "detectors: hb 0 race reports, hb-ptx 0 race reports" "no launch-size limit"
expect 5 "a detector that stopped watching fails the run" -- "$G" run --detect hb,hb-ptx --hb-max-memory 1 "$S/tests/data/big_launch.cu"
contains "$T/err" "detector hb-ptx stopped watching the run: its state passed --hb-max-memory (1 MiB)" "says which and why"
contains "$T/out" "hb-ptx 0 race reports (NOT WATCHED: incomplete)" "the count is marked incomplete"
expect 2 "--hb-max-memory 0" -- "$G" run --detect hb --hb-max-memory 0 "$S/tests/data/big_launch.cu"
expect 1 "a table with a detector that stopped watching" -- "$G" table --detect hb,hb-ptx --hb-max-memory 1 --out "$T/unwatched" "$S/tests/data/big_launch.cu"
contains "$T/unwatched.md" "**not watched** on 1/1 seeds" "the cell says not watched, not no race"
contains "$T/unwatched.csv" ",notwatched," "csv verdict"
expect 4 "hb-model ptx through hb" -- "$G" run --detect hb --hb-model ptx "$M/norace_interwarp-block_fence-atom_hrd-indirect.cu"
contains "$T/out" "scope too narrow" "ptx model class"
expect 4 "granularity 8" -- "$G" run --detect scord-nocache --scord-granularity 8 "$S/kernels/examples/reduce.cu"
expect 2 "unknown detector" -- "$G" run --detect scord,nope "$M/race_interblock_blkatom.cu"
contains "$T/err" "unknown detector 'nope'" "unknown detector named"
expect 2 "detector twice" -- "$G" run --detect hb,hb "$M/race_interblock_blkatom.cu"
expect 2 "bad hb model" -- "$G" run --detect hb --hb-model hrf "$M/race_interblock_blkatom.cu"
expect 2 "bad granularity" -- "$G" run --detect scord --scord-granularity 12 "$M/race_interblock_blkatom.cu"
expect 2 "detect needs a value" -- "$G" run "$M/race_interblock_blkatom.cu" --detect

# run-ahead (emu/simt.h), and a full warp's access in one pass, change nothing but the time:
# outputs, clock values, step counts, access counts and the livelock detector's reports equal
# those of one instruction per turn, each access lane by lane
# (GPURACE_ONE_PER_TURN=1), under both schedulers and both memory models (weak: loads left
# pending and performed in the background), on a racy kernel with divergent stretches, spinning
# warps, shared loads run ahead while the block holds still and racing with stores where it does
# not, the examples, the shared-memory suite and nvcc's PTX of a stencil (whose loads overwrite
# their own address registers), nor a full warp's atomics in one pass (all eleven, lanes that
# share an address among them); and nor does ITS's path for converged warps and its run-ahead
# under round-robin, there and on the ITS kernels, nor that of a warp's one group whose other
# lanes wait at __syncthreads (its_tail.cu)
for f in "$S/tests/data/turns.cu" "$S/tests/data/quiet_shared.cu" "$S/tests/data/fused_branch.cu" "$S/tests/data/coalesced.cu" "$S/tests/data/its_spin.cu" "$S/tests/data/its_lead_spin.cu" \
         "$S/tests/data/its_tail.cu" "$S/tests/data/at_once.cu" "$S/tests/data/at_once_kept.cu" "$S/tests/data/at_once_stop.cu" \
         "$S/tests/ptx/G/kernels/shared/neighbour_before_barrier.ptx" "$S"/kernels/examples/*.cu \
         "$S/kernels/samples/atomics.cu" "$S/tests/ptx/O3/kernels/samples/atomics.ptx" \
         "$S"/kernels/shared/*.cu "$S"/kernels/its/*.cu; do
  modes="rr:sc:lockstep random:sc:lockstep rr:weak:lockstep random:weak:lockstep rr:sc:its rr:weak:its"
  case $f in */kernels/its/*) modes="rr:sc:its rr:weak:its";; esac
  for mode in $modes; do
    sch=${mode%%:*}; mem=${mode#*:}; wp=${mem#*:}; mem=${mem%%:*}
    a=0; GPURACE_ONE_PER_TURN=1 "$G" run "$f" --sched "$sch" --memory "$mem" --warps "$wp" --seed 3 --digest --stats >"$T/one" 2>&1 || a=$?
    b=0; "$G" run "$f" --sched "$sch" --memory "$mem" --warps "$wp" --seed 3 --digest --stats >"$T/ahead" 2>&1 || b=$?
    if [ "$a" = "$b" ] && cmp -s "$T/one" "$T/ahead"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: run-ahead changes $f ($sch, $mem, $wp)"; diff "$T/one" "$T/ahead" | head -5; fi
  done
done
contains "$T/ahead" "digest " "the buffers compared (clock values among them)"
# ITS under the random scheduler runs groups of a warp's lanes: their atomics in one pass too
for f in "$S/kernels/samples/atomics.cu" "$S/tests/data/at_once.cu" "$S/kernels/babycuda/histogram_atomic.cu" "$S/kernels/boyer/shared_atomic_counter.cu"; do
  for seed in 1 2 3; do
    a=0; GPURACE_ONE_PER_TURN=1 "$G" run "$f" --warps its --sched random --seed "$seed" --digest --stats >"$T/one" 2>&1 || a=$?
    b=0; "$G" run "$f" --warps its --sched random --seed "$seed" --digest --stats >"$T/ahead" 2>&1 || b=$?
    if [ "$a" = "$b" ] && cmp -s "$T/one" "$T/ahead"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: one pass changes $f (ITS, random, seed $seed)"; diff "$T/one" "$T/ahead" | head -5; fi
  done
done
# and under observers, which see each event at the turn of one instruction per turn (simt.h's
# SIMT_OBSERVED): the same reports, statistics and outputs with every detector, LD's snapshots
# and restores included, in both warp models and memory models
for f in "$S/tests/data/turns.cu" "$S/tests/data/quiet_shared.cu" "$S/tests/data/fused_branch.cu" "$S/tests/data/its_spin.cu" \
         "$S"/kernels/examples/*.cu "$S"/kernels/ld/*.cu; do
  for mode in "--detect hb,scord,boyer,boyer-banks" "--detect hb-ptx --warps its --memory weak" "--detect ld --sched random" \
              "--detect hb --sched random --memory weak"; do
    # shellcheck disable=SC2086
    a=0; GPURACE_ONE_PER_TURN=1 "$G" run "$f" $mode --seed 3 --digest --stats >"$T/one" 2>&1 || a=$?
    # shellcheck disable=SC2086
    b=0; "$G" run "$f" $mode --seed 3 --digest --stats >"$T/ahead" 2>&1 || b=$?
    if [ "$a" = "$b" ] && cmp -s "$T/one" "$T/ahead"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: run-ahead changes $f under $mode"; diff "$T/one" "$T/ahead" | head -5; fi
  done
done
contains "$T/ahead" "detectors: hb " "the detectors' reports compared"
# a comparison fused with its branch (emu/simt.h) computes what the checks say where the lanes
# agree, part, stop at the branch (whose turn reads the comparison's register) and keep the
# result; a coalesced access (emu/access.c) where its lanes are consecutive elements, and only there
for mode in "" "--warps its" "--memory weak" "--memory weak --warps its" "--sched random --seed 4"; do
  for f in fused_branch coalesced; do
    # shellcheck disable=SC2086
    expect 0 "$f ($mode)" -- "$G" run "$S/tests/data/$f.cu" $mode
  done
done

# weak memory performs at L2 at once just the accesses no thread can tell apart (emu/prov.h): triad's,
# a histogram's, a grid-stride loop's, none of the kept file's (each for one reason), and a launch whose
# address the analysis cannot follow stops at it and says so; in every warp mode, both schedulers
for mode in "" "--warps its" "--sched random --seed 9"; do
  # shellcheck disable=SC2086
  "$G" run "$S/tests/data/at_once.cu" --memory weak --stats $mode >"$T/out" 2>&1
  contains "$T/out" " 2304 accesses at once" "triad, histogram, grid-stride loop and rewrite at once ($mode)"
  contains "$T/out" "check bins: ok" "the histogram's bins ($mode)"
  # shellcheck disable=SC2086
  "$G" run "$S/tests/data/at_once_kept.cu" --memory weak --stats $mode >"$T/out" 2>&1
  contains "$T/out" " 0 accesses at once" "accesses kept in the model ($mode)"
  # shellcheck disable=SC2086
  "$G" run "$S/tests/data/at_once_stop.cu" --memory weak --stats $mode >"$T/out" 2>&1
  contains "$T/out" ", 1 launch stopped at an address outside its roots" "a rebuilt pointer stops the launch's accesses at once ($mode)"
  # shellcheck disable=SC2086
  "$G" run "$S/tests/data/at_once_stop.cu" --memory sc --stats $mode >"$T/out" 2>&1
  contains "$T/out" ", 1 launch stopped at an address outside its roots" "and its loads ahead of their turns under sc ($mode)"
done
# the same through nvcc's PTX, whose registers hold unrelated values in turn (the analysis follows
# the control flow) and whose histogram atomic writes a register that is dead after it
"$G" run "$S/tests/data/at_once.ptx" --memory weak --stats >"$T/out" 2>&1
contains "$T/out" " 2304 accesses at once" "the same through the PTX front end"
"$G" run "$S/tests/data/at_once_kept.ptx" --memory weak --stats >"$T/out" 2>&1
contains "$T/out" " 0 accesses at once" "accesses kept in the model through the PTX front end"
"$G" run "$S/tests/data/at_once.cu" --memory sc --stats >"$T/out" 2>&1
lacks "$T/out" "at once" "sc memory performs every access at once: no count"

# --stats counts in the engine, not through an observer: the same counts in every warp and memory
# model (each lane's access once; a load left pending when it performs), and the run unchanged
R="$S/kernels/examples/reduce.cu"
mem_line="memory: global 1024 loads (4096 bytes), 4 stores (16 bytes), 0 atomics (0 bytes); shared 2044 loads (8176 bytes), 2044 stores (8176 bytes), 0 atomics (0 bytes)"
for mode in "lockstep sc" "its sc" "lockstep weak" "its weak"; do
  set -- $mode
  expect 0 "--stats ($1, $2)" -- "$G" run "$R" --stats --warps "$1" --memory "$2" --sched random --seed 4
  contains "$T/out" "$mem_line" "every access of reduce counted once ($1, $2)"
  [ "$mode" = "lockstep sc" ] && contains "$T/out" "stats: 2884 warp instructions, 88056 thread instructions, 24 divergent branches, 36 barriers" "reduce's instruction counts"
done
for f in "$S/kernels/examples/spin_handoff.cu" "$S/tests/data/turns.cu" "$R"; do
  for seed in 1 2 3; do
    a=0; "$G" run "$f" --memory weak --sched random --seed "$seed" --digest >"$T/plain" 2>&1 || a=$?
    b=0; "$G" run "$f" --memory weak --sched random --seed "$seed" --digest --stats >"$T/stats" 2>&1 || b=$?
    grep -v '^stats: \|^memory: ' "$T/stats" >"$T/stats.rest"
    if [ "$a" = "$b" ] && cmp -s "$T/plain" "$T/stats.rest"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: --stats changes the run of $f (seed $seed)"; diff "$T/plain" "$T/stats.rest" | head -5; fi
  done
done

# relocatable: a copy of the binary finds the device pass's headers beside
# itself (front/include), wherever it is run from, before the source tree's;
# GPURACE_INCLUDE still overrides
mkdir -p "$T/reloc/front"
cp "$G" "$T/reloc/gpurace"
cp -r "$S/front/include" "$T/reloc/front/include"
printf '\n#define GR_HEADERS_BESIDE_THE_BINARY 1\n' >>"$T/reloc/front/include/cuda_runtime.h"
cat >"$T/reloc.cu" <<'EOS'
//@ launch k grid(1) block(1)
//@ buffer out i32[1]
//@ check out = {1}
#ifndef GR_HEADERS_BESIDE_THE_BINARY
#error the headers of the source tree, not those beside the binary
#endif
__global__ void k(int *out) { out[0] = 1; }
EOS
expect 0 "a copied binary preprocesses with the headers beside it" -- sh -c "cd / && env -u GPURACE_INCLUDE '$T/reloc/gpurace' run '$T/reloc.cu'"
expect 2 "GPURACE_INCLUDE overrides the headers beside the binary" -- sh -c "cd / && GPURACE_INCLUDE='$S/front/include' '$T/reloc/gpurace' run '$T/reloc.cu'"
contains "$T/err" "the headers of the source tree" "the override's headers were read"
# gpurace's own headers missing is an installation error, said as such, under
# every --cc that reads with the subset (auto does not hide it behind NVRTC)
mkdir -p "$T/noinc"
for cc in subset auto; do
  expect 2 "no device headers (--cc $cc)" -- env GPURACE_INCLUDE="$T/noinc" "$G" run "$S/kernels/litmus/M1_mp_W.cu" --cc $cc
  contains "$T/err" "error: gpurace's device headers are missing: no cuda_runtime.h in $T/noinc (set GPURACE_INCLUDE" "the missing headers named (--cc $cc)"
done
expect 2 "litmus without device headers" -- env GPURACE_INCLUDE="$T/noinc" "$G" litmus "$S/kernels/litmus/M1_mp_W.cu"
contains "$T/out" "1 tests, 0 passed, 1 failed" "a litmus test that did not load failed"

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
