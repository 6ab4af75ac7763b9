#!/bin/sh
# Independent thread scheduling (--warps its): the warp-synchronous tail
# goes wrong without __syncwarp and stays right with it, a divergent
# producer/consumer in one warp finishes, partial-mask __syncwarp, and the
# exhaustive explorer's choice of lanes; lockstep stays as it was.
G=${GPURACE:-./gpurace}
S=${GR_SRCDIR:-.}
. "$S/tests/lib.sh"
K="$S/kernels/its"

expect 2 "bad --warps" -- "$G" run "$K/tail_syncwarp.cu" --warps simt
contains "$T/err" "--warps takes lockstep or its, not 'simt'" "says what it takes"

# the tail without __syncwarp: right on every lockstep schedule, wrong on some under ITS
bad=0
for seed in 1 2 3 4 5 6 7 8 9 10; do
  "$G" run "$K/tail_nosync.cu" --sched random --seed $seed >"$T/o" 2>&1 || bad=$((bad + 1))
done
if [ "$bad" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: the tail under lockstep failed on $bad seeds"; fi
wrong=0
for seed in 1 2 3 4 5 6 7 8 9 10; do
  "$G" run "$K/tail_nosync.cu" --warps its --sched random --seed $seed >"$T/o" 2>&1 || wrong=$((wrong + 1))
done
if [ "$wrong" -gt 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: the tail without __syncwarp was right on every ITS seed"; fi
ok=0
for seed in 1 2 3 4 5 6 7 8 9 10; do
  "$G" run "$K/tail_syncwarp.cu" --warps its --sched random --seed $seed >"$T/o" 2>&1 && ok=$((ok + 1))
done
if [ "$ok" -eq 10 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: the tail with __syncwarp went wrong on $((10 - ok)) ITS seeds"; fi
# the H100 returns 70 for this tail (30 runs of 30): the emulator reaches it
expect 1 "the tail reaches the H100's 70" -- "$G" run "$K/tail_nosync.cu" --warps its --sched random --seed 16 --dump out
contains "$T/out" "out u32[1] = {70}" "a lane that runs ahead alone"
"$G" run "$K/tail_nosync.cu" --warps its --sched random --seed 4 --dump out >"$T/first" 2>&1
"$G" run "$K/tail_nosync.cu" --warps its --sched random --seed 4 --dump out >"$T/out" 2>&1
if cmp -s "$T/first" "$T/out"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: ITS runs differ on one seed"; fi

# hb-ptx names the intra-warp races under ITS for what is missing
expect 4 "hb-ptx under ITS" -- "$G" run "$K/tail_nosync.cu" --warps its --sched random --seed 3 --detect hb-ptx --keep-going
contains "$T/out" "race [hb-ptx] missing __syncwarp: shared memory+" "class missing __syncwarp"
expect 0 "hb-ptx under ITS, with __syncwarp" -- "$G" run "$K/tail_syncwarp.cu" --warps its --sched random --seed 3 --detect hb-ptx
# hb (ScoRD model) has thread agents under ITS, warp agents under lockstep
expect 4 "hb under ITS" -- "$G" run "$K/tail_nosync.cu" --warps its --sched random --seed 3 --detect hb --keep-going
contains "$T/out" "race [hb] missing __syncwarp: shared memory+" "hb: class missing __syncwarp"
contains "$T/out" "warp 0 lane " "hb names lanes of one warp"
expect 0 "hb under ITS, with __syncwarp" -- "$G" run "$K/tail_syncwarp.cu" --warps its --sched random --seed 3 --detect hb
expect 0 "hb under lockstep: one agent per warp" -- "$G" run "$K/tail_nosync.cu" --detect hb,scord
# partial __syncwarps order transitively; one lane syncing alone orders nothing
for d in hb hb-ptx; do
  expect 0 "$d: chain of partial __syncwarps" -- "$G" run "$K/syncwarp_chain.cu" --warps its --sched random --seed 2 --detect $d
  expect 4 "$d: broken chain" -- "$G" run "$K/syncwarp_chain.cu" -D BROKEN --warps its --sched random --seed 2 --detect $d --keep-going
  contains "$T/out" "missing __syncwarp: shared memory+0" "$d names the broken chain"
done
expect 0 "chain, every schedule" -- "$G" states "$K/syncwarp_chain.cu" --warps its --memory sc
contains "$T/out" "complete: 1 final states" "a __syncwarp waits for lanes of its own mask"

# a producer and a consumer in one warp: a deadlock under lockstep, progress under ITS
expect 3 "divergent hand-off under lockstep" -- "$G" run "$K/divergent_handoff.cu"
contains "$T/err" "deadlock: no warp can make progress" "lockstep runs lane 0's path first"
expect 0 "divergent hand-off under ITS, round-robin" -- "$G" run "$K/divergent_handoff.cu" --warps its
expect 0 "divergent hand-off under ITS, random" -- "$G" run "$K/divergent_handoff.cu" --warps its --sched random --seed 9
expect 0 "partial-mask __syncwarp" -- "$G" run "$K/syncwarp_partial.cu" --warps its --sched random --seed 5
# a circular wait between two lanes: a deadlock on every seed, found at once
# (2M steps), each lane shown where it spins, parked lanes where they wait
for v in "" "-D PARKED"; do
  found=0
  for seed in $(seq 1 30); do
    "$G" run "$K/circular_wait.cu" $v --warps its --sched random --seed $seed --max-steps 2000000 >"$T/o" 2>&1
    [ $? -eq 3 ] && grep -q "lanes 0: spins at .*circular_wait.cu:11:5" "$T/o" && grep -q "lanes 1: spins at .*circular_wait.cu:14:5" "$T/o" &&
      grep -q "deadlock: no warp can make progress" "$T/o" && found=$((found + 1))
  done
  if [ "$found" -eq 30 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: circular wait $v found on $found of 30 ITS seeds"; cat "$T/o"; fi
done
expect 3 "circular wait, round-robin" -- "$G" run "$K/circular_wait.cu" -D PARKED --warps its --max-steps 2000000
contains "$T/err" "lanes 2-31: waits at __syncwarp(0xffffffff) at $K/circular_wait.cu:18:3" "the parked lanes"
# a live lane that skips a *_sync naming it, then exits: reported under both models
expect 3 "skipped __ballot_sync under lockstep" -- "$G" run "$K/ballot_skip.cu"
contains "$T/err" "not executing it with this lane (lanes 5)" "lockstep names the lane"
# (on seeds 2 and 3 lane 5 runs to its end before the others arrive: legal)
for seed in 1 4 5; do
  expect 3 "skipped __ballot_sync under ITS (seed $seed)" -- "$G" run "$K/ballot_skip.cu" --warps its --sched random --seed $seed
  contains "$T/err" "ballot_skip.cu:14:19: error: __ballot_sync(0xffffffff) by lanes 0-4,6-31 of warp 0 in block (0,0,0): lanes 5, which the mask names, went on past it and exited" "ITS names the skipping lane (seed $seed)"
done
expect 3 "skipped __ballot_sync under ITS, round-robin" -- "$G" run "$K/ballot_skip.cu" --warps its
for w in lockstep its; do
  expect 0 "an early return before a full-mask ballot ($w)" -- "$G" run "$K/ballot_skip.cu" -D EARLY_RETURN --warps $w --sched random --seed 4
done
# two halves' __syncwarps are two barriers under lockstep too, not one of the warp
for w in lockstep its; do
  for d in hb-ptx boyer; do
    expect 4 "$d: halves that read each other's slots ($w)" -- "$G" run "$K/syncwarp_halves_racy.cu" --warps $w --detect $d
    contains "$T/out" "shared memory+" "$d names the halves' race ($w)"
  done
  expect 0 "hb-ptx: each half reads its own ($w)" -- "$G" run "$K/syncwarp_partial.cu" --warps $w --detect hb-ptx
done

# every schedule: the lanes that run are a choice of the explorer
expect 0 "ITS tail, every schedule" -- "$G" states "$S/tests/data/its_tail4.cu" --warps its --memory sc
contains "$T/out" "complete: 2 final states" "without __syncwarp: two sums"
expect 0 "lockstep tail, every schedule" -- "$G" states "$S/tests/data/its_tail4.cu" --memory sc
contains "$T/out" "complete: 1 final states" "lockstep: one"
expect 0 "ITS tail with __syncwarp, every schedule" -- "$G" states "$S/tests/data/its_tail4_sync.cu" --warps its --memory sc
contains "$T/out" "complete: 1 final states" "with __syncwarp: one"
expect 0 "litmus in one warp under ITS" -- "$G" litmus --warps its --exhaustive "$S/kernels/litmus/M1_mp_W.cu"

# a spin is a deadlock only if every lane that could run ran (a lane running
# ahead alone is not a spinning warp); a real spin is still reported
ok=0
for seed in 1 2 3 4 5 6 7 8 9 10 11 12; do
  "$G" run "$S/tests/data/its_lead_spin.cu" --warps its --sched random --seed $seed -q >"$T/o" 2>&1 && ok=$((ok + 1))
done
if [ "$ok" -eq 12 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: a lane running ahead was taken for a spinning warp on $((12 - ok)) seeds"; fi
for sch in rr random; do
  expect 3 "a real spin under ITS ($sch)" -- "$G" run "$S/tests/data/its_spin.cu" --warps its --sched $sch
  contains "$T/err" "deadlock: no warp can make progress" "reported as a deadlock ($sch)"
done
# lockstep weak memory: a warp is one agent, the global tail is right on every seed
bad=0
for seed in 1 2 3 4 5 6 7 8 9 10; do
  "$G" run "$K/tail_global_nosync.cu" --memory weak --sched random --seed $seed -q >"$T/o" 2>&1 || bad=$((bad + 1))
done
if [ "$bad" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: the global tail under lockstep weak memory failed on $bad seeds"; fi
wrong=0
for seed in 1 2 3 4 5 6 7 8 9 10; do
  "$G" run "$K/tail_global_nosync.cu" --warps its --sched random --seed $seed -q >"$T/o" 2>&1 || wrong=$((wrong + 1))
done
if [ "$wrong" -gt 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: the global tail without __syncwarp was right on every ITS seed"; fi
# one lane's lock for its warp (UTS's pattern)
expect 0 "warp lock under lockstep" -- "$G" run "$K/warp_lock_nosync.cu" --sched random --seed 2 -q
wrong=0
for seed in 1 2 3 4 5 6 7 8 9 10; do
  "$G" run "$K/warp_lock_nosync.cu" --warps its --sched random --seed $seed -q >"$T/o" 2>&1 || wrong=$((wrong + 1))
done
if [ "$wrong" -gt 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: the warp lock without __syncwarp was right on every ITS seed"; fi
expect 4 "hb-ptx: warp lock without __syncwarp" -- "$G" run "$K/warp_lock_nosync.cu" --warps its --sched random --seed 1 --detect hb-ptx --keep-going -q
for seed in 1 2 3; do
  expect 0 "hb-ptx: warp lock with __syncwarp (seed $seed)" -- "$G" run "$K/warp_lock_syncwarp.cu" --warps its --sched random --seed $seed --detect hb-ptx -q
done
# a shuffle at two call sites with one mask: lanes meet there under ITS
for seed in 1 2 3; do
  expect 0 "shuffle across call sites (seed $seed)" -- "$G" run "$K/shfl_callsites.cu" --warps its --sched random --seed $seed
done
expect 0 "shuffle across call sites, round-robin" -- "$G" run "$K/shfl_callsites.cu" --warps its
expect 3 "shuffle across call sites under lockstep" -- "$G" run "$K/shfl_callsites.cu"
contains "$T/err" "the mask names live lanes that are not executing it with this lane" "lockstep: an error"
for w in lockstep its; do
  expect 0 "shuffles under divergence ($w)" -- "$G" run "$K/shfl_divergent.cu" --warps $w --sched random --seed 4
done

echo "its.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
