#!/bin/sh
# gpurace litmus: verdict lines, histograms, exhaustive sets, failures with
# a reproducing seed, reports; gpurace run --memory.
G=${GPURACE:-./gpurace}
S=${GR_SRCDIR:-.}
. "$S/tests/lib.sh"
L=$S/kernels/litmus

expect 0 "help litmus" -- "$G" help litmus
contains "$T/out" "--exhaustive" "litmus help documents options"
expect 2 "litmus without files" -- "$G" litmus
expect 2 "litmus bad runs" -- "$G" litmus --runs 0 "$L/S2_sb_G.cu"
expect 2 "litmus unknown option" -- "$G" litmus --bogus "$L/S2_sb_G.cu"
expect 2 "not a litmus file" -- "$G" litmus "$S/kernels/examples/reduce.cu"
contains "$T/err" "not a litmus test" "says why"

expect 0 "sampled S2" -- "$G" litmus --runs 3000 "$L/S2_sb_G.cu"
contains "$T/out" "S2 (G)" "header names test and placement"
contains "$T/out" "r0=0 r1=0   <- weak" "histogram marks the weak outcome"
contains "$T/out" "PASS S2: r0=0 r1=0: allowed-required outcome seen in" "verdict line"
contains "$T/out" "1 tests, 1 passed, 0 failed" "summary"

expect 0 "exhaustive C6" -- "$G" litmus --exhaustive "$L/C6_coww_W.cu"
contains "$T/out" "reachable  x=2" "the reachable set"
contains "$T/out" "PASS C6: x=1: forbidden outcome unreachable" "exhaustive verdict"

# relaxed atomics may be delayed past later accesses to other locations
expect 0 "exhaustive S10" -- "$G" litmus --exhaustive "$L/S10_sb_atomic_G.cu"
contains "$T/out" "reachable  r0=0 r1=0   <- weak" "SB with relaxed atomics reachable"
expect 0 "exhaustive S12" -- "$G" litmus --exhaustive "$L/S12_sb_atomics_fgpu_G.cu"
lacks "$T/out" "reachable  r0=0 r1=0" "SB with atomics and fence.sc unreachable"
expect 0 "ir of a discarded atomic" -- "$G" ir "$L/S10_sb_atomic_G.cu"
contains "$T/out" "atom.exch.device.u32 _, [r" "an unused atomic result has no destination"

# the axiomatic checker: the PTX model's allowed set, and its verdict
expect 0 "axiomatic C11" -- "$G" litmus --axiomatic "$L/C11_corr_cas_G.cu"
contains "$T/out" "axiomatic (PTX)" "axiomatic header"
contains "$T/out" "PASS C11: r0=0 r1=1 r2=0: the PTX model forbids the weak outcome" "failed CAS: CoRR forbidden"
expect 0 "axiomatic S6" -- "$G" litmus --axiomatic "$L/S6_sb_volatile_G.cu"
contains "$T/out" "allowed    r0=0 r1=0   <- weak" "SB with volatiles allowed"
expect 0 "axiomatic L5" -- "$G" litmus --axiomatic "$L/L5_lb_data_G.cu"
lacks "$T/out" "allowed    r0=42" "no value out of thin air"
expect 1 "axiomatic disagrees with a wrong label" -- "$G" litmus --axiomatic "$S/tests/data/litmus_wrong_forbidden.cu"
contains "$T/out" "FAIL S2wrong: r0=0 r1=0: the PTX model allows the weak outcome; the file says forbidden" "axiomatic disagreement"
expect 0 "axiomatic against exhaustive" -- "$G" litmus --axiomatic --exhaustive "$L/I3_iriw_fgpu_G.cu"
contains "$T/out" "gap        r0=1 r1=0 r2=1 r3=0" "completeness gap listed"
expect 2 "axiomatic: a file that fails to load" -- "$G" litmus --axiomatic "$S/tests/malformed/directive_litmus_placement.cu"
contains "$T/out" "0 passed, 1 failed" "a failed load is a failed test"
expect 0 "per-thread placement" -- "$G" litmus --runs 200 "$L/W2_wrc_volatile_fgpu_M.cu"
contains "$T/out" "W2 (b0w0,b0w1,b1w0)" "placement list printed"

expect 1 "wrong forbidden claim" -- "$G" litmus --runs 3000 "$S/tests/data/litmus_wrong_forbidden.cu"
contains "$T/out" "FAIL S2wrong: r0=0 r1=0: forbidden outcome r0=0 r1=0 seen in" "forbidden outcome reported"
# the named seed reproduces the outcome with gpurace run
cmd=$(sed -n 's/.*reproduce: gpurace run \([^ ]*\) \(.*\)$/\2/p' "$T/out")
expect 0 "reproduce" -- "$G" run "$S/tests/data/litmus_wrong_forbidden.cu" $cmd --dump out
contains "$T/out" "out u32[2] = {0, 0}" "the seed reproduces the weak outcome"
expect 1 "wrong forbidden claim, exhaustive" -- "$G" litmus --exhaustive "$S/tests/data/litmus_wrong_forbidden.cu"
contains "$T/out" "forbidden outcome r0=0 r1=0 is reachable" "exhaustive finds it"

