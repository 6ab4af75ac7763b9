#!/bin/bash
# hw-ptx.sh OUTDIR: the PTX path on the GPU.  Every kernel file with
# //@ check lines (kernels/cxx included, kernels/its excluded: they depend on
# the warp model) is compiled once by NVRTC (gpurace run --cc nvrtc), run
# by the emulator's PTX front end, and loaded as that very PTX on the GPU
# (--backend cuda): one program on both sides.  Appends rows of kind "ptx"
# to OUTDIR/kernels.tsv (the format of validate-hw.sh, which runs this).
# From the source root, with a built tree in $BUILD (default .).
set -u
OUT=${1:?usage: hw-ptx.sh OUTDIR}
B=${BUILD:-.}
G=$B/gpurace
mkdir -p "$OUT"
LOG=$OUT/log.txt
TSV=$OUT/kernels.tsv
touch "$LOG" "$TSV"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/hw-lib.sh"
echo "the PTX path on both backends (NVRTC's PTX)"
for f in $(grep -l '^//@ check' kernels/*/*.cu scor/micro/*.cu | grep -v '^kernels/its/'); do
  compare ptx "$f" "$G" run "$f" -q --cc nvrtc
done
