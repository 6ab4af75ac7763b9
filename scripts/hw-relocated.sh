#!/bin/sh
# hw-relocated.sh OUTDIR: on a GPU machine, the bundle of scripts/hw-bundle.sh
# (carried as .hw) moved into another directory runs make validate-hw's
# commands with nothing set but LD_LIBRARY_PATH: gpurace finds its headers
# beside itself and every library it links in the bundle.  From the
# source root; OUTDIR gets the validation's files and relocated.txt.
set -u
OUT=${1:?usage: hw-relocated.sh OUTDIR}
mkdir -p "$OUT"
D=$(mktemp -d)/elsewhere
cp -r .hw "$D"
unset GPURACE_INCLUDE GR_SRCDIR GR_BUILDDIR GPURACE
export LD_LIBRARY_PATH="$D/lib"
{
  echo "bundle at $D, LD_LIBRARY_PATH=$LD_LIBRARY_PATH, GPURACE_INCLUDE unset"
  echo "--- ldd: anything not found?"; ldd "$D/gpurace" | grep 'not found' || echo "none"
  echo "--- gpurace devices"; "$D/gpurace" devices
  echo "--- a kernel file on the GPU, from /"; (cd / && "$D/gpurace" run "$OLDPWD/kernels/examples/reduce.cu" --backend cuda --digest); echo "status $?"
  echo "--- gpurace litmus --backend cuda"; "$D/gpurace" litmus --backend cuda --iterations 20000 kernels/litmus/M3_mp_G.cu kernels/litmus/C2_corr_G.cu; echo "status $?"
} >"$OUT/relocated.txt" 2>&1
cat "$OUT/relocated.txt"
BUILD="$D" timeout 500 bash scripts/validate-hw.sh "$OUT/hw"
echo "validate-hw status $?"
