#!/bin/bash
# validate-hw.sh OUTDIR: validates the emulator against the GPU of this
# machine, in one call (the device tool's 10-minute limit), from the source
# root, with a built tree in $BUILD (default .).  Writes under OUTDIR:
#   device.txt    the GPU, its driver (gpurace devices, nvidia-smi)
#   kernels.tsv   every deterministic kernel file and race-free application
#                 build, run on both backends: final memory digests compared;
#                 then every such kernel file and kernels/cxx through NVRTC's
#                 PTX (kind "ptx": the PTX front end against the same PTX on the GPU)
#   its.tsv       the kernels of kernels/its (and the small ones of
#                 tests/data): every outcome the GPU shows must be one that
#                 --warps its reaches (sampled seeds, plus every schedule
#                 where the block is small enough to explore)
#   litmus.txt, litmus.md   the litmus tests on the GPU against the
#                 emulator's reachable sets
#   sanitizer.tsv compute-sanitizer racecheck and synccheck on every suite
#                 kernel and application build
#   log.txt       everything else
# scripts/hardware-report.sh OUTDIR then writes reports/hardware.md.
set -u
OUT=${1:?usage: validate-hw.sh OUTDIR}
B=${BUILD:-.}
G=$B/gpurace
ITER=${LITMUS_ITERATIONS:-100000}
ITS_GPU_RUNS=${ITS_GPU_RUNS:-10}   # GPU runs of each ITS kernel
ITS_SEEDS=${ITS_SEEDS:-30}         # emulator seeds under --warps its
ITS_EXHAUSTIVE="kernels/its/syncwarp_chain.cu tests/data/its_tail4.cu tests/data/its_tail4_sync.cu tests/data/warp_agent.cu tests/data/warp_agent_sync.cu"
export GR_SRCDIR=${GR_SRCDIR:-$(pwd)}   # where the application drivers find their kernels
mkdir -p "$OUT"
LOG=$OUT/log.txt
: >"$LOG"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

{ "$G" devices; nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader; } >"$OUT/device.txt" 2>&1
if ! "$G" devices >/dev/null 2>&1; then
  echo "validate-hw: no usable GPU:"; cat "$OUT/device.txt"; exit 1
fi

TSV=$OUT/kernels.tsv
. "$(dirname "$0")/hw-lib.sh"

