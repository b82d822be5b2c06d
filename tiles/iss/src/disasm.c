/* Disassembler over the ISS's decoder (iss/rv32_disasm.h): decode with rv_decode, then print
 * the rv_insn by operand format. */
#include "cpu_internal.h"
#include "iss/rv32_disasm.h"

#include <stdio.h>

static const char *const reg_names[32] = {"zero", "ra", "sp",  "gp",  "tp", "t0", "t1", "t2",
                                          "s0",   "s1", "a0",  "a1",  "a2", "a3", "a4", "a5",
                                          "a6",   "a7", "s2",  "s3",  "s4", "s5", "s6", "s7",
                                          "s8",   "s9", "s10", "s11", "t3", "t4", "t5", "t6"};

static const char *reg(unsigned r) { return r < 32 ? reg_names[r] : "zero"; /* RV_REG_SINK */ }

static const char *const op_names[RV_OP_COUNT] = {[RV_OP_LUI] = "lui",
                                                  [RV_OP_AUIPC] = "auipc",
                                                  [RV_OP_JAL] = "jal",
                                                  [RV_OP_JALR] = "jalr",
                                                  [RV_OP_BEQ] = "beq",
                                                  [RV_OP_BNE] = "bne",
                                                  [RV_OP_BLT] = "blt",
                                                  [RV_OP_BGE] = "bge",
                                                  [RV_OP_BLTU] = "bltu",
                                                  [RV_OP_BGEU] = "bgeu",
                                                  [RV_OP_LB] = "lb",
                                                  [RV_OP_LH] = "lh",
                                                  [RV_OP_LW] = "lw",
                                                  [RV_OP_LBU] = "lbu",
                                                  [RV_OP_LHU] = "lhu",
                                                  [RV_OP_SB] = "sb",
                                                  [RV_OP_SH] = "sh",
                                                  [RV_OP_SW] = "sw",
                                                  [RV_OP_ADDI] = "addi",
                                                  [RV_OP_SLTI] = "slti",
                                                  [RV_OP_SLTIU] = "sltiu",
                                                  [RV_OP_XORI] = "xori",
                                                  [RV_OP_ORI] = "ori",
                                                  [RV_OP_ANDI] = "andi",
                                                  [RV_OP_SLLI] = "slli",
                                                  [RV_OP_SRLI] = "srli",
                                                  [RV_OP_SRAI] = "srai",
                                                  [RV_OP_ADD] = "add",
                                                  [RV_OP_SUB] = "sub",
                                                  [RV_OP_SLL] = "sll",
                                                  [RV_OP_SLT] = "slt",
                                                  [RV_OP_SLTU] = "sltu",
                                                  [RV_OP_XOR] = "xor",
                                                  [RV_OP_SRL] = "srl",
                                                  [RV_OP_SRA] = "sra",
                                                  [RV_OP_OR] = "or",
                                                  [RV_OP_AND] = "and",
                                                  [RV_OP_MUL] = "mul",
                                                  [RV_OP_MULH] = "mulh",
                                                  [RV_OP_MULHSU] = "mulhsu",
                                                  [RV_OP_MULHU] = "mulhu",
                                                  [RV_OP_DIV] = "div",
                                                  [RV_OP_DIVU] = "divu",
                                                  [RV_OP_REM] = "rem",
                                                  [RV_OP_REMU] = "remu",
                                                  [RV_OP_FENCE] = "fence",
                                                  [RV_OP_FENCE_I] = "fence.i",
                                                  [RV_OP_ECALL] = "ecall",
                                                  [RV_OP_EBREAK] = "ebreak",
                                                  [RV_OP_MRET] = "mret",
                                                  [RV_OP_SRET] = "sret",
                                                  [RV_OP_WFI] = "wfi",
                                                  [RV_OP_SFENCE_VMA] = "sfence.vma",
                                                  [RV_OP_CSRRW] = "csrrw",
                                                  [RV_OP_CSRRS] = "csrrs",
                                                  [RV_OP_CSRRC] = "csrrc",
                                                  [RV_OP_CSRRWI] = "csrrwi",
                                                  [RV_OP_CSRRSI] = "csrrsi",
                                                  [RV_OP_CSRRCI] = "csrrci",
                                                  [RV_OP_LR] = "lr.w",
                                                  [RV_OP_SC] = "sc.w",
                                                  [RV_OP_AMOSWAP] = "amoswap.w",
                                                  [RV_OP_AMOADD] = "amoadd.w",
                                                  [RV_OP_AMOXOR] = "amoxor.w",
                                                  [RV_OP_AMOAND] = "amoand.w",
                                                  [RV_OP_AMOOR] = "amoor.w",
                                                  [RV_OP_AMOMIN] = "amomin.w",
                                                  [RV_OP_AMOMAX] = "amomax.w",
                                                  [RV_OP_AMOMINU] = "amominu.w",
                                                  [RV_OP_AMOMAXU] = "amomaxu.w"};

