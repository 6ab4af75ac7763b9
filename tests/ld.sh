#!/bin/sh
# The LD golden model (detectors/ld): every kernel of kernels/ld under ld,
# its verdict and race classes; race-free kernels come out right after
# LD's copy-back; the paper's three false negatives (ld misses, hb finds);
# the deterministic mode; memory-adaptive rounds; option errors.
G=${GPURACE:-./gpurace}
S=${GR_SRCDIR:-.}
. "$S/tests/lib.sh"
K="$S/kernels/ld"
lacks() {  # lacks FILE TEXT DESCRIPTION
  if grep -qF -- "$2" "$1"; then fail=$((fail + 1)); echo "FAIL: $3: '$2' in:"; cat "$1"; else pass=$((pass + 1)); fi
}

# race-free kernels: no report, and the //@ check lines hold on LD's result
for f in em_fixed scan kmeans nbody; do
  expect 0 "$f under ld" -- "$G" run "$K/$f.cu" --detect ld
  contains "$T/out" "detectors: ld 0 race reports" "$f: no race"
  lacks "$T/out" "FAIL" "$f: the checks hold after the copy-back"
done
expect 0 "em_fixed under ld, weak memory" -- "$G" run "$K/em_fixed.cu" --detect ld --memory weak --sched random --seed 3

# racy kernels: class, scope and region
expect 4 "em" -- "$G" run "$K/em.cu" --detect ld
contains "$T/out" "race [ld] write-write (inter-warp): shared memory+" "em: shared write-write between warps"
contains "$T/out" "em.cu:13:3: region begins" "em: the region starts at the first barrier"
contains "$T/out" "em.cu:18:3: region ends" "em: and ends at the second"
contains "$T/out" "race [ld] write-write (intra-warp): shared memory+" "em: and between lanes of one store"
lacks "$T/out" "race [ld] write-write (inter-block)" "em: blocks share nothing"
expect 4 "scan with the injected race" -- "$G" run "$K/scan.cu" --detect ld -D SCAN_RACE
contains "$T/out" "race [ld] read-write (inter-warp): shared memory+" "scan: read-write on shared memory"
lacks "$T/out" "race [ld] write-write" "scan: no write-write"
expect 4 "kmeans with the injected race" -- "$G" run "$K/kmeans.cu" --detect ld -D KMEANS_RACE
contains "$T/out" "race [ld] read-write (inter-warp)" "kmeans: read-write between warps"
expect 4 "nbody with its race" -- "$G" run "$K/nbody.cu" --detect ld -D NBODY_RACE
contains "$T/out" "race [ld] write-write (inter-block): global acc+" "nbody: global write-write between blocks"
expect 4 "bfs" -- "$G" run "$K/bfs.cu" --detect ld
contains "$T/out" "race [ld] write-write (inter-block): global" "bfs: write-write"
contains "$T/out" "race [ld] read-write (inter-block): global" "bfs: read-write"
expect 4 "histogram" -- "$G" run "$K/histogram.cu" --detect ld
contains "$T/out" "race [ld] write-write (intra-warp): shared memory+" "histogram: the tag trick is an intra-warp race"
lacks "$T/out" "(inter-warp):" "histogram: warps have sub-histograms of their own"
contains "$T/out" "ld: 7 AP regions analysed, 0 racy" "histogram: regions analysed (3 per block, and the global one)"
expect 4 "planted" -- "$G" run "$K/planted.cu" --detect ld
contains "$T/out" "race [ld] write-write (inter-block): global out+20" "planted: block 5's word"

# the paper's known false negatives: ld misses them, hb finds them
for f in fn_aba fn_restored_read fn_union_write; do
  expect 0 "$f under ld" -- "$G" run "$K/$f.cu" --detect ld
  contains "$T/out" "detectors: ld 0 race reports" "$f: ld misses it"
  expect 4 "$f under hb" -- "$G" run "$K/$f.cu" --detect hb
  contains "$T/out" "race [hb]" "$f: hb finds it"
done

# reports are the same byte for byte for the same seed, and JSON names whole blocks
"$G" run "$K/bfs.cu" --detect ld --sched random --seed 9 >"$T/a" 2>&1
"$G" run "$K/bfs.cu" --detect ld --sched random --seed 9 >"$T/b" 2>&1
if cmp -s "$T/a" "$T/b"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: bfs: two runs of one seed differ"; fi
expect 4 "nbody, json" -- "$G" run "$K/nbody.cu" --detect ld -D NBODY_RACE --json
contains "$T/out" '"warp":null,"lane":null' "json: an inter-block side is a whole block"
contains "$T/out" '"role":"region begins' "json: the side's role"

# deterministic mode: a racy kernel's result is the same on every seed
for s in 1 2 3 4; do
  "$G" run "$K/em.cu" --sched random --seed $s --digest 2>/dev/null | grep '^digest sum' >>"$T/plain"
  "$G" run "$K/em.cu" --sched random --seed $s --digest --detect ld --ld-deterministic 2>/dev/null | grep '^digest sum' >>"$T/det"
