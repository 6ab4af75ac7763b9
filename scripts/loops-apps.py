#!/usr/bin/env python3
"""Writes the loop kernels of the paper's Section VI-D: CFD, MD, IPVEC, FWD,
SpMV, BFS and KNAP,
with seeded inputs and, where the loop is parallelisable, its sequential
result as the //@ check line (the sequential loop, run here in Python, is the
reference).

  scripts/loops-apps.py DIR            small inputs (committed in kernels/loops)
  scripts/loops-apps.py --paper DIR    the paper's sizes where it gives them (IPVEC
                                       65,536 elements; SpMV 3,000 x 3,000 at 10%;
                                       BFS 65,536 nodes; KNAP 5,000 items, weight 600)
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


def launches(name, grid, block):
    """The loop's launch, with the two-pass inspector's two passes before it
    and Paragon's comparison after it, each run only under its knob
    (kernels/loops/loop.cuh)."""
    g = f"grid({grid}) block({block})"
    return "\n".join([f"//@ launch {name} {g} if TWOPASS TWOPASS_FP"] * 2 + [f"//@ launch {name} {g}",
                                                                       f"//@ launch paragon_check {g} if PARAGON"])


def sizes(iters, most):
    """Paragon's sets: LOOP_ITERS threads x PARAGON_SET entries, the largest
    count of one thread's reads or writes (what its profiling run gives)."""
    return [f"LOOP_ITERS {max(iters, 1)}", f"PARAGON_SET {max(most, 1)}"]

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
//@ meta seq ipvec
//@ loop out
#define LOOP_T int
#define LOOP_ELEMS {n}
#define LOOP_ITERS {n}
#define PARAGON_SET 1
#include "loop.cuh"
{launches("ipvec", (n + 255) // 256, 256)}
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
//@ meta seq knap
//@ loop best
#define LOOP_T int
#define LOOP_ELEMS {cap + 1}
#define LOOP_ITERS {items}
#define PARAGON_SET {2 * (cap + 1)}
#define TWOPASS_READ_VALUES   // the condition reads best[]: the inspector's slice keeps those loads
#include "loop.cuh"
{launches("knap", (items + 255) // 256, min(items, 256))}
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

def kernel(name, comment, loop, t, defs, launch, bufs, args, expect, check, body):
    lines = [f"// {c}" for c in comment] + [f"//@ meta seq {name}", f"//@ loop {loop}", f"#define LOOP_T {t}"]
    lines += [f"#define {d}" for d in defs]
    lines += ['#include "loop.cuh"', launches(name, *launch)] + [f"//@ buffer {b}" for b in bufs]
    lines += [f"//@ arg {x}" for x in args] + [f"//@ expect {expect}"] + ([f"//@ check {check}"] if check else []) + body
    open(os.path.join(a.dir, name + ".cu"), "w").write("\n".join(lines) + "\n")

tag = "scripts/loops-apps.py" + (" --paper" if a.paper else "") + f", seed {a.seed}"

# CFD: one colour of an edge loop; the edges of a colour share no node (a matching)
nodes = 4096 if a.paper else 256
order = list(range(nodes)); rnd.shuffle(order)
edges = [(order[2 * k], order[2 * k + 1]) for k in range(nodes // 2)]
x = [rnd.randrange(100) for _ in range(nodes)]
res = [0] * nodes
for (p, q) in edges:
    f = x[p] - x[q]
    res[p] += f
    res[q] -= f
ne = len(edges)
kernel("cfd", [f"CFD (Section VI-D 1): one colour of an edge loop, {ne} edges over {nodes} nodes ({tag}); each",
               "edge reads its two nodes and adds its flux to both; the edges of a colour share no node, so there",
               "is no dependency, which no compiler can see through edges[]."],
       "res", "int", [f"LOOP_ELEMS {nodes}"] + sizes(ne, 2), ((ne + 255) // 256, min(ne, 256)),
       [f"edges i32[{2 * ne}] = {lst([v for e in edges for v in e])}", f"x i32[{nodes}] = {lst(x)}", f"res i32[{nodes}]"],
       [f"ne = {ne}"], "nodependency", f"res = {lst(res)}",
       ["__global__ void cfd(const int *edges, const int *x, int *res, int ne) {", "  LOOP_BEGIN();",
        "  int e = blockIdx.x * blockDim.x + threadIdx.x;", "  if (e >= ne) return;",
        "  int p = edges[2 * e], q = edges[2 * e + 1];", "  int f = x[p] - x[q], rp, rq;",
        "  LOOP_READ(rp, res, p);", "  LOOP_WRITE(res, p, rp + f);", "  LOOP_READ(rq, res, q);", "  LOOP_WRITE(res, q, rq - f);", "}"])

# MD: molecules and their partners; only writes to Y through partners (WAW only), each partner once
mol, per = (4096, 4) if a.paper else (128, 4)
targets = list(range(mol * per)); rnd.shuffle(targets)
partners = [targets[k] % (mol * per) for k in range(mol * per)]
X = [rnd.randrange(50) for _ in range(mol)]
Y = [0] * (mol * per)
for i in range(mol):
    for k in range(per):
        Y[partners[i * per + k]] = X[i] * 2 + k
kernel("md", [f"MD (Section VI-D 2): {mol} molecules with {per} partner slots each ({tag}); molecule i writes",
              "its force on each partner into Y through partners[], so only WAW dependencies could occur; the",
              "partners are distinct here, so none does."],
       "Y", "int", [f"LOOP_ELEMS {mol * per}"] + sizes(mol, per), ((mol + 127) // 128, min(mol, 128)),
       [f"partners i32[{mol * per}] = {lst(partners)}", f"X i32[{mol}] = {lst(X)}", f"Y i32[{mol * per}]"],
       [f"mol = {mol}", f"per = {per}"], "nodependency", f"Y = {lst(Y)}",
       ["__global__ void md(const int *partners, const int *X, int *Y, int mol, int per) {", "  LOOP_BEGIN();",
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;", "  if (i >= mol) return;",
        "  for (int k = 0; k < per; k++) LOOP_WRITE(Y, partners[i * per + k], X[i] * 2 + k);", "}"])

# CSR matrices for FWD and SpMV
def csr(n, density, lower):
    rows, cols, vals = [0], [], []
    for i in range(n):
        cs = sorted(set(j for j in range(n) if (j < i if lower else True) and rnd.random() < density))
        if lower:
            cs.append(i)
        for j in cs:
            cols.append(j)
            vals.append(1 + rnd.randrange(9))
        rows.append(len(cols))
    return rows, cols, vals

# FWD: one level of level-scheduled forward elimination, in place on x
n = 512 if a.paper else 64
rows, cols, vals = csr(n, 0.05, True)
level = [0] * n
for i in range(n):
    level[i] = 1 + max([level[cols[k]] for k in range(rows[i], rows[i + 1] - 1)], default=-1)
lv = max(set(level), key=level.count)
members = [i for i in range(n) if level[i] == lv]
xs = [rnd.randrange(10) for _ in range(n)]
ref = list(xs)
for i in members:
    s_ = ref[i]
    for k in range(rows[i], rows[i + 1] - 1):
        s_ -= vals[k] * ref[cols[k]]
    ref[i] = s_ // vals[rows[i + 1] - 1] if s_ >= 0 else -((-s_) // vals[rows[i + 1] - 1])
kernel("fwd", [f"FWD (Section VI-D 4): the rows of one level ({len(members)} of {n}) of a level-scheduled forward",
               f"elimination on a lower-triangular CSR matrix ({tag}), updating x in place: a row reads x at",
               "earlier levels and writes its own, so no dependency, which the CSR indirection hides."],
       "x", "int", [f"LOOP_ELEMS {n}"] + sizes(len(members), max(rows[i + 1] - rows[i] for i in members)),
       ((len(members) + 255) // 256, min(len(members), 256)),
       [f"rows i32[{n + 1}] = {lst(rows)}", f"cols i32[{len(cols)}] = {lst(cols)}", f"vals i32[{len(vals)}] = {lst(vals)}",
        f"members i32[{len(members)}] = {lst(members)}", f"x i32[{n}] = {lst(xs)}"],
       [f"nm = {len(members)}"], "nodependency", f"x = {lst(ref)}",
       ["__global__ void fwd(const int *rows, const int *cols, const int *vals, const int *members, int *x, int nm) {",
        "  LOOP_BEGIN();", "  int t = blockIdx.x * blockDim.x + threadIdx.x;", "  if (t >= nm) return;",
        "  int i = members[t], s, v;", "  LOOP_READ(s, x, i);",
        "  for (int k = rows[i]; k < rows[i + 1] - 1; k++) { LOOP_READ(v, x, cols[k]); s -= vals[k] * v; }",
        "  LOOP_WRITE(x, i, s / vals[rows[i + 1] - 1]);", "}"])

# SpMV, writing each row's result back to the row's first element of the matrix
n = 3000 if a.paper else 64
rows, cols, vals = csr(n, 0.1, False)
vec = [rnd.randrange(5) for _ in range(n)]
out = list(vals)
for i in range(n):
    if rows[i] < rows[i + 1]:
        out[rows[i]] = sum(vals[k] * vec[cols[k]] for k in range(rows[i], rows[i + 1]))
kernel("spmv", [f"SpMV (Section VI-D 5): the scalar CSR kernel, {n} x {n} at 10% ({tag}), writing each row's",
                "result back to the row's first element of the matrix: reads and writes on vals through rows[],",
                "no two rows sharing an element, so no dependency."],
       "vals", "int", [f"LOOP_ELEMS {len(vals)}"] + sizes(n, max(rows[i + 1] - rows[i] for i in range(n))), ((n + 255) // 256, min(n, 256)),
       [f"rows i32[{n + 1}] = {lst(rows)}", f"cols i32[{len(cols)}] = {lst(cols)}", f"vals i32[{len(vals)}] = {lst(vals)}",
        f"v i32[{n}] = {lst(vec)}"],
       [f"n = {n}"], "nodependency", f"vals = {lst(out)}",
       ["__global__ void spmv(const int *rows, const int *cols, int *vals, const int *v, int n) {", "  LOOP_BEGIN();",
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;", "  if (i >= n || rows[i] == rows[i + 1]) return;",
        "  int sum = 0, e;", "  for (int k = rows[i]; k < rows[i + 1]; k++) { LOOP_READ(e, vals, k); sum += e * v[cols[k]]; }",
        "  LOOP_WRITE(vals, rows[i], sum);", "}"])

# BFS: one frontier expansion on a tree (each node has one parent), Rodinia's loop
n = 65536 if a.paper else 256
parent = [-1] + [rnd.randrange(i) for i in range(1, n)]
depth = [0] * n
for i in range(1, n):
    depth[i] = depth[parent[i]] + 1
lvl = max(1, max(depth) // 2)
children = [[] for _ in range(n)]
for i in range(1, n):
    children[parent[i]].append(i)
eoff, elist = [0], []
for i in range(n):
    elist += children[i]
    eoff.append(len(elist))
mask = [1 if depth[i] == lvl else 0 for i in range(n)]
visited = [1 if depth[i] <= lvl else 0 for i in range(n)]
cost = [depth[i] if depth[i] <= lvl else -1 for i in range(n)]
ref = list(cost)
for v in range(n):
    if mask[v]:
        for u in children[v]:
            if not visited[u]:
                ref[u] = ref[v] + 1
kernel("bfs", [f"BFS (Section VI-D 6): one frontier expansion of Rodinia's bfs loop on a random tree of {n} nodes",
               f"({tag}), frontier at depth {lvl}: a frontier node sets its unvisited neighbours' cost; on a tree",
               "each node has one parent, so no two iterations write one cost: no dependency."],
       "cost", "int", [f"LOOP_ELEMS {n}"] + sizes(n, max(len(children[v]) for v in range(n) if mask[v])),
       ((n + 255) // 256, min(n, 256)),
       [f"eoff i32[{n + 1}] = {lst(eoff)}", f"elist i32[{max(1, len(elist))}] = {lst(elist or [0])}", f"mask i32[{n}] = {lst(mask)}",
        f"visited i32[{n}] = {lst(visited)}", f"cost i32[{n}] = {lst(cost)}"],
       [f"n = {n}"], "nodependency", f"cost = {lst(ref)}",
       ["__global__ void bfs(const int *eoff, const int *elist, const int *mask, const int *visited, int *cost, int n) {",
        "  LOOP_BEGIN();", "  int v = blockIdx.x * blockDim.x + threadIdx.x;", "  if (v >= n || !mask[v]) return;",
        "  int c;", "  LOOP_READ(c, cost, v);",
        "  for (int k = eoff[v]; k < eoff[v + 1]; k++) if (!visited[elist[k]]) LOOP_WRITE(cost, elist[k], c + 1);", "}"])
