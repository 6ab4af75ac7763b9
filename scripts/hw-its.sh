#!/bin/sh
# The kernels of kernels/its on the GPU (issue 19): each run 30 times
# through the CUDA backend, its output buffer dumped, to compare with what
# the emulator reaches under --warps its.  Usage (on a GPU machine, after
# scripts/hw-bundle.sh here, carry [".hw"]):
#   export LD_LIBRARY_PATH=$PWD/.hw/lib; BUILD=.hw sh scripts/hw-its.sh OUTDIR
set -u
B=${BUILD:-.}
OUT=${1:-hw-its}
mkdir -p "$OUT"
for f in kernels/its/*.cu; do
  n=$(basename "$f" .cu)
  for i in $(seq 1 30); do
    "$B/gpurace" run "$f" --backend cuda --dump out -q 2>&1 | tr '\n' ' '
    echo
  done | sort | uniq -c >"$OUT/$n.txt"
  echo "== $n"; cat "$OUT/$n.txt"
done
