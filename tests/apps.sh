#!/bin/sh
# The ScoR applications (scor/apps): each driver's race-free build is right
# against its CPU reference in both memory models and raises no report;
# each knob turns one race site on, and scord-nocache and hb find it.
B=${GR_BUILDDIR:-.}
S=${GR_SRCDIR:-.}
. "$S/tests/lib.sh"
MM="$B/scor/apps/mm/mm"

expect 0 "mm, small" -- "$MM"
# glibc's rand() % 100 from seed 1, as the ScoR host draws A and B
contains "$T/out" "mm 24x160 * 160x40 on 8x128: C matches the CPU reference exactly (sum 379738683, C[0][0] = 364201, C[23][39] = 342684)" "mm result and input"
expect 0 "mm, weak memory" -- "$MM" --memory weak --sched random --seed 5
expect 0 "mm, race-free under the detectors" -- "$MM" --detect scord,scord-nocache,hb
contains "$T/out" "detectors: scord 0 race reports, scord-nocache 0 race reports, hb 0 race reports" "no report on the race-free build"
expect 4 "mm, MM_3" -- "$MM" --detect scord-nocache,hb -D MM_3
contains "$T/out" "race [hb] scoped atomic: global gl_lock+" "MM_3: block-scope CAS on gl_lock, hb"
contains "$T/out" "race [scord-nocache] scoped atomic: global gl_lock+" "MM_3: scord-nocache"
expect 4 "mm, MM_4" -- "$MM" --detect scord-nocache,hb -D MM_4
contains "$T/out" "race [hb] missing common lock on load: global C+" "MM_4: C under a block-scope lock, hb"
expect 4 "mm, MM_2" -- "$MM" --detect scord-nocache,hb -D MM_2
contains "$T/out" "race [hb] missing block fence: global tempC+" "MM_2: tempC not released, hb"
contains "$T/out" "race [scord-nocache] missing block fence: global tempC+" "MM_2: scord-nocache"
expect 4 "mm, RACEY" -- "$MM" --detect hb -D RACEY -q
expect 2 "mm, bad size" -- "$MM" --size huge
expect 2 "mm, bad detector" -- "$MM" --detect nope
expect 2 "mm, bad option" -- "$MM" --frobnicate

RED="$B/scor/apps/red/red"
expect 0 "red, small" -- "$RED"
contains "$T/out" "red n=8192 on 8x512: sum 409245 matches the CPU reference 409245" "red result"
expect 0 "red, paper size" -- "$RED" --size paper
contains "$T/out" "red n=1000000 on 30x512: sum 49498583 matches the CPU reference 49498583" "red paper input: the spec's reference sum"
expect 0 "red, weak memory" -- "$RED" --memory weak --sched random --seed 4
expect 0 "red, race-free under scord" -- "$RED" --detect scord,scord-nocache
# hb sees one more race in the race-free build: the plain reset of
# retirementCount by the last block against the other blocks' atomicInc,
# which no fence orders (scor/apps/README.md)
expect 4 "red, race-free build under hb" -- "$RED" --detect hb
contains "$T/out" "race [hb] missing device fence: global retirementCount+0" "the retirementCount reset"
expect 4 "red, RED_1" -- "$RED" --detect scord-nocache,hb -D RED_1
contains "$T/out" "race [hb] missing block fence: global sdata+" "RED_1: hb"
contains "$T/out" "race [scord-nocache] missing block fence: global sdata+" "RED_1: scord-nocache"
expect 4 "red, RED_2" -- "$RED" --detect scord-nocache,hb -D RED_2
contains "$T/out" "race [hb] missing device fence: global g_odata+" "RED_2: hb"
contains "$T/out" "race [scord-nocache] missing device fence: global g_odata+" "RED_2: scord-nocache"

R110="$B/scor/apps/r110/r110"
expect 0 "r110, small" -- "$R110"
contains "$T/out" "r110 3000 cells, 6 steps on 4x256: every cell matches the sequential rule (1563 ones)" "r110 result"
expect 0 "r110, paper size" -- "$R110" --size paper
contains "$T/out" "r110 250000 cells, 1 step on 15x1024: every cell matches the sequential rule (156353 ones)" "r110 paper input: the spec's 156,353 ones"
expect 0 "r110, weak memory" -- "$R110" --memory weak --sched random --seed 3
expect 0 "r110, race-free under the detectors" -- "$R110" --detect scord,scord-nocache,hb
expect 4 "r110, R110_1" -- "$R110" --detect scord-nocache,hb -D R110_1
contains "$T/out" "race [scord-nocache] missing device fence: global copy+" "R110_1: the border copy store against the next block's read"
contains "$T/out" "race [hb] missing device fence: global copy+" "R110_1: hb, with per-location ordering"
# R110_2's races depend on the schedule; seed 6 of the random scheduler
# gives a block-scope poll of a flag before another block's device-scope
# poll of it, the order in which ScoRD reports it too (scor/apps/README.md)
expect 4 "r110, R110_2 on seed 6" -- "$R110" --detect scord-nocache,hb -D R110_2 --sched random --seed 6
contains "$T/out" "race [hb] scoped atomic: global comp+" "R110_2: hb"
contains "$T/out" "race [scord-nocache] scoped atomic: global comp+" "R110_2: scord-nocache"

