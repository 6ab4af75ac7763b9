#!/bin/sh
# hw-float.sh OUT: on a GPU machine (a bundle from scripts/hw-bundle.sh,
# BUILD=DIR), tests/hw/float_special.ptx on the GPU and on the emulator:
# the bits a GPU's float arithmetic gives where C leaves them open (NaN
# payloads, invalid ops, the order of zeros in fminf/fmaxf), beside the
# emulator's (kir/kir_sem.h's rules), into OUT/float.txt.  The fixture's
# //@ check lines are the H100's; the emulator's run checks them.
set -u
OUT=${1:-.}
G=${BUILD:-.}/gpurace
f=tests/hw/float_special.ptx
{
  echo "== GPU"
  "$G" run "$f" --backend cuda --dump out --dump dout 2>&1
  echo "== emulator"
  "$G" run "$f" --dump out --dump dout 2>&1
} >"$OUT/float.txt"
cat "$OUT/float.txt"
