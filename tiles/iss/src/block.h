/* Blocks: straight-line runs of decoded instructions that the block engines execute as a unit
 * (docs/iss-engine.md).
 *
 * A block starts at a pc and holds the instructions that follow it in the same 4 KiB page, up to
 * and including the first control transfer (branch, jal, jalr), or up to the first instruction
 * that is not a plain computation or load/store (CSR, system, atomic, illegal), not decoded yet,
 * or straddling the page end. Blocks are built only from decode-cache slots that the interpreter
 * already filled, so a block runs exactly the instructions the interpreter would run from the
 * cache, and decode_cache_misses count the same.
 *
 * What is static is summed once per block: class cycles, instructions retired, loads, stores,
 * multiplications and divisions.
 * Memory latencies are added as accesses happen. A load or store that misses the fast path leaves
 * the block: the counters are set to their values before that instruction (prefix sums kept per
 * instruction), the interpreter's slow path does the access, and control returns to the
 * dispatcher, which checks interrupts and the budget before the next instruction as the
 * interpreter does.
 */
#ifndef ISS_BLOCK_H
#define ISS_BLOCK_H

#include "cpu_internal.h"

/* Instructions per block at most (bounds build time and the per-instruction prefix fields). */
#define RV_BLOCK_MAX_INSNS 64

/* Return values of running a block (rv_block_exec, rv_jit_run's blocks) besides RV_STEP_CONTINUE. */
enum rv_block_exit {
    RV_BLOCK_NEXT0 = 0, /* finished; the successor is chain slot 0 (fall-through or jump target) */
    RV_BLOCK_NEXT1 = 1, /* finished with a taken branch; the successor is chain slot 1 */
    RV_BLOCK_LEFT = 2,  /* finished with a computed target, or left early: back to the dispatcher */
    RV_BLOCK_LOCKUP = 3, /* a trap in the block locked the hart up */
};

typedef struct rv_binsn {
    uint8_t op, rd, rs1, rs2;
    int32_t imm;
    uint16_t offset; /* bytes from the block's first instruction */
    uint8_t len;
    uint8_t loads_before; /* loads, stores, muls and divs of the block before this instruction */
    uint8_t stores_before;
    uint8_t muls_before;
    uint8_t divs_before;
    uint8_t pad[1];
    uint32_t cycles; /* class cycles of the instructions up to and including this one */
} rv_binsn;

typedef struct rv_block {
    uint32_t vpc;    /* virtual pc of the first instruction: the lookup key */
    uint32_t end_pc; /* pc after the last instruction (fall-through) */
    uint32_t cycles; /* class cycles of all instructions, a final branch counted not taken */
    uint32_t bound;  /* the last instruction starts at most this many cycles after entry */
    uint16_t count, loads, stores, muls, divs;
    uint16_t runs;            /* executions by the block interpreter, for the JIT's hotness test */
    struct rv_block *next[2]; /* chained successors in the same page (RV_BLOCK_NEXT0/1) */
    void *code;               /* translated host code, or NULL */
    rv_binsn insn[];
} rv_block;

/* A chunk of an arena: memory freed all at once (a hart's blocks, a JIT pool's block copies). */
typedef struct rv_arena_chunk {
    struct rv_arena_chunk *next;
    size_t size, used;
    _Alignas(16) unsigned char data[];
} rv_arena_chunk;

/* block_cache.c: size bytes, 16-byte aligned, from the arena at *head (the newest chunk first);
 * NULL if out of memory. */
void *rv_arena_alloc(rv_arena_chunk **head, size_t size);
/* Frees c and every chunk after it. */
void rv_arena_free(rv_arena_chunk *c);

/* block_cache.c */
void rv_blocks_init(rv_cpu *cpu, rv_engine engine);
void rv_blocks_free(rv_cpu *cpu);
/* Drops every block (decode-cache flush, DMI change). Safe inside a bus callback: memory is reused
 * only at the next dispatch, after the running block has left. */
void rv_blocks_drop(rv_cpu *cpu);
/* Frees blocks and translated code for reuse; only between blocks (the dispatcher). */
void rv_blocks_reset(rv_cpu *cpu);
void *rv_blocks_alloc(rv_cpu *cpu, size_t size);
/* The block table entry of pc in the current fetch page, creating the table; NULL if out of memory. */
rv_block **rv_block_slot(rv_cpu *cpu, uint32_t pc);

/* block_build.c: the block starting at pc in the current fetch page, or NULL when the instruction
 * at pc cannot start one (not decoded yet, not a block instruction, out of memory). */
rv_block *rv_block_build(rv_cpu *cpu, uint32_t pc);

/* block_run.c */
int rv_block_engine_run(
    rv_cpu *cpu); /* the run loop of the block engines: RV_STEP_CONTINUE or a status */
/* The memory access of instruction i of b when it misses the fast path: counters to their values
 * at that instruction, the interpreter's slow path, then pc past it. RV_BLOCK_LEFT or RV_BLOCK_LOCKUP. */
int rv_block_mem_slow(rv_cpu *cpu, const rv_block *b, unsigned i);

/* block_exec.c: runs b once (portable path). Returns an rv_block_exit. */
int rv_block_exec(rv_cpu *cpu, const rv_block *b);
/* Runs the instructions of b that start before cpu->run_limit (the first always): a block that
 * might cross the budget stops where the interpreter would. */
int rv_block_exec_partial(rv_cpu *cpu, const rv_block *b);

#endif
