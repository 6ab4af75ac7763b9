#!/bin/sh
# Writes reports/scor-programs.md and .csv: the ScoR applications as
# ordinary CUDA programs (scor/programs/, built with nvcc -cudart shared,
# each race knob a -D at nvcc time) run under `gpurace exec`, their
# verdicts per build and detector over SEEDS scheduler seeds (default 10),
# against what reports/scor-apps.csv has from the C drivers (Tables VI and
# VII).  Run by `make scor-programs-report` from the source tree; needs nvcc
# (scripts/nvcc.sh finds it) and a built tree (GPURACE, GR_BUILDDIR).
set -eu
G=${GPURACE:-./gpurace}
SEEDS=${SEEDS:-10}
OUT=${OUT:-reports/scor-programs}
REF=${REF:-reports/scor-apps.csv}
DET=scord-nocache,scord,hb
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/apps-knobs.sh"

# every build, two at a time
for app in $APPS_LIST; do
  for knob in none $(knobs "$app") RACEY; do
    echo "$app $knob"
  done
done >"$T/builds"
while read -r app knob; do
  d=; [ "$knob" = none ] || d=-D$knob
  echo "scripts/nvcc.sh -cudart shared -lineinfo $d -o $T/$app-$knob scor/programs/$app.cu scor/apps/inputs.c"
done <"$T/builds" | xargs -P 2 -I{} sh -c '{}'

# run APP KNOB SEED [OPTIONS...]: its stdout and stderr in $T/out, its status in $T/rc
run() {
  app=$1 knob=$2 seed=$3
  shift 3
  rc=0
  "$G" exec --sched random --seed "$seed" --error-exitcode 4 "$@" "$T/$app-$knob" >"$T/out" 2>&1 || rc=$?
  # a launch that failed (an emulation error) is its own status: "failed"
  grep -q '^gpurace: [0-9]* kernel launch.*failed)' "$T/out" && rc=failed
  echo "$rc" >"$T/rc"
}

echo "app,build,detector,seeds,seeds_found,classes,buffers,statuses" >"$OUT.csv"
while read -r app knob; do
  : >"$T/acc"
  : >"$T/st"
  s=1
  while [ "$s" -le "$SEEDS" ]; do
    run "$app" "$knob" "$s" --detect "$DET"
    cat "$T/rc" >>"$T/st"
    races | sed "s/^/$s|/" >>"$T/acc"
    s=$((s + 1))
  done
  tally "$app" "$knob" >>"$OUT.csv"
done <"$T/builds"

# Table VII: reports on the race-free builds, ScoRD at 4-, 8- and 16-byte granules, and with the cache
for app in $APPS_LIST; do
  for cfg in "scord-nocache 4" "scord-nocache 8" "scord-nocache 16" "scord 4"; do
    set -- $cfg
    total=0
    for s in 1 2 3; do
      run "$app" none "$s" --detect "$1" --scord-granularity "$2"
      n=$(grep -c '^race \[' "$T/out" || true)
      total=$((total + n))
    done
    echo "$app,table7,$1/$2,3,$total,,," >>"$OUT.csv"
  done
done

# the comparison, row by row: the same verdict (a race on some seed, or on
# none), the same classes, the same buffers
{
  echo "# The ScoR applications as CUDA programs, under gpurace exec"
  echo
  echo "Written by \`make scor-programs-report\` (scripts/scor-programs-report.sh): each application of"
  echo "\`scor/programs/\` built with \`nvcc -cudart shared -lineinfo\`, every race knob a \`-D\` at nvcc time,"
  echo "run with \`gpurace exec --detect $DET --sched random --seed S\` for S = 1..$SEEDS, against"
  echo "the C drivers' rows of \`$REF\` (Tables VI and VII). The programs run nvcc's PTX where the"
  echo "drivers run the CUDA-subset front end's KIR of the same kernel files: the same races, through"
  echo "other instructions, so the seeds that meet a race may differ; the verdict (a race on some"
  echo "seed or on none), its classes and its buffers are what must agree. A buffer is named by the"
  echo "kernel parameter it is first passed as (the program's \`cudaMalloc\` has no name of its own)."
  echo
  echo "| app | build | detector | C driver: seeds | program: seeds | C driver: classes (buffers) | program: classes (buffers) | agree |"
  echo "|---|---|---|---|---|---|---|---|"
} >"$OUT.md"
agree=0 differ=0
tail -n +2 "$OUT.csv" | while IFS=, read -r app build det seeds found cls bufs st; do
  ref=$(awk -F, -v a="$app" -v b="$build" -v d="$det" '$1 == a && $2 == b && $3 == d' "$REF" | head -1)
  [ -n "$ref" ] || continue
  rfound=$(echo "$ref" | cut -d, -f5) rcls=$(echo "$ref" | cut -d, -f6) rbufs=$(echo "$ref" | cut -d, -f7)
  if [ "$build" = table7 ]; then
    ok=$([ "$found" = 0 ] && [ "$rfound" = 0 ] || { [ "$found" != 0 ] && [ "$rfound" != 0 ]; } && echo yes || echo NO)
    echo "| $(label "$app") | Table VII | $det | $rfound reports | $found reports | | | $ok |"
  else
    ok=$({ [ "$found" = 0 ] && [ "$rfound" = 0 ]; } || { [ "$found" != 0 ] && [ "$rfound" != 0 ] && [ "$cls" = "$rcls" ] && [ "$bufs" = "$rbufs" ]; } && echo yes || echo NO)
    echo "| $(label "$app") | $build | $det | $rfound/$seeds | $found/$seeds | $rcls ($rbufs) | $cls ($bufs) | $ok |"
  fi
done >"$T/rows"
cat "$T/rows" >>"$OUT.md"
{
  echo
  echo "Rows that agree: $(grep -c '| yes |$' "$T/rows") of $(wc -l <"$T/rows"); rows that differ: $(grep -c '| NO |$' "$T/rows" || true)."
  echo
  echo "Statuses (the csv's last column) are \`gpurace exec --error-exitcode 4\`'s: 0 a right result and"
  echo "no report, 4 a report, \`failed\` a launch that failed (an emulation error, reported)."
  echo "Where rows differ, the reason (checked by hand when this report was last written):"
  echo
  echo "- **GCOL, RACEY**: nvcc's code for the build with every knob on diverges at a barrier"
  echo "  (\`steal.cuh:38\`, \`__syncthreads\` reached by lane 0 of a warp while its other lanes are"
  echo "  elsewhere, under lockstep warps): the launch fails there, reported, after the block-fence race"
  echo "  on \`bases\`, before the other sites run. The CUDA-subset front end's code for the same"
  echo "  source keeps the warp together at that barrier. Each knob alone agrees row by row."
  echo "- **MM, Table VII**: ScoRD's false alarm on MM's race-free build (\`missing common lock on load\`"
  echo "  on \`C\`, scor/apps/README.md's notes) depends on the schedule: the programs meet it on seeds 1"
  echo "  to 3 of Table VII, the C drivers on other seeds (Table VI's rows agree: found on some seeds)."
} >>"$OUT.md"
tail -1 "$OUT.md"
