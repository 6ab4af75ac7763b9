# hw-lib.sh: what validate-hw.sh and hw-ptx.sh share; sourced with G, T,
# LOG and TSV (the kernels.tsv to append to) set.

# compare KIND NAME CMD...: the command's digests on the emulator (round-robin;
# the random scheduler on seeds 2 and 3; weak memory on seeds 4 and 5) against
# the GPU.  A buffer whose
# digest differs between emulator runs depends on the schedule: it is listed,
# not compared.  One TSV row: kind, name, emulator status, GPU status,
# buffers compared, buffers matching, mismatching buffers, schedule-dependent ones.
compare() {
  kind=$1; name=$2; shift 2
  "$@" --digest >"$T/e0" 2>>"$LOG"; e0=$?
  "$@" --digest --sched random --seed 2 >"$T/e1" 2>>"$LOG"
  "$@" --digest --sched random --seed 3 >"$T/e2" 2>>"$LOG"
  "$@" --digest --sched random --seed 4 --memory weak >"$T/e3" 2>>"$LOG"
  "$@" --digest --sched random --seed 5 --memory weak >"$T/e4" 2>>"$LOG"
  timeout 120 "$@" --digest --backend cuda >"$T/g" 2>>"$LOG"; g=$?
  grep '^digest ' "$T/e0" | while read -r _ buf bytes hash; do
    stable=1
    for e in e1 e2 e3 e4; do
      h=$(awk -v b="$buf" '$1=="digest" && $2==b {print $4}' "$T/$e")
      [ "$h" = "$hash" ] || stable=0
    done
    hg=$(awk -v b="$buf" '$1=="digest" && $2==b {print $4}' "$T/g")
    if [ $stable = 0 ]; then echo "unstable $buf"
    elif [ "$hg" = "$hash" ]; then echo "match $buf"
    else echo "mismatch $buf"; fi
  done >"$T/cmp"
  n=$(grep -c -v '^unstable' "$T/cmp"); m=$(grep -c '^match' "$T/cmp")
  bad=$(awk '$1=="mismatch"{printf "%s%s", s, $2; s=","}' "$T/cmp")
  uns=$(awk '$1=="unstable"{printf "%s%s", s, $2; s=","}' "$T/cmp")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$kind" "$name" "$e0" "$g" "$n" "$m" "${bad:--}" "${uns:--}" >>"$TSV"
  { echo "== $kind $name: emulator $e0, GPU $g"; cat "$T/g"; } >>"$LOG"
}

