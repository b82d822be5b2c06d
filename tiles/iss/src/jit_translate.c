/* Translation of one block to x86-64 code (jit.h): the same work as rv_block_exec, instruction by
 * instruction.
 *
 * Host registers: rbx holds cpu; r15 and r14 hold cpu->stats.cycles and .instret while translated
 * code runs (jit_buffer.c loads them on entry and stores them on exit, so chains of blocks update
 * no counter in memory); the block's most used guest registers live in host registers
 * (jit_regs.h), the others in cpu->x; rax, rcx, rdx, rsi, rdi are scratch.
 * Code layout: the budget test, the instructions, the counter updates and the exits; then, out of
 * line, the stubs of unchained exits and of memory accesses that miss the fast path.
 */
#include "jit.h"
#include "jit_regs.h"
#include "jit_x86.h"

#include <stddef.h>

#define CPU(field) x86_at(X86_RBX, (int32_t)offsetof(rv_cpu, field))
#define CYCLES     X86_R15
#define INSTRET    X86_R14

/* A jump to patch once the out-of-line code it goes to is placed. */
typedef struct pending {
    uint8_t *rel;          /* the jump's displacement */
    unsigned kind;         /* what the stub does */
    unsigned index;        /* slow path: the memory instruction */
    uint8_t *resume;       /* reservation stub: where to continue */
    unsigned len;          /* reservation stub: store size */
    uint32_t target;       /* chain stub: target pc */
    uint32_t slot;         /* chain stub: the hart's chain entry */
    uint64_t dirty, valid; /* guest registers in host registers at the jump */
} pending;

enum { STUB_SLOW, STUB_RESERVATIONS, STUB_CHAIN };

typedef struct translator {
    x86_asm a;
    rv_cpu *cpu;
    const rv_block *b; /* the pool's copy: slow paths reference it */
    uint32_t id;       /* the translation's id: its chain entries are 2 * id and 2 * id + 1 */
    const rv_jit_code *code;
    jit_regs regs;
    pending stubs[4 * RV_BLOCK_MAX_INSNS + 2];
    unsigned nstubs;
} translator;

static pending *add_stub(translator *t, uint8_t *rel, unsigned kind, unsigned index)
{
    pending *p = &t->stubs[t->nstubs++];
    p->rel = rel;
    p->kind = kind;
    p->index = index;
    p->resume = NULL;
    p->len = 0;
    p->target = 0;
    p->slot = 0;
    p->dirty = t->regs.dirty;
    p->valid = t->regs.valid;
    return p;
}

/* out-of-line for calls from translated code */
static uint32_t jit_div(uint32_t a, uint32_t b) { return rv_div(a, b); }
static uint32_t jit_divu(uint32_t a, uint32_t b) { return rv_divu(a, b); }
static uint32_t jit_rem(uint32_t a, uint32_t b) { return rv_rem(a, b); }
static uint32_t jit_remu(uint32_t a, uint32_t b) { return rv_remu(a, b); }

static void call(x86_asm *a, const void *fn)
{
    x86_mov64_imm(a, X86_RAX, (uint64_t)(uintptr_t)fn);
    x86_call_reg(a, X86_RAX);
}

/* x[rd] = x[rs1] op x[rs2], in rd's host register when that does not clobber x[rs2] first */
static void alu_rr(translator *t, const rv_binsn *in, x86_alu op)
{
    x86_asm *a = &t->a;
    if (in->rd == in->rs2 && in->rs1 != in->rs2) {
        jit_get(a, &t->regs, X86_RAX, in->rs1);
        jit_alu(a, &t->regs, op, X86_RAX, in->rs2);
        jit_set(a, &t->regs, in->rd, X86_RAX);
        return;
    }
    x86_reg d = jit_dest(a, &t->regs, in->rd, in->rs1, X86_RAX);
    jit_alu(a, &t->regs, op, d, in->rs2);
    jit_commit(a, &t->regs, in->rd, d);
}

static void alu_ri(translator *t, const rv_binsn *in, x86_alu op)
{
    x86_asm *a = &t->a;
    x86_reg d = jit_dest(a, &t->regs, in->rd, in->rs1, X86_RAX);
    if (in->imm != 0 || op == X86_AND)
        x86_alu32_imm(a, op, d, in->imm);
    jit_commit(a, &t->regs, in->rd, d);
}

