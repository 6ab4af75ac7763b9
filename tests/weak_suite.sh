#!/bin/sh
# The whole suite again under weak memory: every test binary and the CLI
# checks run with GPURACE_MEMORY=weak, which makes weak the default memory
# model of every context they create.
set -u
dir=$(dirname "$GPURACE")
status=0
GPURACE_MEMORY=weak
export GPURACE_MEMORY
for t in fuzz_replay test_front test_engine test_host test_examples test_detectors; do
  exe="$dir/tests/$t"
  [ -x "$exe" ] || { echo "skip $t (not built)"; continue; }
  if "$exe" >"weak_$t.log" 2>&1; then echo "PASS (weak) $t"; else echo "FAIL (weak) $t"; cat "weak_$t.log"; status=1; fi
  rm -f "weak_$t.log"
done
if sh "$GR_SRCDIR/tests/cli.sh" >weak_cli.log 2>&1; then echo "PASS (weak) cli.sh"; else echo "FAIL (weak) cli.sh"; cat weak_cli.log; status=1; fi
rm -f weak_cli.log
exit $status
