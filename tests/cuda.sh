#!/bin/sh
# The CUDA backend.  Where it is built: every kernel file, every knob and
# every application compiles with NVRTC as --backend cuda compiles it (no GPU
# needed), and so does every litmus test's hardware harness; without a GPU,
# asking for the backend fails with a message and status 2.  Where a GPU is
# present: kernels run there and end with the emulator's memory, byte for
# byte, and a litmus test runs on it.  Skips (77) where the backend is not built.
B=${GR_BUILDDIR:-.}
S=${GR_SRCDIR:-.}
G=${GPURACE:-$B/gpurace}
. "$S/tests/lib.sh"
"$G" devices >"$T/dev" 2>&1; gpu=$?
if grep -q "not built" "$T/dev"; then echo "SKIP: this build has no CUDA backend (configure found no CUDA toolkit)"; exit 77; fi

expect 2 "bad --backend" -- "$G" run "$S/kernels/examples/reduce.cu" --backend opencl
contains "$T/err" "--backend takes emu or cuda, not 'opencl'" "bad backend named"
expect 2 "detectors need the emulator" -- "$G" run "$S/kernels/examples/reduce.cu" --backend cuda --detect hb
contains "$T/err" "--detect needs --backend emu" "detectors refused on the GPU"
expect 2 "--stats on the GPU" -- "$G" run "$S/kernels/examples/reduce.cu" --backend cuda --stats

if "$G" nvrtc "$S/kernels/examples/reduce.cu" >"$T/probe" 2>&1; then
  expect 0 "every kernel file and knob compiles with NVRTC" -- "$G" nvrtc --knobs $(ls "$S"/kernels/*/*.cu | grep -v -e /kernels/cxx/ -e /kernels/samples/) "$S"/scor/micro/*.cu
  for a in mm red r110 conv gcol gcon uts; do
    expect 0 "$a compiles with NVRTC" -- "$G" nvrtc "$S/scor/apps/$a/$a.cu"
    for k in RACEY $(sed -n 's/^#define \([A-Z0-9]*_[0-9]\)$/\1/p' "$S/scor/apps/$a/$a.cu"); do
      expect 0 "$a -D $k compiles with NVRTC" -- "$G" nvrtc -D "$k" "$S/scor/apps/$a/$a.cu"
    done
  done
  expect 0 "every litmus harness compiles" -- "$G" litmus --backend cuda --iterations 0 "$S"/kernels/litmus/*.cu
  contains "$T/out" "compiled for sm_90, not run" "harness compiled"
  # an error NVRTC finds and the emulator's front end does not: its log is the message
  printf '//@ launch k grid(1) block(1)\n//@ buffer a i32[1]\n__global__ void k(int *a) { a[0] = 1; }\n' >"$T/ok.cu"
  GPURACE_NVRTC_OPTIONS=--no-such-option "$G" nvrtc "$T/ok.cu" >"$T/out" 2>"$T/err"
  if [ $? -eq 2 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: a bad NVRTC option is an error"; fi
  contains "$T/err" "NVRTC_ERROR_INVALID_OPTION" "NVRTC's error is reported"
else
  echo "SKIP (NVRTC checks): $(cat "$T/probe")"
fi

if [ $gpu -ne 0 ]; then
  echo "SKIP (GPU runs): $(grep '^cuda' "$T/dev")"
  expect 2 "no GPU: --backend cuda fails" -- "$G" run "$S/kernels/examples/reduce.cu" --backend cuda
  contains "$T/err" "CUDA backend" "the reason is given"
  expect 2 "no GPU: hardware litmus fails" -- "$G" litmus --backend cuda --iterations 10 "$S/kernels/litmus/M3_mp_G.cu"
else
  for f in "$S/kernels/examples/reduce.cu" "$S/kernels/examples/scan.cu" "$S/kernels/boyer/scan.cu"; do
    "$G" run "$f" -q --digest >"$T/emu" 2>&1
    expect 0 "$f on the GPU" -- "$G" run "$f" -q --digest --backend cuda
    if cmp -s "$T/emu" "$T/out"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $f: GPU memory differs"; diff "$T/emu" "$T/out"; fi
  done
  expect 0 "a litmus test on the GPU" -- "$G" litmus --backend cuda --iterations 2000 "$S/kernels/litmus/M3_mp_G.cu"
  contains "$T/out" "PASS M3" "M3 within the emulator's reachable set"
fi
echo "cuda.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
