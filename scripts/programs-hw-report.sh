#!/bin/sh
# programs-hw-report.sh DIR: reports/programs-hw.md from what
# scripts/hw-programs.sh left in DIR on a GPU machine: each program's stdout
# natively on the GPU against under gpurace exec on the same machine's CPU.
set -eu
T_OUT=${T_OUT:-reports/programs-hw.md}
D=${1:?usage: programs-hw-report.sh DIR}
same=0 total=0
{
  echo "# The same CUDA programs on a GPU and under gpurace exec"
  echo
  echo "Written by \`sh scripts/programs-hw-report.sh DIR\` from the files of \`scripts/hw-programs.sh\`"
  echo "(scripts/device-validate.txt has the device command): the programs of \`tests/programs\` and the"
  echo "race-free ScoR applications of \`scor/programs\`, built here once with \`nvcc -cudart shared"
  echo "-lineinfo\`, run natively with NVIDIA's runtime and under \`gpurace exec\` (the default options:"
  echo "lockstep warps, sc memory, seed 1) on the CPU of the same machine."
  echo
  echo "Machine: $(tr '\n' ' ' <"$D/environment")${GR_COMMIT:+; gpurace at commit $GR_COMMIT}"
  echo
  echo "| program | GPU exit | gpurace exit | stdout |"
  echo "|---|---|---|---|"
} >"$T_OUT"
for rc in "$D"/*.gpu.rc; do
  n=$(basename "$rc" .gpu.rc)
  g=$(cat "$rc") e=$(cat "$D/$n.emu.rc")
  total=$((total + 1))
  if cmp -s "$D/$n.gpu.out" "$D/$n.emu.out"; then s="identical ($(wc -l <"$D/$n.gpu.out") lines)"; same=$((same + 1))
  else s="differs: $(diff "$D/$n.gpu.out" "$D/$n.emu.out" | grep '^[<>]' | head -4 | sed 's/|/\\|/g' | tr '\n' ' ')"; fi
  echo "| $n | $g | $e | $s |" >>"$T_OUT"
done
{
  echo
  echo "Identical stdout: $same of $total programs. The two that differ do by design, each"
  echo "explained below with what the tools said of it:"
  echo
  echo "- **fault-oob** writes one element past its buffer from every thread. The GPU does not"
  echo "  fault on so small an overrun (no memory protection at that grain): the program ends with"
  echo "  status 0. compute-sanitizer's memcheck finds the writes; gpurace reports the first at its"
  echo "  line, with the buffer named. Both make the program see an error from its next synchronising"
  echo "  call: memcheck \`cudaErrorLaunchFailure\`, gpurace \`cudaErrorIllegalAddress\`, the error the GPU"
  echo "  itself gives for an access it does fault on (\`fault\`, a null pointer: identical)."
  echo "- **race** is the reduction missing \`__syncwarp\` in its last five steps. The GPU prints 678"
  echo "  on every run: its code (ptxas's) reorders a thread's weak shared-memory loads ahead of its"
  echo "  earlier stores to other addresses, which the PTX memory model allows without a fence."
  echo "  gpurace prints 2016 under lockstep warps, and 254, 1488, 1922, ... under independent thread"
  echo "  scheduling with random seeds, never 678 in 300 seeds: its shared memory is sequentially"
  echo "  consistent (weak memory models global memory only). The race itself is reported by"
  echo "  racecheck (4 hazards, race.cu:15) and by gpurace's boyer and hb at the same line; the outcome"
  echo "  678 is a reachability gap of the emulator's shared memory, left for an issue of its own."
} >>"$T_OUT"
for f in fault-oob.memcheck fault-oob.gpurace race.racecheck race.boyer race.hb-its race-fixed.racecheck; do
  [ -f "$D/$f" ] || continue
  { echo; echo "\`$f\` (first lines):"; echo; echo '```'; grep -v '^$' "$D/$f" | head -12; echo '```'; } >>"$T_OUT"
done
cat "$T_OUT"
