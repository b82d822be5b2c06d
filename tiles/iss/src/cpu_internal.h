/* Private state of one hart and the interfaces between the ISS source files.
 *
 * Files and their jobs:
 *   decode.c        instruction bits -> rv_insn (RV32IMAC, compressed expanded to base ops)
 *   decode_cache.c  per-DMI-region lazily filled arrays of decoded instructions, fetch fast path
 *   execute.c       the interpreter loop (rv_cpu_run / rv_cpu_step)
 *   mmu.c           Sv32 translation, TLBs, loads/stores/fetches through DMI or the bus
 *   csr.c           CSR file, access rights, counters
 *   trap.c          exceptions, interrupts, mret/sret
 *   reservations.c  LR/SC reservation set shared by the harts of a tile
 *   cpu.c           public API glue (create, reset, DMI registration, accessors)
 *   block*.c, jit*.c   the block engines (block.h, jit.h; docs/iss-engine.md)
 */
#ifndef ISS_CPU_INTERNAL_H
#define ISS_CPU_INTERNAL_H

#include "iss/rv32.h"

#include <stddef.h>

#if defined(__GNUC__)
#define RV_LIKELY(x)     __builtin_expect(!!(x), 1)
#define RV_UNLIKELY(x)   __builtin_expect(!!(x), 0)
#define RV_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define RV_ALWAYS_INLINE inline
#define RV_LIKELY(x)     (x)
#define RV_UNLIKELY(x)   (x)
#endif

#define RV_PAGE_SHIFT 12u
#define RV_PAGE_SIZE  (1u << RV_PAGE_SHIFT)
#define RV_PAGE_MASK  (RV_PAGE_SIZE - 1u)
#define RV_MAX_DMI    8

/* Compact operation codes of decoded instructions. RV_OP_UNDECODED (0) marks an empty cache slot, so a
 * zero-filled array is an empty decode cache. */
enum rv_op {
    RV_OP_UNDECODED = 0,
    RV_OP_ILLEGAL,
    RV_OP_LUI,
    RV_OP_AUIPC,
    RV_OP_JAL,
    RV_OP_JALR,
    RV_OP_BEQ,
    RV_OP_BNE,
    RV_OP_BLT,
    RV_OP_BGE,
    RV_OP_BLTU,
    RV_OP_BGEU,
    RV_OP_LB,
    RV_OP_LH,
    RV_OP_LW,
    RV_OP_LBU,
    RV_OP_LHU,
    RV_OP_SB,
    RV_OP_SH,
    RV_OP_SW,
    RV_OP_ADDI,
    RV_OP_SLTI,
    RV_OP_SLTIU,
    RV_OP_XORI,
    RV_OP_ORI,
    RV_OP_ANDI,
    RV_OP_SLLI,
    RV_OP_SRLI,
    RV_OP_SRAI,
    RV_OP_ADD,
    RV_OP_SUB,
    RV_OP_SLL,
    RV_OP_SLT,
    RV_OP_SLTU,
    RV_OP_XOR,
    RV_OP_SRL,
    RV_OP_SRA,
    RV_OP_OR,
    RV_OP_AND,
    RV_OP_MUL,
    RV_OP_MULH,
    RV_OP_MULHSU,
    RV_OP_MULHU,
    RV_OP_DIV,
    RV_OP_DIVU,
    RV_OP_REM,
    RV_OP_REMU,
    RV_OP_FENCE,
    RV_OP_FENCE_I,
    RV_OP_ECALL,
    RV_OP_EBREAK,
    RV_OP_MRET,
    RV_OP_SRET,
    RV_OP_WFI,
    RV_OP_SFENCE_VMA,
    RV_OP_CSRRW,
    RV_OP_CSRRS,
    RV_OP_CSRRC,
    RV_OP_CSRRWI,
    RV_OP_CSRRSI,
    RV_OP_CSRRCI,
    RV_OP_LR,
    RV_OP_SC,
    RV_OP_AMOSWAP,
    RV_OP_AMOADD,
    RV_OP_AMOXOR,
    RV_OP_AMOAND,
    RV_OP_AMOOR,
    RV_OP_AMOMIN,
    RV_OP_AMOMAX,
    RV_OP_AMOMINU,
    RV_OP_AMOMAXU,
    RV_OP_COUNT
};

/* Decoded instructions name this register instead of x0 as destination (no per-instruction x0 reset). */
#define RV_REG_SINK 32

/* One decoded instruction (16 bytes). Compressed instructions are expanded into the base op they
 * stand for; len tells the pc increment and raw keeps the original bits for mtval. */
