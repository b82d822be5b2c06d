/* Kernel trap entry: saves the interrupted context as a trap_frame (hal/trap_frame.h), calls
 * k_trap(frame), which returns the frame of the thread to resume (maybe another one), and
 * restores that. k_trap returns with the kernel lock held; it is released here only after sp
 * has left the old stack, so another core that resumes the old thread meanwhile cannot write
 * over the stack this core is still using.
 *
 * Stacks: mscratch == 0 in M-mode (a kernel thread traps on its own stack); while a task runs in
 * U-mode, mscratch holds the top of its kernel stack, so its frame is always at the top. */
#include "hal/trap_frame.h"


    .section .text.k_trap_entry, "ax", @progbits
    .balign 4
    .globl k_trap_entry
    .type k_trap_entry, @function
k_trap_entry:
    csrrw   sp, mscratch, sp
    bnez    sp, 1f
    csrr    sp, mscratch
1:  addi    sp, sp, -TRAP_FRAME_SIZE
    TRAP_FRAME_SAVE_GPRS
    csrrw   t0, mscratch, zero
    sw      t0, TRAP_FRAME_REG(2)(sp)
    csrr    t0, mepc
    sw      t0, TRAP_FRAME_MEPC(sp)
    csrr    t0, mcause
    sw      t0, TRAP_FRAME_MCAUSE(sp)
    csrr    t0, mtval
    sw      t0, TRAP_FRAME_MTVAL(sp)
    csrr    t0, mstatus
    sw      t0, TRAP_FRAME_MSTATUS(sp)

    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop

    mv      a0, sp
    call    k_trap
    mv      sp, a0                  /* the frame to resume */

    la      t0, k_lock              /* release the ticket lock: serving (+4) += 1 */
    lw      t1, 4(t0)
    addi    t1, t1, 1
    fence   rw, w
    sw      t1, 4(t0)

    lw      t0, TRAP_FRAME_MEPC(sp)
    csrw    mepc, t0
    lw      t0, TRAP_FRAME_MSTATUS(sp)
    csrw    mstatus, t0
    li      t1, 0x1800
    and     t0, t0, t1
    beq     t0, t1, 2f
    addi    t0, sp, TRAP_FRAME_SIZE /* to U-mode: the next trap uses this kernel stack */
    csrw    mscratch, t0
2:
    TRAP_FRAME_RESTORE_GPRS
    lw      sp, TRAP_FRAME_REG(2)(sp)
    mret
    .size k_trap_entry, . - k_trap_entry
