#!/bin/sh
# The ScoR applications (scor/apps): each driver's race-free build is right
# against its CPU reference in both memory models and raises no report;
# knobs turn race sites on.  So far: MM.
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

echo "apps.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
