// Each thread takes a ticket with atomicAdd and writes the slot it names:
// race-free (the tickets are distinct), but the index is the value an
// atomic returned, which the calculus cannot compute: outside.
//@ launch ticket_atomic grid(1) block(32)
//@ buffer next u32[1]
//@ buffer slot i32[32]
//@ expect norace
//@ meta babycuda outside
__global__ void ticket_atomic(unsigned *next, int *slot) {
  unsigned t = atomicAdd(next, 1u);
  slot[t] = threadIdx.x;
}
