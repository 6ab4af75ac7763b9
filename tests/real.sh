#!/bin/sh
# Kernel files as people write them (tests/real/): C and C++ headers, host
# C++ of any kind, the device spellings nvcc accepts, several launches;
# unmodified files through `ir`; kernel files read from pipes and FIFOs.
G=${GPURACE:-./gpurace}
S=${GR_SRCDIR:-.}
. "$S/tests/lib.sh"

for f in "$S"/tests/real/*.cu; do
  n=${f##*/}
  expect 0 "$n runs, checks hold, hb silent" -- "$G" run --detect hb "$f"
  contains "$T/out" "0 race reports" "$n: hb finds no race"
  expect 0 "$n under weak memory, random schedule" -- "$G" run --memory weak --sched random --seed 5 "$f"
done

# the host part of a file is skipped whatever it holds, and a device use of
# a host name says what it is
cat > "$T/hostuse.cu" <<'K'
#include <stdio.h>
int host_counter = 0;
__global__ void k(int *o) { o[0] = host_counter; printf("x"); }
K
expect 2 "device code reads a host variable" -- "$G" ir "$T/hostuse.cu"
contains "$T/err" "hostuse.cu:3:36: error: 'host_counter' is a host variable, declared at" "the note names the host variable"
sed -i 's/o\[0\] = host_counter; //' "$T/hostuse.cu"
expect 2 "device code calls printf" -- "$G" ir "$T/hostuse.cu"
contains "$T/err" "hostuse.cu:3:29: error: unsupported: printf in device code" "printf is named as unsupported"

# an unmodified file (no directives): the front end reads it all
cat > "$T/orig.cu" <<'K'
#include <stdio.h>
#include <cuda_runtime.h>
__global__ void race(int *flag, int *data) {
  if (blockIdx.x == 0) { data[0] = 1; __threadfence(); *flag = 1; }
  else { while (*(volatile int *)flag == 0) {} int v = data[0]; (void)v; }
}
int main() {
  int *f, *d;
  cudaMalloc((void **)&f, sizeof(int)); cudaMalloc((void **)&d, sizeof(int));
  race<<<2, 1>>>(f, d);
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
K
expect 0 "ir on an unmodified file" -- "$G" ir "$T/orig.cu"
contains "$T/out" ".kernel race" "the kernel is compiled"
expect 2 "run on it says the file has no launch" -- "$G" run "$T/orig.cu"
contains "$T/err" "no '//@ launch' directive" "the missing launch is named"

# several launches: the second is refused with the directive's position
cat > "$T/two.cu" <<'K'
//@ launch a grid(1) block(32)
//@ launch b grid(1) block(2048)
//@ buffer o i32[32]
__global__ void a(int *o) { o[threadIdx.x] = 1; }
__global__ void b(int *o) { o[threadIdx.x] += 1; }
K
expect 2 "a refused second launch" -- "$G" run "$T/two.cu"
contains "$T/err" "two.cu:2:1: error: block (2048,1,1)" "the refusal names the launch line"

# kernel files that are not regular files are read once
cp "$S/tests/real/multi_launch.cu" "$T/ml.cu"
expect 0 "a kernel file on a pipe (/dev/stdin)" -- sh -c "cat '$T/ml.cu' | '$G' run /dev/stdin"
contains "$T/out" "check sums: ok" "the piped file ran"
if mkfifo "$T/fifo" 2>/dev/null; then
  (cat "$T/ml.cu" > "$T/fifo" &)
  expect 0 "a kernel file that is a FIFO" -- timeout 20 "$G" run "$T/fifo"
  contains "$T/out" "check sums: ok" "the FIFO file ran"
fi
expect 2 "/dev/zero is refused, not read forever" -- timeout 60 "$G" run --max-source 1000000 /dev/zero
contains "$T/err" "larger than 1000000 bytes" "the bound is named"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
