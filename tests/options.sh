#!/bin/sh
# One option registry (host/options.c, detectors/registry.c): every option
# it declares is in every command's help that takes it and in
# docs/commands.md, every variable it names is documented and works (a
# bad value stops the command, a good one is the default), and README's
# command table is the CLI's list of commands.
G=${GPURACE:-./gpurace}
S=${GR_SRCDIR:-.}
. "$S/tests/lib.sh"

"$G" help options >"$T/reg" || { echo "FAIL: gpurace help options"; exit 1; }
[ "$(wc -l <"$T/reg")" -ge 25 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: the registry lists too few options"; cat "$T/reg"; }
"$G" help run >"$T/run"
"$G" help ir >"$T/ir"
"$G" help table >"$T/table"
# the synopses of docs/commands.md: run's block, and ir's line
awk '/^gpurace run FILE/,/^gpurace ir /' "$S/docs/commands.md" >"$T/syn_run"
grep '^gpurace ir ' "$S/docs/commands.md" >"$T/syn_ir"
sed -n '/^## Environment/,$p' "$S/docs/commands.md" >"$T/env_doc"

while IFS="$(printf '\t')" read -r name arg env scope; do
  grep -q "^  $name[ ,]" "$T/run" || grep -q "^  $name\$" "$T/run" || { fail=$((fail + 1)); echo "FAIL: gpurace help run lacks $name"; continue; }
  grep -q -- "\[$name[] ]" "$T/syn_run" || { fail=$((fail + 1)); echo "FAIL: docs/commands.md's run synopsis lacks $name"; continue; }
  if [ "$scope" = front ]; then
    grep -q "^  $name " "$T/ir" || { fail=$((fail + 1)); echo "FAIL: gpurace help ir lacks $name"; continue; }
    grep -q -- "\[$name[] ]" "$T/syn_ir" || { fail=$((fail + 1)); echo "FAIL: docs/commands.md's ir synopsis lacks $name"; continue; }
  fi
  case $name in --seed|--backend) ;; *)
    grep -q "^  $name[ ,]\|^  $name\$" "$T/table" || { fail=$((fail + 1)); echo "FAIL: gpurace help table lacks $name"; continue; } ;;
  esac
  if [ "$env" != - ]; then
    grep -q "\`$env=" "$T/env_doc" || { fail=$((fail + 1)); echo "FAIL: docs/commands.md's environment lacks $env"; continue; }
    grep -q "^  $env=" "$T/run" || { fail=$((fail + 1)); echo "FAIL: gpurace help run's environment lacks $env"; continue; }
    # a bad value stops the command, naming the variable (FLAGS, DIR: any text is one)
    { [ "$arg" = FLAGS ] || [ "$arg" = DIR ]; } && { pass=$((pass + 1)); continue; }
    env "$env=not-a-value" "$G" run "$S/kernels/examples/neighbour_fixed.cu" >"$T/out" 2>"$T/err"; st=$?
    if [ "$st" -eq 2 ] && grep -q "$env" "$T/err"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $env=not-a-value: exit $st"; cat "$T/err"; fi
  fi
  pass=$((pass + 1))
done <"$T/reg"
# and every variable the page documents is one of the registry's
for v in $(sed -n 's/^| `\(GPURACE_[A-Z_]*\)=.*/\1/p' "$T/env_doc"); do
  if cut -f3 "$T/reg" | grep -qx "$v"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: docs/commands.md documents $v, which no option has"; fi
done

# a variable is the default, and the command line wins over it
R="$S/kernels/examples/reduce.cu"
"$G" run "$R" --sched random --seed 7 --warps its --digest >"$T/flags" 2>&1
GPURACE_SCHED=random GPURACE_SEED=7 GPURACE_WARPS=its "$G" run "$R" --digest >"$T/envrun" 2>&1
if cmp -s "$T/flags" "$T/envrun"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: GPURACE_SEED/SCHED/WARPS are not the defaults"; diff "$T/flags" "$T/envrun"; fi
GPURACE_WARPS=its "$G" run "$R" --warps lockstep --stats >"$T/a" 2>&1
"$G" run "$R" --stats >"$T/b" 2>&1
if cmp -s "$T/a" "$T/b"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: --warps does not win over GPURACE_WARPS"; fi
expect 0 "GPURACE_KEEP_GOING=0 is off" -- env GPURACE_KEEP_GOING=0 "$G" run "$S/kernels/examples/neighbour_fixed.cu"

# README's command table is the CLI's list of commands
"$G" help | sed -n '/^commands:/,/^$/p' | awk 'NF && $1 != "commands:" {print $1}' | sort >"$T/cmds"
sed -n 's/^| `gpurace \([a-z]*\).*/\1/p' "$S/README.md" | sort -u >"$T/readme_cmds"
if cmp -s "$T/cmds" "$T/readme_cmds"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: README's command table and gpurace help differ:"; diff "$T/cmds" "$T/readme_cmds"; fi

echo "options: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
