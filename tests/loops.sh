#!/bin/sh
# Loop dependency checking (issue 22, first part): the oracle loopdep and the
# golden models wise, wise-fp and paragon on kernels/loops, whose
# //@ expect dependency|nodependency is the ground truth: loopdep and wise
# agree with it on every kernel (wise has no false positive), wise-fp and
# paragon report the benign intra-warp dependencies lockstep allows (their
# false positives), and none misses a dependency.  Also the //@ loop
# directive's errors and --loop-arrays.
G=${GPURACE:-./gpurace}
S=${GR_SRCDIR:-.}
. "$S/tests/lib.sh"

D=loopdep,wise,twopass,wise-fp,twopass-fp,paragon
# status 1: cells differ from the expected verdicts (read below)
expect 1 "table over kernels/loops" -- "$G" table "$S/kernels/loops" --detect $D --seeds 2 -q --out "$T/loops"
contains "$T/out" "8 cells differ from the expected verdicts" "the -fp and paragon false positives and wise's misses, nothing else"
for k in micro_nodep micro_benign_raw micro_waw_benign; do
  contains "$T/loops.md" "| $k | $k |  | norace | no race | no race | no race |" "$k: loopdep, wise and twopass find no dependency"
done
for k in micro_intra_raw micro_inter_raw micro_waw_repeat; do
  if grep "| $k | $k |" "$T/loops.md" | grep -q "miss"; then fail=$((fail + 1)); echo "FAIL: a scheme misses the dependency of $k"; else pass=$((pass + 1)); fi
done
contains "$T/loops.md" "| micro_benign_raw | micro_benign_raw |  | norace | no race | no race | no race | **false alarm** race (1): intra-warp WAR | **false alarm** race (1): intra-warp RAW/WAR | **false alarm** race (1): RAW |" "the benign intra-warp RAW: false positives of the -fp variants and paragon only"
contains "$T/loops.md" "| micro_waw_benign | micro_waw_benign |  | norace | no race | no race | no race | **false alarm** race (1): intra-warp WAW | **false alarm** race (1): intra-warp WAW | **false alarm** race (1): WAW |" "the benign WAW in one instruction"
contains "$T/loops.md" "| micro_intra_raw | micro_intra_raw |  | race | race (1): intra-warp RAW | race (1): intra-warp RAW | race (1): intra-warp RAW |" "an intra-warp RAW violation"
contains "$T/loops.md" "| micro_inter_raw | micro_inter_raw |  | race | race (1): inter-warp RAW |" "an inter-warp dependency"
# WISE's read shadow keeps the largest reader: a lower reader in another warp is lost
contains "$T/loops.md" "| wise_max_reader | wise_max_reader |  | race | race (1): inter-warp WAR | **miss** no race | race (1): inter-warp RAW/WAR |" "wise misses what its read shadow forgot; twopass does not"
contains "$T/loops.md" "| false alarms on some seed (of 10) | 0 | 0 | 0 | 2 | 2 | 2 |" "false alarms: none for loopdep, wise and twopass"
expect 0 "the instrumented WISE misses it too (round-robin)" -- "$G" run "$S/kernels/loops/wise_max_reader.cu" -DWISE --dump loop_flag
contains "$T/out" "loop_flag i32[1] = {0}" "-DWISE's flag on wise_max_reader"
expect 0 "the instrumented two-pass finds it" -- "$G" run "$S/kernels/loops/wise_max_reader.cu" -DTWOPASS --dump loop_flag
contains "$T/out" "loop_flag i32[1] = {1}" "-DTWOPASS's flag on wise_max_reader"

