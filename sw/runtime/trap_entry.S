/* Common machine-mode trap entry (mtvec direct mode).
 *
 * Pushes a trap_frame (hal/trap_frame.h: x1..x31, mepc, mcause, mtval, mstatus), calls the C
 * dispatcher namp_trap_dispatch(frame), then restores everything from the frame (so a handler can
 * change registers, mepc or mstatus.MPP) and returns with mret.
 *
 * Stack choice uses the usual mscratch convention:
 *   mscratch == 0  while the hart runs in M-mode: the trap uses the current sp (nested traps work,
 *                  because mepc/mstatus of the outer trap are saved in its frame);
 *   mscratch != 0  while running in a lower mode: it holds the M-mode stack to switch to.
 * Returning to a lower mode (MPP != M) sets mscratch again to the M-mode sp above this frame.
 */
#include "hal/trap_frame.h"

#define SAVE(r)    sw x##r, TRAP_FRAME_REG(r)(sp)
#define RESTORE(r) lw x##r, TRAP_FRAME_REG(r)(sp)

    .section .text.namp_trap_entry, "ax", @progbits
    .balign 4
    .globl namp_trap_entry
    .type namp_trap_entry, @function
namp_trap_entry:
    csrrw   sp, mscratch, sp        /* sp <- M stack (or 0), mscratch <- interrupted sp */
    bnez    sp, 1f
    csrr    sp, mscratch            /* trap from M-mode: keep using the interrupted stack */
1:  addi    sp, sp, -TRAP_FRAME_SIZE
    SAVE(1)
    SAVE(3)
    SAVE(4)
    SAVE(5)
    SAVE(6)
    SAVE(7)
    SAVE(8)
    SAVE(9)
    SAVE(10)
    SAVE(11)
    SAVE(12)
    SAVE(13)
    SAVE(14)
    SAVE(15)
    SAVE(16)
    SAVE(17)
    SAVE(18)
    SAVE(19)
    SAVE(20)
    SAVE(21)
    SAVE(22)
    SAVE(23)
    SAVE(24)
    SAVE(25)
    SAVE(26)
    SAVE(27)
    SAVE(28)
    SAVE(29)
    SAVE(30)
    SAVE(31)
    csrrw   t0, mscratch, zero      /* interrupted sp; we are in M-mode now: mscratch = 0 */
    sw      t0, TRAP_FRAME_REG(2)(sp)
    csrr    t0, mepc
    sw      t0, TRAP_FRAME_MEPC(sp)
    csrr    t0, mcause
    sw      t0, TRAP_FRAME_MCAUSE(sp)
    csrr    t0, mtval
    sw      t0, TRAP_FRAME_MTVAL(sp)
    csrr    t0, mstatus
    sw      t0, TRAP_FRAME_MSTATUS(sp)

    /* gp/tp may belong to lower-mode code: the C dispatcher needs the firmware's own. tp is kept
     * (this firmware shares one image for all modes and sets tp per hart only in M-mode). */
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop

    mv      a0, sp
    call    namp_trap_dispatch

    lw      t0, TRAP_FRAME_MEPC(sp)
    csrw    mepc, t0
    lw      t0, TRAP_FRAME_MSTATUS(sp)
    csrw    mstatus, t0             /* MIE is clear in the saved value: stays off until mret */
    li      t1, 0x1800              /* MPP field */
    and     t0, t0, t1
    beq     t0, t1, 2f
    addi    t0, sp, TRAP_FRAME_SIZE /* returning to U/S-mode: next trap switches to this stack */
    csrw    mscratch, t0
2:
    RESTORE(1)
    RESTORE(3)
    RESTORE(4)
    RESTORE(5)
    RESTORE(6)
    RESTORE(7)
    RESTORE(8)
    RESTORE(9)
    RESTORE(10)
    RESTORE(11)
    RESTORE(12)
    RESTORE(13)
    RESTORE(14)
    RESTORE(15)
    RESTORE(16)
    RESTORE(17)
    RESTORE(18)
    RESTORE(19)
    RESTORE(20)
    RESTORE(21)
    RESTORE(22)
    RESTORE(23)
    RESTORE(24)
    RESTORE(25)
    RESTORE(26)
    RESTORE(27)
    RESTORE(28)
    RESTORE(29)
    RESTORE(30)
    RESTORE(31)
    lw      sp, TRAP_FRAME_REG(2)(sp)   /* last: the frame is addressed through sp */
    mret
    .size namp_trap_entry, . - namp_trap_entry
