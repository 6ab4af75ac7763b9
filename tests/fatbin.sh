#!/bin/sh
# A program's device code (rt/fatbin.c, gpurace fatbin): the entries of
# nvcc's .nv_fatbin, PTX decompressed from Zstandard and LZ4 alike, the
# shared and the static runtime told apart, and what cannot be run said
# with how to rebuild it; broken files are errors, not crashes.  The
# committed programs (tests/data/fatbin) make it testable without nvcc;
# where nvcc is installed, programs built now too.
G=${GPURACE:-./gpurace}
S=${GR_SRCDIR:-.}
. "$S/tests/lib.sh"
D=$S/tests/data/fatbin

expect 0 "the entries of a program" -- "$G" fatbin "$D/vadd-zstd"
contains "$T/out" "PTX  compute_80  zstd" "the PTX, compressed with Zstandard"
contains "$T/out" "ELF  sm_90" "the cubin"
contains "$T/out" "<- the emulator's" "the PTX the emulator would run"
contains "$T/out" "the shared CUDA runtime (libcudart.so)" "the runtime it loads"
for c in zstd lz4 plain; do
  expect 0 "the PTX of vadd-$c" -- "$G" fatbin "$D/vadd-$c" --ptx
  grep -v '^$' "$T/out" >"$T/$c.ptx"
  contains "$T/$c.ptx" ".visible .entry _Z4vaddPKfS0_Pfi(" "vadd-$c's PTX holds the kernel"
done
cmp -s "$T/zstd.ptx" "$T/lz4.ptx" && cmp -s "$T/zstd.ptx" "$T/plain.ptx" && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: the three compressions give different PTX"; }
cp "$T/zstd.ptx" "$T/vadd.ptx"
expect 0 "the program's PTX lowers" -- "$G" ir "$T/vadd.ptx"
contains "$T/out" ".kernel vadd" "the kernel, named as C++ names it"
expect 2 "no PTX for an older architecture" -- "$G" fatbin "$D/vadd-zstd" --arch 75
contains "$T/err" "for this architecture, no PTX, only code for particular GPUs" "says so"
# what is not a program with device code
expect 2 "a program without device code" -- "$G" fatbin /bin/sh
contains "$T/err" "no device code (.nv_fatbin)" "says what is missing"
expect 2 "a text file" -- "$G" fatbin "$D/vadd.cu"
contains "$T/err" "not a 64-bit little-endian ELF program" "says what it is not"
expect 2 "no file" -- "$G" fatbin "$T/absent"
contains "$T/err" "cannot open" "names the problem"
expect 2 "no argument" -- "$G" fatbin
# broken files: cut short at every 1 KiB, and with the fatbinary's bytes flipped
size=$(wc -c <"$D/vadd-zstd")
k=1024
while [ $k -lt "$size" ]; do
  head -c $k "$D/vadd-zstd" >"$T/cut"
  rc=0; "$G" fatbin "$T/cut" --ptx >/dev/null 2>"$T/cut.err" || rc=$?
  if [ $rc -eq 0 ] || [ $rc -eq 2 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: cut at $k bytes: exit $rc"; cat "$T/cut.err"; fi
  k=$((k + 1024))
done
off=$(od -A d -t x4 -v "$D/vadd-zstd" | awk '{for (i = 2; i <= NF; i++) if ($i == "ba55ed50") {print $1 + (i - 2) * 4; exit}}')
[ -n "$off" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: no fatbinary magic in vadd-zstd"; off=0; }
for at in 0 8 16 24 40 56 60 72 96; do
  cp "$D/vadd-zstd" "$T/flip"
  printf '\377\377\377\377' | dd of="$T/flip" bs=1 seek=$((off + at)) conv=notrunc 2>/dev/null
  rc=0; "$G" fatbin "$T/flip" --ptx >/dev/null 2>"$T/flip.err" || rc=$?
  if [ $rc -eq 0 ] || [ $rc -eq 2 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: bytes flipped at $at: exit $rc"; cat "$T/flip.err"; fi
done

# programs built here: the static runtime and code for one GPU only are refused with how to rebuild
if command -v nvcc >/dev/null 2>&1; then
  nvcc -o "$T/static" "$D/vadd.cu" 2>"$T/nvcc.err"
  expect 2 "the static runtime" -- "$G" fatbin "$T/static"
  contains "$T/out" "rebuild with nvcc -cudart shared" "how to rebuild"
  nvcc -cudart shared -gencode arch=compute_90,code=sm_90 -o "$T/sass" "$D/vadd.cu" 2>>"$T/nvcc.err"
  expect 2 "cubins only" -- "$G" fatbin "$T/sass"
  contains "$T/err" "nvcc -gencode arch=compute_80,code=compute_80" "how to keep PTX"
else
  echo "SKIP: programs built here: no nvcc"
fi
echo "fatbin: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
