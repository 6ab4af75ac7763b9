#!/bin/sh
# The layers point one way, private headers stay private, and the installed
# library exports its API and nothing else.
#
#  - every quoted #include of a library folder (util kir front emu cuda host rt
#    detectors tools cli) names a header of its own folder, of include/ (the
#    installed API), or the public header of a folder it may use (ARROWS);
#    so emu/ and cuda/ never include each other, and no folder reaches
#    another's private headers (engine.h, device.h, ptx_int.h, ...);
#  - bench/, fuzz/ and scor/ are clients: any folder's public header;
#    tests/ holds white-box unit tests and may include any header;
#  - header names are unique across folders (an include names one file);
#  - `nm` of the installed libgpurace.a lists exactly the functions that
#    include/*.h declare GR_API.
S=${GR_SRCDIR:-.}
B=${GR_BUILDDIR:-.}
. "$S/tests/lib.sh"

# each folder's public headers, and the folders each may use
PUBLIC="include/gpurace.h include/detectors.h util/util.h kir/kir.h kir/kir_sem.h front/front.h emu/emu.h
cuda/backend.h host/host.h rt/fatbin.h detectors/babycuda/babycuda.h detectors/loops/loops.h detectors/hb/hb.h
detectors/ld/ld.h detectors/scord/scord.h detectors/boyer/boyer.h"
arrows() {
  case $1 in
    util) echo "" ;;
    kir) echo "util" ;;
    front) echo "kir util" ;;
    emu) echo "kir util" ;;
    cuda) echo "front kir util" ;;
    host) echo "emu cuda front kir util" ;;
    detectors) echo "host front kir util" ;;
    tools) echo "detectors host emu cuda front kir util" ;;
    rt) echo "host front kir util" ;;
    cli|bench|fuzz|scor) echo "rt tools detectors host emu cuda front kir util" ;;
    *) echo "?" ;;
  esac
}

cd "$S" || exit 1
# where each header lives (system headers and generated config.h are not ours)
find include util kir front emu cuda host detectors tools rt cli bench fuzz scor/apps tests -name '*.h' \
  -not -path 'front/include/*' -not -path 'tests/data/*' -not -path 'tests/real/*' | sort >"$T/headers"
awk -F/ '{print $NF}' "$T/headers" | sort | uniq -d >"$T/dups"
if [ -s "$T/dups" ]; then fail=$((fail + 1)); echo "FAIL: header names used twice:"; cat "$T/dups"; else pass=$((pass + 1)); fi

check_file() {  # check_file PATH: its quoted includes against the rules
  f=$1
  top=${f%%/*}
  dir=$(dirname "$f")
  uses=$(arrows "$top")
  grep -o '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*"' "$f" | sed 's/.*"\(.*\)"/\1/' | while read -r inc; do
    [ "$inc" = config.h ] && continue
    target=$dir/$inc
    # resolve: the including file's folder, then by name anywhere
    if [ -f "$target" ]; then path=$(echo "$target" | sed 's|/\./|/|g')
    else path=$(grep "/$(basename "$inc")\$" "$T/headers" | head -1); fi
    if [ -z "$path" ]; then echo "$f: includes \"$inc\", which is no header of the tree"; continue; fi
    case $path in */../*) echo "$f: includes \"$inc\" through .."; continue ;; esac
    htop=${path%%/*}
    [ "$htop" = "$top" ] && continue
    [ "$htop" = include ] && continue
    [ "$top" = tests ] && continue
    case " $uses " in *" $htop "*) ;; *) echo "$f: includes $path: $top/ may not use $htop/"; continue ;; esac
    case " $(echo $PUBLIC) " in *" $path "*) ;; *) echo "$f: includes $path, private to $htop/"; continue ;; esac
  done
}
find util kir front emu cuda host detectors tools rt cli bench fuzz scor/apps tests -name '*.[ch]' \
  -not -path 'tests/data/*' -not -path 'tests/real/*' | sort | while read -r f; do check_file "$f"; done >"$T/bad"
if [ -s "$T/bad" ]; then fail=$((fail + 1)); echo "FAIL: includes across the layers:"; cat "$T/bad"; else pass=$((pass + 1)); fi

# a mutation of this test's own rules: emu/ including cuda/'s header is caught
mkdir -p "$T/mut/emu" "$T/mut/cuda"
printf '#include "backend.h"\n' >"$T/mut/emu/x.c"
: >"$T/mut/cuda/backend.h"
(cd "$T/mut" && printf 'cuda/backend.h\n' >"$T/headers" && check_file emu/x.c) >"$T/mutout"
contains "$T/mutout" "emu/ may not use cuda/" "the rules catch emu/ including cuda/"

# the installed library's global symbols, against the GR_API declarations
lib=$B/libgpurace.a
if [ ! -f "$lib" ]; then fail=$((fail + 1)); echo "FAIL: no $lib (build it first)"
else
  cat include/gpurace.h include/detectors.h | grep -v '#define GR_API' | tr '\n' ' ' | sed 's/;/;\n/g' | grep -o 'GR_API [^(]*(' |
    sed 's/($//; s/.*[ *]\([A-Za-z_][A-Za-z0-9_]*\)$/\1/' | sort -u >"$T/declared"
  nm -g --defined-only "$lib" | awk 'NF == 3 {print $3}' | sort -u >"$T/exported"
  comm -13 "$T/declared" "$T/exported" >"$T/extra"
  comm -23 "$T/declared" "$T/exported" >"$T/missing"
  if [ -s "$T/extra" ]; then fail=$((fail + 1)); echo "FAIL: libgpurace.a exports what no public header declares:"; cat "$T/extra"; else pass=$((pass + 1)); fi
  if [ -s "$T/missing" ]; then fail=$((fail + 1)); echo "FAIL: declared GR_API but not in libgpurace.a:"; cat "$T/missing"; else pass=$((pass + 1)); fi
  [ "$(wc -l <"$T/declared")" -gt 100 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: read too few declarations"; }
fi

# gpurace's CUDA runtime exports exactly the functions of NVIDIA's
# libcudart.so.13 (rt/cudart.names), each with the version libcudart.so.13,
# and nothing of the layers inside it
so=$B/rt/libcudart.so.13
if [ ! -f "$so" ]; then fail=$((fail + 1)); echo "FAIL: no $so (build it first)"
else
  nm -D --defined-only "$so" | awk '{print $3}' | grep -v '^libcudart.so.13$' >"$T/so"
  sed 's/@@*libcudart.so.13$//' "$T/so" | LC_ALL=C sort -u >"$T/so.names"
  if cmp -s "$T/so.names" rt/cudart.names; then pass=$((pass + 1))
  else fail=$((fail + 1)); echo "FAIL: libcudart.so.13's exports and rt/cudart.names differ:"; LC_ALL=C comm -3 rt/cudart.names "$T/so.names" | head; fi
  if grep -qv '@@libcudart.so.13$' "$T/so"; then fail=$((fail + 1)); echo "FAIL: exports without the version libcudart.so.13:"; grep -v '@@libcudart.so.13$' "$T/so" | head
  else pass=$((pass + 1)); fi
  objdump -p "$so" | grep -q 'SONAME *libcudart.so.13' && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: libcudart.so.13's soname"; }
fi

echo "layers: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
