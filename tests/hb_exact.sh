#!/bin/sh
# The linear oracle gives the reports the quadratic per-byte one gave:
# tests/data/hb-reports.txt holds, for every kernel of the repository on
# three seeds, the (detector, class, source pair) of each hb and hb-ptx
# report of the per-byte, full-scan oracle (scripts/hb-reports.sh made it);
# the oracle of today must give the same lines.  (Since the front end keeps
# pointers in registers where only &p[i] is taken and scales an index in
# its padd, kernels run fewer instructions, so seeds 1-3 give other
# schedules: a race reported in one order of its two accesses appears in
# the other order too, or no longer does (C10_rmw_cta_G, shared_flag).  The
# file was changed by exactly those lines; every race, class and source
# pair of the per-byte oracle is still there in at least one order.  Two
# lines were added when the ScoRD model stopped letting a read stand for an
# earlier write, and an atomic for its thread's plain accesses: pairs of
# lock_acqrel and C11_corr_cas_G that the per-byte oracle had dropped, in
# files it already called racy; tests/data/hb_cover holds the races lost.)
G=${GPURACE:-./gpurace}
S=${GR_SRCDIR:-.}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# Racy hot words (tests/data/hb_hot: histograms with plain increments, byte
# bins, shared memory, atomics beside plain and volatile accesses, fences
# and barriers mid-launch, an agent's accesses at several places), under
# both warp models: tests/data/hb-hot-reports.txt holds the full-scan
# oracle's reports, from before hot words were summarised, and 8 lines
# of hist_fenced.cu that it had lost: it reported at most 32 partners at
# an access, one per agent, and a word's first 32 racy partners of one
# kind hid every other kind (a later store's races with the stores and
# loads after the barrier); now past 32 agents each position and class
# is still reported once.  partial_warp.cu's 30 lines and partial_lane.cu's
# 27 are the full-scan oracle's (a build whose summaries were turned off):
# a summary asked whether another warp of the block, or another lane of
# the warp, could race with an access through an agent that a block of 40
# or 35 threads does not have, and lost 3 and 2 of them.
bad=0
GPURACE=$G GR_SRCDIR=$S sh "$S/scripts/hb-reports.sh" >"$T/now"
if cmp -s "$S/tests/data/hb-reports.txt" "$T/now"; then
  echo "hb_exact: $(wc -l <"$T/now") reports, the same as the per-byte oracle's"
else
  echo "FAIL: hb and hb-ptx reports differ from tests/data/hb-reports.txt (< then, > now):"
  diff "$S/tests/data/hb-reports.txt" "$T/now" | head -40
  bad=1
fi
GPURACE=$G GR_SRCDIR=$S sh "$S/scripts/hb-reports.sh" --hot >"$T/hot"
if cmp -s "$S/tests/data/hb-hot-reports.txt" "$T/hot"; then
  echo "hb_exact: $(wc -l <"$T/hot") reports on hot racy words, the same as the full-scan oracle's"
else
  echo "FAIL: hb and hb-ptx reports on hot words differ from tests/data/hb-hot-reports.txt (< then, > now):"
  diff "$S/tests/data/hb-hot-reports.txt" "$T/hot" | head -40
  bad=1
fi
# What an access may stand for in the ScoRD model's lists (scord_covers):
# races each of these once lost, on every seed, found now
for c in "read_after_barrier.cu lockstep" "read_after_barrier.cu its" "atomic_after_read.cu its"; do
  set -- $c
  for seed in 1 2 3; do
    out=$("$G" run -q --seed $seed --detect hb --warps "$2" "$S/tests/data/hb_cover/$1" 2>&1)
    if ! echo "$out" | grep -q "race \[hb\]"; then echo "FAIL: hb misses the race of $1 under $2, seed $seed"; bad=1; fi
  done
done
# Shared loads left unshown (GR_OBSERVE_SKIP_RACE_FREE) only in a barrier
# interval in which the block wrote no shared memory: this one's loads
# meet a write of the same interval, in both models and warp models
for d in hb hb-ptx; do
  for wm in lockstep its; do
    for seed in 1 2 3; do
      out=$("$G" run -q --seed $seed --detect $d --warps $wm "$S/tests/data/hb_cover/shared_written.cu" 2>&1)
      if ! echo "$out" | grep -q "race \[$d\]"; then echo "FAIL: $d misses the race of shared_written.cu under $wm, seed $seed"; bad=1; fi
    done
  done
done
# ... nor while a copy to shared memory is in flight (copy_in_flight.ptx:
# the copies are waited for two barriers after they issue), in hb-ptx (the
# ScoRD model does not watch copies), with and without the shortcuts
for wm in lockstep its; do
  for seed in 1 2 3; do
    for o in "" --one-per-turn; do
      out=$("$G" run -q --seed $seed --detect hb-ptx --warps $wm $o "$S/tests/data/hb_cover/copy_in_flight.ptx" 2>&1)
      if ! echo "$out" | grep -q "race \[hb-ptx\] copy in flight"; then
        echo "FAIL: hb-ptx misses the copy in flight of copy_in_flight.ptx under $wm, seed $seed $o"; bad=1
      fi
    done
  done
done
# Reductions go unshown only in a kernel without fences: after a fence
# they order (fence_reduce.cu: hb-ptx reports no race, as one per turn)
for wm in lockstep its; do
  for o in "" --one-per-turn; do
    out=$("$G" run -q --detect hb-ptx --warps $wm $o "$S/tests/data/hb_cover/fence_reduce.cu" 2>&1)
    if echo "$out" | grep -q "race \[hb-ptx\]"; then echo "FAIL: hb-ptx reports a race of fence_reduce.cu under $wm $o"; bad=1; fi
  done
