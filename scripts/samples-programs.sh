#!/bin/sh
# samples-programs.sh SAMPLES [OUT]: NVIDIA's CUDA samples (a checkout of
# github.com/NVIDIA/cuda-samples at SAMPLES) built as their authors wrote
# them, with nvcc -cudart shared (scripts/nvcc.sh), and run unmodified under
# `gpurace exec` with a time limit (LIMIT seconds, default 300): each one's
# exit status, the calls gpurace does not implement, its launches and time.
# Writes OUT (default reports/samples-programs.md).  The samples are not
# part of this repository: fetch them, never commit them.
set -u
S=${1:?usage: samples-programs.sh SAMPLES [OUT]}
OUT=${2:-reports/samples-programs.md}
G=${GPURACE:-./gpurace}
LIMIT=${LIMIT:-300}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
commit=${SAMPLES_COMMIT:-$(git -C "$S" rev-parse --short HEAD 2>/dev/null || echo unknown)}
: >"$T/notes"
{
  echo "# NVIDIA's CUDA samples under gpurace exec"
  echo
  echo "Written by \`sh scripts/samples-programs.sh SAMPLES\`: the programs of \`Samples/0_Introduction\` of"
  echo "NVIDIA's cuda-samples (commit $commit) that need no graphics, second GPU, MPI or driver API,"
  echo "built as they are with \`nvcc -cudart shared -lineinfo -I Common\`, run unmodified under"
  echo "\`gpurace exec\` (default options) on a machine without a GPU, each within $LIMIT s."
  echo
  echo "| sample | exit | launches | unsupported calls | seconds | last line of stdout |"
  echo "|---|---|---|---|---|---|"
} >"$OUT"
for s in vectorAdd asyncAPI clock matrixMul mergeSort simpleAssert simpleAtomicIntrinsics simpleAttributes simpleCallback \
         simpleCooperativeGroups simpleHyperQ simpleMultiCopy simpleOccupancy simplePrintf simpleStreams simpleTemplates \
         simpleVoteIntrinsics simpleZeroCopy systemWideAtomics template fp16ScalarProduct simpleAWBarrier UnifiedMemoryStreams; do
  d=$S/Samples/0_Introduction/$s
  [ -d "$d" ] || continue
  extra=
  [ "$s" = UnifiedMemoryStreams ] && extra="-Xcompiler -fopenmp -lgomp -lcublas"   # as its CMakeLists.txt links it
  if ! scripts/nvcc.sh -cudart shared -lineinfo -I "$S/Common" -o "$T/$s" $(ls "$d"/*.cu "$d"/*.cpp 2>/dev/null) $extra >"$T/build" 2>&1; then
    echo "| $s | does not build here: $(grep -m1 error "$T/build" | cut -c1-90 | sed 's/|/\\|/g') | | | | |" >>"$OUT"
    continue
  fi
  start=$(date +%s%N)
  rc=0
  timeout "$LIMIT" "$G" exec "$T/$s" >"$T/out" 2>"$T/err" </dev/null || rc=$?
  secs=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
  [ "$rc" = 124 ] && rc="time limit"
  launches=$(sed -n 's/^gpurace: \([0-9]*\) kernel launch.*/\1/p' "$T/err" | tail -1)
  failed=$(sed -n 's/^gpurace: [0-9]* kernel launch[a-z]* (\([0-9]*\) failed).*/\1/p' "$T/err" | tail -1)
  uns=$(grep -c 'is not supported by gpurace' "$T/err")
  last=$(grep -v '^$' "$T/out" | tail -1 | tr -d '\r\t' | sed 's|/tmp/[^ ]*/||g' | cut -c1-70 | sed 's/|/\\|/g')
  echo "| $s | $rc | ${launches:--}${failed:+ ($failed failed)} | $uns | $secs | $last |" >>"$OUT"
  # what stopped a run that did not end well: gpurace's first error, else the program's
  if [ "$rc" != 0 ] || [ -n "$failed" ]; then
    why=$(grep -m1 '^gpurace: error' "$T/err" || grep -m1 -i 'error\|waiv' "$T/err" "$T/out" | sed 's/^[^:]*://')
    echo "- **$s**: $(echo "$why" | cut -c1-300 | sed 's|/tmp/[^ ]*/||g')" >>"$T/notes"
  fi
done
if [ -s "$T/notes" ]; then
  { echo; echo "What stopped the runs that did not end well (each said, none silent):"; echo; cat "$T/notes"; } >>"$OUT"
fi
cat >>"$OUT" <<'EOF2'

Why, where it is not the program's own doing: simpleAssert asserts on purpose (the launch fails
with `cudaErrorAssert`, as on a GPU, and the sample checks for it); mergeSort's first kernel sorts
4M keys in 4,096 blocks, past gpurace's bound of 100M warp instructions a launch (`--max-steps`
raises it: a bound reached is a failure, never a result); simpleAttributes asks for persisting L2
caching, which the emulated device says it has not; UnifiedMemoryStreams calls cuBLAS, whose kernels
are its own cubins launched through the driver API: a library with device code of its own is
beyond a runtime that stands in for libcudart. matrixMul and simpleStreams are the slowest: their
time is the emulator's (issue 44, the compiled engine).
EOF2
cat "$OUT"
