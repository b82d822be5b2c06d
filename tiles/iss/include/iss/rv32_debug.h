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
    uint32_t addr, len; /* virtual addresses, as the hart issues them */
    unsigned kind;      /* enum rv_watch_kind */
} rv_watchpoint;

typedef struct rv_debug_points {
    const uint32_t *breakpoints; /* virtual pcs */
    unsigned breakpoint_count;
    const rv_watchpoint *watchpoints;
    unsigned watchpoint_count;
    /* Optional (an instruction log): called before each instruction with its pc and bits as
     * fetched (0 if the pc is not in DMI memory). If an interrupt is taken there instead, the
     * same pc is reported again when the instruction runs after the handler. */
    void (*on_insn)(void *ctx, uint32_t pc, uint32_t bits);
    void *insn_ctx;
    /* Optional: called after each step (an instruction retired or trapped, or an interrupt was
     * taken), with insn_ctx: the commit log reads what the instruction did (rv_cpu_commit_end). */
    void (*after_insn)(void *ctx);
    /* Stop with RV_DEBUG_TARGET before the step that would make rv_cpu_steps exceed
     * target_steps (replaying to a point of the past: docs/debugging.md). */
    bool has_target;
    uint64_t target_steps;
    /* Return RV_RUN_WATCH before an instruction outside the watched code pages. */
    bool leave_code_watch;
} rv_debug_points;

enum rv_debug_reason {
    RV_DEBUG_NONE = 0,
    RV_DEBUG_BREAKPOINT,
    RV_DEBUG_WATCHPOINT,
    RV_DEBUG_STEP,
    RV_DEBUG_TARGET
};

typedef struct rv_debug_hit {
    enum rv_debug_reason reason;
    unsigned watch_kind; /* RV_WATCH_*: the kind of the watchpoint that fired */
    uint32_t watch_addr; /* the watchpoint's address */
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

/* The bytes the next instruction would write, if it is a store, SC or AMO: virtual address,
 * length and the value (an AMO's result is computed from DMI memory; an SC whose reservation does
 * not hold writes nothing). False if it writes nothing (or its operand is not in DMI memory). */
bool rv_cpu_debug_next_write(const rv_cpu *cpu, uint32_t *vaddr, uint32_t *len, uint32_t *value);

/* Code pages rv_cpu_run does not enter: it returns RV_RUN_WATCH before the first instruction in a
 * page that overlaps one of the count [from, to) ranges of virtual pcs (pairs in ranges[]), so a
 * host can run only those pages in rv_cpu_run_debug (breakpoints, a logged address range) and the
 * rest at full speed. count 0 removes the watch. Changes no simulated state (only host caches of
 * the fetch path are dropped). Returns -1 for more than RV_MAX_CODE_WATCH ranges. */
#define RV_MAX_CODE_WATCH 16
int rv_cpu_set_code_watch(rv_cpu *cpu, const uint32_t *ranges, unsigned count);
/* Whether pc lies in a watched code page. */
bool rv_cpu_code_watched(const rv_cpu *cpu, uint32_t pc);

/* What one instruction did, in the terms of Spike's commit log (--log commit, docs/logging.md):
 * rv_cpu_commit_begin before the step, rv_cpu_commit_end after it. */
typedef struct rv_commit {
    uint32_t pc, bits; /* the instruction as fetched (bits 0 if not in DMI memory) */
    unsigned len;      /* 2 or 4 */
    enum rv_priv priv; /* the privilege it ran in */
    bool retired;      /* false: it trapped, or an interrupt was taken instead */
    unsigned rd;       /* integer register written (0: none) */
    uint32_t rd_value;
    bool load, store; /* its memory accesses (an AMO has both) */
    uint32_t addr;    /* virtual address of the access */
    uint32_t store_value;
    unsigned size;      /* bytes */
    unsigned csr_count; /* CSRs it wrote, in ascending number */
    uint32_t csr[2], csr_value[2];
    /* private: state before the step */
    uint64_t steps_before, instret_before;
    unsigned op, rs2;
    uint32_t src, csr_number, reserved;
} rv_commit;
void rv_cpu_commit_begin(const rv_cpu *cpu, rv_commit *c);
void rv_cpu_commit_end(const rv_cpu *cpu, rv_commit *c);

#ifdef __cplusplus
}
#endif
#endif
