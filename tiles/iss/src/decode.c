/* Instruction decoder: 32-bit RV32IMA+Zicsr+Zifencei+privileged encodings and every RV32C
 * encoding. Compressed instructions are expanded to the base op they are defined as, so the
 * interpreter has a single implementation of each operation. */
#include "cpu_internal.h"

static uint32_t bits(uint32_t v, unsigned hi, unsigned lo)
{
    return (v >> lo) & ((1u << (hi - lo + 1)) - 1u);
}

static int32_t sign_extend(uint32_t v, unsigned width)
{
    uint32_t m = 1u << (width - 1);
    return (int32_t)((v ^ m) - m);
}

static uint16_t cost_of(const rv_cpu *cpu, unsigned op)
{
    const rv_timing *t = &cpu->cfg.timing;
    uint32_t c;
    switch (op) {
    case RV_OP_JAL:
    case RV_OP_JALR: c = t->jump; break;
    case RV_OP_BEQ:
    case RV_OP_BNE:
    case RV_OP_BLT:
    case RV_OP_BGE:
    case RV_OP_BLTU:
    case RV_OP_BGEU: c = t->branch_not_taken; break;
    case RV_OP_LB:
    case RV_OP_LH:
    case RV_OP_LW:
    case RV_OP_LBU:
    case RV_OP_LHU: c = t->load; break;
    case RV_OP_SB:
    case RV_OP_SH:
    case RV_OP_SW: c = t->store; break;
    case RV_OP_MUL:
    case RV_OP_MULH:
    case RV_OP_MULHSU:
    case RV_OP_MULHU: c = t->mul; break;
    case RV_OP_DIV:
    case RV_OP_DIVU:
    case RV_OP_REM:
    case RV_OP_REMU: c = t->div; break;
    case RV_OP_FENCE:
    case RV_OP_FENCE_I:
    case RV_OP_ECALL:
    case RV_OP_EBREAK:
    case RV_OP_MRET:
    case RV_OP_SRET:
    case RV_OP_WFI:
    case RV_OP_SFENCE_VMA: c = t->system; break;
    case RV_OP_CSRRW:
    case RV_OP_CSRRS:
    case RV_OP_CSRRC:
    case RV_OP_CSRRWI:
    case RV_OP_CSRRSI:
    case RV_OP_CSRRCI: c = t->csr; break;
    case RV_OP_ILLEGAL: c = 0; break;
    default: c = (op >= RV_OP_LR && op <= RV_OP_AMOMAXU) ? t->atomic : t->alu; break;
    }
    return (uint16_t)(c > 0xffffu ? 0xffffu : c);
}

static void set(rv_insn *o, unsigned op, unsigned rd, unsigned rs1, unsigned rs2, int32_t imm)
{
    o->op = (uint8_t)op;
    o->rd = (uint8_t)rd;
    o->rs1 = (uint8_t)rs1;
    o->rs2 = (uint8_t)rs2;
    o->imm = imm;
}

