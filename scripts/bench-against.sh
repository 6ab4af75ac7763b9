#!/bin/sh
# bench-against.sh BASE_TREE [ROUNDS]: the five peer kernels of make bench
# (bench/bench peer K 5: best of five launches) timed with this tree's
# build and with another built tree's (a worktree of the base commit, with
# `make bench/bench` run in it), interleaved on one pinned core, ROUNDS
# rounds (default 3): the comparison a change that must not slow gpurace
# down reports.
set -eu
BASE=${1:?usage: bench-against.sh BASE_TREE [ROUNDS]}
ROUNDS=${2:-3}
make -s bench/bench
for r in $(seq 1 "$ROUNDS"); do
  for k in hash triad reduce matmul histogram; do
    b=$(cd "$BASE" && GR_SRCDIR=. taskset -c 0 ./bench/bench peer "$k" 5 | grep -o '[0-9.]* s')
    h=$(GR_SRCDIR=. taskset -c 0 ./bench/bench peer "$k" 5 | grep -o '[0-9.]* s')
    echo "round $r  $k  base $b  this tree $h"
  done
done
