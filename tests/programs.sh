#!/bin/sh
# Unmodified CUDA programs under gpurace exec (rt/, docs/runtime.md): the
# programs of tests/programs, built here with nvcc -cudart shared against
# gpurace's own libcudart.so.13, each API group's results asserted (the
# .out files are their stdout, the same a GPU prints: scripts/hw-programs.sh),
# faults and races reported at their source lines, errors returned as CUDA
# returns them, the exit statuses of exec, and the same bytes for the same
# seed whatever the number of threads.  Without nvcc it says it skips.
G=${GPURACE:-./gpurace}
S=${GR_SRCDIR:-.}
B=${GR_BUILDDIR:-.}
. "$S/tests/lib.sh"
P=$S/tests/programs

NVCC="$S/scripts/nvcc.sh"
if ! "$NVCC" --which >/dev/null 2>&1; then
  echo "SKIP: programs: no nvcc (\$GPURACE_NVCC, \$PATH, \$CUDA_HOME/bin, .venv from scripts/setup.sh): nothing to build"
  exit 77
fi
export GR_BUILDDIR="$B"
# ASan's leak check would judge the programs' own allocations
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
build() {  # build NAME [FLAGS...]: tests/programs/NAME.cu into $T/NAME
  name=$1; shift
  if "$NVCC" -cudart shared -lineinfo "$@" -o "$T/$name" "$P/${name%%-*}.cu" >"$T/nvcc.err" 2>&1; then pass=$((pass + 1))
  else fail=$((fail + 1)); echo "FAIL: nvcc could not build $name"; cat "$T/nvcc.err"; fi
}
same() {  # same FILE EXPECTED DESCRIPTION
  if cmp -s "$1" "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $3: stdout differs from $2:"; diff "$2" "$1" | head -20; fi
}
for p in vadd api printf assert fault coop args unsupported race; do build $p; done
build race-fixed -DFIXED
build fault-misaligned -DMISALIGNED
build fault-oob -DOUT_OF_BOUNDS

# the smallest program
expect 0 "vadd" -- "$G" exec "$T/vadd"
contains "$T/out" "cudaSuccess: c[0]=0 c[999]=2997 sum=1.4985e+06" "its result"
contains "$T/err" "gpurace: 1 kernel launch" "the summary at its exit, on stderr"

# every API group, results asserted line by line
for p in api printf coop; do
  expect 0 "$p" -- "$G" exec "$T/$p"
  same "$T/out" "$P/$p.out" "$p"
done
lacks "$T/err" "not supported" "coop: nothing unsupported"
# the per-thread default stream (nvcc --default-stream per-thread calls the _ptsz and _ptds functions)
if "$NVCC" -cudart shared -lineinfo --default-stream per-thread -o "$T/api-ptsz" "$P/api.cu" >"$T/nvcc.err" 2>&1; then
  expect 0 "api, per-thread default stream" -- "$G" exec "$T/api-ptsz"
  same "$T/out" "$P/api.out" "api, per-thread default stream"
  lacks "$T/err" "not supported" "per-thread default stream: nothing unsupported"
else fail=$((fail + 1)); echo "FAIL: nvcc could not build api with --default-stream per-thread"; cat "$T/nvcc.err"; fi
build coop-too-many -DTOO_MANY
expect 0 "coop, too many blocks" -- "$G" exec "$T/coop-too-many"
contains "$T/out" "cooperative, too many blocks: cudaErrorCooperativeLaunchTooLarge" "coop: a grid too large to be resident is refused"
contains "$T/out" "ordinary, too many blocks, synchronize: cudaErrorLaunchTimeout" "coop: an ordinary one waits for ever: a deadlock, as the GPU hangs"
contains "$T/err" "deadlock" "coop: the deadlock reported"

