#!/bin/sh
# hw-bundle.sh: gathers this machine's build into .hw/ (ignored by git), for
# a GPU machine that has no build tools of its own: the device tool carries
# it (carry: [".hw"]) and there `BUILD=.hw LD_LIBRARY_PATH=.hw/lib
# scripts/validate-hw.sh $OUT` runs it.  The binaries open CUDA with dlopen,
# so the bundle runs wherever a driver is; the OpenMP runtime travels along.
set -eu
make -s
rm -rf .hw
mkdir -p .hw/lib
cp gpurace .hw/
for a in mm red r110 conv gcol gcon uts; do mkdir -p .hw/scor/apps/$a; cp scor/apps/$a/$a .hw/scor/apps/$a/; done
for l in $(ldd gpurace | awk '/libgomp|libstdc|libz3/ {print $3}'); do cp -L "$l" .hw/lib/; done
du -sh .hw
