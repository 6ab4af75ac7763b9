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
