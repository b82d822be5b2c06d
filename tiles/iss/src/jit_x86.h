/* A small x86-64 instruction encoder: only the forms the block translator uses (jit_translate.c).
 *
 * Memory operands are [base + disp] or [base + index*scale + disp]. Operand size: the functions
 * named ...32 work on 32-bit registers (writing one zero-extends to 64 bits), ...64 on 64-bit ones.
 * Writing stops when the buffer is full; the caller checks x86_full() and throws the code away.
 */
#ifndef ISS_JIT_X86_H
#define ISS_JIT_X86_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum x86_reg {
    X86_RAX,
    X86_RCX,
    X86_RDX,
    X86_RBX,
    X86_RSP,
    X86_RBP,
    X86_RSI,
    X86_RDI,
    X86_R8,
    X86_R9,
    X86_R10,
    X86_R11,
    X86_R12,
    X86_R13,
    X86_R14,
    X86_R15,
} x86_reg;

/* The /digit of the immediate group (0x81/0x83) and the base opcode >> 3 of the register forms. */
typedef enum x86_alu {
    X86_ADD = 0,
    X86_OR = 1,
    X86_AND = 4,
    X86_SUB = 5,
    X86_XOR = 6,
    X86_CMP = 7
} x86_alu;

/* The /digit of the shift group (0xc1/0xd3). */
typedef enum x86_shift { X86_SHL = 4, X86_SHR = 5, X86_SAR = 7 } x86_shift;

typedef enum x86_cc {
    X86_CC_B = 0x2,
    X86_CC_AE = 0x3,
    X86_CC_E = 0x4,
    X86_CC_NE = 0x5,
    X86_CC_L = 0xc,
    X86_CC_GE = 0xd,
} x86_cc;

typedef struct x86_asm {
    uint8_t *p, *end;
    bool full;
} x86_asm;

typedef struct x86_mem {
    x86_reg base;
    int index;      /* an x86_reg, or -1 for none */
    unsigned scale; /* 1, 2, 4 or 8 */
    int32_t disp;
} x86_mem;

static inline x86_mem x86_at(x86_reg base, int32_t disp)
{
    x86_mem m = {base, -1, 1, disp};
    return m;
}

static inline x86_mem x86_at_index(x86_reg base, x86_reg index, unsigned scale, int32_t disp)
{
    x86_mem m = {base, (int)index, scale, disp};
    return m;
}

void x86_init(x86_asm *a, uint8_t *start, uint8_t *end);
static inline bool x86_full(const x86_asm *a) { return a->full; }
static inline uint8_t *x86_here(const x86_asm *a) { return a->p; }

void x86_mov32_load(x86_asm *a, x86_reg dst, x86_mem m);       /* mov r32, [m] */
void x86_mov64_load(x86_asm *a, x86_reg dst, x86_mem m);       /* mov r64, [m] */
void x86_mov32_store(x86_asm *a, x86_mem m, x86_reg src);      /* mov [m], r32 */
void x86_mov64_store(x86_asm *a, x86_mem m, x86_reg src);      /* mov [m], r64 */
void x86_mov16_store(x86_asm *a, x86_mem m, x86_reg src);      /* mov [m], r16 */
void x86_mov8_store(x86_asm *a, x86_mem m, x86_reg src);       /* mov [m], r8 (al, cl, dl, bl) */
void x86_mov32_store_imm(x86_asm *a, x86_mem m, uint32_t imm); /* mov dword [m], imm32 */
void x86_mov32_imm(x86_asm *a, x86_reg dst, uint32_t imm);
void x86_mov64_imm(x86_asm *a, x86_reg dst, uint64_t imm);
void x86_mov32(x86_asm *a, x86_reg dst, x86_reg src);
void x86_mov64(x86_asm *a, x86_reg dst, x86_reg src);
/* movzx/movsx r32 from an 8- or 16-bit memory operand */
void x86_load_ext(x86_asm *a, x86_reg dst, x86_mem m, unsigned bytes, bool sign);
void x86_movsxd_load(x86_asm *a, x86_reg dst, x86_mem m); /* movsxd r64, dword [m] */
void x86_lea64(x86_asm *a, x86_reg dst, x86_mem m);

void x86_alu32(x86_asm *a, x86_alu op, x86_reg dst, x86_reg src);       /* op r32, r32 */
void x86_alu64(x86_asm *a, x86_alu op, x86_reg dst, x86_reg src);       /* op r64, r64 */
void x86_alu32_load(x86_asm *a, x86_alu op, x86_reg dst, x86_mem m);    /* op r32, [m] */
void x86_alu32_imm(x86_asm *a, x86_alu op, x86_reg dst, int32_t imm);   /* op r32, imm */
void x86_alu32_mem_imm(x86_asm *a, x86_alu op, x86_mem m, int32_t imm); /* op dword [m], imm */
void x86_alu64_mem_imm(x86_asm *a, x86_alu op, x86_mem m, int32_t imm); /* op qword [m], imm */
void x86_alu64_mem_reg(x86_asm *a, x86_alu op, x86_mem m, x86_reg src); /* op qword [m], r64 */
void x86_alu64_load(x86_asm *a, x86_alu op, x86_reg dst, x86_mem m);    /* op r64, [m] */
void x86_alu64_imm(x86_asm *a, x86_alu op, x86_reg dst, int32_t imm);   /* op r64, imm */
void x86_test32_imm(x86_asm *a, x86_reg r, uint32_t imm);
void x86_test64(x86_asm *a, x86_reg r, x86_reg s);
void x86_shift32_imm(x86_asm *a, x86_shift op, x86_reg r, uint8_t n);
void x86_shift32_cl(x86_asm *a, x86_shift op, x86_reg r);
void x86_shift64_imm(x86_asm *a, x86_shift op, x86_reg r, uint8_t n);
void x86_imul32_load(x86_asm *a, x86_reg dst, x86_mem m); /* imul r32, [m] */
void x86_imul32(x86_asm *a, x86_reg dst, x86_reg src);    /* imul r32, r32 */
void x86_movsxd(x86_asm *a, x86_reg dst, x86_reg src);    /* movsxd r64, r32 */
void x86_imul32_imm(x86_asm *a, x86_reg dst, x86_reg src, int32_t imm);
void x86_imul64(x86_asm *a, x86_reg dst, x86_reg src);
void x86_setcc(x86_asm *a, x86_cc cc, x86_reg r8);      /* al, cl, dl, bl */
void x86_movzx8(x86_asm *a, x86_reg dst, x86_reg src8); /* movzx r32, r8 (al, cl, dl, bl) */

void x86_push(x86_asm *a, x86_reg r);
void x86_pop(x86_asm *a, x86_reg r);
void x86_ret(x86_asm *a);
void x86_call_reg(x86_asm *a, x86_reg r);
void x86_jmp_reg(x86_asm *a, x86_reg r);
/* Relative jumps: the address of the 32-bit displacement, to bind with x86_bind/x86_patch. */
uint8_t *x86_jmp(x86_asm *a);
uint8_t *x86_jcc(x86_asm *a, x86_cc cc);
void x86_jmp_to(x86_asm *a, const uint8_t *target);
void x86_jcc_to(x86_asm *a, x86_cc cc, const uint8_t *target);
/* Points the displacement at rel32 to target. NULL rel32 (emitted into a full buffer) is ignored. */
void x86_patch(uint8_t *rel32, const uint8_t *target);

#endif