# faults: reported at the source line with the thread; the error CUDA returns, sticky
expect 0 "assert" -- "$G" exec "$T/assert"
same "$T/out" "$P/assert.out" "assert"
contains "$T/err" "assert.cu:9:28: error: assertion \`v[i] >= 0\` failed (" "assert: the message and line"
contains "$T/err" "in thread (2,0,0) of block (0,0,0)" "assert: the thread"
expect 1 "fault" -- "$G" exec "$T/fault"
same "$T/out" "$P/fault.out" "fault"
contains "$T/err" "fault.cu:14:3: error: invalid store of 4 bytes at address 0x0 (null pointer) by thread (3,0,0)" "fault: where"
contains "$T/err" "the program sees cudaErrorIllegalAddress from its next synchronising call" "fault: what the program sees"
contains "$T/err" "gpurace: 1 kernel launch (1 failed)" "fault: the summary counts it"
expect 1 "misaligned" -- "$G" exec "$T/fault-misaligned"
contains "$T/out" "synchronize: cudaErrorMisalignedAddress" "misaligned: its error"
contains "$T/err" "fault.cu:10:3: error: misaligned global store" "misaligned: where"
expect 1 "out of bounds" -- "$G" exec "$T/fault-oob"
contains "$T/out" "synchronize: cudaErrorIllegalAddress" "out of bounds: its error"
contains "$T/err" "fault.cu:12:3: error: out-of-bounds global store of 4 bytes" "out of bounds: where"
contains "$T/err" "(offset 256 of p, 256 bytes)" "out of bounds: the buffer named by the kernel's parameter"
expect 7 "--error-exitcode: a failed launch" -- "$G" exec --error-exitcode 7 "$T/fault"

# races: reported at the source line, under the options given
expect 0 "race, lockstep, boyer" -- "$G" exec --detect boyer "$T/race"
contains "$T/out" "sum 2016" "race: the program's output"
contains "$T/err" "race [boyer] RAW hazard within a warp" "race: boyer's report"
contains "$T/err" "race.cu:15:5: plain store by block (0,0,0) warp 0" "race: at the source line"
expect 9 "race, its, hb, --error-exitcode" -- "$G" exec --detect hb --warps its --error-exitcode 9 "$T/race"
contains "$T/err" "race [hb] missing __syncwarp" "race: hb under ITS"
contains "$T/err" "detectors: hb 1 race report" "race: the summary"
expect 0 "race fixed" -- "$G" exec --detect hb,boyer --warps its --error-exitcode 9 "$T/race-fixed"
contains "$T/err" "detectors: hb 0 race reports, boyer 0 race reports" "fixed: no race"
expect 0 "race fixed, hb-ptx, weak memory" -- "$G" exec --detect hb-ptx --memory weak --error-exitcode 9 "$T/race-fixed"
contains "$T/out" "sum 2016" "fixed: the sum under weak memory"

# several translation units, each its own fatbinary; relocatable device code refused, said;
# without -lineinfo, reports name the program's PTX
if "$NVCC" -cudart shared -lineinfo -o "$T/units" "$P/units.cu" "$P/units_b.cu" >"$T/nvcc.err" 2>&1; then
  expect 0 "two translation units" -- "$G" exec "$T/units"
  contains "$T/out" "14 17 20 23: cudaSuccess" "units: both units' kernels and variables"
else fail=$((fail + 1)); echo "FAIL: nvcc could not build units"; cat "$T/nvcc.err"; fi
if "$NVCC" -cudart shared -rdc=true -o "$T/units-rdc" "$P/units.cu" "$P/units_b.cu" >"$T/nvcc.err" 2>&1; then
  expect 2 "relocatable device code" -- "$G" exec "$T/units-rdc"
  contains "$T/err" "built with relocatable device code (nvcc -rdc=true" "rdc: said, with what to do"
fi
"$NVCC" -cudart shared -o "$T/fault-noline" "$P/fault.cu" >"$T/nvcc.err" 2>&1
expect 1 "a fault without -lineinfo" -- "$G" exec "$T/fault-noline"
contains "$T/err" ": error: launch 1 of 'poke', grid (2,1,1) block (32,1,1): fault-noline.1.ptx:" "without -lineinfo: the program's PTX and its line"

# host threads: pinned memory a kernel does not touch keeps what another thread writes meanwhile
if "$NVCC" -cudart shared -lineinfo -o "$T/threads" "$P/threads.cu" >"$T/nvcc.err" 2>&1; then
  expect 0 "host threads and pinned memory" -- "$G" exec "$T/threads"
  contains "$T/out" "a[0] = 2000, a[31] = 2000; the writer's values lost: 0 (it wrote)" "threads: nothing lost"
else fail=$((fail + 1)); echo "FAIL: nvcc could not build threads"; cat "$T/nvcc.err"; fi

