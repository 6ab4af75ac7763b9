__device__ int a = 1;
__device__ int b = a + 1;
// expect: 2:20: error: expression is not constant
