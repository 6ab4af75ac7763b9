// One level of a breadth-first search in the style of Rodinia's bfs, with
// its two kernels fused into one: every frontier node v relaxes its
// neighbours (v+1 and v+65, modulo n) and marks them for the next level
// while other threads still read the marks.  Two frontier nodes with a
// common unvisited neighbour write its cost, mask and visited flag (write-
// write, across blocks), and a thread reads its own mask and visited flag
// while a neighbour writes them (read-write): both on global memory.
#define NODES 256

__global__ void bfs(int *mask, int *visited, int *cost) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (mask[v]) {
    mask[v] = 0;
    int nb[2] = {(v + 1) % NODES, (v + 65) % NODES};
    for (int k = 0; k < 2; k++) {
      int u = nb[k];
      if (!visited[u]) {
        cost[u] = cost[v] + 1;
        mask[u] = 1;
        visited[u] = 1;
      }
    }
  }
}
//@ launch bfs grid(4) block(64)
//@ buffer mask i32[256] = random(3, 0, 1)
//@ buffer visited i32[256] = random(3, 0, 1)
//@ buffer cost i32[256]
//@ expect race
//@ meta category global
