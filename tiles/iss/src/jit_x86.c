/* x86-64 instruction encoding (jit_x86.h). References: Intel SDM vol. 2, chapter 2 (REX, ModRM,
 * SIB) and the opcode tables. */
#include "jit_x86.h"

#include <string.h>

#define MAX_INSN 16 /* longest instruction emitted (mov r64, imm64 is 10 bytes) */

void x86_init(x86_asm *a, uint8_t *start, uint8_t *end)
{
    a->p = start;
    a->end = end;
    a->full = false;
}

/* Room for one more instruction; once the buffer is full nothing more is written. */
static bool room(x86_asm *a)
{
    if (a->full || a->end - a->p < MAX_INSN) {
        a->full = true;
        return false;
    }
    return true;
}

static void byte(x86_asm *a, unsigned b) { *a->p++ = (uint8_t)b; }

static void u32(x86_asm *a, uint32_t v)
{
    memcpy(a->p, &v, 4);
    a->p += 4;
}

static bool fits8(int32_t v) { return v >= -128 && v <= 127; }

/* REX prefix with W, and the high bits of the reg, index and base fields; omitted when empty
 * unless forced. */
static void rex(x86_asm *a, bool w, unsigned reg, unsigned index, unsigned base, bool force)
{
    unsigned r = 0x40u | (w ? 8u : 0u) | ((reg >> 3) << 2) | ((index >> 3) << 1) | (base >> 3);
    if (r != 0x40u || force)
        byte(a, r);
}

static void rex_mem(x86_asm *a, bool w, unsigned reg, x86_mem m)
{
    rex(a, w, reg, m.index >= 0 ? (unsigned)m.index : 0u, m.base, false);
}

/* ModRM (+ SIB + displacement) for a memory operand. */
static void modrm_mem(x86_asm *a, unsigned reg, x86_mem m)
{
    unsigned base = m.base & 7u;
    unsigned mod = (m.disp == 0 && base != 5u) ? 0u : fits8(m.disp) ? 1u : 2u;
    if (m.index >= 0 || base == 4u) {
        unsigned ss = m.scale == 8 ? 3u : m.scale == 4 ? 2u : m.scale == 2 ? 1u : 0u;
        unsigned index = m.index >= 0 ? ((unsigned)m.index & 7u) : 4u; /* 4: no index */
        byte(a, (mod << 6) | ((reg & 7u) << 3) | 4u);
        byte(a, (ss << 6) | (index << 3) | base);
    } else {
        byte(a, (mod << 6) | ((reg & 7u) << 3) | base);
    }
    if (mod == 1u)
        byte(a, (uint8_t)(int8_t)m.disp);
    else if (mod == 2u)
        u32(a, (uint32_t)m.disp);
}

static void modrm_reg(x86_asm *a, unsigned reg, unsigned rm)
{
    byte(a, 0xc0u | ((reg & 7u) << 3) | (rm & 7u));
}

/* One-byte opcode with a register and a memory operand. */
static void op_mem(x86_asm *a, bool w, unsigned opcode, unsigned reg, x86_mem m)
{
    if (!room(a))
        return;
    rex_mem(a, w, reg, m);
    byte(a, opcode);
    modrm_mem(a, reg, m);
}

/* Two-byte opcode (0x0f xx) with a register and a memory operand. */
static void op2_mem(x86_asm *a, bool w, unsigned opcode, unsigned reg, x86_mem m)
{
    if (!room(a))
        return;
    rex_mem(a, w, reg, m);
    byte(a, 0x0f);
    byte(a, opcode);
    modrm_mem(a, reg, m);
}

/* One-byte opcode, register operands: reg field and rm field. */
static void op_reg(x86_asm *a, bool w, unsigned opcode, unsigned reg, unsigned rm)
{
    if (!room(a))
        return;
    rex(a, w, reg, 0, rm, false);
    byte(a, opcode);
    modrm_reg(a, reg, rm);
}

void x86_mov32_load(x86_asm *a, x86_reg dst, x86_mem m) { op_mem(a, false, 0x8b, dst, m); }
void x86_mov64_load(x86_asm *a, x86_reg dst, x86_mem m) { op_mem(a, true, 0x8b, dst, m); }
void x86_mov32_store(x86_asm *a, x86_mem m, x86_reg src) { op_mem(a, false, 0x89, src, m); }
void x86_mov64_store(x86_asm *a, x86_mem m, x86_reg src) { op_mem(a, true, 0x89, src, m); }

