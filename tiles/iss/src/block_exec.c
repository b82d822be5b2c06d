/* The portable block engine: runs the instructions of one block with a switch per instruction but
 * without the interpreter's per-instruction fetch, interrupt check, budget check and counter
 * updates (block.h). The translated code of jit_translate.c does the same things in host code. */
#include "block.h"

#include <string.h>

/* Fast-path load or store through the TLB's host pointer, as the interpreter's LOAD/STORE; on a
 * miss the block is left through the interpreter's slow path. */
#define LOAD(len, convert)                                                                       \
    do {                                                                                         \
        uint32_t a_ = x[in->rs1] + (uint32_t)in->imm;                                            \
        const rv_tlb_entry *e_ = &cpu->tlb[RV_ACCESS_READ][(a_ >> RV_PAGE_SHIFT) % RV_TLB_SIZE]; \
        if (RV_UNLIKELY(e_->vpn != (a_ >> RV_PAGE_SHIFT) || !e_->host || (a_ & ((len)-1u))))     \
            return rv_block_mem_slow(cpu, b, (unsigned)(in - b->insn));                          \
        uint32_t v_ = 0;                                                                         \
        memcpy(&v_, e_->host + (a_ & RV_PAGE_MASK), (len));                                      \
        cpu->stats.cycles += e_->latency;                                                        \
        x[in->rd] = convert(v_);                                                                 \
    } while (0)

#define STORE(len)                                                                                \
    do {                                                                                          \
        uint32_t a_ = x[in->rs1] + (uint32_t)in->imm;                                             \
        const rv_tlb_entry *e_ = &cpu->tlb[RV_ACCESS_WRITE][(a_ >> RV_PAGE_SHIFT) % RV_TLB_SIZE]; \
        if (RV_UNLIKELY(e_->vpn != (a_ >> RV_PAGE_SHIFT) || !e_->host || (a_ & ((len)-1u))))      \
            return rv_block_mem_slow(cpu, b, (unsigned)(in - b->insn));                           \
        uint32_t v_ = x[in->rs2];                                                                 \
        memcpy(e_->host + (a_ & RV_PAGE_MASK), &v_, (len));                                       \
        cpu->stats.cycles += e_->latency;                                                         \
        rv_invalidate_reservations(cpu, e_->ppn_base | (a_ & RV_PAGE_MASK), (len));               \
    } while (0)

#define BRANCH(cond)                       \
    do {                                   \
        if (cond) {                        \
            next = pc + (uint32_t)in->imm; \
            exit = RV_BLOCK_NEXT1;         \
        }                                  \
        branch = true;                     \
    } while (0)

/* Counters and pc as the interpreter has them before instruction i (not the first; no branch yet). */
static int stop_before(rv_cpu *cpu, const rv_block *b, unsigned i)
{
    rv_cpu_stats *s = &cpu->stats;
    s->cycles += b->insn[i - 1].cycles;
    s->instret += i;
    s->loads += b->insn[i].loads_before;
    s->stores += b->insn[i].stores_before;
    s->muls += b->insn[i].muls_before;
    s->divs += b->insn[i].divs_before;
    cpu->pc = b->vpc + b->insn[i].offset;
    return RV_BLOCK_LEFT;
}

/* Runs b, or with `partial` only the instructions that start before the run's cycle limit (the
 * block does not fit the budget): the interpreter's stop, without its per-instruction fetch. */
static RV_ALWAYS_INLINE int exec(rv_cpu *cpu, const rv_block *b, bool partial)
{
    uint32_t *x = cpu->x;
    uint32_t next = b->end_pc;
    int exit = RV_BLOCK_NEXT0;
    bool branch = false;
    for (const rv_binsn *in = b->insn, *end = b->insn + b->count; in != end; in++) {
        uint32_t pc = b->vpc + in->offset;
        /* the start cycle of this instruction: class cycles of the ones before (latencies are in
         * stats.cycles already) */
        if (partial && in != b->insn && cpu->stats.cycles + in[-1].cycles >= cpu->run_limit)
            return stop_before(cpu, b, (unsigned)(in - b->insn));
        switch ((enum rv_op)in->op) {
        case RV_OP_LUI: x[in->rd] = (uint32_t)in->imm; break;
        case RV_OP_AUIPC: x[in->rd] = pc + (uint32_t)in->imm; break;
        case RV_OP_JAL:
            x[in->rd] = pc + in->len;
            next = pc + (uint32_t)in->imm;
            break;
        case RV_OP_JALR: {
            uint32_t target = (x[in->rs1] + (uint32_t)in->imm) & ~1u;
            x[in->rd] = pc + in->len;
            next = target;
            exit = RV_BLOCK_LEFT;
            break;
        }
#define COUNT_MUL (void)0 /* per block, below */
#define COUNT_DIV (void)0
#include "insn_cases.h"
#undef COUNT_MUL
#undef COUNT_DIV
        default: break; /* fence: ordering is trivial for one hart at a time */
        }
    }
    rv_cpu_stats *s = &cpu->stats;
    s->cycles += b->cycles;
    s->instret += b->count;
    s->loads += b->loads;
    s->stores += b->stores;
    s->muls += b->muls;
    s->divs += b->divs;
    if (exit == RV_BLOCK_NEXT1) {
        /* the interpreter's taken-branch correction: the block counted the not-taken cost */
        s->cycles += (uint64_t)cpu->cfg.timing.branch_taken - b->insn[b->count - 1].cycles +
                     (b->count > 1 ? b->insn[b->count - 2].cycles : 0);
        s->branches_taken++;
    } else if (branch) {
        s->branches_not_taken++;
    }
    cpu->pc = next;
    return exit;
}

int rv_block_exec(rv_cpu *cpu, const rv_block *b) { return exec(cpu, b, false); }

int rv_block_exec_partial(rv_cpu *cpu, const rv_block *b) { return exec(cpu, b, true); }
