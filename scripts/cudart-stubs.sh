#!/bin/sh
# Writes rt/cudart_unsupported.def: every function of NVIDIA's
# libcudart.so.13 (rt/cudart.names, its exports) that gpurace's runtime
# does not implement (no RT_EXPORT definition in rt/cudart*.c), so that the
# library exports them all, each answering cudaErrorNotSupported.  Run it
# after implementing a function.
set -eu
cd "$(dirname "$0")/.."
grep -ho 'RT_EXPORT [^(;]*(' rt/cudart*.c | sed 's/.*[ *]\([A-Za-z_0-9]*\)($/\1/' | sort -u >rt/.implemented
{
  echo "/* Written by scripts/cudart-stubs.sh: the functions of rt/cudart.names gpurace's runtime does not implement. */"
  LC_ALL=C comm -23 rt/cudart.names rt/.implemented | sed 's/.*/RT_UNSUPPORTED(&)/'
} >rt/cudart_unsupported.def
rm -f rt/.implemented
echo "rt/cudart_unsupported.def: $(grep -c '^RT_UNSUPPORTED' rt/cudart_unsupported.def) unsupported of $(wc -l <rt/cudart.names)"