static void decode32(uint32_t w, rv_insn *o)
{
    unsigned rd = bits(w, 11, 7), rs1 = bits(w, 19, 15), rs2 = bits(w, 24, 20);
    unsigned f3 = bits(w, 14, 12), f7 = bits(w, 31, 25);
    int32_t imm_i = (int32_t)w >> 20;
    int32_t imm_s = sign_extend((bits(w, 31, 25) << 5) | bits(w, 11, 7), 12);
    int32_t imm_b = sign_extend((bits(w, 31, 31) << 12) | (bits(w, 7, 7) << 11) |
                                    (bits(w, 30, 25) << 5) | (bits(w, 11, 8) << 1),
                                13);
    int32_t imm_u = (int32_t)(w & 0xfffff000u);
    int32_t imm_j = sign_extend((bits(w, 31, 31) << 20) | (bits(w, 19, 12) << 12) |
                                    (bits(w, 20, 20) << 11) | (bits(w, 30, 21) << 1),
                                21);
    set(o, RV_OP_ILLEGAL, 0, 0, 0, 0);
    switch (bits(w, 6, 0)) {
    case 0x37: set(o, RV_OP_LUI, rd, 0, 0, imm_u); break;
    case 0x17: set(o, RV_OP_AUIPC, rd, 0, 0, imm_u); break;
    case 0x6f: set(o, RV_OP_JAL, rd, 0, 0, imm_j); break;
    case 0x67:
        if (f3 == 0)
            set(o, RV_OP_JALR, rd, rs1, 0, imm_i);
        break;
    case 0x63: {
        static const uint8_t ops[8] = {RV_OP_BEQ, RV_OP_BNE, RV_OP_ILLEGAL, RV_OP_ILLEGAL,
                                       RV_OP_BLT, RV_OP_BGE, RV_OP_BLTU,    RV_OP_BGEU};
        set(o, ops[f3], 0, rs1, rs2, imm_b);
        break;
    }
    case 0x03: {
        static const uint8_t ops[8] = {RV_OP_LB,  RV_OP_LH,  RV_OP_LW,      RV_OP_ILLEGAL,
                                       RV_OP_LBU, RV_OP_LHU, RV_OP_ILLEGAL, RV_OP_ILLEGAL};
        set(o, ops[f3], rd, rs1, 0, imm_i);
        break;
    }
    case 0x23: {
        static const uint8_t ops[8] = {RV_OP_SB,      RV_OP_SH,      RV_OP_SW,      RV_OP_ILLEGAL,
                                       RV_OP_ILLEGAL, RV_OP_ILLEGAL, RV_OP_ILLEGAL, RV_OP_ILLEGAL};
        set(o, ops[f3], 0, rs1, rs2, imm_s);
        break;
    }
    case 0x13:
        switch (f3) {
        case 0: set(o, RV_OP_ADDI, rd, rs1, 0, imm_i); break;
        case 2: set(o, RV_OP_SLTI, rd, rs1, 0, imm_i); break;
        case 3: set(o, RV_OP_SLTIU, rd, rs1, 0, imm_i); break;
        case 4: set(o, RV_OP_XORI, rd, rs1, 0, imm_i); break;
        case 6: set(o, RV_OP_ORI, rd, rs1, 0, imm_i); break;
        case 7: set(o, RV_OP_ANDI, rd, rs1, 0, imm_i); break;
        case 1:
            if (f7 == 0)
                set(o, RV_OP_SLLI, rd, rs1, 0, (int32_t)rs2);
            break;
        case 5:
            if (f7 == 0)
                set(o, RV_OP_SRLI, rd, rs1, 0, (int32_t)rs2);
            else if (f7 == 0x20)
                set(o, RV_OP_SRAI, rd, rs1, 0, (int32_t)rs2);
            break;
        }
        break;
    case 0x33:
        if (f7 == 0) {
            static const uint8_t ops[8] = {RV_OP_ADD, RV_OP_SLL, RV_OP_SLT, RV_OP_SLTU,
                                           RV_OP_XOR, RV_OP_SRL, RV_OP_OR,  RV_OP_AND};
            set(o, ops[f3], rd, rs1, rs2, 0);
        } else if (f7 == 0x20) {
            if (f3 == 0)
                set(o, RV_OP_SUB, rd, rs1, rs2, 0);
            else if (f3 == 5)
                set(o, RV_OP_SRA, rd, rs1, rs2, 0);
        } else if (f7 == 1) {
            static const uint8_t ops[8] = {RV_OP_MUL, RV_OP_MULH, RV_OP_MULHSU, RV_OP_MULHU,
                                           RV_OP_DIV, RV_OP_DIVU, RV_OP_REM,    RV_OP_REMU};
            set(o, ops[f3], rd, rs1, rs2, 0);
        }
        break;
    case 0x0f:
        if (f3 == 0)
            set(o, RV_OP_FENCE, 0, 0, 0, 0);
        else if (f3 == 1)
            set(o, RV_OP_FENCE_I, 0, 0, 0, 0);
        break;
    case 0x73:
        if (f3 == 0) {
            if (rd != 0)
                break;
            if (w == 0x00000073u)
                set(o, RV_OP_ECALL, 0, 0, 0, 0);
            else if (w == 0x00100073u)
                set(o, RV_OP_EBREAK, 0, 0, 0, 0);
            else if (w == 0x30200073u)
                set(o, RV_OP_MRET, 0, 0, 0, 0);
            else if (w == 0x10200073u)
                set(o, RV_OP_SRET, 0, 0, 0, 0);
            else if (w == 0x10500073u)
                set(o, RV_OP_WFI, 0, 0, 0, 0);
            else if (f7 == 0x09)
                set(o, RV_OP_SFENCE_VMA, 0, rs1, rs2, 0);
        } else if (f3 != 4) {
            static const uint8_t ops[8] = {0, RV_OP_CSRRW,  RV_OP_CSRRS,  RV_OP_CSRRC,
                                           0, RV_OP_CSRRWI, RV_OP_CSRRSI, RV_OP_CSRRCI};
            set(o, ops[f3], rd, rs1, 0, (int32_t)bits(w, 31, 20));
        }
        break;
    case 0x2f:
        if (f3 == 2) {
            switch (bits(w, 31, 27)) {
            case 0x02:
                if (rs2 == 0)
                    set(o, RV_OP_LR, rd, rs1, 0, 0);
                break;
            case 0x03: set(o, RV_OP_SC, rd, rs1, rs2, 0); break;
            case 0x01: set(o, RV_OP_AMOSWAP, rd, rs1, rs2, 0); break;
            case 0x00: set(o, RV_OP_AMOADD, rd, rs1, rs2, 0); break;
            case 0x04: set(o, RV_OP_AMOXOR, rd, rs1, rs2, 0); break;
            case 0x0c: set(o, RV_OP_AMOAND, rd, rs1, rs2, 0); break;
            case 0x08: set(o, RV_OP_AMOOR, rd, rs1, rs2, 0); break;
            case 0x10: set(o, RV_OP_AMOMIN, rd, rs1, rs2, 0); break;
            case 0x14: set(o, RV_OP_AMOMAX, rd, rs1, rs2, 0); break;
            case 0x18: set(o, RV_OP_AMOMINU, rd, rs1, rs2, 0); break;
            case 0x1c: set(o, RV_OP_AMOMAXU, rd, rs1, rs2, 0); break;
            }
        }
        break;
    }
}