static const char *csr_name(uint32_t csr)
{
    switch (csr) {
    case 0x100: return "sstatus";
    case 0x104: return "sie";
    case 0x105: return "stvec";
    case 0x106: return "scounteren";
    case 0x10a: return "senvcfg";
    case 0x140: return "sscratch";
    case 0x141: return "sepc";
    case 0x142: return "scause";
    case 0x143: return "stval";
    case 0x144: return "sip";
    case 0x180: return "satp";
    case 0x300: return "mstatus";
    case 0x301: return "misa";
    case 0x302: return "medeleg";
    case 0x303: return "mideleg";
    case 0x304: return "mie";
    case 0x305: return "mtvec";
    case 0x306: return "mcounteren";
    case 0x30a: return "menvcfg";
    case 0x310: return "mstatush";
    case 0x31a: return "menvcfgh";
    case 0x320: return "mcountinhibit";
    case 0x340: return "mscratch";
    case 0x341: return "mepc";
    case 0x342: return "mcause";
    case 0x343: return "mtval";
    case 0x344: return "mip";
    case 0xb00: return "mcycle";
    case 0xb02: return "minstret";
    case 0xb80: return "mcycleh";
    case 0xb82: return "minstreth";
    case 0xc00: return "cycle";
    case 0xc01: return "time";
    case 0xc02: return "instret";
    case 0xc80: return "cycleh";
    case 0xc81: return "timeh";
    case 0xc82: return "instreth";
    case 0xf11: return "mvendorid";
    case 0xf12: return "marchid";
    case 0xf13: return "mimpid";
    case 0xf14: return "mhartid";
    case 0xf15: return "mconfigptr";
    case 0x7a0: return "tselect";
    case 0x7a1: return "tdata1";
    case 0x7a2: return "tdata2";
    case 0x7a3: return "tdata3";
    case 0x7a4: return "tinfo";
    default: return NULL;
    }
}

unsigned rv_csr_name(uint32_t csr, char *buf, size_t len)
{
    const char *n = csr_name(csr);
    if (n) {
        snprintf(buf, len, "%s", n);
        return 1;
    }
    if (csr >= 0x3a0 && csr <= 0x3a3)
        snprintf(buf, len, "pmpcfg%u", (unsigned)(csr - 0x3a0));
    else if (csr >= 0x3b0 && csr <= 0x3bf)
        snprintf(buf, len, "pmpaddr%u", (unsigned)(csr - 0x3b0));
    else if (csr >= 0x323 && csr <= 0x33f)
        snprintf(buf, len, "mhpmevent%u", (unsigned)(csr - 0x320));
    else if (csr >= 0xb03 && csr <= 0xb1f)
        snprintf(buf, len, "mhpmcounter%u", (unsigned)(csr - 0xb00));
    else if (csr >= 0xb83 && csr <= 0xb9f)
        snprintf(buf, len, "mhpmcounter%uh", (unsigned)(csr - 0xb80));
    else if (csr >= 0xc03 && csr <= 0xc1f)
        snprintf(buf, len, "hpmcounter%u", (unsigned)(csr - 0xc00));
    else if (csr >= 0xc83 && csr <= 0xc9f)
        snprintf(buf, len, "hpmcounter%uh", (unsigned)(csr - 0xc80));
    else {
        snprintf(buf, len, "0x%03x", (unsigned)csr);
        return 0;
    }
    return 1;
}

const char *rv_missing_extension(uint32_t w)
{
    if ((w & 3u) != 3u) { /* RV32C floating-point loads and stores */
        static const char *const q0[8] = {
            NULL, "c.fld (D extension: double-precision floating point)",
            NULL, "c.flw (F extension: single-precision floating point)",
            NULL, "c.fsd (D extension: double-precision floating point)",
            NULL, "c.fsw (F extension: single-precision floating point)"};
        static const char *const q2[8] = {
            NULL, "c.fldsp (D extension: double-precision floating point)",
            NULL, "c.flwsp (F extension: single-precision floating point)",
            NULL, "c.fsdsp (D extension: double-precision floating point)",
            NULL, "c.fswsp (F extension: single-precision floating point)"};
        unsigned f3 = (w >> 13) & 7u;
        return (w & 3u) == 0 ? q0[f3] : (w & 3u) == 2 ? q2[f3] : NULL;
    }
    unsigned f3 = (w >> 12) & 7u;
    bool dbl = ((w >> 25) & 3u) == 1; /* fmt field of FP operations: 0 single, 1 double */
    switch (w & 0x7fu) {
    case 0x07:
        if (f3 == 2)
            return "flw (F extension: single-precision floating point)";
        if (f3 == 3)
            return "fld (D extension: double-precision floating point)";
        return "a vector load (V extension)";
    case 0x27:
        if (f3 == 2)
            return "fsw (F extension: single-precision floating point)";
        if (f3 == 3)
            return "fsd (D extension: double-precision floating point)";
        return "a vector store (V extension)";
    case 0x43:
    case 0x47:
    case 0x4b:
    case 0x4f:
        return dbl ? "a fused multiply-add (D extension: double-precision floating point)"
                   : "a fused multiply-add (F extension: single-precision floating point)";
    case 0x53:
        return dbl ? "a floating-point operation (D extension: double-precision floating point)"
                   : "a floating-point operation (F extension: single-precision floating point)";
    case 0x57: return "a vector instruction (V extension)";
    case 0x1b:
    case 0x3b: return "an RV64 word operation (the core is RV32)";
    case 0x2f: return f3 == 3 ? "an RV64 atomic (the core is RV32)" : NULL;
    default: return NULL;
    }
}

