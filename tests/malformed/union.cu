__device__ union U { int a; float b; } u;
// expect: 1:12: error: unsupported: union
