#!/usr/bin/env python3
"""Writes loop kernels of the paper's Section VI-D (so far IPVEC and KNAP)
with seeded inputs and, where the loop is parallelisable, its sequential
result as the //@ check line (the sequential loop, run here in Python, is the
reference).

  scripts/loops-apps.py DIR            small inputs (committed in kernels/loops)
  scripts/loops-apps.py --paper DIR    the paper's sizes (IPVEC 65,536 elements;
                                       KNAP 5,000 items, weight 600)
"""
import argparse
import os
import random

ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument("dir")
ap.add_argument("--paper", action="store_true")
ap.add_argument("--seed", type=int, default=2018)
a = ap.parse_args()
os.makedirs(a.dir, exist_ok=True)
lst = lambda v: "{" + ", ".join(map(str, v)) + "}"

# IPVEC: out[perm[i]] = in[i], perm a permutation: no dependency, but none a compiler can prove
n = 65536 if a.paper else 256
rnd = random.Random(a.seed)
perm = list(range(n))
rnd.shuffle(perm)
vec = [rnd.randrange(1000) for _ in range(n)]
out = [0] * n
for i in range(n):               # the sequential loop
    out[perm[i]] = vec[i]
open(os.path.join(a.dir, "ipvec.cu"), "w").write(f"""// IPVEC (Section VI-D 3): the inverse permutation of a vector, out[perm[i]] =
// in[i], {n} elements, perm a seeded permutation (scripts/loops-apps.py{' --paper' if a.paper else ''},
// seed {a.seed}): no dependency at run time, none a compiler can prove.  The
// check is the sequential loop's result.
//@ loop out
#define LOOP_T int
#define LOOP_ELEMS {n}
#include "wise.cuh"
//@ launch ipvec grid({(n + 255) // 256}) block(256)
//@ buffer perm i32[{n}] = {lst(perm)}
//@ buffer in i32[{n}] = {lst(vec)}
//@ buffer out i32[{n}]
//@ arg n = {n}
//@ expect nodependency
//@ check out = {lst(out)}
__global__ void ipvec(const int *perm, const int *in, int *out, int n) {{
  LOOP_BEGIN();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  LOOP_WRITE(out, perm[i], in[i]);
}}
""")

# KNAP: 0-1 knapsack, the outer loop over items parallelised by mistake
items, cap = (5000, 600) if a.paper else (64, 40)
wt = [1 + rnd.randrange(cap // 4) for _ in range(items)]
val = [1 + rnd.randrange(100) for _ in range(items)]
open(os.path.join(a.dir, "knap.cu"), "w").write(f"""// KNAP (Section VI-D 7): 0-1 knapsack by dynamic programming, {items} items,
// weight {cap} (scripts/loops-apps.py{' --paper' if a.paper else ''}, seed {a.seed}), with the outer loop
// over items parallelised by mistake: item i reads best[c - wt[i]], which
// earlier items write.  The dependency is real; the schemes should find it
// early and hand the loop back to the CPU.
//@ loop best
#define LOOP_T int
#define LOOP_ELEMS {cap + 1}
#include "wise.cuh"
//@ launch knap grid({(items + 255) // 256}) block({min(items, 256)})
//@ buffer wt i32[{items}] = {lst(wt)}
//@ buffer val i32[{items}] = {lst(val)}
//@ buffer best i32[{cap + 1}]
//@ arg items = {items}
//@ arg cap = {cap}
//@ expect dependency
__global__ void knap(const int *wt, const int *val, int *best, int items, int cap) {{
  LOOP_BEGIN();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= items) return;
  for (int c = cap; c >= wt[i]; c--) {{
    int without, with;
    LOOP_READ(without, best, c);
    LOOP_READ(with, best, c - wt[i]);
    if (with + val[i] > without) LOOP_WRITE(best, c, with + val[i]);
  }}
}}
""")
