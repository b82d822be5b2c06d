/* Guest registers in host registers for the length of one translated block (jit_translate.c).
 *
 * The most used guest registers of a block get a host register each: loaded from cpu->x at their
 * first use, written back at every exit of the block. Out-of-line code that leaves the block (a
 * memory slow path) writes back what was dirty at its instruction (a snapshot); code that calls C
 * and comes back saves and reloads the caller-saved ones. Everything else stays in cpu->x.
 */
#ifndef ISS_JIT_REGS_H
#define ISS_JIT_REGS_H

#include "block.h"
#include "jit_x86.h"

#define RV_JIT_HOST_REGS 7

typedef struct jit_regs {
    int8_t host[RV_REG_SINK + 1]; /* host register of a guest register, -1: none */
    uint64_t valid;               /* bit r: host[r] holds the value of x[r] */
    uint64_t dirty;               /* bit r: ... and cpu->x[r] is older */
} jit_regs;

/* Chooses the guest registers to keep in host registers for block b. */
void jit_regs_assign(jit_regs *g, const rv_block *b);

/* dst = x[r] */
void jit_get(x86_asm *a, jit_regs *g, x86_reg dst, unsigned r);
/* op dst, x[r] (dst is a scratch register) */
void jit_alu(x86_asm *a, jit_regs *g, x86_alu op, x86_reg dst, unsigned r);
/* imul dst, x[r] */
void jit_imul(x86_asm *a, jit_regs *g, x86_reg dst, unsigned r);
/* dst = sign-extended x[r] (64 bits) */
void jit_get_sext(x86_asm *a, jit_regs *g, x86_reg dst, unsigned r);
/* x[r] = src */
void jit_set(x86_asm *a, jit_regs *g, unsigned r, x86_reg src);
/* A register to compute x[rd] in, holding x[rs1]: rd's host register when it has one (and the
 * computation does not read x[rd] after this; the caller checks), else scratch with x[rs1]. Then
 * jit_commit(rd, that register). */
x86_reg jit_dest(x86_asm *a, jit_regs *g, unsigned rd, unsigned rs1, x86_reg scratch);
/* rd's host register, or scratch if it has none (for results computed from other sources). */
x86_reg jit_dest_reg(const jit_regs *g, unsigned rd, x86_reg scratch);
void jit_commit(x86_asm *a, jit_regs *g, unsigned rd, x86_reg r);
/* x[r] = imm */
void jit_set_imm(x86_asm *a, jit_regs *g, unsigned r, uint32_t imm);

/* Writes the guest registers of dirty (a mask) back to cpu->x. */
void jit_write_back(x86_asm *a, const jit_regs *g, uint64_t dirty);
/* Around a call to C: the caller-saved host registers of valid (a mask) to cpu->x before it
 * (reload false), and back after it (reload true). */
void jit_caller_saved(x86_asm *a, const jit_regs *g, uint64_t valid, bool reload);

#endif