static void mul(translator *t, const rv_binsn *in)
{
    x86_asm *a = &t->a;
    if (in->rd == in->rs2 && in->rs1 != in->rs2) {
        jit_get(a, &t->regs, X86_RAX, in->rs1);
        jit_imul(a, &t->regs, X86_RAX, in->rs2);
        jit_set(a, &t->regs, in->rd, X86_RAX);
        return;
    }
    x86_reg d = jit_dest(a, &t->regs, in->rd, in->rs1, X86_RAX);
    jit_imul(a, &t->regs, d, in->rs2);
    jit_commit(a, &t->regs, in->rd, d);
}

/* x[rd] = (x[rs1] cmp operand) ? 1 : 0 */
static void set_less(translator *t, const rv_binsn *in, bool imm, x86_cc cc)
{
    x86_asm *a = &t->a;
    jit_get(a, &t->regs, X86_RAX, in->rs1);
    if (!imm)
        jit_get(a, &t->regs, X86_RDX, in->rs2);
    x86_alu32(a, X86_XOR, X86_RCX, X86_RCX); /* before the compare: xor changes the flags */
    if (imm)
        x86_alu32_imm(a, X86_CMP, X86_RAX, in->imm);
    else
        x86_alu32(a, X86_CMP, X86_RAX, X86_RDX);
    x86_setcc(a, cc, X86_RCX);
    jit_set(a, &t->regs, in->rd, X86_RCX);
}

static void shift_ri(translator *t, const rv_binsn *in, x86_shift op)
{
    x86_reg d = jit_dest(&t->a, &t->regs, in->rd, in->rs1, X86_RAX);
    x86_shift32_imm(&t->a, op, d, (uint8_t)in->imm);
    jit_commit(&t->a, &t->regs, in->rd, d);
}

static void shift_rr(translator *t, const rv_binsn *in, x86_shift op)
{
    jit_get(&t->a, &t->regs, X86_RCX,
            in->rs2); /* the count in cl; x86 masks it to 5 bits as RV32 */
    x86_reg d = jit_dest(&t->a, &t->regs, in->rd, in->rs1, X86_RAX);
    x86_shift32_cl(&t->a, op, d);
    jit_commit(&t->a, &t->regs, in->rd, d);
}

/* High half of the 64-bit product, operands sign- or zero-extended. */
static void mul_high(translator *t, const rv_binsn *in, bool sign1, bool sign2)
{
    x86_asm *a = &t->a;
    if (sign1)
        jit_get_sext(a, &t->regs, X86_RAX, in->rs1);
    else
        jit_get(a, &t->regs, X86_RAX, in->rs1);
    if (sign2)
        jit_get_sext(a, &t->regs, X86_RCX, in->rs2);
    else
        jit_get(a, &t->regs, X86_RCX, in->rs2);
    x86_imul64(a, X86_RAX, X86_RCX); /* the low 64 bits are the exact product in every case */
    x86_shift64_imm(a, X86_SHR, X86_RAX, 32);
    jit_set(a, &t->regs, in->rd, X86_RAX);
}

static void divide(translator *t, const rv_binsn *in, uint32_t (*fn)(uint32_t, uint32_t))
{
    x86_asm *a = &t->a;
    jit_get(a, &t->regs, X86_RDI, in->rs1);
    jit_get(a, &t->regs, X86_RSI, in->rs2);
    uint64_t valid = t->regs.valid;
    jit_caller_saved(a, &t->regs, valid, false);
    call(a, (const void *)fn);
    jit_caller_saved(a, &t->regs, valid, true);
    jit_set(a, &t->regs, in->rd, X86_RAX);
}

/* eax = the address's page offset, rsi = the host page, rdx = the TLB index times 5 (entries are
 * 40 bytes: [rbx + rdx*8 + ...]); jumps to the slow-path stub of instruction i on a TLB miss, a
 * page that is not DMI or a misaligned address. Adds the DMI latency. */
