#!/bin/sh
# Every race report names two accesses of different agents: a warp for
# scord, scord-nocache and hb (their agent), a thread for hb-ptx and boyer.
# Checked on every report of the ScoR microbenchmarks, the examples and the
# Boyer kernels, on five seeds.
set -u
G=${GPURACE:-./gpurace}
S=${GR_SRCDIR:-.}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0 reports=0
for f in "$S"/scor/micro/*.cu "$S"/kernels/examples/*.cu "$S"/kernels/boyer/*.cu "$S"/tests/data/war_shared_owner.cu; do
  for seed in 1 2 3 4 5; do
    "$G" run -q --json --seed $seed --sched random --detect scord,scord-nocache,hb,hb-ptx,boyer "$f" >"$T/out" 2>/dev/null
    # detector, then block, warp and lane of each side
    sed -n 's/^{"detector":"\([^"]*\)".*"first":{[^}]*"block":\[\([0-9,]*\)\],"warp":\([0-9-]*\),"lane":\([0-9-]*\).*"second":{[^}]*"block":\[\([0-9,]*\)\],"warp":\([0-9-]*\),"lane":\([0-9-]*\).*/\1 \2 \3 \4 \5 \6 \7/p' "$T/out" >"$T/sides"
    n=$(grep -c '^{"detector"' "$T/out")
    m=$(wc -l <"$T/sides")
    if [ "$n" != "$m" ]; then echo "FAIL: $f seed $seed: $n reports, $m parsed"; fail=$((fail + 1)); fi
    reports=$((reports + n))
    while read -r det b1 w1 l1 b2 w2 l2; do
      case $det in
        scord|scord-nocache|hb) same=$([ "$b1 $w1" = "$b2 $w2" ] && echo 1 || echo 0) ;;
        *) same=$([ "$b1 $w1 $l1" = "$b2 $w2 $l2" ] && echo 1 || echo 0) ;;
      esac
      if [ "$same" = 1 ]; then
        echo "FAIL: $f seed $seed: $det reports block $b1 warp $w1 lane $l1 against itself"
        fail=$((fail + 1))
      fi
    done <"$T/sides"
  done
done
echo "partners: $reports reports checked, $fail failed"
[ "$fail" = 0 ]