# the program's arguments, stdin and exit status are its own
echo 21 >"$T/in"
expect 3 "args" -- sh -c "\"$G\" exec \"$T/args\" 'a b' c 3 <\"$T/in\""
contains "$T/out" "arg 1: a b" "args: an argument with a space"
contains "$T/out" "stdin doubled: 42" "args: stdin"
expect 0 "a script that runs the program" -- "$G" exec sh -c "echo 5 | \"$T/args\""
contains "$T/out" "stdin doubled: 10" "the script's program ran"
contains "$T/err" "gpurace: 1 kernel launch" "the script's program was under gpurace's runtime"
expect 0 "--log" -- "$G" exec --log "$T/log" --detect boyer "$T/race"
lacks "$T/err" "race [boyer]" "--log: not on stderr"
contains "$T/log" "race [boyer] RAW hazard within a warp" "--log: in the file"

# what the runtime does not implement: said, answered, counted
expect 0 "unsupported" -- "$G" exec "$T/unsupported"
contains "$T/out" "cudaGraphCreate: cudaErrorNotSupported" "unsupported: the program's answer"
contains "$T/err" "cudaGraphCreate is not supported by gpurace's CUDA runtime" "unsupported: named"
expect 4 "unsupported, --error-exitcode" -- "$G" exec --error-exitcode 4 "$T/unsupported"

# the same seed, the same bytes, whatever the threads
for p in api race; do
  OMP_NUM_THREADS=1 "$G" exec --detect hb,boyer --warps its --sched random --seed 7 "$T/$p" >"$T/a1" 2>&1
  OMP_NUM_THREADS=4 "$G" exec --detect hb,boyer --warps its --sched random --seed 7 "$T/$p" >"$T/a4" 2>&1
  same "$T/a4" "$T/a1" "$p: 1 and 4 threads"
done

# the ScoR applications as programs: right results on their race-free builds, no report
# (RED under scord: hb reports its documented missing device fence, scor/apps/README.md), races
# reported on the knobs' (reports/scor-programs.md has every build over 10 seeds)
for a in mm red r110 conv gcol gcon uts; do
  if "$NVCC" -cudart shared -lineinfo -o "$T/scor-$a" "$S/scor/programs/$a.cu" "$S/scor/apps/inputs.c" >"$T/nvcc.err" 2>&1; then
    det=hb; [ $a = red ] && det=scord
    expect 0 "scor $a, race-free" -- "$G" exec --detect $det --error-exitcode 4 "$T/scor-$a"
    grep -q "matches\|as the CPU\|a valid colouring\|every label is the smallest" "$T/out" && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: scor $a: not its right result"; cat "$T/out"; }
  else fail=$((fail + 1)); echo "FAIL: nvcc could not build scor/programs/$a.cu"; cat "$T/nvcc.err"; fi
done
"$NVCC" -cudart shared -lineinfo -DMM_2 -o "$T/scor-mm2" "$S/scor/programs/mm.cu" "$S/scor/apps/inputs.c" >"$T/nvcc.err" 2>&1
expect 4 "scor mm, MM_2" -- "$G" exec --detect hb --error-exitcode 4 "$T/scor-mm2"
contains "$T/err" "race [hb] missing block fence: global tempC+" "MM_2: the race, on the buffer the kernel calls tempC"
contains "$T/err" "mm.cu:44:13: volatile store" "MM_2: at its source line"

# programs gpurace cannot run: told how to rebuild
if "$NVCC" -o "$T/static" "$P/vadd.cu" >"$T/nvcc.err" 2>&1; then
  expect 2 "the static runtime" -- "$G" exec "$T/static"
  contains "$T/err" "rebuild with nvcc -cudart shared" "static: how to rebuild"
fi
if "$NVCC" -cudart shared -gencode arch=compute_90,code=sm_90 -o "$T/sass" "$P/vadd.cu" >"$T/nvcc.err" 2>&1; then
  expect 2 "no PTX" -- "$G" exec "$T/sass"
  contains "$T/err" "no PTX, only code for particular GPUs" "no PTX: said"
fi
# usage
expect 2 "a bad option value" -- "$G" exec --warps sideways "$T/vadd"
contains "$T/err" "--warps takes lockstep or its" "the bad value named"
expect 2 "an option exec does not take" -- "$G" exec --backend cuda "$T/vadd"
expect 2 "an unknown detector" -- "$G" exec --detect nope "$T/vadd"
expect 2 "no program" -- "$G" exec --detect hb
expect 127 "a program that does not exist" -- "$G" exec "$T/absent"
echo "programs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