typedef struct rv_insn {
    uint8_t op;
    uint8_t rd, rs1, rs2;
    uint8_t len;
    uint8_t pad;
    uint16_t cost; /* timing cost of the instruction class (branches: not-taken cost) */
    int32_t imm;   /* immediate; CSR number for csr ops; aq/rl-free funct for system ops */
    uint32_t raw;
} rv_insn;

/* Decoded instructions of one 4 KiB physical page: one slot per halfword; with a block engine also
 * the blocks starting at each halfword (allocated with the first block of the page). */
typedef struct rv_code_page rv_code_page;
struct rv_code_page {
    rv_insn slot[RV_PAGE_SIZE / 2];
    struct rv_block **blocks;
};

typedef struct rv_dmi {
    uint32_t base, size;
    uint8_t *host;
    uint32_t read_latency, write_latency;
    rv_code_page **code; /* per 4 KiB page of the region, allocated on first fetch */
    uint32_t code_pages;
} rv_dmi;

/* Software TLB entry: virtual page -> physical page (+ host pointer if the whole page is DMI).
 * One direct-mapped array per access kind, so an entry means "this kind of access is allowed",
 * with the permission check, A/D update and MPRV/SUM/MXR already applied. */
#define RV_TLB_SIZE 64
typedef struct rv_tlb_entry {
    uint32_t vpn;       /* RV_TLB_INVALID when empty */
    uint32_t ppn_base;  /* physical address of the page */
    uint8_t *host;      /* host address of the page, or NULL (not wholly inside one DMI region) */
    uint32_t latency;   /* DMI latency of this access kind */
    struct rv_dmi *dmi; /* fetch entries: DMI region and decoded page, filled on first fetch */
    struct rv_code_page *code;
} rv_tlb_entry;
#define RV_TLB_INVALID 0xffffffffu

typedef struct rv_csrs {
    uint32_t mstatus; /* holds the sstatus bits too */
    uint32_t mtvec, stvec;
    uint32_t medeleg, mideleg;
    uint32_t mie;
    uint32_t mip; /* software-writable bits and the input levels */
    uint32_t
        seip_input; /* MIP_SEIP while the external SEIP input is high (mip.SEIP reads as the OR) */
    uint32_t mscratch, sscratch;
    uint32_t mepc, sepc, mcause, scause, mtval, stval;
    uint32_t satp;
    uint32_t mcounteren, scounteren, mcountinhibit;
    uint32_t menvcfg, menvcfgh, senvcfg;
    uint8_t pmpcfg[16];
    uint32_t pmpaddr[16];
    /* counters: visible value = base + (live count) unless inhibited, then frozen value */
    uint64_t mcycle_offset, minstret_offset;
    uint64_t mcycle_frozen, minstret_frozen;
} rv_csrs;

/* Jump cache of translated code: virtual pc -> code, for computed targets and jumps into other
 * pages (jit.h). Valid only while the fetch translations it was filled under are: emptied with
 * every fill of the fetch TLB (which follows every TLB flush) and every drop of the blocks. */
#define RV_JCACHE_SIZE 512
typedef struct rv_jcache_entry {
    uint32_t pc; /* RV_JCACHE_EMPTY: empty (an odd pc never runs) */
    uint32_t pad;
    const void *code;
} rv_jcache_entry;
#define RV_JCACHE_EMPTY 1u

/* Block engine state of one hart (block.h). */
typedef struct rv_block_state {
    rv_engine engine;     /* effective engine of rv_cpu_run */
    bool stale;           /* blocks were dropped; their memory is reused at the next dispatch */
    uint32_t max_latency; /* largest DMI latency: bounds the memory cycles of a block */
    struct rv_arena_chunk *arena; /* block memory, freed all at once */
    struct rv_jit *jit; /* pool of translated code (RV_ENGINE_JIT), from the first translation */
    bool jit_own;       /* the pool is the hart's own (no rv_config.jit_pool) */
    uint32_t jit_gen;   /* the pool's generation the hart's blocks were translated in */
    const void **chain; /* two entries per translation id: the code it chains to, or NULL */
    uint8_t *owned;     /* per id: one of the hart's blocks runs that translation */
    uint32_t chain_ids; /* ids the two tables cover */
    uint32_t
        jit_patch_slot; /* set by translated code leaving through an empty chain entry: entry + 1 */
    uint32_t jit_patch_pc; /* ... and the pc it wants to chain to */
    rv_engine_counters counters;
    rv_jcache_entry jcache[RV_JCACHE_SIZE];
} rv_block_state;

#define RV_STEP_CONTINUE (-1) /* an instruction step or block run that needs no return */

