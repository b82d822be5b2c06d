/* The run loop of the block engines (rv_cpu_run with RV_ENGINE_BLOCK or RV_ENGINE_JIT).
 *
 * Before every block the dispatcher does what the interpreter does before an instruction: the
 * budget test and the interrupt check. Inside a block neither can change its answer: interrupt
 * inputs change only in host callbacks and enables only in CSR/system instructions, both of which
 * leave or end blocks. The budget is tested for the whole block at once against an upper bound of
 * its last instruction's start cycle; a block that might cross the budget runs only the
 * instructions that start before the limit. Blocks chain to their successors without coming back
 * here: in the same page directly, in another page through the fetch TLB.
 */
#include "block.h"
#include "jit.h"

/* Translate a block on this run by the block interpreter: cold code is not worth translating. */
#define JIT_HOT_RUNS 2

/* The block at pc in the current fetch page, built if needed. */
static rv_block *block_at(rv_cpu *cpu, uint32_t pc)
{
    rv_code_page *page = cpu->fetch_code;
    if (page->blocks) {
        rv_block *b = page->blocks[(pc & RV_PAGE_MASK) >> 1];
        if (b && b->vpc == pc)
            return b;
    }
    return rv_block_build(cpu, pc);
}

/* The block at pc in another page if the fetch TLB maps that page (a hit has no side effects, as
 * in the interpreter's fetch) and it was fetched from before; the page becomes the fetch page. */
static rv_block *block_via_tlb(rv_cpu *cpu, uint32_t pc)
{
    const rv_tlb_entry *e = &cpu->tlb[RV_ACCESS_FETCH][(pc >> RV_PAGE_SHIFT) % RV_TLB_SIZE];
    if (e->vpn != pc >> RV_PAGE_SHIFT || !e->code)
        return NULL;
    cpu->fetch_vpage = pc & ~RV_PAGE_MASK;
    cpu->fetch_code = e->code;
    cpu->fetch_dmi = e->dmi;
    cpu->fetch_ppage = e->ppn_base;
    return block_at(cpu, pc);
}

/* The block at cpu->pc, built if needed; NULL when the instruction there must be interpreted.
 * *entered: rv_fetch_page's answer when pc's page was entered (-1: a fetch trap, which the
 * interpreter would take here too; -2: a watched page), else 1. */
static rv_block *lookup(rv_cpu *cpu, int *entered)
{
    uint32_t pc = cpu->pc;
    *entered = 1;
    if ((pc & ~RV_PAGE_MASK) != cpu->fetch_vpage) {
        int cached = rv_fetch_page(cpu);
        if (cached <= 0) {
            *entered = cached;
            return NULL;
        }
    }
    return block_at(cpu, pc);
}

int rv_block_mem_slow(rv_cpu *cpu, const rv_block *b, unsigned i)
{
    const rv_binsn *in = &b->insn[i];
    rv_cpu_stats *s = &cpu->stats;
    /* the counters as the interpreter has them when this instruction makes its access */
    s->cycles += in->cycles;
    s->instret += i;
    s->loads += in->loads_before;
    s->stores += in->stores_before;
    s->muls += in->muls_before;
    s->divs += in->divs_before;
    uint32_t pc = b->vpc + in->offset;
    cpu->pc = pc;
    uint32_t *x = cpu->x;
    uint32_t addr = x[in->rs1] + (uint32_t)in->imm;
    unsigned op = in->op, rd = in->rd; /* b may be dropped by a callback: read it first */
    uint32_t next = pc + in->len;
    static const uint8_t size[] = {1, 2, 4, 1, 2, 1, 2, 4};
    uint32_t len = size[op - RV_OP_LB];
    if (op >= RV_OP_SB) {
        if (!rv_store_slow(cpu, addr, len, x[in->rs2]))
            return cpu->locked_up ? RV_BLOCK_LOCKUP : RV_BLOCK_LEFT;
        s->stores++;
    } else {
        uint32_t v = 0;
        if (!rv_load_slow(cpu, addr, len, &v))
            return cpu->locked_up ? RV_BLOCK_LOCKUP : RV_BLOCK_LEFT;
        switch (op) {
        case RV_OP_LB: v = (uint32_t)(int32_t)(int8_t)v; break;
        case RV_OP_LH: v = (uint32_t)(int32_t)(int16_t)v; break;
        case RV_OP_LBU: v &= 0xffu; break;
        case RV_OP_LHU: v &= 0xffffu; break;
        default: break;
        }
        x[rd] = v;
        s->loads++;
    }
    cpu->pc = next;
    s->instret++;
    return RV_BLOCK_LEFT;
}

