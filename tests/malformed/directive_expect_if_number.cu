//@ launch k grid(1) block(32)
//@ expect race if 3X
__global__ void k() { }
// expect: 2:20: error: expected a macro name (a -D knob)
