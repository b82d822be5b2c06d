/* RV32IMAC instruction-set simulator: public C API.
 *
 * One rv_cpu is one hart. The ISS knows nothing of SystemC: the host (tiles/cpu_core.cpp, or a test)
 * provides a bus callback for device accesses and registers direct-memory (DMI) regions for RAM.
 * ISA: RV32I, M, A, C, Zicsr, Zifencei; privilege modes M, S, U; Sv32 virtual memory.
 */
#ifndef ISS_RV32_H
#define ISS_RV32_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rv_cpu rv_cpu;

enum rv_priv { RV_PRIV_U = 0, RV_PRIV_S = 1, RV_PRIV_M = 3 };

enum rv_access { RV_ACCESS_READ = 0, RV_ACCESS_WRITE = 1, RV_ACCESS_FETCH = 2 };

/* Result of a bus callback. */
enum rv_bus_status {
    RV_BUS_OK = 0,
    RV_BUS_ERROR = 1, /* becomes an access-fault trap (instruction/load/store by access kind) */
};

/* mip/mie bit numbers of the interrupt inputs. */
enum rv_irq {
    RV_IRQ_SSIP = 1,
    RV_IRQ_MSIP = 3,
    RV_IRQ_STIP = 5,
    RV_IRQ_MTIP = 7,
    RV_IRQ_SEIP = 9,
    RV_IRQ_MEIP = 11,
};

/* Exception causes (mcause with interrupt bit clear). */
enum rv_exception {
    RV_EXC_INSN_MISALIGNED = 0,
    RV_EXC_INSN_ACCESS = 1,
    RV_EXC_ILLEGAL = 2,
    RV_EXC_BREAKPOINT = 3,
    RV_EXC_LOAD_MISALIGNED = 4,
    RV_EXC_LOAD_ACCESS = 5,
    RV_EXC_STORE_MISALIGNED = 6,
    RV_EXC_STORE_ACCESS = 7,
    RV_EXC_ECALL_U = 8,
    RV_EXC_ECALL_S = 9,
    RV_EXC_ECALL_M = 11,
    RV_EXC_INSN_PAGE_FAULT = 12,
    RV_EXC_LOAD_PAGE_FAULT = 13,
    RV_EXC_STORE_PAGE_FAULT = 15,
};

/* Cycle cost of each instruction class (documented in docs/timing.md). Memory latency of an access
 * is added on top: the DMI region's latency, or what the bus callback reports. */
typedef struct rv_timing {
    uint32_t alu; /* integer register/immediate ops, lui, auipc */
    uint32_t mul; /* mul, mulh, mulhsu, mulhu */
    uint32_t div; /* div, divu, rem, remu */
    uint32_t load;
    uint32_t store;
    uint32_t branch_taken;
    uint32_t branch_not_taken;
    uint32_t jump;   /* jal, jalr */
    uint32_t csr;    /* csr* instructions */
    uint32_t atomic; /* lr, sc, amo* (plus the memory latency of read and write) */
    uint32_t system; /* fence, fence.i, sfence.vma, ecall, ebreak, mret, sret, wfi */
    uint32_t trap;   /* extra cycles to enter a trap handler */
} rv_timing;

/* Device (non-DMI) access from the hart. addr is physical. data is little-endian, len 1, 2 or 4.
 * *extra_cycles returns the access latency in cycles (0 if the callback leaves it untouched).
 * The callback may call rv_cpu_request_stop() (e.g. the core wrote its exit register). */
typedef int (*rv_bus_access_fn)(void *ctx, rv_cpu *cpu, enum rv_access kind, uint32_t addr,
                                void *data, uint32_t len, uint32_t *extra_cycles);

/* Reports a trap as it is taken (after the trap CSRs are written). Optional, for tracing/statistics. */
typedef void (*rv_trap_fn)(void *ctx, rv_cpu *cpu, uint32_t cause, uint32_t epc, uint32_t tval);

/* LR/SC reservations shared by all harts of a tile (and checked by other bus masters): a store or AMO
 * from any hart, or a write by another master (rv_reservations_invalidate), to a reserved 4-byte
 * granule breaks the reservation. */
#define RV_MAX_HARTS 32
typedef struct rv_reservation_set {
    uint32_t addr[RV_MAX_HARTS]; /* physical address of the reserved word, per hart */
    uint32_t valid_mask;         /* bit h: hart h holds a reservation */
} rv_reservation_set;