/* Steps through b's instructions with the interpreter while the budget lasts, when entering its
 * page (a walk through the bus) changed the interrupt state: the first instruction follows the
 * dispatcher's interrupt check directly, the next one checks again, as in the interpreter. */
static int step_through(rv_cpu *cpu, const rv_block *b)
{
    int status = rv_exec_insn(cpu);
    for (unsigned i = 1; i < b->count && status == RV_STEP_CONTINUE; i++) {
        if (cpu->pc != b->vpc + b->insn[i].offset || cpu->stats.cycles >= cpu->run_limit)
            break;
        status = rv_step_insn(cpu);
    }
    return status;
}

/* Runs b and the blocks chained after it. Returns RV_STEP_CONTINUE or RV_RUN_LOCKUP. */
static int run_chain(rv_cpu *cpu, rv_block *b)
{
    for (;;) {
        int exit;
        if (b->code) {
            /* translated code chains on its own and returns on an exit it cannot follow */
            return rv_jit_run(cpu, b) == RV_BLOCK_LOCKUP ? (int)RV_RUN_LOCKUP : RV_STEP_CONTINUE;
        }
        if (cpu->blk.engine == RV_ENGINE_JIT && b->runs >= JIT_HOT_RUNS) {
            /* else b stays with the block interpreter: for good without a pool; while a full pool
             * waits to be emptied, after which what is still hot is translated afresh */
            if (rv_jit_translate(cpu, b))
                continue;
        }
        if (b->runs < 0xffffu)
            b->runs++;
        exit = rv_block_exec(cpu, b);
        if (exit >= RV_BLOCK_LEFT)
            return exit == RV_BLOCK_LOCKUP ? (int)RV_RUN_LOCKUP : RV_STEP_CONTINUE;
        rv_block *n = b->next[exit];
        if (!n) {
            /* only a successor in the same page is remembered: its translation is the one b runs
             * under; one in another page is looked up through the fetch TLB every time */
            uint32_t pc = cpu->pc;
            bool same_page = (pc & ~RV_PAGE_MASK) == (b->vpc & ~RV_PAGE_MASK);
            n = same_page ? block_at(cpu, pc) : block_via_tlb(cpu, pc);
            if (!n)
                return RV_STEP_CONTINUE;
            if (same_page)
                b->next[exit] = n;
        }
        if (cpu->stats.cycles + n->bound >= cpu->run_limit)
            return RV_STEP_CONTINUE;
        b = n;
    }
}

int rv_block_engine_run(rv_cpu *cpu)
{
    while (cpu->stats.cycles < cpu->run_limit) {
        if (cpu->blk.jit)
            rv_jit_sync(cpu);
        if (RV_UNLIKELY(cpu->blk.stale))
            rv_blocks_reset(cpu);
        cpu->blk.counters.dispatches++;
        uint32_t pending = (cpu->csr.mip | cpu->csr.seip_input) & cpu->csr.mie;
        if (RV_UNLIKELY(pending) && rv_check_interrupts(cpu))
            continue;
        int entered;
        rv_block *b = lookup(cpu, &entered);
        uint32_t patch = cpu->blk.jit_patch_slot;
        cpu->blk.jit_patch_slot = 0;
        int status;
        if (entered == -2) {
            status = RV_RUN_WATCH;
        } else if (entered < 0) {
            status = cpu->locked_up ? (int)RV_RUN_LOCKUP : RV_STEP_CONTINUE;
        } else if (!b) {
            status = rv_exec_insn(cpu);
        } else {
            /* translated code that left for this block asked to be chained to it */
            if (patch && b->code && b->vpc == cpu->blk.jit_patch_pc)
                rv_jit_chain(cpu, patch - 1, b);
            /* a page walk through the bus may have changed the interrupt inputs: then the
             * interpreter checks them again after the first instruction */
            bool same = ((cpu->csr.mip | cpu->csr.seip_input) & cpu->csr.mie) == pending;
            if (!same)
                status = step_through(cpu, b);
            else if (cpu->stats.cycles + b->bound < cpu->run_limit)
                status = run_chain(cpu, b);
            else
                status = rv_block_exec_partial(cpu, b) == RV_BLOCK_LOCKUP ? (int)RV_RUN_LOCKUP
                                                                          : RV_STEP_CONTINUE;
        }
        if (status != RV_STEP_CONTINUE)
            return status;
    }
    return RV_STEP_CONTINUE;
}
