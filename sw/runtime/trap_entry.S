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


    .section .text.namp_trap_entry, "ax", @progbits
    .balign 4
    .globl namp_trap_entry
    .type namp_trap_entry, @function
namp_trap_entry:
    csrrw   sp, mscratch, sp        /* sp <- M stack (or 0), mscratch <- interrupted sp */
    bnez    sp, 1f
    csrr    sp, mscratch            /* trap from M-mode: keep using the interrupted stack */
1:  addi    sp, sp, -TRAP_FRAME_SIZE
    TRAP_FRAME_SAVE_GPRS
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
    TRAP_FRAME_RESTORE_GPRS
    lw      sp, TRAP_FRAME_REG(2)(sp)   /* last: the frame is addressed through sp */
    mret
    .size namp_trap_entry, . - namp_trap_entry
