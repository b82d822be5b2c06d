/* Debugger support of the RV32 ISS: breakpoints, watchpoints, single steps and side-effect-free
 * address translation, for a GDB stub in the host.
 *
 * The checks live in a separate run function (rv_cpu_run_debug), so rv_cpu_run, the hot loop, is
 * untouched: a host calls rv_cpu_run_debug only while a debugger has points set or steps a hart.
 */
#ifndef ISS_RV32_DEBUG_H
#define ISS_RV32_DEBUG_H

#include "iss/rv32.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Watchpoint kinds (bit 0: writes, bit 1: reads), as GDB's Z2 (write), Z3 (read), Z4 (access). */
enum rv_watch_kind { RV_WATCH_WRITE = 1, RV_WATCH_READ = 2, RV_WATCH_ACCESS = 3 };

typedef struct rv_watchpoint {
    uint32_t addr, len;  /* virtual addresses, as the hart issues them */
    unsigned kind;       /* enum rv_watch_kind */
} rv_watchpoint;

typedef struct rv_debug_points {
    const uint32_t *breakpoints;  /* virtual pcs */
    unsigned breakpoint_count;
    const rv_watchpoint *watchpoints;
    unsigned watchpoint_count;
    /* Optional (an instruction log): called before each instruction with its pc and bits as
     * fetched (0 if the pc is not in DMI memory). If an interrupt is taken there instead, the
     * same pc is reported again when the instruction runs after the handler. */
    void (*on_insn)(void *ctx, uint32_t pc, uint32_t bits);
    void *insn_ctx;
} rv_debug_points;

enum rv_debug_reason { RV_DEBUG_NONE = 0, RV_DEBUG_BREAKPOINT, RV_DEBUG_WATCHPOINT, RV_DEBUG_STEP };

typedef struct rv_debug_hit {
    enum rv_debug_reason reason;
    unsigned watch_kind;   /* RV_WATCH_*: the kind of the watchpoint that fired */
    uint32_t watch_addr;   /* the watchpoint's address */
} rv_debug_hit;

/* Like rv_cpu_run, but stops with RV_RUN_DEBUG (reason in *hit):
 *  - before an instruction at a breakpoint,
 *  - before a load, store or AMO that touches a watchpoint of a matching kind (the access has not
 *    happened; the pc is that of the accessing instruction, as GDB expects on RISC-V),
 *  - after one instruction when single_step is true.
 * skip_first: do not check the first instruction (resuming from the point where the hart stopped). */
rv_run_status rv_cpu_run_debug(rv_cpu *cpu, uint64_t cycle_limit, const rv_debug_points *points,
                               bool skip_first, bool single_step, rv_debug_hit *hit);

/* The physical address the hart's current data view gives vaddr (Sv32 walk when paging applies),
 * without side effects: no trap, no A/D update, no TLB fill, no cycles. Page tables must be in
 * DMI memory. Returns false if the address is not mapped. */
bool rv_cpu_debug_translate(const rv_cpu *cpu, uint32_t vaddr, uint32_t *paddr);

#ifdef __cplusplus
}
#endif
#endif
