#!/bin/sh
# The gpurace command: exit statuses 0/1/2/3, help, dumps, -D knobs.
G=${GPURACE:-./gpurace}
S=${GR_SRCDIR:-.}
. "$S/tests/lib.sh"

expect 0 "help" -- "$G" --help
contains "$T/out" "commands:" "help lists commands"
expect 0 "run --help" -- "$G" run --help
contains "$T/out" "--sched rr|random" "run help documents options"
expect 0 "help ir" -- "$G" help ir
expect 2 "no command" -- "$G"
expect 2 "unknown command" -- "$G" frobnicate
expect 2 "unknown option" -- "$G" run --bogus "$S/kernels/examples/reduce.cu"
expect 2 "bad seed" -- "$G" run --seed -3 "$S/kernels/examples/reduce.cu"
expect 2 "bad sched" -- "$G" run --sched fifo "$S/kernels/examples/reduce.cu"
expect 2 "missing file" -- "$G" run "$T/none.cu"
expect 0 "checks hold" -- "$G" run "$S/kernels/examples/reduce.cu"
contains "$T/out" "check out: ok" "check line printed"
expect 0 "random schedule" -- "$G" run --sched random --seed 9 --sms 2 "$S/kernels/examples/scan.cu"
expect 0 "dump" -- "$G" run --dump out "$S/kernels/examples/reduce.cu"
contains "$T/out" "out i32[4] = {32640, 98176, 163712, 229248}" "dump format"
expect 2 "dump unknown" -- "$G" run --dump nothere "$S/kernels/examples/reduce.cu"
expect 0 "ir" -- "$G" ir "$S/kernels/examples/reduce.cu"
contains "$T/out" ".kernel reduce" "ir prints the kernel"

cat > "$T/bad.cu" <<'K'
//@ launch k grid(1) block(32)
//@ buffer o i32[32]
//@ check o = 5
__global__ void k(int *o) { o[threadIdx.x] = 4 + (threadIdx.x == 3); }
K
expect 1 "failed check" -- "$G" run "$T/bad.cu"
contains "$T/out" "check o: FAILED" "failed check reported"
expect 1 "quiet failed check" -- "$G" run -q "$T/bad.cu"

cat > "$T/knob.cu" <<'K'
//@ launch k grid(1) block(1)
//@ buffer o i32[1]
//@ check o = 42
__global__ void k(int *o) { o[0] = VALUE; }
K
expect 2 "undefined knob" -- "$G" run "$T/knob.cu"
contains "$T/err" "knob.cu:4:" "error has a position"
expect 0 "-D knob" -- "$G" run -D VALUE=42 "$T/knob.cu"
expect 0 "-DNAME=V knob" -- "$G" run -DVALUE=42 "$T/knob.cu"

cat > "$T/oob.cu" <<'K'
//@ launch k grid(1) block(33)
//@ buffer o i32[32]
__global__ void k(int *o) { o[threadIdx.x] = 1; }
K
expect 3 "out of bounds" -- "$G" run "$T/oob.cu"
contains "$T/err" "oob.cu:3:44: error: out-of-bounds global store" "oob position"

cat > "$T/spin.cu" <<'K'
//@ launch k grid(1) block(32)
//@ buffer o i32[1]
__global__ void k(volatile int *o) { while (o[0] == 0) { } }
K
expect 3 "deadlock" -- "$G" run "$T/spin.cu"
contains "$T/err" "deadlock" "deadlock reported"
cat > "$T/count.cu" <<'K'
//@ launch k grid(1) block(32)
//@ buffer o i32[1]
__global__ void k(int *o) { for (int i = 0; ; i++) o[0] = i; }
K
expect 3 "step limit" -- "$G" run --max-steps 1000 "$T/count.cu"
contains "$T/err" "step limit reached" "step limit reported"

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
