#!/bin/sh
# The hb and hb-ptx race reports of every kernel in the repository, as
# "file detector class first-position second-position" lines, sorted and
# unique: what tests/hb_exact.sh compares with tests/data/hb-reports.txt,
# which holds them as the quadratic per-byte oracle gave them (the linear
# oracle must give the same classes and source pairs).  With --hot, the
# kernels of tests/data/hb_hot (racy words that hundreds of threads touch)
# under both warp models, as "file warps detector ..." lines: what
# tests/data/hb-hot-reports.txt holds from the full-scan oracle, before
# hot words were summarised.  Usage:
#   GPURACE=./gpurace sh scripts/hb-reports.sh [--hot]
G=${GPURACE:-./gpurace}
S=${GR_SRCDIR:-.}
reports() {   # reports FILE [OPTIONS...]: the lines of one file over seeds 1-3
  f=$1; shift
  for seed in 1 2 3; do
    "$G" run -q --json --seed $seed --sched random --detect hb,hb-ptx "$@" "$f" 2>/dev/null
  done | sed -n 's/^{"detector":"\([^"]*\)","class":"\([^"]*\)".*"first":{"file":"[^"]*","line":\([0-9]*\),"col":\([0-9]*\).*"second":{"file":"[^"]*","line":\([0-9]*\),"col":\([0-9]*\).*/\1|\2|\3:\4|\5:\6/p'
}
if [ "${1:-}" = "--hot" ]; then
  for f in "$S"/tests/data/hb_hot/*.cu; do
    for w in lockstep its; do
      reports "$f" --warps $w | sed "s|^|${f#$S/} $w |"
    done
  done | LC_ALL=C sort -u
  exit 0
fi
for f in "$S"/scor/micro/*.cu "$S"/kernels/examples/*.cu "$S"/kernels/boyer/*.cu "$S"/kernels/shared/*.cu \
         "$S"/kernels/litmus/*.cu "$S"/kernels/drf/*.cu "$S"/tests/data/war_shared_owner.cu "$S"/tests/data/warp_tail.cu; do
  reports "$f" | sed "s|^|${f#$S/} |"
done | LC_ALL=C sort -u
