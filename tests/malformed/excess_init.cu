__device__ int t[2] = {1, 2, 3};
// expect: 1:30: error: excess elements in array initialiser