done
# the same rule in a hot word's summary: thread 200's second read (15:12)
# races with thread 100's later atomic (21:5)
out=$("$G" run -q --sched rr --detect hb --warps its "$S/tests/data/hb_cover/atomic_after_read_hot.cu" 2>&1)
if ! echo "$out" | grep -A1 "15:12: plain load" | grep -q "21:5: atomic add"; then
  echo "FAIL: hb misses the race of atomic_after_read_hot.cu (a hot word's summary)"; bad=1
fi
# the same limit, on a short kernel: thread 0's plain load after 127
# atomicAdds of its block races with those of its own warp's lanes too
# (missing __syncwarp under ITS), which the first 32 other agents hid
out=$("$G" run -q --detect hb-ptx --warps its --one-per-turn "$S/kernels/boyer/shared_atomic_peek.cu" 2>&1)
if ! echo "$out" | grep -q "race \[hb-ptx\] missing __syncwarp"; then
  echo "FAIL: hb-ptx under ITS misses shared_atomic_peek.cu's race within warp 0"; echo "$out" | head -5; bad=1
fi
# a line's one record (hb.c's uniform line) made into the words' own: the
# partner is the lane's own last access, in both models and warp models
for d in hb hb-ptx; do
  for w in lockstep its; do
    out=$("$G" run -q --detect $d --warps $w "$S/tests/data/hb_cover/line_lane.cu" 2>&1)
    if ! echo "$out" | grep -q "first:  .*line_lane.cu:14:39: plain store by block (0,0,0) warp 0 lane 5"; then
      echo "FAIL: $d under $w: line_lane.cu's race is not with lane 5's last write"; echo "$out" | head -5; bad=1
    fi
  done
done
# shared memory's read groups (hb.c's lgroup) replayed into the words'
# records by a racy store: under lockstep, where a warp is one agent, the
# word's entry is the last lane of warp 0 to read it (lane 19, not 3)
out=$("$G" run -q --detect hb "$S/tests/data/hb_cover/shared_tile.cu" 2>&1)
if ! echo "$out" | grep -q "first:  .*shared_tile.cu:21:50: plain load by block (0,0,0) warp 0 lane 19\$"; then
  echo "FAIL: hb: shared_tile.cu's race is not with warp 0 lane 19's read"; echo "$out" | head -5; bad=1
fi
# The oracle's shortcuts (a line's one record, line_access; a lane that
# repeats an earlier lane's word, repeat_lane; shared memory's read
# groups, group_load) give what every access lane by lane gives
# (--one-per-turn turns them off): the same reports, counts and
# witnesses, under both models and warp models
n=0
for f in "$S"/tests/data/hb_hot/*.cu "$S"/tests/data/hb_cover/*.cu "$S"/kernels/shared/*.cu "$S"/kernels/examples/*.cu; do
  grep -q '^//@ launch' "$f" || continue
  for mode in "--detect hb" "--detect hb --warps its" "--detect hb-ptx" "--detect hb-ptx --warps its --sched random --seed 2"; do
    # shellcheck disable=SC2086
    a=0; "$G" run "$f" $mode --digest --one-per-turn >"$T/lane" 2>&1 || a=$?
    # shellcheck disable=SC2086
    b=0; "$G" run "$f" $mode --digest >"$T/fast" 2>&1 || b=$?
    n=$((n + 1))
    if [ "$a" != "$b" ] || ! cmp -s "$T/lane" "$T/fast"; then
      echo "FAIL: $f $mode: the shortcuts change the run"; diff "$T/lane" "$T/fast" | head -5; bad=1
    fi
  done
done
# Loads of allocations no instruction of the launch writes come to hb
# without events (GR_OBSERVE_NO_READONLY: they cannot race), performed in
# the run ahead of their turns; --one-per-turn shows every access: the
# same reports and status on every other kernel file, under the two
# models in turn (one a file: the files are many)
k=0
for f in "$S"/kernels/*/*.cu "$S"/scor/micro/*.cu "$S"/tests/data/*.cu; do
  grep -q '^//@ launch' "$f" || continue
  case $f in */kernels/shared/*|*/kernels/examples/*) continue ;; esac
  k=$((k + 1))
  modes="--detect hb"
  if [ $((k % 2)) -eq 0 ]; then modes="--detect hb-ptx"; fi
  case $f in */at_once_stop.cu) modes="--detect hb|--detect hb-ptx" ;; esac
  IFS='|'
  for mode in $modes; do
    IFS=' '
    # shellcheck disable=SC2086
    a=0; "$G" run "$f" $mode --digest --one-per-turn >"$T/lane" 2>&1 || a=$?
    # shellcheck disable=SC2086
    b=0; "$G" run "$f" $mode --digest >"$T/fast" 2>&1 || b=$?
    n=$((n + 1))
    case $f in
    */at_once_stop.cu)
      # a pointer leaves its allocation after loads went unshown: the
      # proof is void, and so is hb's verdict on the launch (GR_EV_UNSEEN)
      if [ "$b" != 5 ] || ! grep -q "stopped watching the run: an address fell outside what its pointer was proved to point into" "$T/fast"; then
        echo "FAIL: $f $mode: a failed proof does not void the verdict (exit $b)"; head -3 "$T/fast"; bad=1
      fi ;;
    *)
      if [ "$a" != "$b" ] || ! cmp -s "$T/lane" "$T/fast"; then
        echo "FAIL: $f $mode: the loads left unshown change the run"; diff "$T/lane" "$T/fast" | head -5; bad=1
      fi ;;
    esac
  done
done
echo "hb_exact: $n runs with and without the shortcuts compared"
exit $bad
