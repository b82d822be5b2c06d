/* What one instruction did, for the commit log (rv_cpu_commit_begin/end, iss/rv32_debug.h): the
 * register it wrote and the value, its memory access, the CSRs it wrote, in the terms of Spike's
 * --log-commits. Called around rv_cpu_step in rv_cpu_run_debug (the instruction log's loop): the
 * instruction is decoded from memory before the step, its results read after it. */
#include "cpu_internal.h"
#include "iss/rv32_debug.h"

#include <string.h>

/* Whether op writes its rd (x0 aside, which commits nothing). */
static bool writes_rd(unsigned op)
{
    switch ((enum rv_op)op) {
    case RV_OP_BEQ:
    case RV_OP_BNE:
    case RV_OP_BLT:
    case RV_OP_BGE:
    case RV_OP_BLTU:
    case RV_OP_BGEU:
    case RV_OP_SB:
    case RV_OP_SH:
    case RV_OP_SW:
    case RV_OP_FENCE:
    case RV_OP_FENCE_I:
    case RV_OP_ECALL:
    case RV_OP_EBREAK:
    case RV_OP_MRET:
    case RV_OP_SRET:
    case RV_OP_WFI:
    case RV_OP_SFENCE_VMA:
    case RV_OP_ILLEGAL:
    case RV_OP_UNDECODED: return false;
    default: return op < RV_OP_COUNT;
    }
}

static unsigned load_size(unsigned op)
{
    switch ((enum rv_op)op) {
    case RV_OP_LB:
    case RV_OP_LBU: return 1;
    case RV_OP_LH:
    case RV_OP_LHU: return 2;
    case RV_OP_LW: return 4;
    default: return 0;
    }
}

static unsigned store_size(unsigned op)
{
    switch ((enum rv_op)op) {
    case RV_OP_SB: return 1;
    case RV_OP_SH: return 2;
    case RV_OP_SW: return 4;
    default: return 0;
    }
}

void rv_cpu_commit_begin(const rv_cpu *cpu, rv_commit *c)
{
    memset(c, 0, sizeof *c);
    c->pc = cpu->pc;
    c->priv = cpu->priv;
    c->steps_before = rv_cpu_steps(cpu);
    c->instret_before = cpu->stats.instret;
    c->op = RV_OP_UNDECODED;
    rv_insn in;
    if (!rv_peek_insn(cpu, &in))
        return;
    c->bits = in.raw;
    c->len = in.len;
    c->op = in.op;
    c->rd = writes_rd(in.op) && in.rd != RV_REG_SINK ? in.rd : 0;
    c->rs2 = in.rs2;
    c->src = cpu->x[in.rs2];
    c->csr_number = (uint32_t)in.imm & 0xfffu;
    uint32_t base = cpu->x[in.rs1];
    if (load_size(in.op)) {
        c->load = true;
        c->addr = base + (uint32_t)in.imm;
        c->size = load_size(in.op);
    } else if (store_size(in.op)) {
        c->store = true;
        c->addr = base + (uint32_t)in.imm;
        c->size = store_size(in.op);
        c->store_value = c->size == 4 ? c->src : c->src & ((1u << (8 * c->size)) - 1u);
    } else if (in.op >= RV_OP_LR && in.op <= RV_OP_AMOMAXU) {
        c->addr = base;
        c->size = 4;
        c->load = in.op != RV_OP_SC;
        c->store = in.op != RV_OP_LR;
    }
    /* csrrs/csrrc (and their immediates) with rs1/uimm = 0 only read */
    bool csr_op = in.op >= RV_OP_CSRRW && in.op <= RV_OP_CSRRCI;
    c->reserved = csr_op && (in.op == RV_OP_CSRRW || in.op == RV_OP_CSRRWI || in.rs1 != 0);
}

static uint32_t amo_result(unsigned op, uint32_t old, uint32_t src)
{
    switch ((enum rv_op)op) {
    case RV_OP_AMOSWAP: return src;
    case RV_OP_AMOADD: return old + src;
    case RV_OP_AMOXOR: return old ^ src;
    case RV_OP_AMOAND: return old & src;
    case RV_OP_AMOOR: return old | src;
    case RV_OP_AMOMIN: return (int32_t)old < (int32_t)src ? old : src;
    case RV_OP_AMOMAX: return (int32_t)old > (int32_t)src ? old : src;
    case RV_OP_AMOMINU: return old < src ? old : src;
    default: return old > src ? old : src;
    }
}

static void add_csr(const rv_cpu *cpu, rv_commit *c, uint32_t number)
{
    uint32_t v;
    if (c->csr_count < 2 && rv_csr_read_raw(cpu, number, &v)) {
        c->csr[c->csr_count] = number;
        c->csr_value[c->csr_count++] = v;
    }
}

void rv_cpu_commit_end(const rv_cpu *cpu, rv_commit *c)
{
    /* One step that retired this instruction: not a trap, not an interrupt taken instead. */
    c->retired = cpu->stats.instret == c->instret_before + 1u &&
                 rv_cpu_steps(cpu) == c->steps_before + 1u && c->op != RV_OP_UNDECODED;
    if (!c->retired)
        return;
    bool csr_write = c->reserved != 0;
    c->reserved = 0;
    if (c->rd)
        c->rd_value = cpu->x[c->rd];
    if (c->op == RV_OP_SC) {
        /* rd 0: the store happened */
        c->store = cpu->x[c->rd] == 0;
        c->store_value = c->src;
    } else if (c->op >= RV_OP_AMOSWAP && c->op <= RV_OP_AMOMAXU) {
        uint32_t old = c->rd ? cpu->x[c->rd] : 0;
        if (c->rd == 0) { /* the old value went to x0: read the result back from memory */
            uint32_t pa, now = 0;
            if (rv_cpu_debug_translate(cpu, c->addr, &pa)) {
                for (unsigned i = 0; i < cpu->dmi_count; i++) {
                    const rv_dmi *d = &cpu->dmi[i];
                    if (pa - d->base < d->size && d->size - (pa - d->base) >= 4)
                        memcpy(&now, d->host + (pa - d->base), 4);
                }
            }
            c->store_value = now;
        } else {
            c->store_value = amo_result(c->op, old, c->src);
        }
    }
    if (csr_write)
        add_csr(cpu, c, c->csr_number);
    else if (c->op == RV_OP_MRET)
        add_csr(cpu, c, 0x300u);
    else if (c->op == RV_OP_SRET)
        add_csr(cpu, c, 0x100u);
}