void rv_reservations_init(rv_reservation_set *set);
/* A write of len bytes at paddr by any master: drops every reservation it overlaps. */
void rv_reservations_invalidate(rv_reservation_set *set, uint32_t paddr, uint32_t len);

/* How rv_cpu_run executes (docs/iss-engine.md). Every engine gives the same simulated behaviour:
 * cycles, instret, statistics, traps and interrupt delivery are those of the interpreter. */
typedef enum rv_engine {
    RV_ENGINE_INTERPRETER = 0, /* one instruction at a time from the decode cache: the reference */
    RV_ENGINE_BLOCK = 1,       /* straight-line blocks of decoded instructions, chained */
    RV_ENGINE_JIT = 2, /* hot blocks translated to x86-64 code (the block engine elsewhere) */
} rv_engine;

/* Translated code shared by harts (RV_ENGINE_JIT, docs/iss-engine.md): harts that run the same
 * code at the same addresses translate it once, and the host's caches hold one copy. Used from one
 * host thread; destroyed after its harts. rv_jit_pool_create is NULL where there is no JIT. */
typedef struct rv_jit rv_jit_pool;
rv_jit_pool *rv_jit_pool_create(void);
/* ... with code_bytes of code memory on 4 KiB pages (rv_jit_pool_create: 64 MiB on 2 MiB pages
 * where the host has them); a full pool is emptied and translation starts over, so a small one
 * (tests) only costs time. */
rv_jit_pool *rv_jit_pool_create_sized(size_t code_bytes);
void rv_jit_pool_destroy(rv_jit_pool *pool);

typedef struct rv_config {
    uint32_t hart_id; /* mhartid; also the index into the reservation set */
    uint32_t reset_pc;
    rv_timing timing;
    rv_bus_access_fn bus_access; /* required */
    void *bus_ctx;
    rv_trap_fn on_trap; /* optional */
    void *trap_ctx;
    rv_reservation_set *reservations; /* required; shared by the harts of one tile */
    /* time CSR source (mtime of the CLINT). NULL: reading time/timeh raises illegal instruction. */
    uint64_t (*read_time)(void *ctx);
    void *time_ctx;
    /* optional: mret/sret executed (with trap_ctx), for tracing the end of a trap handler */
    void (*on_trap_return)(void *ctx, rv_cpu *cpu);
    /* optional: RISC-V semihosting. Called for an ebreak that is the middle of the sequence
     * slli x0,x0,0x1f; ebreak; srai x0,x0,7 (all three 32-bit, in DMI memory): a0 holds the
     * operation, a1 its parameter. Returns true after handling it (the result in a0; the ebreak
     * retires and execution goes on after it), false to take the breakpoint exception instead. */
    bool (*semihost)(void *ctx, rv_cpu *cpu);
    void *semihost_ctx;
    rv_engine engine;      /* of rv_cpu_run; rv_cpu_step and the debug loop always step */
    rv_jit_pool *jit_pool; /* optional: translations shared with other harts; NULL: its own */
} rv_config;

typedef enum rv_run_status {
    RV_RUN_BUDGET = 0, /* reached the cycle limit */
    RV_RUN_WFI = 1,    /* executed wfi with no interrupt pending; call rv_cpu_run again after one */
    RV_RUN_STOPPED =
        2, /* rv_cpu_request_stop() was called; the stop request is cleared on return */
    RV_RUN_LOCKUP =
        3, /* unrecoverable: a trap while fetching the trap handler (see rv_cpu_lockup) */
    RV_RUN_DEBUG =
        4, /* rv_cpu_run_debug only: a breakpoint, watchpoint or step (iss/rv32_debug.h) */
    /* the next instruction lies in a watched code page, or (rv_cpu_run_debug with
     * leave_code_watch) outside them: rv_cpu_set_code_watch in iss/rv32_debug.h */
    RV_RUN_WATCH = 5,
} rv_run_status;

/* Counters kept by the hart (statistics). */
typedef struct rv_cpu_stats {
    uint64_t cycles;
    uint64_t instret;
    uint64_t loads, stores, atomics, branches_taken, branches_not_taken;
    uint64_t muls, divs; /* M extension: mul/mulh*, div/rem* (the energy model's classes) */
    uint64_t exceptions, interrupts;
    uint64_t exceptions_by_cause[16];
    uint64_t wfi_count;
    uint64_t decode_cache_misses;
} rv_cpu_stats;

