#!/bin/sh
# The shared-memory race suite (kernels/shared): hb agrees with boyer and
# with every label, except on the warp-synchronous tail, which only the PTX
# definition (hb-ptx, boyer's threads) calls a race; hb-ptx agrees with
# every label.
G=${GPURACE:-./gpurace}
S=${GR_SRCDIR:-.}
. "$S/tests/lib.sh"

expect 1 "shared-memory suite" -- "$G" table "$S/kernels/shared" --detect hb,hb-ptx,boyer --seeds 3 --out "$T/shared"
contains "$T/out" "1 cell differs from the expected verdicts" "one cell differs"
# id,test,category,expected, then per detector: verdict,racy seeds,min,max,classes,failed seeds
awk -F, 'NR > 1 {
  for (d = 0; d < 3; d++) {
    v = $(5 + 6 * d)
    want = $4 == "norace" ? "norace" : "race"
    if ($1 == "warp_sync_tail" && d == 0) want = "norace"   # hb: lockstep warps
    if (v != want) { print "FAIL: " $1 " detector " d ": " v " (want " want ")"; bad = 1 }
  }
} END { exit bad }' "$T/shared.csv" >"$T/awk" 2>&1
if [ $? -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); cat "$T/awk"; fi
contains "$T/shared.md" "| warp_sync_tail | warp_sync_tail |  | race | **miss** no race | race (1): not morally strong |" "the tail: hb-ptx only"

echo "shared.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
