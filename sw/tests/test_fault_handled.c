/* Handled exceptions: a registered handler sees the right mcause/mtval, skips the faulting
 * instruction and execution continues. Three cases:
 *   load from 0x40080000, a hole in the network adapter window (bus error)   -> cause 5
 *   store to the unmapped 0x30000004                                         -> cause 7
 *   an illegal (custom-0) instruction 0xc0de000b                             -> cause 2, mtval = bits
 * Expected: "caught load access fault at 0x40080000", "caught store access fault at 0x30000004",
 * "caught illegal instruction 0xc0de000b", "all faults handled"; exit 0 (1 on any mismatch). */
#include <stdint.h>
#include <stdio.h>

#include "hal/hal.h"

#define NA_WINDOW_HOLE 0x40080000u /* between the NoC buffers and the DMA slots */
#define UNMAPPED_STORE 0x30000004u
#define ILLEGAL_INSN   0xc0de000bu /* opcode 0001011 = custom-0: not implemented by the core */

static volatile uint32_t seen_cause, seen_tval, seen_count;

static void record_and_skip(trap_frame_t *frame)
{
    seen_cause = frame->mcause;
    seen_tval = frame->mtval;
    seen_count++;
    trap_skip_instruction(frame);
}

static int check(const char *what, uint32_t cause, uint32_t tval)
{
    uint32_t count = seen_count;
    seen_count = 0;
    if (count != 1 || seen_cause != cause || seen_tval != tval) {
        printf("FAIL %s: traps=%lu mcause=%lu mtval=0x%08lx, expected 1 trap, mcause=%lu "
               "mtval=0x%08lx\n",
               what, (unsigned long)count, (unsigned long)seen_cause, (unsigned long)seen_tval,
               (unsigned long)cause, (unsigned long)tval);
        return 1;
    }
    return 0;
}

int main(void)
{
    /* Single-core test (shared globals): on an SMP tile the other cores stay out and exit 0. */
    if (tile_core_id() != 0)
        return 0;
    int failures = 0;
    trap_set_handler(EXC_LOAD_ACCESS, record_and_skip);
    trap_set_handler(EXC_STORE_ACCESS, record_and_skip);
    trap_set_handler(EXC_ILLEGAL_INSN, record_and_skip);

    (void)*(volatile uint32_t *)NA_WINDOW_HOLE;
    if (!check("load", EXC_LOAD_ACCESS, NA_WINDOW_HOLE))
        printf("caught load access fault at 0x%08lx\n", (unsigned long)seen_tval);
    else
        failures++;

    *(volatile uint32_t *)UNMAPPED_STORE = 0x12345678u;
    if (!check("store", EXC_STORE_ACCESS, UNMAPPED_STORE))
        printf("caught store access fault at 0x%08lx\n", (unsigned long)seen_tval);
    else
        failures++;

    __asm__ volatile(".4byte %0" ::"i"(ILLEGAL_INSN));
    if (!check("illegal instruction", EXC_ILLEGAL_INSN, ILLEGAL_INSN))
        printf("caught illegal instruction 0x%08lx\n", (unsigned long)seen_tval);
    else
        failures++;

    if (failures)
        return 1;
    printf("all faults handled\n");
    return 0;
}
