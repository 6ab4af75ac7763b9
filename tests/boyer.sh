#!/bin/sh
# The Boyer et al. analyses against the paper's examples: Figure 1's RAW
# hazard at line 8 and its fix, Figure 2's 16-way conflicts, and the prefix
# scan with each of its three barriers removed: hazards after the removed
# barrier and none beyond the next one.
G=${GPURACE:-./gpurace}
S=${GR_SRCDIR:-.}
. "$S/tests/lib.sh"
K="$S/kernels/boyer"

expect 4 "figure 1" -- "$G" run "$K/fig1.cu" --detect boyer
contains "$T/out" "race [boyer] RAW hazard: shared memory+" "figure 1: a RAW hazard"
contains "$T/out" "fig1.cu:8:11: plain load" "figure 1: found at line 8"
expect 0 "figure 1 fixed" -- "$G" run "$K/fig1_fixed.cu" --detect boyer,boyer-banks
contains "$T/out" "detectors: boyer 0 race reports" "figure 1 with the barrier: nothing"
expect 0 "figure 2, no conflicts" -- "$G" run "$K/fig2.cu" --detect boyer-banks -D CAUSE_BANK_CONFLICTS=0
contains "$T/out" "fig2.cu:24: 64 requests: 64 x 1-way" "figure 2 (0): the initialising loop has no conflict"
expect 0 "figure 2, conflicts" -- "$G" run "$K/fig2.cu" --detect boyer-banks -D CAUSE_BANK_CONFLICTS=1
contains "$T/out" "fig2.cu:23: 64 requests: 64 x 16-way" "figure 2 (1): 16-way conflicts in the initialising loop"

expect 0 "scan" -- "$G" run "$K/scan.cu" --detect boyer,hb
contains "$T/out" "detectors: boyer 0 race reports" "the unmodified scan has no hazard"
expect 0 "scan, conflict-free" -- "$G" run "$K/scan.cu" --detect boyer -D CONFLICT_FREE=1
# lines: the load 38-39, the up-sweep loop 40-49 (barrier at 41), the zeroing 50, the
# down-sweep loop 51-62 (barrier at 53), the barrier at 63, the write-out 64-65
for v in "1 38 52" "2 53 62" "3 64 65"; do
  set -- $v
  "$G" run "$K/scan.cu" --detect boyer --json -D DROP_SYNC=$1 >"$T/j" 2>/dev/null
  n=$(grep -c '"detector":"boyer"' "$T/j")
  bad=$(sed 's/.*"second":{[^}]*"line":\([0-9]*\),.*/\1/' "$T/j" | awk -v lo=$2 -v hi=$3 '$1 < lo || $1 > hi' | wc -l)
  if [ "$n" -gt 0 ] && [ "$bad" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: scan without barrier $1: $n reports, $bad outside lines $2-$3"; cat "$T/j"; fi
done
cat > "$T/waw.cu" <<'X'
//@ launch k grid(2) block(64)
//@ buffer o i32[2]
__global__ void k(int *o) {
  __shared__ int s[1];
  if (threadIdx.x % 32 == 0) s[0] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) o[blockIdx.x] = 1;
}
X
expect 4 "waw" -- "$G" run "$T/waw.cu" --detect boyer --boyer-waw
contains "$T/out" "race [boyer] WAW hazard: shared memory+0" "--boyer-waw reports write-after-write"
contains "$T/out" "WAW hazard: shared memory+0 (2 times)" "per block: one hazard in each block, none across"
expect 0 "no waw by default" -- "$G" run "$T/waw.cu" --detect boyer

# atomics are not plain reads and writes: a shared atomic counter is race-free,
# a plain read of it beside the atomics is a hazard, named with the atomic's own scope
expect 0 "shared atomic counter" -- "$G" run "$K/shared_atomic_counter.cu" --detect boyer
contains "$T/out" "detectors: boyer 0 race reports" "no hazard between atomics, across warps or within one"
expect 4 "plain read beside atomics" -- "$G" run "$K/shared_atomic_peek.cu" --detect boyer
contains "$T/out" "RAW hazard" "a plain read against other threads' atomics"
contains "$T/out" "atomic add (device scope)" "the atomic side keeps its scope"
# __syncwarp orders the lanes it names, as __syncthreads the block
expect 4 "warp-synchronous tail" -- "$G" run "$S/tests/data/warp_tail.cu" --detect boyer
contains "$T/out" "hazard within a warp" "no __syncwarp: hazards between lanes"
expect 0 "tail with __syncwarp" -- "$G" run "$S/tests/data/warp_tail.cu" --detect boyer -D SYNCWARP=1
contains "$T/out" "detectors: boyer 0 race reports" "__syncwarp orders the steps"

echo "boyer.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
