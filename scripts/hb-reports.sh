#!/bin/sh
# The hb and hb-ptx race reports of every kernel in the repository, as
# "file detector class first-position second-position" lines, sorted and
# unique: what tests/hb_exact.sh compares with tests/data/hb-reports.txt,
# which holds them as the quadratic per-byte oracle gave them (the linear
# oracle must give the same classes and source pairs).  Usage:
#   GPURACE=./gpurace sh scripts/hb-reports.sh [APPS_DIR]
G=${GPURACE:-./gpurace}
S=${GR_SRCDIR:-.}
for f in "$S"/scor/micro/*.cu "$S"/kernels/examples/*.cu "$S"/kernels/boyer/*.cu "$S"/kernels/shared/*.cu \
         "$S"/kernels/litmus/*.cu "$S"/kernels/drf/*.cu "$S"/tests/data/war_shared_owner.cu "$S"/tests/data/warp_tail.cu; do
  for seed in 1 2 3; do
    "$G" run -q --json --seed $seed --sched random --detect hb,hb-ptx "$f" 2>/dev/null
  done | sed -n 's/^{"detector":"\([^"]*\)","class":"\([^"]*\)".*"first":{"file":"[^"]*","line":\([0-9]*\),"col":\([0-9]*\).*"second":{"file":"[^"]*","line":\([0-9]*\),"col":\([0-9]*\).*/\1|\2|\3:\4|\5:\6/p' |
    sed "s|^|${f#$S/} |"
done | LC_ALL=C sort -u
