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
# The CUDA Programming Guide's bounds for the intrinsics (tanh: the PTX
# ISA's for tanh.approx.f32), each against the correctly rounded result;
# the emulator's value is that result, so the GPU's may differ from it by
# the bound plus half an ulp.
def x_of(i): return struct.unpack('<f', struct.pack('<f', -1.5 + struct.unpack('<f', struct.pack('<f', 3.0 * i))[0] / 64))[0]
def ulp(v):
    a = abs(float(v))
    if a == 0: return 2.0 ** -149
    return 2.0 ** (math.frexp(a)[1] - 24)
bounds = {0: ('__expf', '2 + floor(abs(1.173 x)) ulp', lambda i, e, g: ulps(e, g) <= 2 + math.floor(abs(1.173 * x_of(i))) + 1),
          1: ('__sinf', 'absolute 2^-21.41 in [-pi, pi]', lambda i, e, g: abs(float(e) - float(g)) <= 2 ** -21.41 + ulp(e) / 2),
          2: ('__cosf', 'absolute 2^-21.41 in [-pi, pi]', lambda i, e, g: abs(float(e) - float(g)) <= 2 ** -21.41 + ulp(e) / 2),
          3: ('__log2f', 'absolute 2^-22 in [0.5, 2]', lambda i, e, g: abs(float(e) - float(g)) <= 2 ** -22 + ulp(e) / 2),
          4: ('rsqrtf', '2 ulp', lambda i, e, g: ulps(e, g) <= 3),
          5: ('__fdividef', '2 ulp for y in [2^-126, 2^126]', lambda i, e, g: ulps(e, g) <= 3),
          6: ('__tanhf', 'relative 2^-10.987 (PTX ISA)', lambda i, e, g: abs(float(e) - float(g)) <= 2 ** -10.987 * abs(float(e)) + ulp(e) / 2)}
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
            print('| function | differ | max ulp | max absolute | max relative | the stated bound | every value within it (and half an ulp) |')
            print('|---|---|---|---|---|---|---|')
            for k in range(7):
                idx = range(64 * k, 64 * k + 64)
                dd = [i for i in idx if ev[i] != gv[i]]
                mu = max([ulps(ev[i], gv[i]) for i in idx] + [0])
                ma = max([abs(float(ev[i]) - float(gv[i])) for i in idx] + [0.0])
                mr = max([abs(float(ev[i]) - float(gv[i])) / abs(float(ev[i])) for i in idx if float(ev[i]) != 0] + [0.0])
                within = all(bounds[k][2](i - 64 * k, ev[i], gv[i]) for i in idx)
                print('| %s | %d | %d | %.3g | %.3g | %s | %s |' % (bounds[k][0], len(dd), mu, ma, mr, bounds[k][1], 'yes' if within else 'NO'))
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
print('A file\'s race knob (`//@ expect race if KNOB`) compiled in, on both backends: what each computed, and what')
print('hb-ptx said of the emulator\'s run.')
print()
for m in re.finditer(r'^== race knob (\S+) -D (\S+) on (the GPU|the emulator, hb-ptx watching)\n(.*?)^exit (\d+)', log, re.M | re.S):
    print('`%s -D %s` on %s: exit %s' % (m.group(1), m.group(2), m.group(3), m.group(5)))
    print()
    for l in m.group(4).splitlines():
        if l.startswith('check') or l.startswith('race [') or l.startswith('  first') or l.startswith('  second') or l.startswith('detectors'):
            print('    ' + l)
    print()
