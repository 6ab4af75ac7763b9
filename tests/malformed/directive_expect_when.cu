//@ launch k grid(1) block(32)
//@ expect race when X
__global__ void k() { }
// expect: 2:17: error: expected 'if KNOB...' or the end of the line after 'expect race'