struct rv_cpu {
    /* hot state first */
    uint32_t x[33]; /* x[RV_REG_SINK] absorbs writes to x0, so x[0] stays 0 */
    uint32_t pc;
    enum rv_priv priv;
    rv_csrs csr;
    rv_cpu_stats stats; /* stats.cycles and stats.instret are THE cycle/instret counters */

    /* instruction fetch fast path: the current virtual code page and its decoded slots */
    uint32_t fetch_vpage; /* RV_TLB_INVALID when not cached */
    rv_code_page *fetch_code;
    rv_dmi *fetch_dmi;
    uint32_t fetch_ppage;

    /* translation state derived from CSRs; TLBs flushed whenever it changes */
    bool translate_fetch, translate_data;
    enum rv_priv data_priv; /* effective privilege of loads/stores (MPRV) */
    uint32_t xlate_key;
    rv_tlb_entry tlb[3][RV_TLB_SIZE]; /* indexed by enum rv_access */

    rv_dmi dmi[RV_MAX_DMI];
    unsigned dmi_count;
    rv_dmi *last_dmi; /* last region hit by a slow-path lookup */

    rv_insn scratch; /* decode target for uncacheable fetches */

    rv_config cfg;
    rv_reservation_set *res;
    uint32_t hart_bit;

    bool stop_requested;
    uint64_t run_limit; /* cycle limit of the current rv_cpu_run; 0 once a stop is requested */

    /* lockup detection: pc the last trap vectored to and instret at that moment */
    bool trap_just_taken;
    uint32_t last_trap_target;
    uint64_t last_trap_instret;
    bool locked_up;
    uint32_t lockup_cause, lockup_pc, lockup_tval;

    /* code watch (rv_cpu_set_code_watch): virtual page numbers [first, last] per range */
    uint32_t code_watch[16][2];
    unsigned code_watch_count;
    bool code_watch_suspended; /* inside rv_cpu_run_debug: watched pages run there */
    bool code_watch_hit;       /* enter_page refused a watched page: the run returns RV_RUN_WATCH */

    rv_block_state blk;
};

/* mstatus bits */
#define MSTATUS_SIE       (1u << 1)
#define MSTATUS_MIE       (1u << 3)
#define MSTATUS_SPIE      (1u << 5)
#define MSTATUS_MPIE      (1u << 7)
#define MSTATUS_SPP       (1u << 8)
#define MSTATUS_MPP_SHIFT 11
#define MSTATUS_MPP       (3u << 11)
#define MSTATUS_MPRV      (1u << 17)
#define MSTATUS_SUM       (1u << 18)
#define MSTATUS_MXR       (1u << 19)
#define MSTATUS_TVM       (1u << 20)
#define MSTATUS_TW        (1u << 21)
#define MSTATUS_TSR       (1u << 22)

#define MIP_SSIP     (1u << 1)
#define MIP_MSIP     (1u << 3)
#define MIP_STIP     (1u << 5)
#define MIP_MTIP     (1u << 7)
#define MIP_SEIP     (1u << 9)
#define MIP_MEIP     (1u << 11)
#define MIP_S_MASK   (MIP_SSIP | MIP_STIP | MIP_SEIP)
#define MIP_ALL_MASK (MIP_S_MASK | MIP_MSIP | MIP_MTIP | MIP_MEIP)

#define RV_INTERRUPT_BIT 0x80000000u

/* debug.c: whether pc lies in a watched code page (only called with a watch set) */
bool rv_code_watch_contains(const rv_cpu *cpu, uint32_t pc);
/* debug.c: the 32-bit word at virtual address vaddr of the code, read without side effects from
 * DMI memory (fetch translation); false if it is not there. */
bool rv_peek_code_word(const rv_cpu *cpu, uint32_t vaddr, uint32_t *word);
/* debug.c: decodes the instruction at the pc the same way, without touching the decode cache. */
bool rv_peek_insn(const rv_cpu *cpu, struct rv_insn *out);

/* decode.c */
void rv_decode(const rv_cpu *cpu, uint32_t bits, rv_insn *out);

/* decode_cache.c: returns the decoded instruction at cpu->pc, or NULL after taking a fetch trap. */
const rv_insn *rv_fetch_slow(rv_cpu *cpu);
/* Makes cpu->pc's page the fetch page: 1 if its instructions are cached (DMI), 0 if not (fetched
 * uncached every time), -1 after taking the fetch trap, -2 if the page is watched (nothing done;
 * the run returns RV_RUN_WATCH). rv_fetch_slow returns NULL with code_watch_hit set then. */
int rv_fetch_page(rv_cpu *cpu);
/* Decodes into an empty slot of the current fetch page (cpu->pc lies in it). */
const rv_insn *rv_fill_slot(rv_cpu *cpu, rv_insn *slot);
void rv_decode_cache_flush(rv_cpu *cpu);
void rv_decode_cache_free(rv_cpu *cpu);

