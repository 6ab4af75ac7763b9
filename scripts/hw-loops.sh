#!/bin/sh
# hw-loops.sh OUT: the loop kernels on the GPU through the CUDA backend, next
# to the emulator: each kernel plain (its //@ check where it has one) and
# instrumented with WISE (-DWISE, -DWISE_FP), the race flag on both
# backends, over several runs (the GPU's schedule is its own).  The GPU's
# warps are not in lockstep (independent thread scheduling since Volta),
# which WISE's intra-warp cases assume: where the flags differ, this shows
# it.  Writes OUT/loops-hw.md.  Run on the device after scripts/hw-bundle.sh
# (BUILD=.hw, LD_LIBRARY_PATH=.hw/lib).
set -u
OUT=${1:?usage: hw-loops.sh OUT}
G=${BUILD:-.}/gpurace
RUNS=${RUNS:-5}
mkdir -p "$OUT"
flag() {  # flag BACKEND FILE DEF: the flags of RUNS runs, e.g. "0 0 1 0 0"
  for k in $(seq 1 "$RUNS"); do
    v=$("$G" run "$2" --backend "$1" -D"$3" --seed "$k" --sched random --dump wise_flag 2>/dev/null | sed -n 's/^wise_flag i32\[1\] = {\([01]\)}/\1/p')
    printf '%s ' "${v:-?}"
  done
}
plain() {  # plain BACKEND FILE: the checks of a plain run
  if ! grep -q '^//@ check' "$2"; then echo "-"; return; fi
  if "$G" run "$2" --backend "$1" >/dev/null 2>&1; then echo "checks hold"; else echo "**checks fail**"; fi
}
{
  echo "# Loop kernels on the GPU and on the emulator"
  echo
  echo "\`BUILD=.hw sh scripts/hw-loops.sh OUT\` on $("$G" devices 2>/dev/null | grep -i -m1 'cuda\|gpu' || echo 'the device'); $RUNS runs each."
  echo "wise_flag per run (1: WISE found a dependency) under -DWISE and -DWISE_FP, emulator (lockstep,"
  echo "random schedules) and GPU; and whether the plain kernel's //@ check holds."
  echo
  echo "| kernel | expected | plain, emulator | plain, GPU | WISE emulator | WISE GPU | WISE_FP emulator | WISE_FP GPU |"
  echo "|---|---|---|---|---|---|---|---|"
  for f in kernels/loops/*.cu; do
    e=$(sed -n 's|^//@ expect \([a-z]*\).*|\1|p' "$f")
    echo "| $(basename "$f" .cu) | $e | $(plain emu "$f") | $(plain cuda "$f") | $(flag emu "$f" WISE)| $(flag cuda "$f" WISE)| $(flag emu "$f" WISE_FP)| $(flag cuda "$f" WISE_FP)|"
  done
} > "$OUT/loops-hw.md"
cat "$OUT/loops-hw.md"
