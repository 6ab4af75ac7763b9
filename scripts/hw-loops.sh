#!/bin/sh
# hw-loops.sh OUT PART...: the loop dependency schemes on the GPU through the
# CUDA backend (the paper's Section VI).  Run on the device after
# scripts/hw-bundle.sh (BUILD=.hw, LD_LIBRARY_PATH=.hw/lib); BACKEND=emu runs
# the same on the emulator (with small SCALE, to try the script).  Parts:
#
#   flags   every kernels/loops file instrumented with each scheme, RUNS runs
#           on the emulator (random schedules) and on the GPU: the race flag,
#           and whether the plain kernel's //@ check holds -> OUT/loops-hw-flags.md
#   fig7a   speedup vs loop size N (M = 5, no dependency)           -> OUT/fig7a.tsv
#   fig7b   speedup vs accesses per iteration M (N = 32768)         -> OUT/fig7b.tsv
#   fig7c   detection time vs dependency density (N = 2^20, M = 5)  -> OUT/fig7c.tsv
#   fig8    memory operations vs M, on the emulator (N = 1024)      -> OUT/fig8.tsv
#   fig9    the seven Section VI-D loops at the paper's sizes       -> OUT/fig9.tsv
#
# A .tsv row: x, scheme, seconds (the fastest of REPS runs: the launches to
# the last synchronisation, or the sequential loop in C for scheme "seq"),
# the race flag (- where the scheme has none).  scripts/loops-plot.py turns
# them into reports/loops-hw.md and its SVG figures.
set -u
OUT=${1:?usage: hw-loops.sh OUT PART...}
shift
G=${BUILD:-.}/gpurace
B=${BACKEND:-cuda}
REPS=${REPS:-5}
RUNS=${RUNS:-3}
SCALE=${SCALE:-1}   # divides the microbenchmarks' N (SCALE=64 tries the script on the emulator)
mkdir -p "$OUT"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp kernels/loops/*.cuh "$T/"
SCHEMES="unsafe WISE WISE_FP TWOPASS TWOPASS_FP PARAGON"

# a scheme's -D options: WISE_NO_LOCAL is WISE without its local flag
defs() { case $1 in WISE_NO_LOCAL) echo "-DWISE -DWISE_NO_LOCAL" ;; *) echo "-D$1" ;; esac; }

# measure X SCHEME FILE: one .tsv row (SCHEME seq: the C loop; unsafe: the plain kernel)
measure() {
  x=$1 sch=$2 f=$3
  case $sch in
  seq) o=$("$G" run "$f" --seq --time "$REPS" -q 2>&1) ;;
  unsafe) o=$("$G" run "$f" --backend "$B" --time "$REPS" -q 2>&1) ;;
  # shellcheck disable=SC2046
  *) o=$("$G" run "$f" --backend "$B" $(defs "$sch") --time "$REPS" -q --dump loop_flag 2>&1) ;;
  esac
  t=$(printf '%s\n' "$o" | sed -n 's/^time: \([0-9.]*\) s.*/\1/p')
  fl=$(printf '%s\n' "$o" | sed -n 's/^loop_flag i32\[1\] = {\([0-9]*\)}/\1/p')
  if [ -z "$t" ]; then
    echo "hw-loops: $sch on $f failed: $(printf '%s\n' "$o" | tail -2 | tr '\n' ' ')" >&2
    t=NA
  fi
  printf '%s\t%s\t%s\t%s\n' "$x" "$sch" "$t" "${fl:--}"
}

micro() {  # micro X N M DENSITY SCHEMES...: the Listing 3 loop, its sequential time, each scheme's
  x=$1 n=$2 m=$3 d=$4
  shift 4
  python3 scripts/loops-gen.py --n "$n" --m "$m" --density "$d" --seed 1 >"$T/g.cu"
  measure "$x" seq "$T/g.cu"
  for s in "$@"; do measure "$x" "$s" "$T/g.cu"; done
}

