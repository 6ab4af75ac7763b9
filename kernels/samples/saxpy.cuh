// A kernel template defined in a header of the user's: the PTX front end
// finds its parameters' names here, so directives can bind them.
#pragma once

template <typename T>
__global__ void saxpy(T a, const T *x, T *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

template __global__ void saxpy<float>(float, const float *, float *, int);