void x86_mov16_store(x86_asm *a, x86_mem m, x86_reg src)
{
    if (!room(a))
        return;
    byte(a, 0x66);
    rex_mem(a, false, src, m);
    byte(a, 0x89);
    modrm_mem(a, src, m);
}

void x86_mov8_store(x86_asm *a, x86_mem m, x86_reg src) { op_mem(a, false, 0x88, src, m); }

void x86_mov32_store_imm(x86_asm *a, x86_mem m, uint32_t imm)
{
    op_mem(a, false, 0xc7, 0, m);
    if (!a->full)
        u32(a, imm);
}

void x86_mov32_imm(x86_asm *a, x86_reg dst, uint32_t imm)
{
    if (!room(a))
        return;
    rex(a, false, 0, 0, dst, false);
    byte(a, 0xb8u + (dst & 7u));
    u32(a, imm);
}

void x86_mov64_imm(x86_asm *a, x86_reg dst, uint64_t imm)
{
    if (imm <= 0xffffffffu) { /* the 32-bit move zero-extends */
        x86_mov32_imm(a, dst, (uint32_t)imm);
        return;
    }
    if (!room(a))
        return;
    rex(a, true, 0, 0, dst, false);
    byte(a, 0xb8u + (dst & 7u));
    u32(a, (uint32_t)imm);
    u32(a, (uint32_t)(imm >> 32));
}

void x86_mov32(x86_asm *a, x86_reg dst, x86_reg src) { op_reg(a, false, 0x89, src, dst); }
void x86_mov64(x86_asm *a, x86_reg dst, x86_reg src) { op_reg(a, true, 0x89, src, dst); }

void x86_load_ext(x86_asm *a, x86_reg dst, x86_mem m, unsigned bytes, bool sign)
{
    unsigned opcode = (sign ? 0xbeu : 0xb6u) + (bytes == 2 ? 1u : 0u);
    op2_mem(a, false, opcode, dst, m);
}

void x86_movsxd_load(x86_asm *a, x86_reg dst, x86_mem m) { op_mem(a, true, 0x63, dst, m); }
void x86_lea64(x86_asm *a, x86_reg dst, x86_mem m) { op_mem(a, true, 0x8d, dst, m); }

void x86_alu32(x86_asm *a, x86_alu op, x86_reg dst, x86_reg src)
{
    op_reg(a, false, ((unsigned)op << 3) | 1u, src, dst);
}

void x86_alu64(x86_asm *a, x86_alu op, x86_reg dst, x86_reg src)
{
    op_reg(a, true, ((unsigned)op << 3) | 1u, src, dst);
}

void x86_alu32_load(x86_asm *a, x86_alu op, x86_reg dst, x86_mem m)
{
    op_mem(a, false, ((unsigned)op << 3) | 3u, dst, m);
}

void x86_alu64_load(x86_asm *a, x86_alu op, x86_reg dst, x86_mem m)
{
    op_mem(a, true, ((unsigned)op << 3) | 3u, dst, m);
}

static void alu_imm_reg(x86_asm *a, bool w, x86_alu op, x86_reg dst, int32_t imm)
{
    if (!room(a))
        return;
    rex(a, w, 0, 0, dst, false);
    byte(a, fits8(imm) ? 0x83 : 0x81);
    modrm_reg(a, op, dst);
    if (fits8(imm))
        byte(a, (uint8_t)(int8_t)imm);
    else
        u32(a, (uint32_t)imm);
}

void x86_alu32_imm(x86_asm *a, x86_alu op, x86_reg dst, int32_t imm)
{
    alu_imm_reg(a, false, op, dst, imm);
}
void x86_alu64_imm(x86_asm *a, x86_alu op, x86_reg dst, int32_t imm)
{
    alu_imm_reg(a, true, op, dst, imm);
}

static void alu_imm_mem(x86_asm *a, bool w, x86_alu op, x86_mem m, int32_t imm)
{
    op_mem(a, w, fits8(imm) ? 0x83 : 0x81, op, m);
    if (a->full)
        return;
    if (fits8(imm))
        byte(a, (uint8_t)(int8_t)imm);
    else
        u32(a, (uint32_t)imm);
}

void x86_alu32_mem_imm(x86_asm *a, x86_alu op, x86_mem m, int32_t imm)
{
    alu_imm_mem(a, false, op, m, imm);
}
void x86_alu64_mem_imm(x86_asm *a, x86_alu op, x86_mem m, int32_t imm)
{
    alu_imm_mem(a, true, op, m, imm);
}

