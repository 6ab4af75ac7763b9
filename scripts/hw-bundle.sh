#!/bin/sh
# hw-bundle.sh [DIR]: gathers this machine's build into DIR (default .hw,
# ignored by git), for a GPU machine that has no build tools of its own:
# the device tool carries it (carry: [".hw"]) and there, from the source
# root, `BUILD=DIR LD_LIBRARY_PATH=DIR/lib scripts/validate-hw.sh $OUT`
# runs it, wherever DIR lies.  The bundle holds the binaries, the device
# pass's headers beside them (gpurace finds them relative to itself) and
# every shared library they link but the C library's own, which every
# machine has; CUDA itself is opened with dlopen, so the bundle runs
# wherever a driver is.
set -eu
D=${1:-.hw}
make -s
rm -rf "$D"
mkdir -p "$D/lib" "$D/front"
cp gpurace "$D/"
cp -r front/include "$D/front/include"
bins=gpurace
for a in mm red r110 conv gcol gcon uts; do
  mkdir -p "$D/scor/apps/$a"
  cp "scor/apps/$a/$a" "$D/scor/apps/$a/"
  bins="$bins scor/apps/$a/$a"
done
# without their debugging sections: the device tool carries 64 MiB at most
strip --strip-debug $(for b in $bins; do echo "$D/$b"; done)
# glibc's libraries and the loader stay behind: a bundle's copy would not
# match the machine's loader
for l in $(ldd $bins | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u); do
  case $(basename "$l") in
    libc.so.*|libm.so.*|libdl.so.*|libpthread.so.*|librt.so.*|ld-linux*|libresolv.so.*|libutil.so.*) ;;
    *) cp -L "$l" "$D/lib/" ;;
  esac
done
# a library that one of these loads by itself (Open MPI's components) is
# named by the check below when it is missing
missing=$(cd "$D" && LD_LIBRARY_PATH=$PWD/lib ldd gpurace | grep 'not found' || true)
[ -z "$missing" ] || { echo "hw-bundle: unresolved in the bundle: $missing" >&2; exit 1; }
du -sh "$D"
