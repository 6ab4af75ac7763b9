/* whole: a launch that no schedule can tell apart, run a warp at a time
 * by compiled code (engine-internal).
 *
 * A launch whose kernel reads only allocations nothing writes during it
 * (prov.h's PROV_RO), writes only allocations nothing reads, one writer
 * an address (PROV_WO), and does nothing else but arithmetic and
 * branches (no shared memory, atomic, barrier, fence, clock or printf),
 * under sequentially consistent memory, lockstep warps and no observer,
 * ends the same whatever order its warps run in: every load reads what
 * the launch started with, every address's last write is its one
 * writer's last, and the statistics are sums over the warps.  Such a
 * launch is run here: first every warp by the kernel's check function
 * (jit_abi.h's JIT_WHOLE: all of it but the stores), then, where every
 * warp reached its exit within the step limit without parting its lanes
 * or an access the launch's spans do not cover, every warp by its run
 * function, the stores performed.  Where one did not, nothing has been
 * written and the engine runs the launch turn by turn: the schedule,
 * faults, livelocks and step limit are then the scheduler's.  So the
 * launch's outputs, statistics and errors are those of the turns, byte
 * for byte (tests/engines.sh, test_jit's whole_*), without a scheduler,
 * a block's memory or a register file. */
#ifndef GR_WHOLE_H
#define GR_WHOLE_H

#include "engine.h"

/* Whether no two of the launch's accesses can race or tell their order
 * (its analysis trusted, prov.h): every instruction its warp's own
 * (simt_own), a load of PROV_RO, a store of PROV_WO, or the exit.  An
 * observer that needs no event of an access that cannot race
 * (GR_OBSERVE_SKIP_RACE_FREE) then needs none at all but the launch's
 * begin and end: L->silent (engine.c), under sc memory, where every
 * observer says so. */
int whole_silent(const launch *L);
/* 1 where the launch ran (its steps in L->steps, its statistics in the
 * context's), 0 where it is not one of those or a warp stopped. */
int whole_launch(launch *L);

#endif