static void tlb_fast_path(translator *t, const rv_binsn *in, unsigned i, enum rv_access kind,
                          unsigned len)
{
    x86_asm *a = &t->a;
    int32_t tlb = (int32_t)(offsetof(rv_cpu, tlb) + kind * sizeof(rv_tlb_entry[RV_TLB_SIZE]));
#define ENTRY(field) x86_at_index(X86_RBX, X86_RDX, 8, tlb + (int32_t)offsetof(rv_tlb_entry, field))
    _Static_assert(sizeof(rv_tlb_entry) == 40, "TLB entries are indexed as 5 * 8 bytes");
    jit_get(a, &t->regs, X86_RAX, in->rs1);
    if (in->imm)
        x86_alu32_imm(a, X86_ADD, X86_RAX, in->imm);
    x86_mov32(a, X86_RCX, X86_RAX);
    x86_shift32_imm(a, X86_SHR, X86_RCX, RV_PAGE_SHIFT);
    x86_mov32(a, X86_RDX, X86_RCX);
    x86_alu32_imm(a, X86_AND, X86_RDX, RV_TLB_SIZE - 1);
    x86_lea64(a, X86_RDX, x86_at_index(X86_RDX, X86_RDX, 4, 0));
    x86_alu32_load(a, X86_CMP, X86_RCX, ENTRY(vpn));
    add_stub(t, x86_jcc(a, X86_CC_NE), STUB_SLOW, i);
    x86_mov64_load(a, X86_RSI, ENTRY(host));
    x86_test64(a, X86_RSI, X86_RSI);
    add_stub(t, x86_jcc(a, X86_CC_E), STUB_SLOW, i);
    if (len > 1) {
        x86_test32_imm(a, X86_RAX, len - 1);
        add_stub(t, x86_jcc(a, X86_CC_NE), STUB_SLOW, i);
    }
    x86_mov32_load(a, X86_RCX, ENTRY(latency));
    x86_alu64(a, X86_ADD, CYCLES, X86_RCX);
    x86_alu32_imm(a, X86_AND, X86_RAX, RV_PAGE_MASK);
}

static void load(translator *t, const rv_binsn *in, unsigned i, unsigned len, bool sign)
{
    x86_asm *a = &t->a;
    tlb_fast_path(t, in, i, RV_ACCESS_READ, len);
    x86_mem m = x86_at_index(X86_RSI, X86_RAX, 1, 0);
    x86_reg d = jit_dest_reg(&t->regs, in->rd, X86_RCX);
    if (len == 4)
        x86_mov32_load(a, d, m);
    else
        x86_load_ext(a, d, m, len, sign);
    jit_commit(a, &t->regs, in->rd, d);
}

static void store(translator *t, const rv_binsn *in, unsigned i, unsigned len)
{
    x86_asm *a = &t->a;
    tlb_fast_path(t, in, i, RV_ACCESS_WRITE, len);
    jit_get(a, &t->regs, X86_RCX, in->rs2);
    x86_mem m = x86_at_index(X86_RSI, X86_RAX, 1, 0);
    if (len == 4)
        x86_mov32_store(a, m, X86_RCX);
    else if (len == 2)
        x86_mov16_store(a, m, X86_RCX);
    else
        x86_mov8_store(a, m, X86_RCX);
    /* a store breaks the LR/SC reservations it overlaps; usually there are none */
    x86_mov64_load(a, X86_RCX, CPU(res));
    x86_alu32_mem_imm(a, X86_CMP,
                      x86_at(X86_RCX, (int32_t)offsetof(rv_reservation_set, valid_mask)), 0);
    pending *p = add_stub(t, x86_jcc(a, X86_CC_NE), STUB_RESERVATIONS, i);
    p->resume = x86_here(a);
    p->len = len;
}

static void add_counter(x86_asm *a, x86_mem m, uint64_t n)
{
    if (n == 0)
        return;
    if (n <= 0x7fffffffu) {
        x86_alu64_mem_imm(a, X86_ADD, m, (int32_t)n);
    } else {
        x86_mov64_imm(a, X86_RCX, n);
        x86_alu64_mem_reg(a, X86_ADD, m, X86_RCX);
    }
}

/* reg += n, for the counters kept in registers */
static void add_reg(x86_asm *a, x86_reg r, uint64_t n)
{
    if (n == 0)
        return;
    if ((int64_t)n >= INT32_MIN && (int64_t)n <= INT32_MAX) {
        x86_alu64_imm(a, X86_ADD, r, (int32_t)(int64_t)n);
    } else {
        x86_mov64_imm(a, X86_RCX, n);
        x86_alu64(a, X86_ADD, r, X86_RCX);
    }
}