/* execute.c: one instruction without the interrupt check that precedes it (the caller did it). */
int rv_exec_insn(rv_cpu *cpu);
/* one instruction with the interrupt check before it, as rv_cpu_step */
int rv_step_insn(rv_cpu *cpu);

/* block_cache.c: empties the JIT's jump cache (fetch translations changed, blocks dropped) */
void rv_jcache_flush(rv_cpu *cpu);

/* mmu.c */
rv_dmi *rv_find_dmi(rv_cpu *cpu, uint32_t paddr, uint32_t len);
void rv_tlb_flush(rv_cpu *cpu);
void rv_update_translation_state(rv_cpu *cpu);
/* Translate vaddr for kind; on failure takes the trap and returns false. */
bool rv_translate(rv_cpu *cpu, uint32_t vaddr, enum rv_access kind, uint32_t *paddr);
/* Full loads/stores (translation, alignment, DMI or bus, reservations); false = trap taken. */
bool rv_load_slow(rv_cpu *cpu, uint32_t vaddr, uint32_t len, uint32_t *value);
bool rv_store_slow(rv_cpu *cpu, uint32_t vaddr, uint32_t len, uint32_t value);
/* Fetch translation: the TLB entry of vaddr's page, or NULL after taking the fetch fault. */
rv_tlb_entry *rv_translate_fetch(rv_cpu *cpu, uint32_t vaddr);
uint32_t rv_misaligned_cause(enum rv_access kind);
/* Physical accesses (no translation); false = bus error (no trap taken). */
bool rv_phys_read(rv_cpu *cpu, uint32_t paddr, uint32_t len, uint32_t *value, enum rv_access kind);
bool rv_phys_write(rv_cpu *cpu, uint32_t paddr, uint32_t len, uint32_t value);

/* csr.c */
/* Executes the CSR part of csrr*: returns false after raising illegal instruction. */
enum rv_csr_op { RV_CSR_WRITE, RV_CSR_SET, RV_CSR_CLEAR };
bool rv_csr_access(rv_cpu *cpu, const rv_insn *in, enum rv_csr_op op, uint32_t operand,
                   bool do_write, uint32_t *old_value);
bool rv_csr_read_raw(const rv_cpu *cpu, uint32_t csr, uint32_t *value);
bool rv_csr_write_raw(rv_cpu *cpu, uint32_t csr, uint32_t value);
void rv_csr_reset(rv_cpu *cpu);

/* trap.c */
void rv_raise(rv_cpu *cpu, uint32_t cause, uint32_t tval);
void rv_raise_illegal(rv_cpu *cpu, const rv_insn *in);
/* Takes the highest-priority enabled interrupt if any; true if one was taken. */
bool rv_check_interrupts(rv_cpu *cpu);
uint32_t rv_pending_interrupts(const rv_cpu *cpu); /* mip as software reads it */
void rv_do_mret(rv_cpu *cpu);
void rv_do_sret(rv_cpu *cpu);

/* Loaded values to register values (insn_cases.h). */
#define RV_AS_IS(v)  (v)
#define RV_SEXT8(v)  ((uint32_t)(int32_t)(int8_t)(uint8_t)(v))
#define RV_SEXT16(v) ((uint32_t)(int32_t)(int16_t)(uint16_t)(v))
#define RV_ZEXT8(v)  ((v)&0xffu)
#define RV_ZEXT16(v) ((v)&0xffffu)

/* Division as RV32M defines it for a zero divisor and the signed overflow. */
static inline uint32_t rv_div(uint32_t a, uint32_t b)
{
    if (b == 0)
        return 0xffffffffu;
    if (a == 0x80000000u && b == 0xffffffffu)
        return a;
    return (uint32_t)((int32_t)a / (int32_t)b);
}
static inline uint32_t rv_divu(uint32_t a, uint32_t b) { return b ? a / b : 0xffffffffu; }
static inline uint32_t rv_rem(uint32_t a, uint32_t b)
{
    if (b == 0)
        return a;
    if (a == 0x80000000u && b == 0xffffffffu)
        return 0;
    return (uint32_t)((int32_t)a % (int32_t)b);
}
static inline uint32_t rv_remu(uint32_t a, uint32_t b) { return b ? a % b : a; }

static inline void rv_invalidate_reservations(rv_cpu *cpu, uint32_t paddr, uint32_t len)
{
    if (cpu->res->valid_mask != 0)
        rv_reservations_invalidate(cpu->res, paddr, len);
}

#endif
