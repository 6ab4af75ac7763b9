#!/bin/sh
# The compiled engine is the interpreter's run, byte for byte: every kernel
# file of the repository (both front ends: the .cu files and nvcc's -O3
# PTX fixtures of them) under both warp models, both memory models and
# both schedulers, with --engine interp and --engine compiled, prints the
# same final memory (--digest), the same statistics (--stats: steps,
# divergences, barriers, memory operations), the same race reports under
# detectors (LD's snapshots among them), the same errors and exits
# with the same status.  The engine line of --stats is the one apart: it
# must say that compiled code ran (a test whose compiled side never ran
# would pass by comparing the interpreter with itself).  Also: the
# option's errors, the fallback without a compiler, and --engine auto.
G=${GPURACE:-./gpurace}
S=${GR_SRCDIR:-.}
. "$S/tests/lib.sh"
cd "$S" || exit 1
case "$G" in /*) ;; *) G="$OLDPWD/$G" ;; esac
J="$T/jit"

expect 2 "bad --engine" -- "$G" run kernels/examples/reduce.cu --engine jit
contains "$T/err" "--engine takes interp, compiled or auto, not 'jit'" "says what it takes"

same=0 differ=0 ran=0 runs=0 declined=0
check() {  # check FILE OPTIONS...: both engines, the same output
  f=$1; shift
  rc1=0; "$G" run "$f" --digest --stats --engine interp "$@" >"$T/i" 2>"$T/ie" || rc1=$?
  rc2=0; "$G" run "$f" --digest --stats --engine compiled --jit-cache "$J" "$@" >"$T/c" 2>"$T/ce" || rc2=$?
  # the compiled run's output less its engine line, read by the shell (a
  # third of this suite's processes were grep's and cmp's: on a 2-core VM
  # a process costs ~1 ms, most of it the kernel's), and the error
  # outputs compared only where one has a byte
  eng=
  while IFS= read -r line; do case $line in "engine: "*) eng=$line ;; *) printf '%s\n' "$line" ;; esac; done <"$T/c" >"$T/c2"
  if [ "$rc1" -eq "$rc2" ] && cmp -s "$T/i" "$T/c2" && { ! [ -s "$T/ie" ] && ! [ -s "$T/ce" ] || cmp -s "$T/ie" "$T/ce"; }; then same=$((same + 1)); else
    differ=$((differ + 1))
    echo "FAIL: $f $*: the engines differ (exit $rc1 and $rc2)"
    diff "$T/i" "$T/c2" | head -5; diff "$T/ie" "$T/ce" | head -5
  fi
  runs=$((runs + 1))
  case $eng in "engine: compiled code in "[1-9]*) ran=$((ran + 1)) ;; esac
  # under lockstep a register the code holds as one scalar (jit.c's
  # jit_uniform) has one value in a full warp's lanes wherever it enters:
  # an entry declined would be the analysis wrong (a slower run, not a
  # different one: the interpreter goes on)
  case " $* " in
  *" --warps its "*) ;;
  *) case $eng in *declined*)
       declined=$((declined + 1))
       echo "FAIL: $f $*: compiled code declined an entry under lockstep: $eng" ;;
     esac ;;
  esac
}
for f in kernels/*/*.cu scor/micro/*.cu tests/data/*.cu tests/data/whole/*.cu; do
  grep -q '^//@ launch' "$f" || continue
  check "$f"
  check "$f" --warps its --memory weak --seed 3
  # observers: compiled code runs what tells them nothing (simt.h's SIMT_OBSERVED)
  check "$f" --memory weak --sched random --seed 2 --detect hb,scord,boyer
  check "$f" --warps its --sms 1
done
for f in kernels/ld/*.cu; do check "$f" --detect ld; done
for f in tests/ptx/O3/kernels/*/*.ptx tests/ptx/O3/scor/micro/*.ptx; do
  [ -f "$f" ] || continue
  check "$f"
  check "$f" --warps its --memory weak --seed 5
done
if [ "$differ" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
if [ "$declined" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
# compiled code ran in most runs (not in those that fail before a launch,
# or under ITS where lanes part at once)
if [ "$ran" -ge $((runs * 7 / 10)) ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: compiled code ran in $ran of $runs runs"; fi
echo "engines: $same runs the same of $runs, compiled code in $ran"

# a launch no schedule can tell apart runs a warp at a time (emu/whole.h):
# the files named ok_ do (under lockstep and under ITS with weak memory,
# round-robin; ok_tail.cu's last block, whose lanes part, turn by turn),
# those named bail_ start to and go turn by turn (lanes part in one block
# of four, a store faults, a warp spins, a warp has 16 lanes, the block
# whose lanes part faults and the launch runs again), as does ok_loop.cu
# under a step limit below its steps; the runs above compared each with
# the interpreter's
for f in tests/data/whole/*.cu; do
  for o in "" "--warps its --memory weak --seed 3" "--max-steps 3000"; do
    # shellcheck disable=SC2086
    "$G" run "$f" --stats --engine compiled --jit-cache "$J" $o >"$T/o" 2>&1
    case $f:$o in */ok_*:|*/ok_*:--warps*) want=1 ;; *) want=0 ;; esac
    if grep -q "a warp at a time" "$T/o"; then got=1; else got=0; fi
    if [ "$got" = "$want" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $f $o: a warp at a time $got, not $want"; fi
  done
done
for o in "" "--max-steps 3000"; do
  rc1=0; "$G" run tests/data/whole/ok_loop.cu --digest --stats --engine interp $o >"$T/i" 2>&1 || rc1=$?
  rc2=0; "$G" run tests/data/whole/ok_loop.cu --digest --stats --engine compiled --jit-cache "$J" $o >"$T/c" 2>&1 || rc2=$?
  grep -v '^engine: ' "$T/c" >"$T/c2"
  if [ "$rc1" -eq "$rc2" ] && cmp -s "$T/i" "$T/c2"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: ok_loop.cu $o: the engines differ"; diff "$T/i" "$T/c2" | head -5; fi
done
contains "$T/c" "step limit reached" "a step limit below a whole launch's steps is the turns'"
# the blocks split among threads: the same run on one thread or three
OMP_NUM_THREADS=1 "$G" run tests/data/whole/ok_loop.cu --digest --stats --engine compiled --jit-cache "$J" >"$T/o1" 2>&1
OMP_NUM_THREADS=3 "$G" run tests/data/whole/ok_loop.cu --digest --stats --engine compiled --jit-cache "$J" >"$T/o3" 2>&1
if cmp -s "$T/o1" "$T/o3" && grep -q "a warp at a time" "$T/o3"; then pass=$((pass + 1)); else
  fail=$((fail + 1)); echo "FAIL: ok_loop.cu on one thread and on three"; diff "$T/o1" "$T/o3" | head -5; fi

# the run-ahead's stores (simt.h's AHEAD_STORE: to allocations nobody reads)
# give one instruction per turn's run: the same memory and statistics, and
# memory's changes reach the livelock detector at the stores' turns, so
# that a deadlock is reported at the same step (the smallest --max-steps
# that reports it rather than the step limit: that of --one-per-turn);
# an asynchronous copy's read counts (at_once_copy.ptx: a store it reads
# is no such store), and so does its write: a warp whose copies are in
# flight is not quiet, and another warp's shared load waits for its turn
# (ahead_copy.ptx: it read shared memory before the wait that performs
# the copy)
for f in tests/data/at_once.cu tests/data/at_once_kept.cu tests/data/at_once_stop.cu tests/data/ahead_spin.cu tests/data/at_once_copy.ptx tests/data/ahead_copy.ptx; do
  for e in interp compiled; do
    rc1=0; "$G" run "$f" --digest --stats --one-per-turn >"$T/i" 2>&1 || rc1=$?
    rc2=0; "$G" run "$f" --digest --stats --engine "$e" --jit-cache "$J" >"$T/c" 2>&1 || rc2=$?
    grep -v '^engine: ' "$T/c" >"$T/c2"
    if [ "$rc1" -eq "$rc2" ] && cmp -s "$T/i" "$T/c2"; then pass=$((pass + 1)); else
      fail=$((fail + 1)); echo "FAIL: $f --engine $e: other than one per turn"; diff "$T/i" "$T/c2" | head -5; fi
  done
done
deadlock_at() {  # the smallest --max-steps at which ahead_spin.cu reports its deadlock
  lo=1 hi=1000000
  while [ $((hi - lo)) -gt 1 ]; do
    mid=$(((lo + hi) / 2))
    if "$G" run tests/data/ahead_spin.cu --max-steps "$mid" "$@" 2>&1 | grep -q 'error: deadlock'; then hi=$mid; else lo=$mid; fi
  done
  echo "$hi"
}
d1=$(deadlock_at --one-per-turn)
for e in interp compiled; do
  d2=$(deadlock_at --engine "$e" --jit-cache "$J")
  if [ "$d1" = "$d2" ] && [ "$d1" -lt 1000000 ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: --engine $e reports the deadlock at step $d2, one per turn at $d1"; fi
done

# under a detector, a loop of arithmetic runs compiled
"$G" run kernels/examples/reduce.cu --stats --detect hb-ptx --engine compiled --jit-cache "$J" >"$T/o" 2>&1
contains "$T/o" "engine: compiled code in 1 launch" "compiled code runs under an observer"

# the disk cache: a second run compiles nothing
"$G" run kernels/examples/reduce.cu --stats --engine compiled --jit-cache "$J" >"$T/o" 2>&1
contains "$T/o" "engine: compiled code in 1 launch, the C compiler 0.000 s" "a cached kernel is not compiled again"
# auto: a cached kernel runs compiled; a short launch of one not cached runs the interpreter
"$G" run kernels/examples/reduce.cu --stats --engine auto --jit-cache "$J" >"$T/o" 2>&1
contains "$T/o" "engine: compiled code in 1 launch" "auto takes the cached code"
"$G" run kernels/examples/reduce.cu --stats --engine auto --jit-cache "$T/empty" >"$T/o" 2>&1
contains "$T/o" "engine: compiled code in 0 launches, the C compiler 0.000 s" "auto leaves a short launch to the interpreter"
# auto, a long launch: the compiler runs in the background (the launch goes
# on interpreting, so the first run may end before it does), and fills the
# cache for the next run
cat >"$T/long.cu" <<'EOF2'
//@ launch spin grid(2) block(1024)
//@ buffer out u32[2048]
__global__ void spin(unsigned *out) {
  unsigned x = threadIdx.x;
  for (int i = 0; i < 20000; i++) x = x * 3u + 1u;
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
EOF2
expect 0 "auto, a long launch" -- "$G" run "$T/long.cu" --digest --engine auto --jit-cache "$T/auto"
cp "$T/out" "$T/long1"
k=0
while [ "$k" -lt 100 ] && ! ls "$T/auto"/jit-*.so >/dev/null 2>&1; do sleep 0.2; k=$((k + 1)); done
"$G" run "$T/long.cu" --digest --stats --engine auto --jit-cache "$T/auto" >"$T/o" 2>&1
contains "$T/o" "engine: compiled code in 1 launch, the C compiler 0.000 s" "the background compile filled the cache"
grep '^digest' "$T/o" >"$T/long2"
if cmp -s "$T/long1" "$T/long2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: auto's two runs differ"; fi

# a cache folder that cannot be made: the interpreter runs, and says why once
expect 0 "an unusable cache" -- "$G" run kernels/examples/reduce.cu --engine compiled --jit-cache /proc/gpurace-cache
contains "$T/err" "gpurace: note: the compiled engine is not available (cannot make the cache folder /proc/gpurace-cache" "says why"
# a folder whose quoted name does not fit the compiler's command (each '
# quoted for sh takes four characters): said, not a command cut short (a
# path relative to $T, the longest the option takes whatever $T is)
q=$(printf "'%.0s" $(seq 254))
mkdir -p "$T/$q/$q"
expect 0 "a cache folder of quotes" -- sh -c 'cd "$1" && "$2" run "$3" --engine compiled --jit-cache "$4"' sh "$T" "$G" \
  "$PWD/kernels/examples/reduce.cu" "$q/$q"
contains "$T/err" "the cache folder's path is too long for the C compiler's command" "says why"
lacks "$T/err" "Unterminated" "no command cut short"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
