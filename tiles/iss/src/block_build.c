/* Building a block from the decode cache (block.h): which instructions belong to a block, and the
 * per-block sums and per-instruction prefix sums that let the engines add statistics once per block
 * and still stop exactly at any instruction. */
#include "block.h"

static bool is_block_op(unsigned op)
{
    /* plain computation and memory access; everything that reads or changes CSRs, privilege or
     * translation, waits, traps unconditionally or touches reservations runs in the interpreter */
    return (op >= RV_OP_LUI && op <= RV_OP_REMU) || op == RV_OP_FENCE;
}

static bool ends_block(unsigned op) { return op >= RV_OP_JAL && op <= RV_OP_BGEU; }

static bool is_memory_op(unsigned op) { return op >= RV_OP_LB && op <= RV_OP_SW; }

rv_block *rv_block_build(rv_cpu *cpu, uint32_t pc)
{
    const rv_code_page *page = cpu->fetch_code;
    rv_binsn insn[RV_BLOCK_MAX_INSNS];
    unsigned n = 0, loads = 0, stores = 0, muls = 0, divs = 0;
    uint64_t cycles = 0, bound = 0;
    uint32_t off = pc & RV_PAGE_MASK;
    /* A 32-bit instruction straddling the page end is fetched uncached and never fills a slot, so
     * a block never crosses a page. */
    while (n < RV_BLOCK_MAX_INSNS && off < RV_PAGE_SIZE) {
        const rv_insn *s = &page->slot[off >> 1];
        if (!is_block_op(s->op))
            break;
        if (n > 0) /* the start cycle of instruction n, relative, at most */
            bound += insn[n - 1].cycles - (n > 1 ? insn[n - 2].cycles : 0) +
                     (is_memory_op(insn[n - 1].op) ? cpu->blk.max_latency : 0);
        rv_binsn *b = &insn[n];
        b->op = s->op;
        b->rd = s->rd;
        b->rs1 = s->rs1;
        b->rs2 = s->rs2;
        b->imm = s->imm;
        b->offset = (uint16_t)(off - (pc & RV_PAGE_MASK));
        b->len = s->len;
        b->loads_before = (uint8_t)loads;
        b->stores_before = (uint8_t)stores;
        b->muls_before = (uint8_t)muls;
        b->divs_before = (uint8_t)divs;
        b->pad[0] = 0;
        cycles += s->cost;
        b->cycles = (uint32_t)cycles;
        loads += s->op >= RV_OP_LB && s->op <= RV_OP_LHU;
        stores += s->op >= RV_OP_SB && s->op <= RV_OP_SW;
        muls += s->op >= RV_OP_MUL && s->op <= RV_OP_MULHU;
        divs += s->op >= RV_OP_DIV && s->op <= RV_OP_REMU;
        off += s->len;
        n++;
        if (ends_block(s->op))
            break;
    }
    /* 64 instructions of at most 0xffff class cycles fit in 32 bits; a bound too large for the
     * translated code's 32-bit immediate means enormous DMI latencies: run such code stepwise */
    if (n == 0 || bound > 0x7fffffffu)
        return NULL;
    rv_block **slot = rv_block_slot(cpu, pc);
    rv_block *blk = slot ? rv_blocks_alloc(cpu, sizeof *blk + n * sizeof blk->insn[0]) : NULL;
    if (!blk)
        return NULL;
    blk->vpc = pc;
    blk->end_pc = pc + (off - (pc & RV_PAGE_MASK));
    blk->cycles = (uint32_t)cycles;
    blk->bound = (uint32_t)bound;
    blk->count = (uint16_t)n;
    blk->loads = (uint16_t)loads;
    blk->stores = (uint16_t)stores;
    blk->muls = (uint16_t)muls;
    blk->divs = (uint16_t)divs;
    blk->runs = 0;
    blk->next[0] = blk->next[1] = NULL;
    blk->code = NULL;
    for (unsigned i = 0; i < n; i++)
        blk->insn[i] = insn[i];
    *slot = blk;
    cpu->blk.counters.blocks_built++;
    return blk;
}
