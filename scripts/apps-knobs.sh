# apps-knobs.sh: the ScoR applications and their race knobs (scor/apps/README.md),
# sourced by the scripts that run every build of every application.
APPS_LIST="mm red r110 conv gcol gcon uts"
knobs() {
  case $1 in
  mm) echo "MM_1 MM_2 MM_3 MM_4" ;;
  red) echo "RED_1 RED_2" ;;
  r110) echo "R110_1 R110_2" ;;
  conv) echo "CONV_1" ;;
  gcol) echo "GCOL_1 GCOL_2 GCOL_3 GCOL_4 GCOL_5 GCOL_6" ;;
  gcon) echo "GCON_1 GCON_2 GCON_3 GCON_4 GCON_5" ;;
  uts) echo "UTS_1 UTS_2 UTS_3 UTS_4 UTS_5 UTS_6" ;;
  esac
}
# the table's name of an application
label() {
  case $1 in mm) echo MM ;; red) echo RED ;; r110) echo R110 ;; conv) echo 1DC ;; gcol) echo GCOL ;; gcon) echo GCON ;; uts) echo UTS ;; esac
}
# the race lines of $T/out as "detector|class|buffer"
races() {
  sed -n 's/^race \[\([^]]*\)\] \([^:]*\): global \([A-Za-z_0-9]*\)+.*/\1|\2|\3/p' "$T/out"
}
# tally APP KNOB: the csv rows of one build, a row per detector, from the
# seeds' races in $T/acc ("seed|detector|class|buffer") and statuses in $T/st
tally() {
  statuses=$(sort -n "$T/st" | uniq -c | awk '{ printf "%s%s x%s", (NR > 1 ? " " : ""), $2, $1 }')
  for d in scord-nocache scord hb; do
    k=$(awk -F'|' -v d="$d" '$2 == d { print $1 }' "$T/acc" | sort -u | wc -l)
    cls=$(awk -F'|' -v d="$d" '$2 == d { print $3 }' "$T/acc" | sort -u | paste -sd';' -)
    bufs=$(awk -F'|' -v d="$d" '$2 == d { print $4 }' "$T/acc" | sort -u | paste -sd';' -)
    echo "$1,$2,$d,$SEEDS,$k,$cls,$bufs,$statuses"
  done
}