/* RV32C. Register fields rd'/rs1'/rs2' (3 bits) name x8..x15. */
static void decode16(uint32_t h, rv_insn *o)
{
    unsigned rdp = bits(h, 4, 2) + 8, rs1p = bits(h, 9, 7) + 8;
    unsigned rd = bits(h, 11, 7), rs2 = bits(h, 6, 2);
    unsigned f3 = bits(h, 15, 13);
    int32_t imm6 = sign_extend((bits(h, 12, 12) << 5) | bits(h, 6, 2), 6);
    set(o, RV_OP_ILLEGAL, 0, 0, 0, 0);
    switch (h & 3) {
    case 0:
        switch (f3) {
        case 0: { /* c.addi4spn; nzuimm == 0 (incl. the all-zero word) is illegal */
            uint32_t u = (bits(h, 10, 7) << 6) | (bits(h, 12, 11) << 4) | (bits(h, 5, 5) << 3) |
                         (bits(h, 6, 6) << 2);
            if (u != 0)
                set(o, RV_OP_ADDI, rdp, 2, 0, (int32_t)u);
            break;
        }
        case 2: { /* c.lw */
            uint32_t u = (bits(h, 5, 5) << 6) | (bits(h, 12, 10) << 3) | (bits(h, 6, 6) << 2);
            set(o, RV_OP_LW, rdp, rs1p, 0, (int32_t)u);
            break;
        }
        case 6: { /* c.sw */
            uint32_t u = (bits(h, 5, 5) << 6) | (bits(h, 12, 10) << 3) | (bits(h, 6, 6) << 2);
            set(o, RV_OP_SW, 0, rs1p, rdp, (int32_t)u);
            break;
        }
        default: break; /* c.fld/c.flw/c.fsd/c.fsw (no F/D) and reserved */
        }
        break;
    case 1:
        switch (f3) {
        case 0: set(o, RV_OP_ADDI, rd, rd, 0, imm6); break; /* c.nop / c.addi (hints are legal) */
        case 1:                                             /* c.jal */
        case 5: {                                           /* c.j */
            uint32_t u = (bits(h, 12, 12) << 11) | (bits(h, 8, 8) << 10) | (bits(h, 10, 9) << 8) |
                         (bits(h, 6, 6) << 7) | (bits(h, 7, 7) << 6) | (bits(h, 2, 2) << 5) |
                         (bits(h, 11, 11) << 4) | (bits(h, 5, 3) << 1);
            set(o, RV_OP_JAL, f3 == 1 ? 1 : 0, 0, 0, sign_extend(u, 12));
            break;
        }
        case 2: set(o, RV_OP_ADDI, rd, 0, 0, imm6); break; /* c.li */
        case 3:
            if (rd == 2) { /* c.addi16sp */
                uint32_t u = (bits(h, 12, 12) << 9) | (bits(h, 4, 3) << 7) | (bits(h, 5, 5) << 6) |
                             (bits(h, 2, 2) << 5) | (bits(h, 6, 6) << 4);
                if (u != 0)
                    set(o, RV_OP_ADDI, 2, 2, 0, sign_extend(u, 10));
            } else if (imm6 != 0) { /* c.lui; nzimm == 0 reserved */
                set(o, RV_OP_LUI, rd, 0, 0, (int32_t)((uint32_t)imm6 << 12));
            }
            break;
        case 4: {
            unsigned sh = bits(h, 6, 2);
            switch (bits(h, 11, 10)) {
            case 0:
                if (!bits(h, 12, 12))
                    set(o, RV_OP_SRLI, rs1p, rs1p, 0, (int32_t)sh);
                break;
            case 1:
                if (!bits(h, 12, 12))
                    set(o, RV_OP_SRAI, rs1p, rs1p, 0, (int32_t)sh);
                break;
            case 2: set(o, RV_OP_ANDI, rs1p, rs1p, 0, imm6); break;
            case 3:
                if (bits(h, 12, 12))
                    break; /* c.subw/c.addw: RV64 only */
                switch (bits(h, 6, 5)) {
                case 0: set(o, RV_OP_SUB, rs1p, rs1p, rdp, 0); break;
                case 1: set(o, RV_OP_XOR, rs1p, rs1p, rdp, 0); break;
                case 2: set(o, RV_OP_OR, rs1p, rs1p, rdp, 0); break;
                case 3: set(o, RV_OP_AND, rs1p, rs1p, rdp, 0); break;
                }
                break;
            }
            break;
        }
        case 6:
        case 7: { /* c.beqz / c.bnez */
            uint32_t u = (bits(h, 12, 12) << 8) | (bits(h, 6, 5) << 6) | (bits(h, 2, 2) << 5) |
                         (bits(h, 11, 10) << 3) | (bits(h, 4, 3) << 1);
            set(o, f3 == 6 ? RV_OP_BEQ : RV_OP_BNE, 0, rs1p, 0, sign_extend(u, 9));
            break;
        }
        }
        break;
    case 2:
        switch (f3) {
        case 0:
            if (!bits(h, 12, 12))
                set(o, RV_OP_SLLI, rd, rd, 0, (int32_t)rs2);
            break;
        case 2: /* c.lwsp; rd == 0 reserved */
            if (rd != 0)
                set(o, RV_OP_LW, rd, 2, 0,
                    (int32_t)((bits(h, 3, 2) << 6) | (bits(h, 12, 12) << 5) |
                              (bits(h, 6, 4) << 2)));
            break;
        case 4:
            if (!bits(h, 12, 12)) {
                if (rs2 == 0) {
                    if (rd != 0)
                        set(o, RV_OP_JALR, 0, rd, 0, 0);
                } /* c.jr */
                else
                    set(o, RV_OP_ADD, rd, 0, rs2, 0); /* c.mv */
            } else {
                if (rs2 == 0) {
                    if (rd == 0)
                        set(o, RV_OP_EBREAK, 0, 0, 0, 0); /* c.ebreak */
                    else
                        set(o, RV_OP_JALR, 1, rd, 0, 0); /* c.jalr */
                } else {
                    set(o, RV_OP_ADD, rd, rd, rs2, 0); /* c.add */
                }
            }
            break;
        case 6: /* c.swsp */
            set(o, RV_OP_SW, 0, 2, rs2, (int32_t)((bits(h, 8, 7) << 6) | (bits(h, 12, 9) << 2)));
            break;
        default: break;
        }
        break;
    }
}

void rv_decode(const rv_cpu *cpu, uint32_t w, rv_insn *out)
{
    if ((w & 3) == 3) {
        decode32(w, out);
        out->len = 4;
        out->raw = w;
    } else {
        w &= 0xffffu;
        decode16(w, out);
        out->len = 2;
        out->raw = w;
    }
    if (out->rd == 0)
        out->rd = RV_REG_SINK;
    out->pad = 0;
    out->cost = cost_of(cpu, out->op);
}