unsigned rv_disasm(uint32_t bits, uint32_t pc, char *buf, size_t len)
{
    static const rv_cpu no_cpu; /* rv_decode reads only the timing, irrelevant here */
    rv_insn in;
    rv_decode(&no_cpu, bits, &in);
    const unsigned op = in.op;
    const char *name = op < RV_OP_COUNT ? op_names[op] : NULL;
    const uint32_t target = pc + (uint32_t)in.imm;
    if (len == 0)
        return in.len;
    if (!name) {
        const char *ext = rv_missing_extension(in.raw);
        if (ext)
            snprintf(buf, len, "illegal 0x%0*x: %s", in.len * 2, (unsigned)in.raw, ext);
        else
            snprintf(buf, len, "illegal 0x%0*x", in.len * 2, (unsigned)in.raw);
        return in.len;
    }
    switch (op) {
    case RV_OP_LUI:
    case RV_OP_AUIPC:
        snprintf(buf, len, "%s %s, 0x%x", name, reg(in.rd), (unsigned)in.imm >> 12);
        break;
    case RV_OP_JAL: snprintf(buf, len, "%s %s, 0x%08x", name, reg(in.rd), (unsigned)target); break;
    case RV_OP_JALR:
    case RV_OP_LB:
    case RV_OP_LH:
    case RV_OP_LW:
    case RV_OP_LBU:
    case RV_OP_LHU:
        snprintf(buf, len, "%s %s, %d(%s)", name, reg(in.rd), (int)in.imm, reg(in.rs1));
        break;
    case RV_OP_SB:
    case RV_OP_SH:
    case RV_OP_SW:
        snprintf(buf, len, "%s %s, %d(%s)", name, reg(in.rs2), (int)in.imm, reg(in.rs1));
        break;
    case RV_OP_BEQ:
    case RV_OP_BNE:
    case RV_OP_BLT:
    case RV_OP_BGE:
    case RV_OP_BLTU:
    case RV_OP_BGEU:
        snprintf(buf, len, "%s %s, %s, 0x%08x", name, reg(in.rs1), reg(in.rs2), (unsigned)target);
        break;
    case RV_OP_FENCE:
    case RV_OP_FENCE_I:
    case RV_OP_ECALL:
    case RV_OP_EBREAK:
    case RV_OP_MRET:
    case RV_OP_SRET:
    case RV_OP_WFI: snprintf(buf, len, "%s", name); break;
    case RV_OP_SFENCE_VMA: snprintf(buf, len, "%s %s, %s", name, reg(in.rs1), reg(in.rs2)); break;
    case RV_OP_CSRRW:
    case RV_OP_CSRRS:
    case RV_OP_CSRRC:
    case RV_OP_CSRRWI:
    case RV_OP_CSRRSI:
    case RV_OP_CSRRCI: {
        char csr[16];
        const char *n = csr_name((uint32_t)in.imm);
        if (n)
            snprintf(csr, sizeof csr, "%s", n);
        else
            snprintf(csr, sizeof csr, "0x%03x", (unsigned)in.imm);
        if (op >= RV_OP_CSRRWI)
            snprintf(buf, len, "%s %s, %s, %u", name, reg(in.rd), csr, (unsigned)in.rs1);
        else
            snprintf(buf, len, "%s %s, %s, %s", name, reg(in.rd), csr, reg(in.rs1));
        break;
    }
    case RV_OP_LR: snprintf(buf, len, "%s %s, (%s)", name, reg(in.rd), reg(in.rs1)); break;
    case RV_OP_SLLI:
    case RV_OP_SRLI:
    case RV_OP_SRAI:
    case RV_OP_ADDI:
    case RV_OP_SLTI:
    case RV_OP_SLTIU:
    case RV_OP_XORI:
    case RV_OP_ORI:
    case RV_OP_ANDI:
        snprintf(buf, len, "%s %s, %s, %d", name, reg(in.rd), reg(in.rs1), (int)in.imm);
        break;
    default:
        if (op >= RV_OP_SC) /* sc.w and the AMOs */
            snprintf(buf, len, "%s %s, %s, (%s)", name, reg(in.rd), reg(in.rs2), reg(in.rs1));
        else /* register-register */
            snprintf(buf, len, "%s %s, %s, %s", name, reg(in.rd), reg(in.rs1), reg(in.rs2));
        break;
    }
    return in.len;
}
