//@ launch k grid(1) block(32)
//@ expect race if
__global__ void k() { }
// expect: 2:19: error: expected at least one knob after 'if'
