#!/bin/sh
# hw-programs.sh OUT: on a GPU machine, from the source root, after
# `sh scripts/hw-bundle.sh` here carried .hw there: every program of
# .hw/programs (tests/programs and the race-free ScoR programs, built here
# with nvcc -cudart shared) run natively on the GPU with NVIDIA's runtime,
# and under `gpurace exec` on the machine's CPU; compute-sanitizer's memcheck
# and racecheck on the faulting and the racy program.  OUT/NAME.{gpu,emu}.{out,err,rc};
# scripts/programs-hw-report.sh OUT writes reports/programs-hw.md from them.
set -u
B=${BUILD:-.hw}
O=${1:?usage: hw-programs.sh OUT}
mkdir -p "$O"
B=$(cd "$B" && pwd)
# NVIDIA's libcudart.so.13 for the native runs
CUDART=
for d in "${CUDA_HOME:-/usr/local/cuda}/lib64" /usr/local/cuda/lib64 /usr/lib/x86_64-linux-gnu; do
  [ -z "$CUDART" ] && [ -e "$d/libcudart.so.13" ] && CUDART=$d
done
echo "NVIDIA's runtime: ${CUDART:-none found}" >"$O/environment"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >>"$O/environment" 2>&1
echo 21 >"$O/stdin"
while read -r name args; do
  [ -n "$name" ] || continue
  LD_LIBRARY_PATH="$CUDART:$B/lib" timeout 120 "$B/programs/$name" $args <"$O/stdin" >"$O/$name.gpu.out" 2>"$O/$name.gpu.err"
  echo $? >"$O/$name.gpu.rc"
  GPURACE_RUNTIME_DIR="$B/rt" LD_LIBRARY_PATH="$B/lib" timeout 120 "$B/gpurace" exec "$B/programs/$name" $args <"$O/stdin" >"$O/$name.emu.out" 2>"$O/$name.emu.err"
  echo $? >"$O/$name.emu.rc"
done <"$B/programs/LIST"
if command -v compute-sanitizer >/dev/null 2>&1; then
  LD_LIBRARY_PATH="$CUDART:$B/lib" timeout 120 compute-sanitizer --tool memcheck "$B/programs/fault-oob" >"$O/fault-oob.memcheck" 2>&1
  LD_LIBRARY_PATH="$CUDART:$B/lib" timeout 120 compute-sanitizer --tool racecheck "$B/programs/race" >"$O/race.racecheck" 2>&1
  LD_LIBRARY_PATH="$CUDART:$B/lib" timeout 120 compute-sanitizer --tool racecheck "$B/programs/race-fixed" >"$O/race-fixed.racecheck" 2>&1
fi
GPURACE_RUNTIME_DIR="$B/rt" LD_LIBRARY_PATH="$B/lib" "$B/gpurace" exec --detect boyer "$B/programs/race" >"$O/race.boyer" 2>&1
GPURACE_RUNTIME_DIR="$B/rt" LD_LIBRARY_PATH="$B/lib" "$B/gpurace" exec --detect hb --warps its "$B/programs/race" >"$O/race.hb-its" 2>&1
GPURACE_RUNTIME_DIR="$B/rt" LD_LIBRARY_PATH="$B/lib" "$B/gpurace" exec "$B/programs/fault-oob" >"$O/fault-oob.gpurace" 2>&1
echo done >"$O/done"
