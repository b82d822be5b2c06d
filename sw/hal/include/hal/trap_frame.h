/* Layout of the register frame the trap entry (runtime/trap_entry.S) pushes on the stack.
 * Shared by the assembly (offsets) and C (struct), so both must change together. */
#ifndef HAL_TRAP_FRAME_H
#define HAL_TRAP_FRAME_H

/* Byte offsets. regs[i] holds integer register x<i>; regs[0] is unused (x0 is always zero),
 * regs[2] holds the sp of the interrupted code (not the frame address). */
#define TRAP_FRAME_REG(i)  ((i)*4)
#define TRAP_FRAME_MEPC    (32 * 4)
#define TRAP_FRAME_MCAUSE  (33 * 4)
#define TRAP_FRAME_MTVAL   (34 * 4)
#define TRAP_FRAME_MSTATUS (35 * 4)
#define TRAP_FRAME_SIZE    (36 * 4) /* 144: a multiple of 16, keeps sp ABI-aligned */

/* assembler macros: not C */
/* clang-format off */
#ifdef __ASSEMBLER__
/* Save and restore of x1 and x3..x31 at their frame offsets from sp, for every trap entry (the
 * runtime's and the kernel's). x2 is not in the list: each entry stores the interrupted sp itself
 * and reloads sp last. */
.macro TRAP_FRAME_SAVE_GPRS
    .irp r, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
    sw x\r, TRAP_FRAME_REG(\r)(sp)
    .endr
.endm
.macro TRAP_FRAME_RESTORE_GPRS
    .irp r, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
    lw x\r, TRAP_FRAME_REG(\r)(sp)
    .endr
.endm
/* clang-format on */
#else
#include <stdint.h>

typedef struct trap_frame {
    uint32_t regs[32]; /* x0..x31 at the time of the trap; handlers may modify them (e.g. a0) */
    uint32_t mepc;     /* where mret resumes; a handler skipping the instruction advances it */
    uint32_t mcause;
    uint32_t mtval;
    uint32_t mstatus; /* restored on return: MPP selects the mode mret returns to */
} trap_frame_t;

_Static_assert(sizeof(trap_frame_t) == TRAP_FRAME_SIZE, "trap frame layout mismatch");

/* ABI register names as indices into regs[]. */
enum {
    REG_RA = 1,
    REG_SP = 2,
    REG_GP = 3,
    REG_TP = 4,
    REG_T0 = 5,
    REG_T1 = 6,
    REG_T2 = 7,
    REG_S0 = 8,
    REG_S1 = 9,
    REG_A0 = 10,
    REG_A1 = 11,
    REG_A2 = 12,
    REG_A3 = 13,
    REG_A4 = 14,
    REG_A5 = 15,
    REG_A6 = 16,
    REG_A7 = 17,
};
#endif

#endif
