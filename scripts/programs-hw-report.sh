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
  echo "Machine: $(tr '\n' ' ' <"$D/environment")"
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
echo >>"$T_OUT"
echo "Identical stdout: $same of $total programs." >>"$T_OUT"
for f in fault-oob.memcheck fault-oob.gpurace race.racecheck race.boyer race.hb-its race-fixed.racecheck; do
  [ -f "$D/$f" ] || continue
  { echo; echo "\`$f\` (first lines):"; echo; echo '```'; grep -v '^$' "$D/$f" | head -12; echo '```'; } >>"$T_OUT"
done
cat "$T_OUT"
