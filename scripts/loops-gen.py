#!/usr/bin/env python3
"""Writes a loop kernel of the paper's microbenchmark (Listing 3) on stdout:
N iterations, M read/write pairs of a[r[i]] and a[w[i]] per iteration, index
arrays r and w from a seeded generator with dependency density D (the share
of iterations whose read or write index is another iteration's element).

  scripts/loops-gen.py --n 65536 --m 5 --density 0.001 --seed 7 > micro.cu

--order rw reads then writes in each pair (the paper's); wr writes first.
The expected verdict is left out (the oracle loopdep gives the truth).
The file includes loop.cuh: copy kernels/loops/*.cuh beside it."""
import argparse
import random

ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument("--n", type=int, default=1024)
ap.add_argument("--m", type=int, default=5)
ap.add_argument("--density", type=float, default=0.0)
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--order", choices=["rw", "wr"], default="rw")
ap.add_argument("--block", type=int, default=256)
ap.add_argument("--name", default="micro")
a = ap.parse_args()
if a.n < 1 or a.m < 0 or not 0 <= a.density <= 1 or a.block < 1 or a.block > 1024:
    ap.error("need n >= 1, m >= 0, 0 <= density <= 1, 1 <= block <= 1024")
rnd = random.Random(a.seed)
r = list(range(a.n))
w = list(range(a.n))
for i in range(a.n):
    if rnd.random() < a.density:
        j = rnd.randrange(a.n)
        if rnd.random() < 0.5:
            r[i] = w[j]          # i reads what j writes: RAW or WAR
        else:
            w[i] = w[j]          # i writes where j writes: WAW
lst = lambda v: "iota" if v == list(range(len(v))) else "{" + ", ".join(map(str, v)) + "}"
grid = (a.n + a.block - 1) // a.block
pair = ("    double temp;\n    LOOP_READ(temp, a, r[i]);\n    LOOP_WRITE(a, w[i], temp * 0.5 + j);\n" if a.order == "rw"
        else "    double temp;\n    LOOP_WRITE(a, w[i], 0.5 * i + j);\n    LOOP_READ(temp, a, r[i]);\n    out[i] = temp;\n")
launch = f"grid({grid}) block({a.block})"
print(f"""// Listing 3 of the paper: N = {a.n}, M = {a.m}, dependency density {a.density}, seed {a.seed}, order {a.order}
// (scripts/loops-gen.py --n {a.n} --m {a.m} --density {a.density} --seed {a.seed} --order {a.order} --block {a.block})
//@ meta seq listing3_{a.order}
//@ loop a
#define LOOP_ELEMS {a.n}
#define LOOP_ITERS {grid * a.block}
#define PARAGON_SET {max(a.m, 1)}
#include "loop.cuh"
//@ launch {a.name} {launch} if TWOPASS TWOPASS_FP
//@ launch {a.name} {launch} if TWOPASS TWOPASS_FP
//@ launch {a.name} {launch}
//@ launch paragon_check {launch} if PARAGON
//@ buffer a f64[{a.n}] = iota
//@ buffer r i32[{a.n}] = {lst(r)}
//@ buffer w i32[{a.n}] = {lst(w)}
//@ buffer out f64[{a.n}]
//@ arg n = {a.n}
//@ arg m = {a.m}
__global__ void {a.name}(double *a, const int *r, const int *w, double *out, int n, int m) {{
  LOOP_BEGIN();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int j = 0; j < m; j++) {{
{pair}  }}
}}""")
