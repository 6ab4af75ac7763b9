__global__ void k(int *o) {
  goto end;
end:
  o[0] = 1;
}
// expect: 2:3: error: unsupported: goto
