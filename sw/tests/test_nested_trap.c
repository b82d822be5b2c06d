/* Nested traps: a handler that itself takes an exception.
 *
 * main enables mstatus.MIE (no interrupt source enabled, so nothing fires) and loads from an
 * unmapped address. The load-fault handler executes an illegal instruction; the illegal-
 * instruction handler skips it. When the nested trap returns, the outer handler must still see
 * its own frame (mepc of the load, mcause 5) and the hardware CSRs must be restored from the frame
 * on return, so main continues after the load with MIE set again (the nested trap overwrote
 * mstatus.MPIE/MPP and mepc in the CSRs; the trap entry saves and restores them).
 * Expected: "nested trap ok"; exit 0 (1 on failure). */
#include <stdint.h>
#include <stdio.h>

#include "hal/hal.h"

#define UNMAPPED_ADDR 0x30000000u

static volatile uint32_t outer_count, inner_count, outer_ok;

static void illegal_handler(trap_frame_t *frame)
{
    inner_count++;
    /* Taken in M-mode from inside a handler, where MIE is off. */
    if ((frame->mstatus & MSTATUS_MPP) != MSTATUS_MPP_M || (frame->mstatus & MSTATUS_MPIE))
        inner_count += 100;
    trap_skip_instruction(frame);
}

static void load_fault_handler(trap_frame_t *frame)
{
    uint32_t mepc_before = frame->mepc;
    outer_count++;
    __asm__ volatile(".4byte 0x0000000b"); /* custom-0: illegal -> nested trap */
    outer_ok = inner_count == 1 && frame->mepc == mepc_before && frame->mcause == EXC_LOAD_ACCESS &&
               frame->mtval == UNMAPPED_ADDR &&
               (frame->mstatus & MSTATUS_MPIE); /* main had MIE set when it faulted */
    trap_skip_instruction(frame);
}

int main(void)
{
    /* Single-core test (shared globals): on an SMP tile the other cores stay out and exit 0. */
    if (tile_core_id() != 0)
        return 0;
    trap_set_handler(EXC_LOAD_ACCESS, load_fault_handler);
    trap_set_handler(EXC_ILLEGAL_INSN, illegal_handler);
    irq_global_enable();

    (void)*(volatile uint32_t *)UNMAPPED_ADDR;

    uint32_t mie_after = csr_read(mstatus) & MSTATUS_MIE;
    irq_global_disable();
    int ok = outer_count == 1 && inner_count == 1 && outer_ok && mie_after;
    printf("%s: outer %lu, inner %lu, outer frame %s, MIE after return %s\n",
           ok ? "nested trap ok" : "FAIL nested trap", (unsigned long)outer_count,
           (unsigned long)inner_count, outer_ok ? "intact" : "CORRUPTED", mie_after ? "1" : "0");
    return ok ? 0 : 1;
}