CONV="$B/scor/apps/conv/conv"
expect 0 "conv, small" -- "$CONV"
contains "$T/out" "conv N=2000 F=5 on 4x256: every output matches direct summation exactly (sum 2402650)" "conv result"
expect 0 "conv, paper size" -- "$CONV" --size paper
contains "$T/out" "conv N=250000 F=9 on 15x1024: every output matches direct summation exactly" "conv paper size"
expect 0 "conv, weak memory" -- "$CONV" --memory weak --sched random --seed 2

GCOL="$B/scor/apps/gcol/gcol"
expect 0 "gcol, small" -- "$GCOL"
contains "$T/out" "gcol V=2048 E=3072 on 4x64: a valid colouring in" "gcol result"
expect 0 "gcol, weak memory" -- "$GCOL" --memory weak --sched random --seed 2

GCON="$B/scor/apps/gcon/gcon"
expect 0 "gcon, small" -- "$GCON"
contains "$T/out" "gcon V=2048 E=3072 on 4x64: every label is the smallest id of its component (1024 components)" "gcon result"
expect 0 "gcon, paper size" -- "$GCON" --size paper
contains "$T/out" "gcon V=100000 E=150000 on 15x400: every label is the smallest id of its component" "gcon paper size"
expect 0 "gcon, weak memory" -- "$GCON" --memory weak --sched random --seed 2

UTS="$B/scor/apps/uts/uts"
expect 0 "uts, small" -- "$UTS"
contains "$T/out" "uts (7, 3, 1) on 4x64: total nodes = 5458, total leaves = 3644, as the CPU enumeration" "uts result"
expect 0 "uts, weak memory" -- "$UTS" --memory weak --sched random --seed 2

for app in conv gcol gcon uts; do
  expect 0 "$app, race-free under the detectors" -- "$B/scor/apps/$app/$app" --detect scord,scord-nocache,hb
  contains "$T/out" "detectors: scord 0 race reports, scord-nocache 0 race reports, hb 0 race reports" "$app: no report on the race-free build"
done

# knob APP KNOB CLASS BUFFER: both golden models report CLASS on BUFFER
knob() {
  expect 4 "$1, $2" -- "$B/scor/apps/$1/$1" --detect scord-nocache,hb -D "$2" -q
  contains "$T/out" "race [hb] $3: global $4+" "$2: hb"
  contains "$T/out" "race [scord-nocache] $3: global $4+" "$2: scord-nocache"
}
knob conv CONV_1 "scoped atomic" out
for k in 1 3 5; do knob gcol GCOL_$k "scoped atomic" head; done
for k in 2 4 6; do knob gcol GCOL_$k "missing block fence" bases; done
for k in 1 2 3; do knob gcon GCON_$k "missing block fence" bases; done
for k in 4 5; do knob gcon GCON_$k "scoped atomic" head; done
for k in 1 2 3 4 5 6; do knob uts UTS_$k "scoped atomic" steal; done

# a racy build that does not finish ends at the step limit, and still
# prints what the detectors found
expect 3 "uts, UTS_4 at a step limit" -- "$UTS" --detect hb -D UTS_4 --max-steps 20000
contains "$T/err" "error: step limit reached: 'uts' ran 20000 warp instructions without finishing" "the step limit message"
contains "$T/out" "race [hb] scoped atomic: global steal+" "the races found before the limit"

# under --warps its (docs/warps.md): UTS's lane 0 takes a lock for its warp
# and __syncwarp hands it to the other lanes; without its __syncwarps UTS
# races; MM's lanes each take their own lock
UTS="$B/scor/apps/uts/uts"
expect 0 "uts under ITS: race-free for hb" -- "$UTS" --warps its --sched random --seed 1 --detect hb -q
# (on some seeds the lost mutual exclusion corrupts a stack index: a memory error, status 3)
expect 4 "uts under ITS without __syncwarp" -- "$UTS" --warps its --sched random --seed 2 -D UTS_NOSYNCWARP --detect hb -q
contains "$T/out" "missing __syncwarp" "hb says what is missing"
expect 0 "uts without __syncwarp under lockstep" -- "$UTS" --sched random --seed 1 -D UTS_NOSYNCWARP --detect hb -q
expect 0 "mm under ITS: race-free for hb" -- "$MM" --warps its --sched random --seed 2 --detect hb -q

echo "apps.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