/* Leaves for the block at target: inside the page, where the translation is the one this block
 * runs under, through the hart's chain entry `which` (RV_BLOCK_NEXT0/1) of this translation, and
 * while that is empty through a stub that asks the dispatcher to fill it; into another page
 * through the TLB lookup. */
static void exit_to(translator *t, uint32_t target, unsigned which)
{
    x86_asm *a = &t->a;
    if ((target & ~RV_PAGE_MASK) == (t->b->vpc & ~RV_PAGE_MASK)) {
        uint32_t slot = 2 * t->id + which;
        x86_mov64_load(a, X86_RAX, CPU(blk.chain));
        x86_mov64_load(a, X86_RAX, x86_at(X86_RAX, (int32_t)(slot * sizeof(void *))));
        x86_test64(a, X86_RAX, X86_RAX);
        pending *p = add_stub(t, x86_jcc(a, X86_CC_E), STUB_CHAIN, 0);
        p->target = target;
        p->slot = slot;
        x86_jmp_reg(a, X86_RAX);
        return;
    }
    x86_mov32_store_imm(a, CPU(pc), target);
    x86_mov32_imm(a, X86_RAX, target);
    x86_jmp_to(a, t->code->lookup);
}

static void emit_insn(translator *t, const rv_binsn *in, unsigned i)
{
    x86_asm *a = &t->a;
    jit_regs *g = &t->regs;
    uint32_t pc = t->b->vpc + in->offset;
    /* results into the x0 sink need no code, except where the access itself matters */
    bool sink = in->rd == RV_REG_SINK;
    switch ((enum rv_op)in->op) {
    case RV_OP_LUI:
        if (!sink)
            jit_set_imm(a, g, in->rd, (uint32_t)in->imm);
        break;
    case RV_OP_AUIPC:
        if (!sink)
            jit_set_imm(a, g, in->rd, pc + (uint32_t)in->imm);
        break;
    case RV_OP_LB: load(t, in, i, 1, true); break;
    case RV_OP_LH: load(t, in, i, 2, true); break;
    case RV_OP_LW: load(t, in, i, 4, false); break;
    case RV_OP_LBU: load(t, in, i, 1, false); break;
    case RV_OP_LHU: load(t, in, i, 2, false); break;
    case RV_OP_SB: store(t, in, i, 1); break;
    case RV_OP_SH: store(t, in, i, 2); break;
    case RV_OP_SW: store(t, in, i, 4); break;
    case RV_OP_ADDI:
        if (sink)
            break;
        if (in->rs1 == 0)
            jit_set_imm(a, g, in->rd, (uint32_t)in->imm);
        else
            alu_ri(t, in, X86_ADD);
        break;
    case RV_OP_SLTI:
        if (!sink)
            set_less(t, in, true, X86_CC_L);
        break;
    case RV_OP_SLTIU:
        if (!sink)
            set_less(t, in, true, X86_CC_B);
        break;
    case RV_OP_XORI:
        if (!sink)
            alu_ri(t, in, X86_XOR);
        break;
    case RV_OP_ORI:
        if (!sink)
            alu_ri(t, in, X86_OR);
        break;
    case RV_OP_ANDI:
        if (!sink)
            alu_ri(t, in, X86_AND);
        break;
    case RV_OP_SLLI:
        if (!sink)
            shift_ri(t, in, X86_SHL);
        break;
    case RV_OP_SRLI:
        if (!sink)
            shift_ri(t, in, X86_SHR);
        break;
    case RV_OP_SRAI:
        if (!sink)
            shift_ri(t, in, X86_SAR);
        break;
    case RV_OP_ADD:
        if (!sink)
            alu_rr(t, in, X86_ADD);
        break;
    case RV_OP_SUB:
        if (!sink)
            alu_rr(t, in, X86_SUB);
        break;
    case RV_OP_SLL:
        if (!sink)
            shift_rr(t, in, X86_SHL);
        break;
    case RV_OP_SLT:
        if (!sink)
            set_less(t, in, false, X86_CC_L);
        break;
    case RV_OP_SLTU:
        if (!sink)
            set_less(t, in, false, X86_CC_B);
        break;
    case RV_OP_XOR:
        if (!sink)
            alu_rr(t, in, X86_XOR);
        break;
    case RV_OP_SRL:
        if (!sink)
            shift_rr(t, in, X86_SHR);
        break;
    case RV_OP_SRA:
        if (!sink)
            shift_rr(t, in, X86_SAR);
        break;
    case RV_OP_OR:
        if (!sink)
            alu_rr(t, in, X86_OR);
        break;
    case RV_OP_AND:
        if (!sink)
            alu_rr(t, in, X86_AND);
        break;
    case RV_OP_MUL:
        if (!sink)
            mul(t, in);
        break;
    case RV_OP_MULH:
        if (!sink)
            mul_high(t, in, true, true);
        break;
    case RV_OP_MULHSU:
        if (!sink)
            mul_high(t, in, true, false);
        break;
    case RV_OP_MULHU:
        if (!sink)
            mul_high(t, in, false, false);
        break;
    case RV_OP_DIV:
        if (!sink)
            divide(t, in, jit_div);
        break;
    case RV_OP_DIVU:
        if (!sink)
            divide(t, in, jit_divu);
        break;
    case RV_OP_REM:
        if (!sink)
            divide(t, in, jit_rem);
        break;
    case RV_OP_REMU:
        if (!sink)
            divide(t, in, jit_remu);
        break;
    default: break; /* fence; the control transfers are emitted by emit_end */
    }
}