# -- generated microbenchmarks (scripts/loops-gen.py): wise and twopass against the oracle; every third
#    one also as the instrumented two-pass and Paragon, whose flags must equal their golden models'
if command -v python3 >/dev/null 2>&1; then
  cp "$S"/kernels/loops/*.cuh "$T/"
  k=0
  for seed in 1 2 3 4 5 6; do
    for d in 0 0.01 0.05; do
      for o in rw wr; do
        python3 "$S/scripts/loops-gen.py" --n 256 --m 2 --density $d --seed $seed --order $o >"$T/gen.cu"
        "$G" run "$T/gen.cu" --detect loopdep,twopass,wise-fp,twopass-fp,paragon >"$T/gen.out" 2>&1
        line=$(grep '^detectors:' "$T/gen.out" | sed 's/[a-z-]* \([0-9]*\) race reports*/\1/g; s/detectors: //; s/,//g')
        set -- $line
        # twopass: exactly the oracle's verdict; the -fp variants and paragon: never a miss
        if [ "$(( $1 > 0 ))" -eq "$(( $2 > 0 ))" ] && { [ "$1" -eq 0 ] || { [ "$3" -gt 0 ] && [ "$4" -gt 0 ] && [ "$5" -gt 0 ]; }; }; then
          pass=$((pass + 1))
        else
          fail=$((fail + 1)); echo "FAIL: generated seed $seed density $d order $o: loopdep twopass wise-fp twopass-fp paragon = $line"
        fi
        k=$((k + 1))
        [ $((k % 3)) -eq 0 ] || continue
        for v in "$(( $2 > 0 )):TWOPASS" "$(( $4 > 0 )):TWOPASS_FP" "$(( $5 > 0 )):PARAGON"; do
          expect 0 "generated seed $seed density $d order $o -D${v#*:}" -- "$G" run "$T/gen.cu" -D"${v#*:}" --dump loop_flag
          contains "$T/out" "loop_flag i32[1] = {${v%%:*}}" "generated seed $seed density $d order $o: -D${v#*:} agrees with its golden model"
        done
      done
    done
  done
else
  echo "SKIPPED: the generated microbenchmarks (no python3)"
fi

# -- summaries: the oracle's counts, WISE's first detection, Paragon's sets
expect 4 "run with the four" -- "$G" run "$S/kernels/loops/micro_intra_raw.cu" --detect loopdep,wise,wise-fp,paragon
contains "$T/out" "loopdep: 128 accesses to the loop's arrays, 64 pairs compared, 62 violated dependencies" "loopdep's summary"
contains "$T/out" "wise: 128 speculative operations, 62 dependencies, the first after 65 operations" "wise's first detection"
contains "$T/out" "paragon: 64 reads and 64 writes logged; sets of 64 threads x (1 reads + 1 writes) x 8 bytes + counters of 64 elements x 8 bytes = 1536 bytes; 128 entry comparisons" "paragon's sets and its comparisons"
expect 0 "no dependency" -- "$G" run "$S/kernels/loops/micro_nodep.cu" --detect loopdep,wise,paragon
# --loop-arrays overrides //@ loop: watching only `out` (never shared) finds nothing
expect 0 "--loop-arrays" -- "$G" run "$S/kernels/loops/micro_intra_raw.cu" --detect loopdep --loop-arrays out
expect 2 "--loop-arrays without a value" -- "$G" run "$S/kernels/loops/micro_intra_raw.cu" --detect loopdep --loop-arrays

# -- the paper's instrumented kernels (kernels/loops/loop.cuh: wise.cuh, twopass.cuh, paragon.cuh) on the
#    emulator agree with the golden models: the flag is set exactly where the model reports, on every
#    kernel and seed
for f in "$S"/kernels/loops/*.cu; do
  for v in wise:WISE wise-fp:WISE_FP wise:WISE_NO_LOCAL twopass:TWOPASS twopass-fp:TWOPASS_FP paragon:PARAGON; do
    det=${v%%:*} def=${v#*:}
    st=0; "$G" run "$f" --detect "$det" -q >/dev/null 2>&1 || st=$?
    flag=0; [ "$st" -eq 4 ] && flag=1
    for seed in 1 2 3; do
      expect 0 "${f##*/} -D$def seed $seed" -- "$G" run "$f" -D"$def" --sched random --seed "$seed" --dump loop_flag
      contains "$T/out" "loop_flag i32[1] = {$flag}" "${f##*/}: the instrumented -D$def agrees with $det (seed $seed)"
    done
  done