echo "kernels and applications on both backends"
: >"$OUT/kernels.tsv"
# kernels/its depend on the warp model: checked below, against --warps its
for f in $(grep -l '^//@ check' kernels/*/*.cu scor/micro/*.cu | grep -v '^kernels/its/' | grep -v '^kernels/cxx/'); do
  compare kernel "$f" "$G" run "$f" -q
done
# the PTX path (scripts/hw-ptx.sh, its rows in kernels.tsv)
BUILD=$B bash "$(dirname "$0")/hw-ptx.sh" "$OUT"
for a in mm red r110 conv gcol gcon uts; do
  compare app "$a" "$B/scor/apps/$a/$a" -q
done

# outcome: a run's digest lines as one sorted word list (NAME:HASH ...)
outcome() { awk '$1 == "digest" { print $2 ":" $4 }' | sort | awk '{ printf "%s%s", (NR > 1 ? " " : ""), $0 } END { print "" }'; }
echo "ITS kernels: the GPU's outcomes against the set --warps its reaches"
# One TSV row per file: file, GPU runs, GPU outcomes (each with its count,
# ';'-separated), emulator runs sampled, outcomes the emulator reached, whether
# that set is exhaustive, GPU outcomes the emulator did not reach (or -).
: >"$OUT/its.tsv"
for f in kernels/its/*.cu tests/data/its_tail4.cu tests/data/its_tail4_sync.cu tests/data/warp_agent.cu tests/data/warp_agent_sync.cu; do
  : >"$T/gpu"
  for i in $(seq 1 "$ITS_GPU_RUNS"); do
    timeout 60 "$G" run "$f" --backend cuda --digest -q 2>>"$LOG" | outcome >>"$T/gpu"
  done
  : >"$T/emu"
  for s in $(seq 1 "$ITS_SEEDS"); do
    "$G" run "$f" --warps its --sched random --seed "$s" --digest -q 2>>"$LOG" | outcome >>"$T/emu"
  done
  # blocks of a few lanes: every schedule (gpurace states prints each final
  # state's digests); a warp of 32 lanes that store is out of its reach
  exh=no
  case " $ITS_EXHAUSTIVE " in *" $f "*) small=1 ;; *) small=0 ;; esac
  if [ "$small" = 1 ] && timeout 120 "$G" states "$f" --warps its --memory sc --max-seconds 60 >"$T/st" 2>>"$LOG"; then
    exh=yes
    awk '/^  state / { n++ } $1 == "digest" { print n, $0 }' "$T/st" >"$T/stl"
    for n in $(cut -d' ' -f1 "$T/stl" | sort -un); do
      awk -v n="$n" '$1 == n { $1 = ""; sub(/^ /, ""); print }' "$T/stl" | outcome >>"$T/emu"
    done
  fi
  sort -u "$T/emu" >"$T/emu.u"
  gpu=$(sort "$T/gpu" | uniq -c | awk '{ c = $1; $1 = ""; sub(/^ /, ""); printf "%s%s x%d", sep, $0, c; sep = "; " }')
  miss=$(sort -u "$T/gpu" | while IFS= read -r o; do grep -qxF -- "$o" "$T/emu.u" || printf '%s; ' "$o"; done | sed 's/; $//')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$f" "$ITS_GPU_RUNS" "${gpu:--}" "$ITS_SEEDS" "$(wc -l <"$T/emu.u" | tr -d ' ')" "$exh" "${miss:--}" >>"$OUT/its.tsv"
done

echo "litmus tests on the GPU ($ITER iterations each)"
"$G" litmus --backend cuda --iterations "$ITER" --report "$OUT/litmus.md" kernels/litmus/*.cu >"$OUT/litmus.txt" 2>>"$LOG"
echo "litmus: exit $?" >>"$LOG"

echo "compute-sanitizer racecheck and synccheck"
# one job per line: kind, name, command; run 8 at a time
: >"$T/jobs"
for f in scor/micro/*.cu kernels/examples/*.cu kernels/boyer/*.cu; do
  echo "kernel $f $G run $f -q --backend cuda" >>"$T/jobs"
done
for a in mm red r110 conv gcol gcon uts; do
  echo "app $a $B/scor/apps/$a/$a -q --backend cuda" >>"$T/jobs"
  for k in $(sed -n 's/^#define \([A-Z0-9]*_[0-9]\)$/\1/p' "scor/apps/$a/$a.cu" | sort -u); do
    echo "app $a:$k $B/scor/apps/$a/$a -q --backend cuda -D $k" >>"$T/jobs"
  done
done
sanitize() {
  kind=$1; name=$2; shift 2
  tag=$(echo "$name" | tr '/:' '__')
  r=$(GPURACE_NVRTC_OPTIONS=--generate-line-info timeout 60 compute-sanitizer --tool racecheck --racecheck-report all "$@" 2>&1 | tee "$T/rc-$tag" | sed -n 's/.*RACECHECK SUMMARY: \([0-9]*\) hazard.*(\([0-9]*\) error.*, \([0-9]*\) warning.*/\1 \2 \3/p' | head -n 1)
  s=$(timeout 60 compute-sanitizer --tool synccheck "$@" 2>&1 | tee "$T/sc-$tag" | sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors*$/\1/p' | head -n 1)
  printf '%s\t%s\t%s\t%s\n' "$kind" "$name" "${r:-none}" "${s:-none}"
}
: >"$OUT/sanitizer.tsv"
while read -r kind name cmd; do
  sanitize "$kind" "$name" $cmd >>"$OUT/sanitizer.tsv" &
  while [ "$(jobs -p | wc -l)" -ge 8 ]; do sleep 0.2; done
done <"$T/jobs"
wait
for f in "$T"/rc-* "$T"/sc-*; do { echo "== $f"; tail -n 40 "$f"; } >>"$LOG"; done
echo "done: $(wc -l <"$OUT/kernels.tsv") runs compared, $(wc -l <"$OUT/sanitizer.tsv") sanitized"