static x86_cc branch_cc(unsigned op)
{
    switch (op) {
    case RV_OP_BEQ: return X86_CC_E;
    case RV_OP_BNE: return X86_CC_NE;
    case RV_OP_BLT: return X86_CC_L;
    case RV_OP_BGE: return X86_CC_GE;
    case RV_OP_BLTU: return X86_CC_B;
    default: return X86_CC_AE; /* bgeu */
    }
}

/* Counter updates, register write-back and the exits of the block. */
static void emit_end(translator *t)
{
    x86_asm *a = &t->a;
    const rv_block *b = t->b;
    const rv_binsn *last = &b->insn[b->count - 1];
    uint32_t pc = b->vpc + last->offset;
    jit_regs *g = &t->regs;
    add_reg(a, CYCLES, b->cycles);
    add_reg(a, INSTRET, b->count);
    add_counter(a, CPU(stats.loads), b->loads);
    add_counter(a, CPU(stats.stores), b->stores);
    add_counter(a, CPU(stats.muls), b->muls);
    add_counter(a, CPU(stats.divs), b->divs);
    switch ((enum rv_op)last->op) {
    case RV_OP_JAL:
        if (last->rd != RV_REG_SINK)
            jit_set_imm(a, g, last->rd, pc + last->len);
        jit_write_back(a, g, g->dirty);
        exit_to(t, pc + (uint32_t)last->imm, RV_BLOCK_NEXT0);
        return;
    case RV_OP_JALR:
        jit_get(a, g, X86_RAX, last->rs1);
        if (last->imm)
            x86_alu32_imm(a, X86_ADD, X86_RAX, last->imm);
        x86_alu32_imm(a, X86_AND, X86_RAX, -2);
        if (last->rd != RV_REG_SINK) /* after reading rs1, which may be rd */
            jit_set_imm(a, g, last->rd, pc + last->len);
        jit_write_back(a, g, g->dirty);
        x86_mov32_store(a, CPU(pc), X86_RAX);
        x86_jmp_to(a, t->code->lookup);
        return;
    case RV_OP_BEQ:
    case RV_OP_BNE:
    case RV_OP_BLT:
    case RV_OP_BGE:
    case RV_OP_BLTU:
    case RV_OP_BGEU: {
        jit_get(a, g, X86_RAX, last->rs1);
        jit_alu(a, g, X86_CMP, X86_RAX, last->rs2);
        uint8_t *taken = x86_jcc(a, branch_cc(last->op));
        /* on both paths: stores and moves keep the flags but come after the jump here */
        uint64_t dirty = g->dirty;
        jit_write_back(a, g, dirty);
        add_counter(a, CPU(stats.branches_not_taken), 1);
        exit_to(t, b->end_pc, RV_BLOCK_NEXT0);
        x86_patch(taken, x86_here(a));
        jit_write_back(a, g, dirty);
        /* the interpreter's taken-branch correction of the not-taken class cost */
        uint32_t cost = last->cycles - (b->count > 1 ? b->insn[b->count - 2].cycles : 0);
        add_reg(a, CYCLES, (uint64_t)t->cpu->cfg.timing.branch_taken - cost);
        add_counter(a, CPU(stats.branches_taken), 1);
        exit_to(t, pc + (uint32_t)last->imm, RV_BLOCK_NEXT1);
        return;
    }
    default:
        jit_write_back(a, g, g->dirty);
        exit_to(t, b->end_pc, RV_BLOCK_NEXT0);
        return;
    }
}

