#!/usr/bin/env python3
"""gpurace check over an outside suite of kernels, as a new user would run it.

usage: suites-check.py faial|gpuverify DIR [--gpurace PATH] [--list]

Neither suite's files carry a //@ launch line; this adds one to a copy of each
file (in a temporary folder) and runs `gpurace check` on it:
  faial      the first __global__ function, block(64), grid(2) where the
             file reads blockIdx and grid(1) where not: the suite labels a
             kernel that ignores its block as one block would run it
             (drf-cav21's y[threadIdx.x] is written by every block);
             a GPUVerify line in the file, where there is one, decides
  gpuverify  the first __global__ function, with the grid and block of the
             file's `//--blockDim=... --gridDim=...` line
A file is *accepted* when gpurace reads it (exit 0, 4 or 5); it has a
*verdict* when every array got DRF or racy (exit 0 or 4, not "outside the
calculus" nor "unknown").  Prints one line per file (with --list), the
counts, the verdicts against the suite's own labels (Faial's drf-/racy-
file names, GPUVerify's //pass and race //xfail lines) and the reasons
files had no verdict, grouped.
"""
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter

GLOBAL = re.compile(r'__global__\s+(?:[\w:<>,\s\*&]*?\s)?\**\s*(\w+)\s*\(', re.S)
GV_DIM = re.compile(r'--(blockDim|gridDim)=(\[[^\]]*\]|\d+)')


def dims(v):
    v = v.strip('[]')
    return ','.join(x.strip() for x in v.split(',') if x.strip())


def launch_line(kind, text):
    m = GLOBAL.search(text)
    if not m:
        return None
    name = m.group(1)
    grid, block = ('2' if 'blockIdx' in text else '1'), '64'
    # GPUVerify's line decides, in a Faial file too (racy-grid-level has one)
    for line in text.splitlines()[:5]:
        if line.startswith('//--'):
            for k, v in GV_DIM.findall(line):
                if k == 'blockDim':
                    block = dims(v)
                else:
                    grid = dims(v)
    return '//@ launch %s grid(%s) block(%s)\n' % (name, grid, block)


def expected(kind, rel, text):
    """The suite's own label: 'DRF', 'racy' or None (no claim on races)."""
    base = os.path.basename(rel)
    if kind == 'faial':
        return 'DRF' if base.startswith('drf-') else 'racy' if base.startswith('racy-') else None
    head = text.splitlines()[:3]
    if head and head[0].strip() == '//pass':
        return 'DRF'
    if head and head[0].startswith('//xfail') and any('race' in h for h in head[1:]):
        return 'racy'
    return None


def reason(out):
    m = re.search(r'outside the calculus: ([^)\n]*)', out)
    if m:
        return 'outside: ' + m.group(1).strip()
    if 'error:' in out:
        line = [x for x in out.splitlines() if 'error:' in x][0]
        return 'error: ' + re.sub(r'^.*?error: ', '', line)[:70]
    if 'unknown' in out:
        return 'unknown'
    return out.strip().splitlines()[-1][:70] if out.strip() else '?'


def main():
    args = sys.argv[1:]
    if len(args) < 2 or args[0] not in ('faial', 'gpuverify'):
        sys.exit(__doc__)
    kind, root = args[0], args[1]
    gr = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gpurace')
    if '--gpurace' in args:
        gr = args[args.index('--gpurace') + 1]
    listing = '--list' in args
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(root)
                   for f in fs if f.endswith('.cu'))
    tally, why = Counter(), Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            src = open(path, encoding='utf-8', errors='replace').read()
            ll = launch_line(kind, src)
            rel = os.path.relpath(path, root)
            if ll is None:
                tally['no kernel'] += 1
                continue
            copy = os.path.join(tmp, rel.replace('/', '__'))
            # The file's own folder stays on the include path (GPUVerify's
            # kernels include headers next to them).
            with open(copy, 'w') as f:
                f.write(ll + src)
            try:
                env = dict(os.environ, CPLUS_INCLUDE_PATH=os.path.dirname(path))
                p = subprocess.run([gr, 'check', copy, '--timeout', '20000'],
                                   capture_output=True, text=True, timeout=300,
                                   env=env)
                rc, out = p.returncode, p.stdout + p.stderr
            except subprocess.TimeoutExpired:
                rc, out = 124, 'timeout'
            out = out.replace(copy, rel)
            if rc in (0, 4):
                cls = 'verdict'
            elif rc == 5:
                cls = 'no verdict'
                why[reason(out)] += 1
            else:
                cls = 'rejected'
            tally[cls] += 1
            exp = expected(kind, rel, src)
            got = {0: 'DRF', 4: 'racy'}.get(rc)
            mark = ''
            if got and exp:
                tally['agree' if got == exp else 'disagree'] += 1
                mark = '' if got == exp else '   (the suite says %s)' % exp
            if listing:
                v = got or ('%s' % reason(out) if rc == 5 else 'rejected (%d): %s' % (rc, reason(out)))
                print('%-60s %s%s' % (rel, v, mark))
    accepted = tally['verdict'] + tally['no verdict']
    print('%s: %d files, %d accepted, %d with a verdict (%.0f%%), %d rejected, %d without a kernel'
          % (kind, len(files), accepted, tally['verdict'],
             100.0 * tally['verdict'] / accepted if accepted else 0,
             tally['rejected'], tally['no kernel']))
    print('  verdicts against the suite\'s own labels: %d agree, %d disagree'
          % (tally['agree'], tally['disagree']))
    for r, n in why.most_common():
        print('  %3d  %s' % (n, r))


if __name__ == '__main__':
    main()