done
# a dependency found by the first inspector pass ends the later launches at their start: the executor
# never runs, so the shared array keeps its initial values
expect 0 "micro_waw_repeat -DTWOPASS" -- "$G" run "$S/kernels/loops/micro_waw_repeat.cu" -DTWOPASS --dump loop_flag --dump a
contains "$T/out" "loop_flag i32[1] = {1}" "the WAW pass raises the flag"
contains "$T/out" "a f64[64] = {0, 1, 2, 3," "and the executor does not write"
# two-pass's 8-bit timestamp wraps after 255 operations of a warp: no verdict, in the golden model
# and in the instrumented CUDA, where the wrap would hide a real violation; -fp compares no timestamps
W="$S/tests/data/twopass_wrap.cu"
expect 5 "twopass past 255 timestamps" -- "$G" run "$W" --detect twopass
contains "$T/err" "detector twopass stopped watching the run: a warp made 256 operations on the loop's arrays in one launch, past the 255 its 8-bit intra-warp timestamp holds" "the wrap is said"
contains "$T/out" "twopass: no verdict: a warp's intra-warp timestamp reached 256, past its 8 bits" "the summary says no verdict"
expect 4 "twopass-fp past 255 timestamps" -- "$G" run "$W" --detect twopass-fp
expect 4 "twopass within 255 timestamps" -- "$G" run "$W" -D FEWER --detect twopass
contains "$T/out" "race [twopass] intra-warp RAW: global a+0" "the violation found where the timestamps fit"
for d in "" "-D FEWER"; do
  wrapped=1; [ -n "$d" ] && wrapped=0
  expect 0 "-DTWOPASS $d" -- "$G" run "$W" $d -DTWOPASS --dump loop_flag --dump tp_wrapped
  contains "$T/out" "tp_wrapped i32[1] = {$wrapped}" "the instrumented CUDA knows whether it wrapped ($d)"
  contains "$T/out" "loop_flag i32[1] = {1}" "the loop goes back to the CPU ($d)"
done
# Paragon's sets sized too small: the check cannot be made, and the loop counts as dependent
expect 0 "paragon overflow" -- "$G" run "$S/kernels/loops/micro_nodep.cu" -DPARAGON -DPARAGON_SET=2 --dump loop_flag --dump pg_overflow
contains "$T/out" "pg_overflow i32[1] = {1}" "5 reads in a set of 2 overflow"
contains "$T/out" "loop_flag i32[1] = {1}" "an overflow hands the loop back"

