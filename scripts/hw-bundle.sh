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
# gpurace's CUDA runtime, and programs built with nvcc -cudart shared for
# scripts/hw-programs.sh (programs/LIST: each name and its arguments)
mkdir -p "$D/rt" "$D/programs"
cp rt/libcudart.so.13 "$D/rt/"
bins="$bins rt/libcudart.so.13"
if scripts/nvcc.sh --which >/dev/null 2>&1; then
  for p in vadd api printf assert fault coop race args; do
    scripts/nvcc.sh -cudart shared -lineinfo -o "$D/programs/$p" "tests/programs/$p.cu"
    echo "$p" >>"$D/programs/LIST"
  done
  sed -i 's/^args$/args one two 3/' "$D/programs/LIST"
  scripts/nvcc.sh -cudart shared -lineinfo -DFIXED -o "$D/programs/race-fixed" tests/programs/race.cu
  scripts/nvcc.sh -cudart shared -lineinfo -DMISALIGNED -o "$D/programs/fault-misaligned" tests/programs/fault.cu
  scripts/nvcc.sh -cudart shared -lineinfo -DOUT_OF_BOUNDS -o "$D/programs/fault-oob" tests/programs/fault.cu
  printf 'race-fixed\nfault-misaligned\nfault-oob\n' >>"$D/programs/LIST"
  for a in mm red r110 conv gcol gcon uts; do
    scripts/nvcc.sh -cudart shared -lineinfo -o "$D/programs/scor-$a" "scor/programs/$a.cu" scor/apps/inputs.c
    echo "scor-$a" >>"$D/programs/LIST"
  done
  for p in $(cut -d' ' -f1 "$D/programs/LIST"); do bins="$bins programs/$p"; done
else
  echo "hw-bundle: no nvcc: no programs for scripts/hw-programs.sh" >&2
fi
# without their debugging sections: the device tool carries 64 MiB at most
strip --strip-debug $(for b in $bins; do echo "$D/$b"; done)
# glibc's libraries and the loader stay behind: a bundle's copy would not
# match the machine's loader
for l in $(cd "$D" && LD_LIBRARY_PATH=$PWD/rt ldd $bins | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u); do
  case $(basename "$l") in
    libc.so.*|libm.so.*|libdl.so.*|libpthread.so.*|librt.so.*|ld-linux*|libresolv.so.*|libutil.so.*|libcudart.so.*) ;;
    *) cp -L "$l" "$D/lib/" ;;
  esac
done
# a library that one of these loads by itself (Open MPI's components) is
# named by the check below when it is missing
missing=$(cd "$D" && LD_LIBRARY_PATH=$PWD/lib ldd gpurace | grep 'not found' || true)
[ -z "$missing" ] || { echo "hw-bundle: unresolved in the bundle: $missing" >&2; exit 1; }
du -sh "$D"
