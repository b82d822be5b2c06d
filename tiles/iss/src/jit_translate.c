/* Translation of one block to x86-64 code (jit.h): the same work as rv_block_exec, instruction by
 * instruction, with the guest registers in cpu->x (rbx holds cpu) and rax, rcx, rdx, rsi, rdi as
 * scratch. Code layout: the budget test, the instructions, the counter updates and the exits;
 * then, out of line, the stubs of unchained exits and of memory accesses that miss the fast path.
 */
#include "jit.h"
#include "jit_x86.h"

#include <stddef.h>

#define CPU(field) x86_at(X86_RBX, (int32_t)offsetof(rv_cpu, field))
#define XREG(r) x86_at(X86_RBX, (int32_t)(offsetof(rv_cpu, x) + 4u * (r)))

/* A jump to patch once the out-of-line code it goes to is placed. */
typedef struct pending {
    uint8_t *rel;    /* the jump's displacement */
    unsigned index;  /* memory instruction of a slow-path stub */
    uint8_t *resume; /* reservation stub: where to continue */
    unsigned kind;   /* what the stub does */
    uint32_t target; /* chain stub: target pc */
    unsigned len;    /* reservation stub: store size */
} pending;

enum { STUB_SLOW, STUB_RESERVATIONS, STUB_CHAIN };

typedef struct translator {
    x86_asm a;
    rv_cpu *cpu;
    const rv_block *b;
    const rv_jit_code *code;
    pending stubs[2 * RV_BLOCK_MAX_INSNS + 2];
    unsigned nstubs;
} translator;

static void add_stub(translator *t, uint8_t *rel, unsigned kind, unsigned index)
{
    pending *p = &t->stubs[t->nstubs++];
    p->rel = rel;
    p->kind = kind;
    p->index = index;
    p->resume = NULL;
    p->target = 0;
    p->len = 0;
}

static uint32_t jit_div(uint32_t a, uint32_t b)
{
    if (b == 0) return 0xffffffffu;
    if (a == 0x80000000u && b == 0xffffffffu) return a;
    return (uint32_t)((int32_t)a / (int32_t)b);
}

static uint32_t jit_divu(uint32_t a, uint32_t b) { return b ? a / b : 0xffffffffu; }

static uint32_t jit_rem(uint32_t a, uint32_t b)
{
    if (b == 0) return a;
    if (a == 0x80000000u && b == 0xffffffffu) return 0;
    return (uint32_t)((int32_t)a % (int32_t)b);
}

static uint32_t jit_remu(uint32_t a, uint32_t b) { return b ? a % b : a; }

static void call(x86_asm *a, const void *fn)
{
    x86_mov64_imm(a, X86_RAX, (uint64_t)(uintptr_t)fn);
    x86_call_reg(a, X86_RAX);
}

static void load_reg(x86_asm *a, x86_reg dst, unsigned r) { x86_mov32_load(a, dst, XREG(r)); }

static void alu_rr(translator *t, const rv_binsn *in, x86_alu op)
{
    load_reg(&t->a, X86_RAX, in->rs1);
    x86_alu32_load(&t->a, op, X86_RAX, XREG(in->rs2));
    x86_mov32_store(&t->a, XREG(in->rd), X86_RAX);
}

static void alu_ri(translator *t, const rv_binsn *in, x86_alu op)
{
    load_reg(&t->a, X86_RAX, in->rs1);
    if (in->imm != 0 || op == X86_AND)
        x86_alu32_imm(&t->a, op, X86_RAX, in->imm);
    x86_mov32_store(&t->a, XREG(in->rd), X86_RAX);
}

/* x[rd] = (x[rs1] cmp operand) ? 1 : 0 */
static void set_less(translator *t, const rv_binsn *in, bool imm, x86_cc cc)
{
    x86_asm *a = &t->a;
    load_reg(a, X86_RAX, in->rs1);
    x86_alu32(a, X86_XOR, X86_RCX, X86_RCX); /* before the compare: xor changes the flags */
    if (imm)
        x86_alu32_imm(a, X86_CMP, X86_RAX, in->imm);
    else
        x86_alu32_load(a, X86_CMP, X86_RAX, XREG(in->rs2));
    x86_setcc(a, cc, X86_RCX);
    x86_mov32_store(a, XREG(in->rd), X86_RCX);
}

