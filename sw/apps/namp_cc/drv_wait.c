/* The driver-level paths' completion wait (drv_wait.h). */
#include "drv_wait.h"

#include <stdio.h>
#include <stdlib.h>

#include "hal/hal.h"
#include "na/na.h"
#include "namp/namp.h"

volatile uint64_t drv_idle;
volatile uint32_t drv_waits;
volatile int drv_look_late;

void drv_await(uint32_t mask)
{
    uint64_t t0 = cpu_cycles();
    while ((namp_done_slots() & mask) != mask)
        wait_for_interrupt(); /* the DONE line wakes it (MIE off: no trap) */
    drv_idle += cpu_cycles() - t0;
}

/* One NA_NAMP_DONE_SLOTS read per pass finds the done slots; in between the core sleeps in wfi
 * with interrupts off (the DONE line wakes it, no trap); another adapter source gets its handler. */
uint32_t drv_finish(uint32_t mask, uint32_t keep)
{
    uint32_t saved = irq_global_disable();
    if (drv_look_late && keep == 0u)
        drv_await(mask);
    while ((uint32_t)__builtin_popcount(mask) > keep) {
        uint32_t done = namp_done_slots() & mask;
        if (done) {
            for (uint32_t d = done; d; d &= d - 1u) {
                unsigned slot = (unsigned)__builtin_ctz(d);
                uint32_t e = namp_slot_finish(slot);
                namp_slot_free(slot);
                if (e) {
                    printf("ccbench FAIL: driver-level slot: %s\n", namp_error_name(e));
                    exit(1);
                }
            }
            mask &= ~done;
            continue;
        }
        if (na_irq_active() & ~NA_IRQ_SRC_NAMP_DONE) {
            irq_global_restore(saved); /* not ours: its handler runs */
            saved = irq_global_disable();
            continue;
        }
        drv_waits++;
        uint64_t t0 = cpu_cycles();
        wait_for_interrupt();
        drv_idle += cpu_cycles() - t0;
    }
    irq_global_restore(saved);
    return mask;
}
