#!/bin/sh
# samples-hw-report.sh DIR: reports/samples-hw.md from what
# scripts/hw-samples.sh wrote on a GPU machine (DIR: its OUTDIR, as the
# device tool brought it back).
set -eu
D=${1:?usage: samples-hw-report.sh DIR}
cd "$(dirname "$0")/.."
exec python3 scripts/samples-hw-report.py "$D" > reports/samples-hw.md
