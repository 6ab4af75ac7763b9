#!/bin/sh
# hw-litmus-guard.sh OUT: on a GPU machine, from the source root with the
# bundle of scripts/hw-bundle.sh in $BUILD (default .hw): `gpurace litmus
# --backend cuda` passes a test whose outcomes the emulator can reach, and
# fails (status 2, no test passed) when gpurace's device headers are
# missing, where it once printed "42 tests on the GPU, 42 passed" over an
# empty table (issue 43).  Writes OUT/litmus-guard.txt.
set -u
OUT=${1:?usage: hw-litmus-guard.sh OUT}
B=${BUILD:-.hw}
G="$B/gpurace"
mkdir -p "$OUT" "$OUT/noinc"
{
  echo "## with the bundle's headers"
  "$G" litmus --backend cuda --iterations 2000 kernels/litmus/M1_mp_W.cu kernels/litmus/M17_mp_relacq_gpu_G.cu 2>&1
  echo "status $?"
  echo "## GPURACE_INCLUDE naming a folder without them"
  GPURACE_INCLUDE="$OUT/noinc" "$G" litmus --backend cuda --iterations 2000 kernels/litmus/M1_mp_W.cu kernels/litmus/M17_mp_relacq_gpu_G.cu 2>&1
  echo "status $?"
} >"$OUT/litmus-guard.txt"
cat "$OUT/litmus-guard.txt"
