/* Guest registers in host registers within a translated block (jit_regs.h). */
#include "jit_regs.h"

#include <stddef.h>

#define XREG(r) x86_at(X86_RBX, (int32_t)(offsetof(rv_cpu, x) + 4u * (r)))

/* Callee-saved first: they survive calls to C without saving (r14 and r15 hold counters). */
static const x86_reg pool[RV_JIT_HOST_REGS] = {
    X86_RBP, X86_R12, X86_R13, X86_R8, X86_R9, X86_R10, X86_R11,
};

static bool caller_saved(x86_reg r) { return r >= X86_R8 && r <= X86_R11; }

static void count(unsigned uses[], unsigned r)
{
    if (r != 0 && r != RV_REG_SINK)
        uses[r]++;
}

void jit_regs_assign(jit_regs *g, const rv_block *b)
{
    unsigned uses[RV_REG_SINK + 1] = {0};
    for (unsigned i = 0; i < b->count; i++) {
        const rv_binsn *in = &b->insn[i];
        count(uses, in->rd);
        count(uses, in->rs1);
        count(uses, in->rs2);
    }
    for (unsigned r = 0; r <= RV_REG_SINK; r++)
        g->host[r] = -1;
    g->valid = g->dirty = 0;
    /* a register used once costs the same in memory; the most used get host registers first */
    for (unsigned n = 0; n < RV_JIT_HOST_REGS; n++) {
        unsigned best = 0;
        for (unsigned r = 1; r < RV_REG_SINK; r++)
            if (g->host[r] < 0 && uses[r] > uses[best])
                best = r;
        if (uses[best] < 2)
            break;
        g->host[best] = (int8_t)pool[n];
        uses[best] = 0;
    }
}

/* The host register of x[r], loaded if it does not hold the value yet; -1 if r has none. */
static int cached(x86_asm *a, jit_regs *g, unsigned r)
{
    int h = g->host[r];
    if (h < 0)
        return -1;
    if (!(g->valid & (1ull << r))) {
        x86_mov32_load(a, (x86_reg)h, XREG(r));
        g->valid |= 1ull << r;
    }
    return h;
}

void jit_get(x86_asm *a, jit_regs *g, x86_reg dst, unsigned r)
{
    int h = cached(a, g, r);
    if (h < 0)
        x86_mov32_load(a, dst, XREG(r));
    else
        x86_mov32(a, dst, (x86_reg)h);
}

void jit_alu(x86_asm *a, jit_regs *g, x86_alu op, x86_reg dst, unsigned r)
{
    int h = cached(a, g, r);
    if (h < 0)
        x86_alu32_load(a, op, dst, XREG(r));
    else
        x86_alu32(a, op, dst, (x86_reg)h);
}

void jit_imul(x86_asm *a, jit_regs *g, x86_reg dst, unsigned r)
{
    int h = cached(a, g, r);
    if (h < 0)
        x86_imul32_load(a, dst, XREG(r));
    else
        x86_imul32(a, dst, (x86_reg)h);
}

void jit_get_sext(x86_asm *a, jit_regs *g, x86_reg dst, unsigned r)
{
    int h = cached(a, g, r);
    if (h < 0)
        x86_movsxd_load(a, dst, XREG(r));
    else
        x86_movsxd(a, dst, (x86_reg)h);
}

void jit_set(x86_asm *a, jit_regs *g, unsigned r, x86_reg src)
{
    int h = g->host[r];
    if (h < 0) {
        x86_mov32_store(a, XREG(r), src);
        return;
    }
    x86_mov32(a, (x86_reg)h, src);
    g->valid |= 1ull << r;
    g->dirty |= 1ull << r;
}

x86_reg jit_dest(x86_asm *a, jit_regs *g, unsigned rd, unsigned rs1, x86_reg scratch)
{
    int h = g->host[rd];
    if (h < 0) {
        jit_get(a, g, scratch, rs1);
        return scratch;
    }
    if (rd == rs1)
        cached(a, g, rd);
    else
        jit_get(a, g, (x86_reg)h, rs1);
    return (x86_reg)h;
}

x86_reg jit_dest_reg(const jit_regs *g, unsigned rd, x86_reg scratch)
{
    return g->host[rd] < 0 ? scratch : (x86_reg)g->host[rd];
}

void jit_commit(x86_asm *a, jit_regs *g, unsigned rd, x86_reg r)
{
    if (g->host[rd] == (int8_t)r) {
        g->valid |= 1ull << rd;
        g->dirty |= 1ull << rd;
    } else {
        jit_set(a, g, rd, r);
    }
}

void jit_set_imm(x86_asm *a, jit_regs *g, unsigned r, uint32_t imm)
{
    int h = g->host[r];
    if (h < 0) {
        x86_mov32_store_imm(a, XREG(r), imm);
        return;
    }
    x86_mov32_imm(a, (x86_reg)h, imm);
    g->valid |= 1ull << r;
    g->dirty |= 1ull << r;
}

void jit_write_back(x86_asm *a, const jit_regs *g, uint64_t dirty)
{
    for (unsigned r = 1; r < RV_REG_SINK; r++)
        if (dirty & (1ull << r))
            x86_mov32_store(a, XREG(r), (x86_reg)g->host[r]);
}

void jit_caller_saved(x86_asm *a, const jit_regs *g, uint64_t valid, bool reload)
{
    for (unsigned r = 1; r < RV_REG_SINK; r++) {
        if (!(valid & (1ull << r)) || !caller_saved((x86_reg)g->host[r]))
            continue;
        if (reload)
            x86_mov32_load(a, (x86_reg)g->host[r], XREG(r));
        else
            x86_mov32_store(a, XREG(r), (x86_reg)g->host[r]);
    }
}
