#!/bin/bash
# hw-samples.sh OUTDIR: kernels/samples on the GPU and on the emulator, one
# program on both sides (NVRTC's PTX, --cc nvrtc, at each file's
# //@ arch).  Each file's digests are compared as validate-hw.sh compares
# them (the emulator under five schedules and both memory models against
# the GPU), under lockstep and under ITS warps; every buffer is dumped on
# both backends for the bit-level comparison of scripts/samples-hw-report.sh;
# the race knobs run on the GPU too.  Files run in parallel (JOBS, default
# 8), each into its own pieces, gathered in file order at the end.  Writes
# OUTDIR/kernels.tsv, OUTDIR/log.txt, OUTDIR/device.txt and OUTDIR/dump/.
# From the source root, with a built tree in $BUILD.
set -u
if [ "${1:-}" = --one ]; then   # one file: hw-samples.sh --one FILE OUTDIR
  f=$2; OUT=$3
  B=${BUILD:-.}
  G=$B/gpurace
  base=$(basename "$f" .cu)
  LOG=$OUT/part/$base.log
  TSV=$OUT/part/$base.tsv
  : >"$LOG"; : >"$TSV"
  T=$(mktemp -d)
  trap 'rm -rf "$T"' EXIT
  . "$(dirname "$0")/hw-lib.sh"
  compare samples "$f" "$G" run "$f" -q --cc nvrtc
  compare samples-its "$f" "$G" run "$f" -q --cc nvrtc --warps its
  dumps=""
  for b in $(sed -n 's#^//@ buffer \([A-Za-z_][A-Za-z0-9_]*\) .*#\1#p' "$f"); do dumps="$dumps --dump $b"; done
  "$G" run "$f" --cc nvrtc $dumps >"$OUT/dump/$base.emu" 2>&1
  timeout 120 "$G" run "$f" --cc nvrtc --backend cuda $dumps >"$OUT/dump/$base.gpu" 2>&1
  for k in $(sed -n 's#^//@ expect race if ##p' "$f"); do
    echo "== race knob $base -D $k on the GPU" >>"$LOG"
    timeout 120 "$G" run "$f" --cc nvrtc --backend cuda -D "$k" >>"$LOG" 2>&1
    echo "exit $?" >>"$LOG"
    echo "== race knob $base -D $k on the emulator, hb-ptx watching" >>"$LOG"
    "$G" run "$f" --cc nvrtc -D "$k" --detect hb-ptx >>"$LOG" 2>&1
    echo "exit $?" >>"$LOG"
  done
  exit 0
fi
OUT=${1:?usage: hw-samples.sh OUTDIR}
B=${BUILD:-.}
mkdir -p "$OUT/dump" "$OUT/part"
"$B/gpurace" devices >"$OUT/device.txt" 2>&1
ls kernels/samples/*.cu | xargs -P "${JOBS:-8}" -I{} bash "$0" --one {} "$OUT"
cat "$OUT"/part/*.tsv >"$OUT/kernels.tsv"
cat "$OUT"/part/*.log >"$OUT/log.txt"
rm -rf "$OUT/part"
echo "samples: $(wc -l <"$OUT/kernels.tsv") comparisons" >&2
