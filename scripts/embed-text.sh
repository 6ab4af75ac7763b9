#!/bin/sh
# embed-text.sh OUT FILE...: writes OUT, a C file holding each FILE's text
# (jit_text_names: the base names, jit_text_bodies: the texts, both ended
# by NULL), for the compiled engine (emu/jit.c), which writes them where
# the C compiler finds the headers its code includes.
set -e
out=$1
shift
tmp=$out.tmp
{
  echo "/* made by scripts/embed-text.sh from: $* */"
  echo "#include <stddef.h>"
  echo "const char *const jit_text_names[] = {"
  for f in "$@"; do echo "  \"$(basename "$f")\","; done
  echo "  NULL};"
  echo "const char *const jit_text_bodies[] = {"
  for f in "$@"; do
    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/  "/' -e 's/$/\\n"/' "$f"
    echo "  ,"
  done
  echo "  NULL};"
} > "$tmp"
mv "$tmp" "$out"