rv_cpu *rv_cpu_create(const rv_config *cfg); /* NULL on bad config */
void rv_cpu_destroy(rv_cpu *cpu);
void rv_cpu_reset(rv_cpu *cpu, uint32_t pc); /* M-mode, CSRs at reset values, counters kept */

/* RAM the hart may access directly. Regions must not overlap; up to 8 per hart.
 * host points to size bytes; latencies are cycles added per access. Returns 0 or -1. */
int rv_cpu_add_dmi(rv_cpu *cpu, uint32_t base, uint32_t size, uint8_t *host, uint32_t read_latency,
                   uint32_t write_latency);
/* Drop decoded instructions and blocks (after code was written by a loader or another master). */
void rv_cpu_flush_decode_cache(rv_cpu *cpu);
/* The engine rv_cpu_run uses: the configured one, or the block engine where the JIT is not
 * available (not an x86-64 host, or no executable memory). */
rv_engine rv_cpu_engine(const rv_cpu *cpu);
/* What the block engines did (not simulated state: it differs between engines by nature). */
typedef struct rv_engine_counters {
    uint64_t dispatches; /* rounds of the block engines' run loop */
    uint64_t blocks_built;
    uint64_t translations;        /* blocks given host code */
    uint64_t translations_shared; /* ... of which another hart had translated */
    uint64_t drops;        /* times every block was dropped (flush, DMI change, full code memory) */
    uint64_t budget_exits; /* translated code left because the next block might cross the budget */
} rv_engine_counters;
void rv_cpu_engine_counters(const rv_cpu *cpu, rv_engine_counters *out);

/* Run until cpu cycles >= cycle_limit, wfi sleeps, a stop is requested, or lockup. */
rv_run_status rv_cpu_run(rv_cpu *cpu, uint64_t cycle_limit);
/* Execute exactly one instruction (or take one trap). */
rv_run_status rv_cpu_step(rv_cpu *cpu);
void rv_cpu_request_stop(rv_cpu *cpu);

/* Level of an interrupt input (sets/clears the mip bit; MSIP, MTIP, MEIP, SEIP). */
void rv_cpu_set_irq(rv_cpu *cpu, enum rv_irq irq, bool level);
/* True if an enabled interrupt is pending (what wakes wfi). */
bool rv_cpu_irq_pending(const rv_cpu *cpu);

/* Add idle cycles (the host slept the hart in wfi for this long). */
void rv_cpu_add_cycles(rv_cpu *cpu, uint64_t cycles);

uint64_t rv_cpu_cycles(const rv_cpu *cpu);
uint64_t rv_cpu_instret(const rv_cpu *cpu);
/* Steps so far: instructions retired + exceptions + interrupts taken. Every rv_cpu_step adds one
 * (it retires an instruction, raises an exception or takes an interrupt), so (hart, steps) names
 * one point of the hart's execution, the same with every engine. */
uint64_t rv_cpu_steps(const rv_cpu *cpu);
const rv_cpu_stats *rv_cpu_get_stats(const rv_cpu *cpu);

uint32_t rv_cpu_get_pc(const rv_cpu *cpu);
void rv_cpu_set_pc(rv_cpu *cpu, uint32_t pc);
uint32_t rv_cpu_get_reg(const rv_cpu *cpu, unsigned index);
void rv_cpu_set_reg(rv_cpu *cpu, unsigned index, uint32_t value);
enum rv_priv rv_cpu_get_priv(const rv_cpu *cpu);
/* Raw CSR access for hosts and tests (no privilege check, no side effects beyond the write).
 * Returns false for a CSR the hart does not implement. */
bool rv_cpu_read_csr(const rv_cpu *cpu, uint32_t csr, uint32_t *value);
bool rv_cpu_write_csr(rv_cpu *cpu, uint32_t csr, uint32_t value);

/* After RV_RUN_LOCKUP: the cause, pc and tval of the trap that could not be delivered. */
void rv_cpu_lockup(const rv_cpu *cpu, uint32_t *cause, uint32_t *pc, uint32_t *tval);

#ifdef __cplusplus
}
#endif
#endif
