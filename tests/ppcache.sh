#!/bin/sh
# The preprocessor's outputs kept on disk across runs (front/source.c,
# util/diskcache.c): a later run takes the kept text, and never where cpp
# would now print another: a header edited (to the same size), a file new
# in a folder an #include searches first, __has_include, a damaged entry.
G=${GPURACE:-./gpurace}
S=${GR_SRCDIR:-.}
. "$S/tests/lib.sh"
C="$T/cache"
D="$T/src"
mkdir -p "$D/inc"
cat >"$D/k.cu" <<'EOF'
#include "v.h"
__global__ void k(int *out) { out[threadIdx.x] = V; }
//@ buffer out i32[2]
//@ launch k grid(1) block(2)
EOF
echo '#define V 1' >"$D/inc/v.h"
# what cpp read, as it was more than two seconds before it ran (source.c's
# too_new: a file changed while cpp read it is never kept)
old() { touch -d '2020-01-01 00:00:00' "$@"; }
old "$D/k.cu" "$D/inc/v.h" "$D/inc" "$D"
run() { "$G" run "$D/k.cu" -I "$D/inc" --jit-cache "$C" --dump out "$@"; }

expect 0 "a first run" -- run
contains "$T/out" "out i32[2] = {1, 1}" "the header's value"
n=$(ls "$C/pp" | grep -c '^pp-')
if [ "$n" -eq 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: one entry kept, not $n"; fi
# a second run takes it (a hit marks the entry used: the trim's order)
e=$(ls "$C/pp"/pp-*)
old "$e"
expect 0 "a second run" -- run
contains "$T/out" "out i32[2] = {1, 1}" "the kept text"
if [ -n "$(find "$e" -newer "$D/k.cu")" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: the second run did not take the kept text"; fi

# the header edited, to a text of the same size
echo '#define V 2' >"$D/inc/v.h"
old "$D/inc/v.h" "$D/inc"
expect 0 "the header edited" -- run
contains "$T/out" "out i32[2] = {2, 2}" "an edited header is read again"

# a file of the same name where the #include looks first (the file's own folder)
echo '#define V 3' >"$D/v.h"
old "$D/v.h" "$D"
expect 0 "a header shadowed" -- run
contains "$T/out" "out i32[2] = {3, 3}" "a new file that an #include finds first"
rm "$D/v.h"
old "$D"
expect 0 "the shadow gone" -- run
contains "$T/out" "out i32[2] = {2, 2}" "the first header again"

# __has_include asks about files that need not exist: never kept
cat >"$D/h.cu" <<'EOF'
#if __has_include("w.h")
#define W 7
#else
#define W 5
#endif
__global__ void k(int *out) { out[threadIdx.x] = W; }
//@ buffer out i32[2]
//@ launch k grid(1) block(2)
EOF
old "$D/h.cu" "$D"
expect 0 "__has_include" -- "$G" run "$D/h.cu" --jit-cache "$C" --dump out
contains "$T/out" "out i32[2] = {5, 5}" "w.h absent"
: >"$D/w.h"
old "$D/w.h" "$D"
expect 0 "__has_include, the file made" -- "$G" run "$D/h.cu" --jit-cache "$C" --dump out
contains "$T/out" "out i32[2] = {7, 7}" "w.h present"

# damaged entries are misses: cut short, or a byte of the text changed
for e in "$C"/pp/pp-*; do head -c 100 "$e" >"$e.cut" && mv "$e.cut" "$e"; done
expect 0 "entries cut short" -- run
contains "$T/out" "out i32[2] = {2, 2}" "a cut entry is not read"
old "$C"/pp/pp-*
expect 0 "kept again" -- run
for e in "$C"/pp/pp-*; do
  sed 's/out\[threadIdx.x\] = 2/out[threadIdx.x] = 9/' "$e" >"$e.x" && mv "$e.x" "$e"
done
expect 0 "an entry's text changed" -- run
contains "$T/out" "out i32[2] = {2, 2}" "a changed entry fails its checksum"

# a folder that cannot be written: the run goes on without it
if [ "$(id -u)" -ne 0 ]; then
  mkdir -p "$T/ro" && chmod 555 "$T/ro"
  expect 0 "an unwritable cache" -- "$G" run "$D/k.cu" -I "$D/inc" --jit-cache "$T/ro/c" --dump out
  contains "$T/out" "out i32[2] = {2, 2}" "the run without the cache"
fi
expect 0 "a cache folder that is a file" -- "$G" run "$D/k.cu" -I "$D/inc" --jit-cache "$D/k.cu" --dump out
contains "$T/out" "out i32[2] = {2, 2}" "the run without the cache"

echo "ppcache.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