for part in "$@"; do
  case $part in
  flags)
    flag() {  # flag BACKEND FILE DEF: the flags of RUNS runs, e.g. "0 0 1"
      for k in $(seq 1 "$RUNS"); do
        v=$("$G" run "$2" --backend "$1" -D"$3" --seed "$k" --sched random --dump loop_flag 2>/dev/null | sed -n 's/^loop_flag i32\[1\] = {\([01]\)}/\1/p')
        printf '%s ' "${v:-?}"
      done
    }
    plain() {  # plain BACKEND FILE: the checks of a plain run
      if ! grep -q '^//@ check' "$2"; then echo "-"; return; fi
      if "$G" run "$2" --backend "$1" >/dev/null 2>&1; then echo "holds"; else echo "**fails**"; fi
    }
    {
      echo "| kernel | expected | plain check, emulator / GPU | WISE | WISE_FP | TWOPASS | TWOPASS_FP | PARAGON |"
      echo "|---|---|---|---|---|---|---|---|"
      for f in kernels/loops/*.cu; do
        e=$(sed -n 's|^//@ expect \([a-z]*\).*|\1|p' "$f")
        printf '| %s | %s | %s / %s |' "$(basename "$f" .cu)" "$e" "$(plain emu "$f")" "$(plain "$B" "$f")"
        for s in WISE WISE_FP TWOPASS TWOPASS_FP PARAGON; do printf ' %s/ %s|' "$(flag emu "$f" $s)" "$(flag "$B" "$f" $s)"; done
        echo
      done
    } >"$OUT/loops-hw-flags.md"
    ;;
  fig7a)
    for n in 4096 16384 65536 262144 1048576 4194304; do micro "$n" $((n / SCALE)) 5 0 $SCHEMES; done >"$OUT/fig7a.tsv" ;;
  fig7b)
    for m in 1 5 10 15 20 25 30 35 40 45; do micro "$m" $((32768 / SCALE)) "$m" 0 $SCHEMES; done >"$OUT/fig7b.tsv" ;;
  fig7c)
    for d in 0.000001 0.00001 0.00002 0.0001 0.001 0.01; do micro "$d" $((1048576 / SCALE)) 5 "$d" WISE WISE_NO_LOCAL TWOPASS PARAGON; done >"$OUT/fig7c.tsv" ;;
  fig8)
    # memory operations of each scheme's run on the emulator (global memory: bytes loaded, stored, by atomics)
    for m in 1 5 10 15 20 25 30 35 40 45; do
      python3 scripts/loops-gen.py --n 1024 --m "$m" --density 0 --seed 1 >"$T/g.cu"
      for s in $SCHEMES; do
        # shellcheck disable=SC2046
        o=$("$G" run "$T/g.cu" $([ "$s" = unsafe ] || defs "$s") --stats -q 2>&1 | sed -n 's/^memory: global [0-9]* loads (\([0-9]*\) bytes), [0-9]* stores (\([0-9]*\) bytes), [0-9]* atomics (\([0-9]*\) bytes);.*/\1 \2 \3/p')
        set -- $o
        printf '%s\t%s\t%s\t%s\t%s\n' "$m" "$s" "${1:-NA}" "${2:-NA}" "${3:-NA}"
      done
    done >"$OUT/fig8.tsv" ;;
  fig9)
    python3 scripts/loops-apps.py --paper "$T/apps" >/dev/null
    cp kernels/loops/*.cuh "$T/apps/"
    for k in cfd md ipvec fwd spmv bfs knap; do
      measure "$k" seq "$T/apps/$k.cu"
      for s in $SCHEMES; do measure "$k" "$s" "$T/apps/$k.cu"; done
    done >"$OUT/fig9.tsv" ;;
  *) echo "hw-loops.sh: unknown part '$part' (flags fig7a fig7b fig7c fig8 fig9)" >&2; exit 2 ;;
  esac
done
