# Shared by the shell tests: sourced after G (the gpurace binary) and S
# (the source tree) are set.  expect runs a command and checks its exit
# status; contains checks that a file has a line of text, lacks that it has none.  T is a scratch
# directory removed at exit; pass and fail count the checks.
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
expect() {  # expect STATUS DESCRIPTION -- command...
  want=$1; what=$2; shift 3
  "$@" >"$T/out" 2>"$T/err"; got=$?
  if [ "$got" -eq "$want" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $what: exit $got, want $want"; cat "$T/out" "$T/err"; fi
}
contains() {  # contains FILE TEXT DESCRIPTION
  if grep -qF -- "$2" "$1"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $3: no '$2' in:"; cat "$1"; fi
}
lacks() {  # lacks FILE TEXT DESCRIPTION: the file has no line with TEXT
  if grep -qF -- "$2" "$1"; then fail=$((fail + 1)); echo "FAIL: $3: '$2' in:"; cat "$1"; else pass=$((pass + 1)); fi
}
