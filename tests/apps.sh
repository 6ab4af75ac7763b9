#!/bin/sh
# The ScoR applications (scor/apps): each driver's race-free build is right
# against its CPU reference in both memory models and raises no report;
# knobs turn race sites on.  So far: MM, RED, and R110 (race-free builds).
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
contains "$T/out" "race [hb] missing common lock on store: global C+" "MM_4: C under a block-scope lock, hb"
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
expect 4 "r110, R110_1 under scord-nocache" -- "$R110" --detect scord-nocache -D R110_1
contains "$T/out" "race [scord-nocache] missing device fence: global copy+" "R110_1: the border copy store against the next block's read"

echo "apps.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