# -- the sequential loops in C (gpurace run --seq, detectors/loops/seq.c) give the results the generators
#    computed (the //@ check lines), and what a dependency-free parallel run gives
for f in "$S"/kernels/loops/*.cu; do
  expect 0 "${f##*/} --seq" -- "$G" run "$f" --seq --digest
  cp "$T/out" "$T/seq.digest"
  lacks "$T/out" "FAILED" "${f##*/}: the sequential loop in C passes the file's checks"
  grep -q '^//@ expect nodependency' "$f" || continue
  expect 0 "${f##*/} parallel" -- "$G" run "$f" --digest
  if cmp -s "$T/out" "$T/seq.digest"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: ${f##*/}: the parallel run ends with other memory than the sequential loop"; fi
done
expect 0 "--seq --time" -- "$G" run "$S/kernels/loops/knap.cu" --seq --time 3 --dump best
contains "$T/out" "the fastest of 3 runs (the sequential loop in C)" "--time with --seq times the loop"
contains "$T/out" "best i32[41] = {0, 69, 135, 192, 244, 287," "knap's sequential table"
expect 0 "--time on the emulator" -- "$G" run "$S/kernels/loops/micro_nodep.cu" --time 2 -q
contains "$T/out" "the fastest of 2 runs (launches on the emulator)" "--time times the launches"
expect 2 "--seq without a sequential loop" -- "$G" run "$S/kernels/examples/neighbour_fixed.cu" --seq
contains "$T/err" "no '//@ meta seq NAME' line" "--seq needs the file's loop"
printf '//@ meta seq nope\n//@ launch k grid(1) block(1)\n__global__ void k() {}\n' >"$T/s1.cu"
expect 2 "--seq with an unknown loop" -- "$G" run "$T/s1.cu" --seq
contains "$T/err" "no sequential loop named 'nope' (there are: listing3_rw" "the loops are listed"
printf '//@ meta seq ipvec\n//@ launch k grid(1) block(1)\n//@ buffer perm i32[2] = {0, 7}\n//@ buffer in i32[2]\n//@ buffer out i32[2]\n//@ arg n = 2\n__global__ void k(int *perm, int *in, int *out, int n) {}\n' >"$T/s2.cu"
expect 2 "--seq with an index out of its buffer" -- "$G" run "$T/s2.cu" --seq
contains "$T/err" "stopped at a bad value (7): an index outside its buffer" "a bad index is an error, not a crash"
printf '//@ meta seq ipvec\n//@ launch k grid(1) block(1)\n//@ buffer perm i32[2]\n//@ arg n = 2\n__global__ void k(int *perm, int n) {}\n' >"$T/s3.cu"
expect 2 "--seq with a buffer missing" -- "$G" run "$T/s3.cu" --seq
contains "$T/err" "needs a buffer or integer arg named 'in'" "a missing buffer is named"
expect 2 "--seq with --detect" -- "$G" run "$S/kernels/loops/knap.cu" --seq --detect wise
expect 2 "--time 0" -- "$G" run "$S/kernels/loops/knap.cu" --time 0

# -- the Section VI-D loops (scripts/loops-apps.py): the six parallelisable ones give the sequential loop's
#    result (their //@ check) plain and under -DWISE, with no dependency; KNAP's mistaken parallelisation is
#    found by all, and WISE stops early
for k in cfd md ipvec fwd spmv bfs; do
  expect 0 "$k" -- "$G" run "$S/kernels/loops/$k.cu" --detect loopdep,wise,twopass,paragon
  contains "$T/out" ": ok" "$k gives the sequential result"
  for def in WISE TWOPASS PARAGON; do
    expect 0 "$k -D$def" -- "$G" run "$S/kernels/loops/$k.cu" -D$def --dump loop_flag
    contains "$T/out" "loop_flag i32[1] = {0}" "$k: no dependency under the instrumented -D$def"
    lacks "$T/out" "FAILED" "$k under -D$def still gives the sequential result"
  done
done
expect 4 "knap" -- "$G" run "$S/kernels/loops/knap.cu" --detect loopdep,wise,twopass,paragon
contains "$T/out" "wise: 6909 speculative operations, 2266 dependencies, the first after 129 operations" "knap: wise finds it after 129 of 6909 operations"
expect 0 "knap -DWISE" -- "$G" run "$S/kernels/loops/knap.cu" -DWISE --dump loop_flag
contains "$T/out" "loop_flag i32[1] = {1}" "knap: the instrumented WISE raises its flag"
# race flag propagation: with the block's local flag the kernel stops far sooner than without it
expect 0 "knap -DWISE --stats" -- "$G" run "$S/kernels/loops/knap.cu" -DWISE --stats
contains "$T/out" "stats: 449 warp instructions" "knap stops after 449 warp instructions with the local flag"
expect 0 "knap -DWISE_NO_LOCAL" -- "$G" run "$S/kernels/loops/knap.cu" -DWISE -DWISE_NO_LOCAL --stats --dump loop_flag
contains "$T/out" "stats: 5810 warp instructions" "and after 5810 without it"
contains "$T/out" "loop_flag i32[1] = {1}" "the same verdict without the local flag"

# -- the two-pass inspector's slice (gpurace ir --slice): index loads and shared accesses stay, payloads go;
#    an index array the loop computes itself (Listing 2) keeps its computation and stores
expect 0 "ir --slice" -- "$G" ir "$S/kernels/loops/micro_nodep.cu" --slice a
contains "$T/out" "; inspector slice of micro_nodep: 30 of 36 instructions kept" "the slice's size"
contains "$T/out" "st.f64 [r17+0], r20" "the shared store stays (its value is not computed)"
lacks "$T/out" "mul.f64" "the payload's arithmetic goes"
lacks "$T/out" "param  r3, 3" "the unused output parameter goes"
expect 0 "ir --slice on Listing 2" -- "$G" ir "$S/kernels/loops/heavy_index.cu" --slice array
contains "$T/out" "; inspector slice of heavy_index: 41 of 44 instructions kept" "Listing 2 keeps its heavy index computation"
contains "$T/out" "st.i32" "and the store to ind that the index load reads back"
expect 2 "ir --slice with a name the kernel lacks" -- "$G" ir "$S/kernels/loops/heavy_index.cu" --slice nope
contains "$T/err" "no pointer parameter or __device__ variable 'nope'" "a clear error"

# -- the directives
printf '//@ loop\n__global__ void k() {}\n' >"$T/l1.cu"
expect 2 "loop without arrays" -- "$G" run "$T/l1.cu"
contains "$T/err" "l1.cu:1:9: error: expected at least one array after 'loop'" "loop needs arrays"
printf '//@ loop a\n//@ loop b\n__global__ void k() {}\n' >"$T/l2.cu"
expect 2 "two loop lines" -- "$G" run "$T/l2.cu"
contains "$T/err" "a second loop directive (the first is on line 1)" "one loop line"
printf '//@ expect dependencies\n__global__ void k() {}\n' >"$T/l3.cu"
expect 2 "a bad expect" -- "$G" run "$T/l3.cu"
contains "$T/err" "expect takes 'race', 'norace', 'dependency' or 'nodependency'" "expect's words"

# -- reports/loops-hw.md is what scripts/loops-plot.py makes of the committed measurements, byte for byte
if command -v python3 >/dev/null 2>&1; then
  mkdir -p "$T/plot"
  expect 0 "loops-plot.py" -- python3 "$S/scripts/loops-plot.py" "$S/reports/loops-hw" "$T/plot/loops-hw.md"
  for f in loops-hw.md loops-fig7a.svg loops-fig7b.svg loops-fig7c.svg loops-fig8.svg loops-fig9.svg; do
    if cmp -s "$T/plot/$f" "$S/reports/$f"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: reports/$f is not what loops-plot.py makes of reports/loops-hw"; fi
  done
  printf '4096\tseq\tNA\t-\n' >"$T/plot/fig7a.tsv"
  expect 1 "loops-plot.py without its rows" -- python3 "$S/scripts/loops-plot.py" "$T/plot" "$T/plot/x.md"
  contains "$T/err" "loops-plot: no $T/plot/loops-hw-flags.md: run scripts/hw-loops.sh" "a missing part is named"
fi

# -- launches under knobs: a plain run makes none of them; a file all of whose launches are off says so
printf '//@ launch k grid(1) block(1) if A\n__global__ void k() {}\n' >"$T/k1.cu"
expect 2 "every launch off" -- "$G" run "$T/k1.cu"
contains "$T/err" "every '//@ launch' has a knob that is not defined" "nothing to run is an error"
expect 0 "the knob on" -- "$G" run "$T/k1.cu" -DA=1
printf '//@ launch k grid(1) block(1) if\n__global__ void k() {}\n' >"$T/k2.cu"
expect 2 "if without knobs" -- "$G" run "$T/k2.cu"
contains "$T/err" "k2.cu:1:33: error: expected at least one knob after 'if'" "if needs a knob"
printf '//@ launch k grid(1) block(1) if 3X\n__global__ void k() {}\n' >"$T/k3.cu"
expect 2 "a bad knob" -- "$G" run "$T/k3.cu"
contains "$T/err" "expected a macro name (a -D knob)" "a knob is a macro name"

echo "loops.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