expect 1 "wrong required claim" -- "$G" litmus --runs 500 "$S/tests/data/litmus_wrong_required.cu"
contains "$T/out" "FAIL M7wrong: r1=1 r2=0: allowed-required outcome not seen in 500 runs" "required outcome missing"
expect 1 "wrong required claim, exhaustive" -- "$G" litmus --exhaustive "$S/tests/data/litmus_wrong_required.cu"
contains "$T/out" "allowed-required outcome not reachable" "exhaustive proves it missing"

expect 1 "bound too small" -- "$G" litmus --exhaustive --max-states 10 "$L/I1_iriw_G.cu"
contains "$T/out" "state bound reached" "incomplete search is not a proof"

expect 0 "report" -- "$G" litmus --runs 500 --report "$T/r.md" "$L/C9_rmw_G.cu" "$L/C10_rmw_cta_G.cu"
contains "$T/r.md" "| C9 | G | \`x=1\` | forbidden | agrees | PASS | PASS | PASS |" "report row"
contains "$T/r.md" "2 tests, 0 failed." "report total"

# determinism: the same seeds give the same histogram
"$G" litmus --runs 700 --seed 5 "$L/M3_mp_G.cu" >"$T/a"
"$G" litmus --runs 700 --seed 5 "$L/M3_mp_G.cu" >"$T/b"
if cmp -s "$T/a" "$T/b"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: same seed, different histogram"; diff "$T/a" "$T/b"; fi

expect 0 "run --memory weak" -- "$G" run --memory weak --sched random --seed 3 "$S/kernels/examples/reduce.cu"
contains "$T/out" "check out: ok" "weak run holds its checks"
expect 0 "weak stats" -- "$G" run --memory weak --stats "$S/kernels/examples/reduce.cu"
contains "$T/out" "background memory actions" "weak stats count memory actions"
expect 2 "run --memory bogus" -- "$G" run --memory tso "$S/kernels/examples/reduce.cu"
expect 2 "GPURACE_MEMORY bogus" -- env GPURACE_MEMORY=tso "$G" run "$S/kernels/examples/reduce.cu"
contains "$T/err" "GPURACE_MEMORY takes sc or weak" "env var checked"

# -- sampled runs split across threads (OpenMP) print exactly what one thread prints: outcomes, counts,
#    first seeds, and on a failure the first failing seed
for args in "$S/kernels/litmus/C12_corr_volatile_G.cu --runs 300000" "$S/tests/data/litmus_fail_late.cu --runs 100000"; do
  # shellcheck disable=SC2086
  st1=0; OMP_NUM_THREADS=1 "$G" litmus $args >"$T/one.txt" 2>&1 || st1=$?
  # shellcheck disable=SC2086
  st2=0; OMP_NUM_THREADS=2 "$G" litmus $args >"$T/two.txt" 2>&1 || st2=$?
  if [ "$st1" = "$st2" ] && cmp -s "$T/one.txt" "$T/two.txt"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: litmus $args differs on two threads"; diff "$T/one.txt" "$T/two.txt" | head -5; fi
done
contains "$T/two.txt" "run with seed 7459: " "the first failing seed, from the part that met it"

# -- exhaustive searches split into subtrees on every thread: the reachable set and the number of
#    distinct states are the whole search's (205 and 9941, as `gpurace states` counts them; the
#    unsplit depth-first search gave 342 for C11 when its pointer lived in local memory), the same
#    bytes on one thread and two; an unfinished search lists no outcomes
X="$L/C11_corr_cas_G.cu $L/N1_isa2_fgpu_M.cu $L/S10_sb_atomic_G.cu"
# shellcheck disable=SC2086
st1=0; OMP_NUM_THREADS=1 "$G" litmus --exhaustive $X >"$T/one.txt" 2>"$T/one.err" || st1=$?
# shellcheck disable=SC2086
st2=0; OMP_NUM_THREADS=2 "$G" litmus --exhaustive $X >"$T/two.txt" 2>"$T/two.err" || st2=$?
if [ "$st1" = 0 ] && [ "$st2" = 0 ] && cmp -s "$T/one.txt" "$T/two.txt"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: exhaustive searches differ on two threads"; diff "$T/one.txt" "$T/two.txt" | head -5; fi
contains "$T/two.txt" "C11 (G) $L/C11_corr_cas_G.cu: exhaustive, 205 states, searched as subtrees" "split search: every state, once"
contains "$T/two.txt" "N1_isa2_fgpu_M.cu: exhaustive, 9941 states, searched as subtrees" "split search: every state of N1, once"
contains "$T/two.txt" "  reachable  r0=1 r1=1 r2=1" "split search: outcomes"
for th in 1 2; do
  # (stdout: progress lines on stderr depend on the machine's speed)
  st=0; OMP_NUM_THREADS=$th "$G" litmus --exhaustive --max-states 3000 "$L/N1_isa2_fgpu_M.cu" >"$T/bound$th.txt" 2>/dev/null || st=$?
  if [ "$st" = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: a search past its bound exits $st on $th threads"; fi
done
if cmp -s "$T/bound1.txt" "$T/bound2.txt"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: a bounded search differs on two threads"; diff "$T/bound1.txt" "$T/bound2.txt" | head -5; fi
contains "$T/bound2.txt" "state bound reached" "the bound is said"
lacks "$T/bound2.txt" "reachable  " "an unfinished search lists no outcomes"

echo "litmus.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