void x86_alu64_mem_reg(x86_asm *a, x86_alu op, x86_mem m, x86_reg src)
{
    op_mem(a, true, ((unsigned)op << 3) | 1u, src, m);
}

void x86_test32_imm(x86_asm *a, x86_reg r, uint32_t imm)
{
    if (!room(a))
        return;
    if (r == X86_RAX) {
        byte(a, 0xa9);
    } else {
        rex(a, false, 0, 0, r, false);
        byte(a, 0xf7);
        modrm_reg(a, 0, r);
    }
    u32(a, imm);
}

void x86_test64(x86_asm *a, x86_reg r, x86_reg s) { op_reg(a, true, 0x85, s, r); }

void x86_shift32_imm(x86_asm *a, x86_shift op, x86_reg r, uint8_t n)
{
    op_reg(a, false, 0xc1, op, r);
    if (!a->full)
        byte(a, n);
}

void x86_shift32_cl(x86_asm *a, x86_shift op, x86_reg r) { op_reg(a, false, 0xd3, op, r); }

void x86_shift64_imm(x86_asm *a, x86_shift op, x86_reg r, uint8_t n)
{
    op_reg(a, true, 0xc1, op, r);
    if (!a->full)
        byte(a, n);
}

void x86_imul32_load(x86_asm *a, x86_reg dst, x86_mem m) { op2_mem(a, false, 0xaf, dst, m); }

void x86_imul32(x86_asm *a, x86_reg dst, x86_reg src)
{
    if (!room(a))
        return;
    rex(a, false, dst, 0, src, false);
    byte(a, 0x0f);
    byte(a, 0xaf);
    modrm_reg(a, dst, src);
}

void x86_movsxd(x86_asm *a, x86_reg dst, x86_reg src) { op_reg(a, true, 0x63, dst, src); }

void x86_imul32_imm(x86_asm *a, x86_reg dst, x86_reg src, int32_t imm)
{
    op_reg(a, false, 0x69, dst, src);
    if (!a->full)
        u32(a, (uint32_t)imm);
}

void x86_imul64(x86_asm *a, x86_reg dst, x86_reg src)
{
    if (!room(a))
        return;
    rex(a, true, dst, 0, src, false);
    byte(a, 0x0f);
    byte(a, 0xaf);
    modrm_reg(a, dst, src);
}

void x86_setcc(x86_asm *a, x86_cc cc, x86_reg r8)
{
    if (!room(a))
        return;
    byte(a, 0x0f);
    byte(a, 0x90u + (unsigned)cc);
    modrm_reg(a, 0, r8);
}

void x86_movzx8(x86_asm *a, x86_reg dst, x86_reg src8)
{
    if (!room(a))
        return;
    rex(a, false, dst, 0, 0, false);
    byte(a, 0x0f);
    byte(a, 0xb6);
    modrm_reg(a, dst, src8);
}

void x86_push(x86_asm *a, x86_reg r)
{
    if (!room(a))
        return;
    rex(a, false, 0, 0, r, false);
    byte(a, 0x50u + (r & 7u));
}

void x86_pop(x86_asm *a, x86_reg r)
{
    if (!room(a))
        return;
    rex(a, false, 0, 0, r, false);
    byte(a, 0x58u + (r & 7u));
}

void x86_ret(x86_asm *a)
{
    if (room(a))
        byte(a, 0xc3);
}

void x86_call_reg(x86_asm *a, x86_reg r) { op_reg(a, false, 0xff, 2, r); }
void x86_jmp_reg(x86_asm *a, x86_reg r) { op_reg(a, false, 0xff, 4, r); }

uint8_t *x86_jmp(x86_asm *a)
{
    if (!room(a))
        return NULL;
    byte(a, 0xe9);
    uint8_t *rel = a->p;
    u32(a, 0);
    return rel;
}

uint8_t *x86_jcc(x86_asm *a, x86_cc cc)
{
    if (!room(a))
        return NULL;
    byte(a, 0x0f);
    byte(a, 0x80u + (unsigned)cc);
    uint8_t *rel = a->p;
    u32(a, 0);
    return rel;
}

void x86_patch(uint8_t *rel32, const uint8_t *target)
{
    if (!rel32)
        return;
    int32_t d = (int32_t)(target - (rel32 + 4));
    memcpy(rel32, &d, 4);
}

void x86_jmp_to(x86_asm *a, const uint8_t *target) { x86_patch(x86_jmp(a), target); }
void x86_jcc_to(x86_asm *a, x86_cc cc, const uint8_t *target) { x86_patch(x86_jcc(a, cc), target); }
