#!/bin/sh
# hw-real.sh OUT: on a GPU machine, runs the files of tests/real that NVRTC
# can compile (no host headers) on both backends and compares: every
# //@ check on the GPU, and the final memory byte for byte (--digest)
# against the emulator's.  BUILD is the build (default .), as for
# validate-hw.sh; the device tool's command is in scripts/device-validate.txt.
set -u
OUT=${1:?usage: hw-real.sh OUT}
B=${BUILD:-.}
export GPURACE_INCLUDE=${GPURACE_INCLUDE:-$PWD/front/include}
mkdir -p "$OUT"
R="$OUT/real.txt"
: > "$R"
"$B/gpurace" devices >> "$R" 2>&1
pass=0 fail=0
for f in tests/real/device_spellings.cu tests/real/multi_launch.cu tests/real/struct_param.cu \
         tests/real/pointer_walks.cu tests/real/cxx_device.cu; do
  e=$("$B/gpurace" run --digest -q "$f" 2>&1); ec=$?
  g=$("$B/gpurace" run --backend cuda --digest "$f" 2>&1); gc=$?
  gd=$(printf '%s\n' "$g" | grep '^digest')
  ed=$(printf '%s\n' "$e" | grep '^digest')
  if [ "$ec" -eq 0 ] && [ "$gc" -eq 0 ] && [ "$ed" = "$gd" ]; then
    pass=$((pass + 1)); echo "MATCH $f" >> "$R"
  else
    fail=$((fail + 1)); echo "DIFFER $f (emulator $ec, gpu $gc)" >> "$R"
  fi
  printf '%s\n' "$g" | sed 's/^/  gpu: /' >> "$R"
done
echo "hw-real: $pass passed, $fail failed" >> "$R"
cat "$R"
