/* invariant: the emulator's invariants, as Lua's lua_assert.  Private to
 * emu/.  Checked in debug and sanitizer builds (configure --enable-debug,
 * --enable-asan, --enable-ubsan define GR_DEBUG), free in the others; each
 * use says what must hold at that point. */
#ifndef GR_EMU_INVARIANT_H
#define GR_EMU_INVARIANT_H

#ifdef GR_DEBUG
#include <assert.h>
#define emu_assert(c) assert(c)
#else
#define emu_assert(c) ((void)0)
#endif

#endif