done
n=$(sort -u "$T/plain" | wc -l); m=$(sort -u "$T/det" | wc -l)
if [ "$n" -gt 1 ] && [ "$m" -eq 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: em: $n distinct results plain (want >1), $m deterministic (want 1)"; fi
expect 0 "deterministic mode on a race-free kernel" -- "$G" run "$K/em_fixed.cu" --detect ld --ld-deterministic
contains "$T/out" "ld: deterministic mode" "the summary says so"
lacks "$T/out" "FAIL" "em_fixed: its checks hold"

# memory-adaptive checking: M copies find the race within ceil(log_M 64) rounds
for v in "2 6" "4 3" "8 2" "64 1"; do
  set -- $v
  expect 4 "planted, $1 copies" -- "$G" run "$K/planted.cu" --detect ld --ld-copies $1
  contains "$T/out" "ld: private copies: $1 per inter-block round ($2 round" "planted: $1 copies, $2 rounds"
done
for v in "0 1" "0 63" "62 63" "16 48" "21 42" "3 60"; do
  set -- $v
  sed "s/^\/\/@ arg a = .*/\/\/@ arg a = $1/; s/^\/\/@ arg b = .*/\/\/@ arg b = $2/" "$K/planted.cu" >"$T/planted.cu"
  expect 4 "planted between blocks $1 and $2, 4 copies" -- "$G" run "$T/planted.cu" --detect ld --ld-copies 4
  contains "$T/out" "global out+$(($1 * 4))" "planted $1 $2: the word of block $1"
done
expect 4 "planted, shuffled" -- "$G" run "$K/planted.cu" --detect ld --ld-copies 4 --ld-shuffle 1 --ld-rounds 8
contains "$T/out" "4 per inter-block round (8 rounds)" "shuffle: the rounds asked for"

# targets named explicitly: acc privatised finds the race, p alone (read-only) cannot
expect 4 "nbody, --ld-targets acc" -- "$G" run "$K/nbody.cu" --detect ld -D NBODY_RACE --ld-targets acc
expect 1 "nbody, --ld-targets p (its check fails: the race is real)" -- "$G" run "$K/nbody.cu" --detect ld -D NBODY_RACE --ld-targets p
contains "$T/out" "detectors: ld 0 race reports" "nbody: acc not privatised, nothing to compare"

# errors
expect 2 "--ld-copies 1" -- "$G" run "$K/em.cu" --detect ld --ld-copies 1
contains "$T/err" "--ld-copies takes a number of copies, 2 or more, not '1'" "--ld-copies 1: message"
expect 2 "--ld-copies x" -- "$G" run "$K/em.cu" --detect ld --ld-copies x
expect 2 "--ld-rounds without --ld-shuffle" -- "$G" run "$K/em.cu" --detect ld --ld-rounds 3
contains "$T/err" "--ld-rounds sets the rounds of --ld-shuffle" "--ld-rounds: message"
expect 2 "--ld-deterministic with --ld-copies" -- "$G" run "$K/em.cu" --detect ld --ld-deterministic --ld-copies 2
contains "$T/err" "needs a private copy per warp" "deterministic and copies: message"
expect 2 "ld with another detector" -- "$G" run "$K/em.cu" --detect hb,ld
contains "$T/err" "detector 'ld' steers execution and runs alone" "ld with others: message"
expect 2 "--ld-targets with an unknown name" -- "$G" run "$K/nbody.cu" --detect ld --ld-targets acc,nosuch
contains "$T/err" "--ld-targets names 'nosuch', which is no buffer" "unknown target: message"
expect 2 "--ld-targets with an empty name" -- "$G" run "$K/nbody.cu" --detect ld --ld-targets acc,
expect 3 "a kernel that waits for another block" -- "$G" run "$S/kernels/examples/spin_handoff.cu" --detect ld
contains "$T/out" "ld: the launch stopped during" "spin: LD says where it stopped"

# a block LD restores from its snapshot while its warps' asynchronous copies are in flight: the
# snapshot keeps a copy of them (it shared the warps' queues, which the restore freed: a double
# free and a crash); LD then says it did not watch (cp.async is outside its model)
for f in O3/kernels/samples/memcpy_async G/kernels/samples/memcpy_async O3/kernels/samples/pipeline; do
  expect 5 "$f under ld" -- "$G" run "$S/tests/ptx/$f.ptx" --detect ld
  contains "$T/out" "detectors: ld 0 race reports (NOT WATCHED: incomplete)" "$f: ld says it did not watch"
done

# a table with ld: its own run per (file, seed), next to the others
expect 1 "table (ld misses fn_aba)" -- "$G" table --detect hb,ld --seeds 2 --out "$T/tab" "$K/fn_aba.cu" "$K/em_fixed.cu"
contains "$T/tab.md" "except ld, which steers execution" "table: says ld had its own run"
contains "$T/tab.md" "| fn_aba | fn_aba | false_negative | race | race (" "table: hb finds fn_aba"
contains "$T/tab.md" "missing device fence | **miss** no race |" "table: ld misses it"

echo "ld: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
