//@ launch k grid(1) block(1) if
__global__ void k() { }
// expect: 1:33: error: expected at least one knob after 'if'
