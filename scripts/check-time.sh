#!/bin/sh
# check-time.sh OLD NEW [PAIRS]: `make check`'s time at two commits, back to
# back, as tests/README.md measures it: each commit in a fresh clone, built,
# its test programs built, each run with a fresh cache folder
# (XDG_CACHE_HOME), in the order OLD NEW NEW OLD (PAIRS times: 1), so that
# a machine whose speed drifts is seen by both.  Prints one line a run:
# the commit, wall seconds, CPU seconds (user + system), the suites passed
# and failed; then each suite's CPU seconds (a timing wrapper given as
# LOG_COMPILER and SH_LOG_COMPILER) in the last run of each commit.  Leaves
# its clones in $CHECK_TIME_DIR (default: a new temporary folder), where a
# clone already there is taken as built; CHECK_TIME_TESTS, where set, is
# the TESTS that make check runs (a quick look at the script itself).
set -eu
[ $# -ge 2 ] || { echo "usage: scripts/check-time.sh OLD NEW [PAIRS]" >&2; exit 2; }
repo=$(cd "$(dirname "$0")/.." && pwd)
old=$(git -C "$repo" rev-parse --short "$1") new=$(git -C "$repo" rev-parse --short "$2")
pairs=${3:-1}
W=${CHECK_TIME_DIR:-$(mktemp -d)}
mkdir -p "$W"
cat >"$W/wrap.sh" <<'EOF'
#!/bin/sh
# a suite's CPU seconds, appended to $CHECK_TIME_LOG
for a; do l=$a; done
/usr/bin/time -f "%U %S" -o "$CHECK_TIME_LOG.$$" "$@"
rc=$?
echo "${l##*/} $(cat "$CHECK_TIME_LOG.$$")" >>"$CHECK_TIME_LOG"
rm -f "$CHECK_TIME_LOG.$$"
exit $rc
EOF
chmod +x "$W/wrap.sh"
for c in "$old" "$new"; do
  [ -d "$W/$c" ] && continue
  git clone -q "$repo" "$W/$c"
  (cd "$W/$c" && git checkout -q "$c" && autoreconf -fi && ./configure && make -j"$(nproc)" && make check TESTS=) >"$W/build.$c" 2>&1 ||
    { echo "check-time.sh: $c does not build: $W/build.$c" >&2; exit 1; }
done
i=0
while [ "$i" -lt "$pairs" ]; do
  for c in "$old" "$new" "$new" "$old"; do
    rm -rf "$W/cache" "$W/suites.$c"
    mkdir "$W/cache"
    rc=0
    (cd "$W/$c" && CHECK_TIME_LOG="$W/suites.$c" XDG_CACHE_HOME="$W/cache" GR_SRCDIR="$W/$c" \
       /usr/bin/time -f "%e %U %S" -o "$W/time" make check ${CHECK_TIME_TESTS+"TESTS=$CHECK_TIME_TESTS"} \
       LOG_COMPILER="$W/wrap.sh" SH_LOG_COMPILER="$W/wrap.sh sh" \
       >"$W/log.$c" 2>&1) || rc=$?
    p=$(sed -n 's/^# PASS: *//p' "$W/log.$c") f=$(sed -n 's/^# FAIL: *//p' "$W/log.$c")
    awk -v c="$c" -v p="${p:-?}" -v f="${f:-?}" -v rc="$rc" \
      '{printf "%s  %.1f s wall  %.1f s CPU  %s passed, %s failed%s\n", c, $1, $2 + $3, p, f, rc ? "  (make check failed)" : ""}' "$W/time"
  done
  i=$((i + 1))
done
for c in "$old" "$new"; do
  echo "$c, each suite's CPU seconds (the last run):"
  awk '{printf "  %-18s %6.1f\n", $1, $2 + $3}' "$W/suites.$c" | sort -k2 -n -r
  awk '{s += $2 + $3} END {printf "  %-18s %6.1f\n", "(all)", s}' "$W/suites.$c"
done