static void shift_ri(translator *t, const rv_binsn *in, x86_shift op)
{
    load_reg(&t->a, X86_RAX, in->rs1);
    x86_shift32_imm(&t->a, op, X86_RAX, (uint8_t)in->imm);
    x86_mov32_store(&t->a, XREG(in->rd), X86_RAX);
}

static void shift_rr(translator *t, const rv_binsn *in, x86_shift op)
{
    load_reg(&t->a, X86_RCX, in->rs2); /* the count goes in cl; x86 masks it to 5 bits as RV32 does */
    load_reg(&t->a, X86_RAX, in->rs1);
    x86_shift32_cl(&t->a, op, X86_RAX);
    x86_mov32_store(&t->a, XREG(in->rd), X86_RAX);
}

/* High half of the 64-bit product, operands sign- or zero-extended. */
static void mul_high(translator *t, const rv_binsn *in, bool sign1, bool sign2)
{
    x86_asm *a = &t->a;
    if (sign1)
        x86_movsxd_load(a, X86_RAX, XREG(in->rs1));
    else
        load_reg(a, X86_RAX, in->rs1);
    if (sign2)
        x86_movsxd_load(a, X86_RCX, XREG(in->rs2));
    else
        load_reg(a, X86_RCX, in->rs2);
    x86_imul64(a, X86_RAX, X86_RCX); /* the low 64 bits are the exact product in every case */
    x86_shift64_imm(a, X86_SHR, X86_RAX, 32);
    x86_mov32_store(a, XREG(in->rd), X86_RAX);
}

static void divide(translator *t, const rv_binsn *in, uint32_t (*fn)(uint32_t, uint32_t))
{
    load_reg(&t->a, X86_RDI, in->rs1);
    load_reg(&t->a, X86_RSI, in->rs2);
    call(&t->a, (const void *)fn);
    x86_mov32_store(&t->a, XREG(in->rd), X86_RAX);
}

/* eax = address, rdx = its TLB entry for kind, rsi = the entry's host page; jumps to the slow-path
 * stub of instruction i on a miss, a non-DMI page or a misaligned address. Adds the latency. */
static void tlb_fast_path(translator *t, const rv_binsn *in, unsigned i, enum rv_access kind, unsigned len)
{
    x86_asm *a = &t->a;
    load_reg(a, X86_RAX, in->rs1);
    if (in->imm)
        x86_alu32_imm(a, X86_ADD, X86_RAX, in->imm);
    x86_mov32(a, X86_RCX, X86_RAX);
    x86_shift32_imm(a, X86_SHR, X86_RCX, RV_PAGE_SHIFT);
    x86_mov32(a, X86_RDX, X86_RCX);
    x86_alu32_imm(a, X86_AND, X86_RDX, RV_TLB_SIZE - 1);
    x86_imul32_imm(a, X86_RDX, X86_RDX, (int32_t)sizeof(rv_tlb_entry));
    x86_lea64(a, X86_RDX, x86_at_index(X86_RBX, X86_RDX, 1,
                                       (int32_t)(offsetof(rv_cpu, tlb) + kind * sizeof(rv_tlb_entry[RV_TLB_SIZE]))));
    x86_alu32_load(a, X86_CMP, X86_RCX, x86_at(X86_RDX, (int32_t)offsetof(rv_tlb_entry, vpn)));
    add_stub(t, x86_jcc(a, X86_CC_NE), STUB_SLOW, i);
    x86_mov64_load(a, X86_RSI, x86_at(X86_RDX, (int32_t)offsetof(rv_tlb_entry, host)));
    x86_test64(a, X86_RSI, X86_RSI);
    add_stub(t, x86_jcc(a, X86_CC_E), STUB_SLOW, i);
    if (len > 1) {
        x86_test32_imm(a, X86_RAX, len - 1);
        add_stub(t, x86_jcc(a, X86_CC_NE), STUB_SLOW, i);
    }
    x86_mov32_load(a, X86_RCX, x86_at(X86_RDX, (int32_t)offsetof(rv_tlb_entry, latency)));
    x86_alu64_mem_reg(a, X86_ADD, CPU(stats.cycles), X86_RCX);
    x86_alu32_imm(a, X86_AND, X86_RAX, RV_PAGE_MASK);
}