static void emit_stubs(translator *t)
{
    x86_asm *a = &t->a;
    for (unsigned k = 0; k < t->nstubs; k++) {
        pending *p = &t->stubs[k];
        x86_patch(p->rel, x86_here(a));
        switch (p->kind) {
        case STUB_SLOW:
            /* the interpreter's slow path, on the counters and registers in memory */
            jit_write_back(a, &t->regs, p->dirty);
            x86_mov64_store(a, CPU(stats.cycles), CYCLES);
            x86_mov64_store(a, CPU(stats.instret), INSTRET);
            x86_mov64(a, X86_RDI, X86_RBX);
            x86_mov64_imm(a, X86_RSI, (uint64_t)(uintptr_t)t->b);
            x86_mov32_imm(a, X86_RDX, p->index);
            call(a, (const void *)rv_block_mem_slow);
            x86_mov64_load(a, CYCLES, CPU(stats.cycles));
            x86_mov64_load(a, INSTRET, CPU(stats.instret));
            x86_jmp_to(a, t->code->exit);
            break;
        case STUB_RESERVATIONS:
            /* rdx: the TLB index, eax: the page offset */
            x86_mov32_load(
                a, X86_RSI,
                x86_at_index(X86_RBX, X86_RDX, 8,
                             (int32_t)(offsetof(rv_cpu, tlb) +
                                       RV_ACCESS_WRITE * sizeof(rv_tlb_entry[RV_TLB_SIZE]) +
                                       offsetof(rv_tlb_entry, ppn_base))));
            x86_alu32(a, X86_OR, X86_RSI, X86_RAX);
            x86_mov64_load(a, X86_RDI, CPU(res));
            x86_mov32_imm(a, X86_RDX, p->len);
            jit_caller_saved(a, &t->regs, p->valid, false);
            call(a, (const void *)rv_reservations_invalidate);
            jit_caller_saved(a, &t->regs, p->valid, true);
            x86_jmp_to(a, p->resume);
            break;
        default: /* STUB_CHAIN: ask the dispatcher to fill the chain entry with the target's code */
            x86_mov32_store_imm(a, CPU(pc), p->target);
            x86_mov32_store_imm(a, CPU(blk.jit_patch_pc), p->target);
            x86_mov32_store_imm(a, CPU(blk.jit_patch_slot), p->slot + 1);
            x86_mov32_imm(a, X86_RAX, RV_BLOCK_LEFT);
            x86_jmp_to(a, t->code->exit);
            break;
        }
    }
}

void *rv_jit_emit(rv_cpu *cpu, struct rv_jit *jit, const rv_block *b, uint32_t id)
{
    rv_jit_code code;
    rv_jit_code_space(jit, &code);
    translator t;
    t.cpu = cpu;
    t.b = b;
    t.id = id;
    t.code = &code;
    t.nstubs = 0;
    jit_regs_assign(&t.regs, b);
    x86_asm *a = &t.a;
    x86_init(a, code.start, code.end);
    uint8_t *entry = x86_here(a);
    /* the dispatcher's budget test: the whole block runs only if its last instruction starts
     * before the limit; otherwise C steps through it */
    x86_lea64(a, X86_RAX, x86_at(CYCLES, (int32_t)b->bound));
    x86_alu64_load(a, X86_CMP, X86_RAX, CPU(run_limit));
    uint8_t *over = x86_jcc(a, X86_CC_AE);
    for (unsigned i = 0; i < b->count; i++)
        emit_insn(&t, &b->insn[i], i);
    emit_end(&t);
    x86_patch(over, x86_here(a));
    add_counter(a, CPU(blk.counters.budget_exits), 1);
    x86_mov32_store_imm(a, CPU(pc), b->vpc);
    x86_mov32_imm(a, X86_RAX, RV_BLOCK_LEFT);
    x86_jmp_to(a, code.exit);
    emit_stubs(&t);
    if (x86_full(a))
        return NULL;
    rv_jit_code_used(jit, x86_here(a));
    return entry;
}
