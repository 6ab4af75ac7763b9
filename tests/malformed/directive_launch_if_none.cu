//@ launch k grid(1) block(1) if NOT_GIVEN
__global__ void k() { }
// expect: error: every '//@ launch' has a knob that is not defined: nothing to run