static void load(translator *t, const rv_binsn *in, unsigned i, unsigned len, bool sign)
{
    x86_asm *a = &t->a;
    tlb_fast_path(t, in, i, RV_ACCESS_READ, len);
    x86_mem m = x86_at_index(X86_RSI, X86_RAX, 1, 0);
    if (len == 4)
        x86_mov32_load(a, X86_RCX, m);
    else
        x86_load_ext(a, X86_RCX, m, len, sign);
    x86_mov32_store(a, XREG(in->rd), X86_RCX);
}

static void store(translator *t, const rv_binsn *in, unsigned i, unsigned len)
{
    x86_asm *a = &t->a;
    tlb_fast_path(t, in, i, RV_ACCESS_WRITE, len);
    load_reg(a, X86_RCX, in->rs2);
    x86_mem m = x86_at_index(X86_RSI, X86_RAX, 1, 0);
    if (len == 4)
        x86_mov32_store(a, m, X86_RCX);
    else if (len == 2)
        x86_mov16_store(a, m, X86_RCX);
    else
        x86_mov8_store(a, m, X86_RCX);
    /* a store breaks the LR/SC reservations it overlaps; usually there are none */
    x86_mov64_load(a, X86_RCX, CPU(res));
    x86_alu32_mem_imm(a, X86_CMP, x86_at(X86_RCX, (int32_t)offsetof(rv_reservation_set, valid_mask)), 0);
    add_stub(t, x86_jcc(a, X86_CC_NE), STUB_RESERVATIONS, i);
    t->stubs[t->nstubs - 1].resume = x86_here(a);
    t->stubs[t->nstubs - 1].len = len;
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

/* Leaves for the block at target: chained (patchable) inside the page, where the translation is
 * the one this block runs under; through the TLB lookup into another page. */
static void exit_to(translator *t, uint32_t target)
{
    x86_asm *a = &t->a;
    if ((target & ~RV_PAGE_MASK) == (t->b->vpc & ~RV_PAGE_MASK)) {
        add_stub(t, x86_jmp(a), STUB_CHAIN, 0);
        t->stubs[t->nstubs - 1].target = target;
        return;
    }
    x86_mov32_store_imm(a, CPU(pc), target);
    x86_mov32_imm(a, X86_RAX, target);
    x86_jmp_to(a, t->code->lookup);
}

static void emit_insn(translator *t, const rv_binsn *in, unsigned i)
{
    x86_asm *a = &t->a;
    uint32_t pc = t->b->vpc + in->offset;
    /* results into the x0 sink need no code, except where the access itself matters */
    bool sink = in->rd == RV_REG_SINK;
    switch ((enum rv_op)in->op) {
    case RV_OP_LUI: if (!sink) x86_mov32_store_imm(a, XREG(in->rd), (uint32_t)in->imm); break;
    case RV_OP_AUIPC: if (!sink) x86_mov32_store_imm(a, XREG(in->rd), pc + (uint32_t)in->imm); break;
    case RV_OP_LB: load(t, in, i, 1, true); break;
    case RV_OP_LH: load(t, in, i, 2, true); break;
    case RV_OP_LW: load(t, in, i, 4, false); break;
    case RV_OP_LBU: load(t, in, i, 1, false); break;
    case RV_OP_LHU: load(t, in, i, 2, false); break;
    case RV_OP_SB: store(t, in, i, 1); break;
    case RV_OP_SH: store(t, in, i, 2); break;
    case RV_OP_SW: store(t, in, i, 4); break;
    case RV_OP_ADDI:
        if (sink) break;
        if (in->rs1 == 0)
            x86_mov32_store_imm(a, XREG(in->rd), (uint32_t)in->imm);
        else
            alu_ri(t, in, X86_ADD);
        break;
    case RV_OP_SLTI: if (!sink) set_less(t, in, true, X86_CC_L); break;
    case RV_OP_SLTIU: if (!sink) set_less(t, in, true, X86_CC_B); break;
    case RV_OP_XORI: if (!sink) alu_ri(t, in, X86_XOR); break;
    case RV_OP_ORI: if (!sink) alu_ri(t, in, X86_OR); break;
    case RV_OP_ANDI: if (!sink) alu_ri(t, in, X86_AND); break;
    case RV_OP_SLLI: if (!sink) shift_ri(t, in, X86_SHL); break;
    case RV_OP_SRLI: if (!sink) shift_ri(t, in, X86_SHR); break;
    case RV_OP_SRAI: if (!sink) shift_ri(t, in, X86_SAR); break;
    case RV_OP_ADD: if (!sink) alu_rr(t, in, X86_ADD); break;
    case RV_OP_SUB: if (!sink) alu_rr(t, in, X86_SUB); break;
    case RV_OP_SLL: if (!sink) shift_rr(t, in, X86_SHL); break;
    case RV_OP_SLT: if (!sink) set_less(t, in, false, X86_CC_L); break;
    case RV_OP_SLTU: if (!sink) set_less(t, in, false, X86_CC_B); break;
    case RV_OP_XOR: if (!sink) alu_rr(t, in, X86_XOR); break;
    case RV_OP_SRL: if (!sink) shift_rr(t, in, X86_SHR); break;
    case RV_OP_SRA: if (!sink) shift_rr(t, in, X86_SAR); break;
    case RV_OP_OR: if (!sink) alu_rr(t, in, X86_OR); break;
    case RV_OP_AND: if (!sink) alu_rr(t, in, X86_AND); break;
    case RV_OP_MUL:
        if (sink) break;
        load_reg(a, X86_RAX, in->rs1);
        x86_imul32_load(a, X86_RAX, XREG(in->rs2));
        x86_mov32_store(a, XREG(in->rd), X86_RAX);
        break;
    case RV_OP_MULH: if (!sink) mul_high(t, in, true, true); break;
    case RV_OP_MULHSU: if (!sink) mul_high(t, in, true, false); break;
    case RV_OP_MULHU: if (!sink) mul_high(t, in, false, false); break;
    case RV_OP_DIV: if (!sink) divide(t, in, jit_div); break;
    case RV_OP_DIVU: if (!sink) divide(t, in, jit_divu); break;
    case RV_OP_REM: if (!sink) divide(t, in, jit_rem); break;
    case RV_OP_REMU: if (!sink) divide(t, in, jit_remu); break;
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

/* Counter updates and the exits of the block. */
static void emit_end(translator *t)
{
    x86_asm *a = &t->a;
    const rv_block *b = t->b;
    const rv_binsn *last = &b->insn[b->count - 1];
    uint32_t pc = b->vpc + last->offset;
    add_counter(a, CPU(stats.cycles), b->cycles);
    add_counter(a, CPU(stats.instret), b->count);
    add_counter(a, CPU(stats.loads), b->loads);
    add_counter(a, CPU(stats.stores), b->stores);
    switch ((enum rv_op)last->op) {
    case RV_OP_JAL:
        if (last->rd != RV_REG_SINK)
            x86_mov32_store_imm(a, XREG(last->rd), pc + last->len);
        exit_to(t, pc + (uint32_t)last->imm);
        return;
    case RV_OP_JALR:
        load_reg(a, X86_RAX, last->rs1);
        if (last->imm)
            x86_alu32_imm(a, X86_ADD, X86_RAX, last->imm);
        x86_alu32_imm(a, X86_AND, X86_RAX, -2);
        if (last->rd != RV_REG_SINK) /* after reading rs1, which may be rd */
            x86_mov32_store_imm(a, XREG(last->rd), pc + last->len);
        x86_mov32_store(a, CPU(pc), X86_RAX);
        x86_jmp_to(a, t->code->lookup);
        return;
    case RV_OP_BEQ: case RV_OP_BNE: case RV_OP_BLT: case RV_OP_BGE: case RV_OP_BLTU: case RV_OP_BGEU: {
        x86_cc cc = branch_cc(last->op);
        load_reg(a, X86_RAX, last->rs1);
        x86_alu32_load(a, X86_CMP, X86_RAX, XREG(last->rs2));
        uint8_t *taken = x86_jcc(a, cc);
        add_counter(a, CPU(stats.branches_not_taken), 1);
        exit_to(t, b->end_pc);
        x86_patch(taken, x86_here(a));
        /* the interpreter's taken-branch correction of the not-taken class cost */
        uint32_t cost = last->cycles - (b->count > 1 ? b->insn[b->count - 2].cycles : 0);
        uint64_t extra = (uint64_t)t->cpu->cfg.timing.branch_taken - cost;
        if ((int64_t)extra >= INT32_MIN && (int64_t)extra <= INT32_MAX) {
            if (extra)
                x86_alu64_mem_imm(a, X86_ADD, CPU(stats.cycles), (int32_t)(int64_t)extra);
        } else {
            add_counter(a, CPU(stats.cycles), extra);
        }
        add_counter(a, CPU(stats.branches_taken), 1);
        exit_to(t, pc + (uint32_t)last->imm);
        return;
    }
    default:
        exit_to(t, b->end_pc);
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
            x86_mov64(a, X86_RDI, X86_RBX);
            x86_mov64_imm(a, X86_RSI, (uint64_t)(uintptr_t)t->b);
            x86_mov32_imm(a, X86_RDX, p->index);
            call(a, (const void *)rv_block_mem_slow);
            x86_jmp_to(a, t->code->exit);
            break;
        case STUB_RESERVATIONS:
            /* rdx: the TLB entry, eax: the page offset */
            x86_mov32_load(a, X86_RSI, x86_at(X86_RDX, (int32_t)offsetof(rv_tlb_entry, ppn_base)));
            x86_alu32(a, X86_OR, X86_RSI, X86_RAX);
            x86_mov64_load(a, X86_RDI, CPU(res));
            x86_mov32_imm(a, X86_RDX, p->len);
            call(a, (const void *)rv_reservations_invalidate);
            x86_jmp_to(a, p->resume);
            break;
        default: /* STUB_CHAIN: ask the dispatcher to chain this jump to the target's code */
            x86_mov32_store_imm(a, CPU(pc), p->target);
            x86_mov32_store_imm(a, CPU(blk.jit_patch_pc), p->target);
            x86_lea_rip(a, X86_RAX, p->rel);
            x86_mov64_store(a, CPU(blk.jit_patch), X86_RAX);
            x86_mov32_imm(a, X86_RAX, RV_BLOCK_LEFT);
            x86_jmp_to(a, t->code->exit);
            break;
        }
    }
}

bool rv_jit_translate(rv_cpu *cpu, struct rv_jit *jit, rv_block *b)
{
    rv_jit_code code;
    rv_jit_code_space(jit, &code);
    translator t;
    t.cpu = cpu;
    t.b = b;
    t.code = &code;
    t.nstubs = 0;
    x86_asm *a = &t.a;
    x86_init(a, code.start, code.end);
    uint8_t *entry = x86_here(a);
    /* the dispatcher's budget test: the whole block runs only if its last instruction starts
     * before the limit; otherwise C steps through it */
    x86_mov64_load(a, X86_RAX, CPU(stats.cycles));
    if (b->bound)
        x86_alu64_imm(a, X86_ADD, X86_RAX, (int32_t)b->bound);
    x86_alu64_load(a, X86_CMP, X86_RAX, CPU(run_limit));
    uint8_t *over = x86_jcc(a, X86_CC_AE);
    for (unsigned i = 0; i < b->count; i++)
        emit_insn(&t, &b->insn[i], i);
    emit_end(&t);
    x86_patch(over, x86_here(a));
    x86_mov32_store_imm(a, CPU(pc), b->vpc);
    x86_mov32_imm(a, X86_RAX, RV_BLOCK_LEFT);
    x86_jmp_to(a, code.exit);
    emit_stubs(&t);
    if (x86_full(a))
        return false;
    rv_jit_code_used(jit, x86_here(a));
    b->code = entry;
    return true;
}
