#!/usr/bin/env python3
"""reports/samples-hw.md from scripts/hw-samples.sh's output directory."""
import math, os, re, struct, sys

d = sys.argv[1]
rows = [l.rstrip('\n').split('\t') for l in open(os.path.join(d, 'kernels.tsv')) if l.strip()]
device = open(os.path.join(d, 'device.txt')).read().strip().splitlines()

def dumps(path):
    out = {}
    for m in re.finditer(r'^(\w+) (\w+)\[(\d+)\] = \{([^}]*)\}', open(path).read(), re.M):
        out[m.group(1)] = (m.group(2), [v.strip() for v in m.group(4).split(',')])
    return out

def f32bits(s):
    return struct.unpack('<I', struct.pack('<f', float(s)))[0]

def ulps(a, b):
    # distance in units in the last place between two f32 values, on the ordered integer line
    def key(x):
        u = f32bits(x)
        return u if u < 0x80000000 else 0x80000000 - (u & 0x7fffffff)
    return abs(key(a) - key(b))

print('# kernels/samples on a GPU and on the emulator')
print()
print('`scripts/hw-samples.sh OUT` on the GPU machine (the device tool, carry [".hw"], after `sh scripts/hw-bundle.sh`;')
print('the command is in scripts/device-validate.txt), then `sh scripts/samples-hw-report.sh DIR` here.')
print('Every file is compiled once by NVRTC (`--cc nvrtc`, at its `//@ arch`), run by the emulator\'s PTX front end and')
print('loaded as that very PTX on the GPU (`--backend cuda`). The emulator runs five schedules (round-robin, random')
print('seeds 2 and 3, weak memory seeds 4 and 5); a buffer whose digest differs between them depends on the schedule and')
print('is listed, not compared.')
print()
print('Device:')
print()
for l in device[:6]:
    print('    ' + l)
print()
print('| kernel | warps | emulator | GPU | buffers compared | byte-identical | differ | schedule-dependent |')
print('|---|---|---|---|---|---|---|---|')
tot = same = 0
for r in rows:
    kind, name, e, g, n, m, bad, uns = r
    tot += int(n); same += int(m)
    print('| %s | %s | %s | %s | %s | %s | %s | %s |' % (name, 'ITS' if kind.endswith('its') else 'lockstep', e, g, n, m, bad, uns))
print()
print('%d buffers compared, %d byte-identical between the GPU and the emulator.' % (tot, same))
print()
# bit-level differences, with the ISA's error bounds for the approximate functions
print('## Where the bits differ')
print()
bounds = {0: ('__expf (ex2.approx after a multiply)', '2 + floor(|1.16 x|) ulp (ex2.approx: 2 ulp, and the rounding of x log2 e)'),
          1: ('__sinf (sin.approx)', 'absolute 2^-20.9 in [-pi, pi]'),
          2: ('__cosf (cos.approx)', 'absolute 2^-20.9 in [-pi, pi]'),
          3: ('__log2f (lg2.approx)', 'absolute 2^-22.6 in [0.5, 2]'),
          4: ('rsqrtf (rsqrt.approx)', 'relative 2^-22.9'),
          5: ('__fdividef (div.approx)', '2 ulp'),
          6: ('__tanhf (tanh.approx)', 'relative 2^-11')}
any_diff = False
for fn in sorted(os.listdir(os.path.join(d, 'dump'))):
    if not fn.endswith('.emu'):
        continue
    n = fn[:-4]
    e = dumps(os.path.join(d, 'dump', fn))
    gp = os.path.join(d, 'dump', n + '.gpu')
    g = dumps(gp) if os.path.exists(gp) else {}
    for buf, (ty, ev) in sorted(e.items()):
        if buf not in g:
            continue
        gv = g[buf][1]
        diff = [i for i in range(min(len(ev), len(gv))) if ev[i] != gv[i]]
        if not diff:
            continue
        any_diff = True
        if n == 'fast_math' and ty == 'f32':
            print('`%s`, buffer `%s`: %d of %d values differ; per function (64 values each):' % (n, buf, len(diff), len(ev)))
            print()
            print('| function | differ | max ulp | max absolute | max relative | the ISA\'s bound |')
            print('|---|---|---|---|---|---|')
            for k in range(7):
                idx = range(64 * k, 64 * k + 64)
                dd = [i for i in idx if ev[i] != gv[i]]
                mu = max([ulps(ev[i], gv[i]) for i in idx] + [0])
                ma = max([abs(float(ev[i]) - float(gv[i])) for i in idx] + [0.0])
                mr = max([abs(float(ev[i]) - float(gv[i])) / abs(float(ev[i])) for i in idx if float(ev[i]) != 0] + [0.0])
                print('| %s | %d | %d | %.3g | %.3g | %s |' % (bounds[k][0], len(dd), mu, ma, mr, bounds[k][1]))
            print()
        else:
            print('`%s`, buffer `%s` (%s): %d of %d values differ, first at [%d]: emulator %s, GPU %s.' %
                  (n, buf, ty, len(diff), len(ev), diff[0], ev[diff[0]], gv[diff[0]]))
            print()
if not any_diff:
    print('None: every buffer of every sample is byte-identical.')
    print()
print('## The race knobs on the GPU')
print()
log = open(os.path.join(d, 'log.txt')).read()
for m in re.finditer(r'^== race knob (\S+) -D (\S+) on the GPU\n(.*?)^exit (\d+)', log, re.M | re.S):
    print('`%s -D %s` on the GPU: exit %s; the emulator\'s hb-ptx reports the race (tests/ptx.sh, `%s.%s.ptx`).' %
          (m.group(1), m.group(2), m.group(4), m.group(1), m.group(2)))
    lines = [l for l in m.group(3).splitlines() if l.startswith('check')]
    for l in lines:
        print('    ' + l)
    print()
