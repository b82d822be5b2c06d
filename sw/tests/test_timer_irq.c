/* Machine timer interrupts: the hart arms mtimecmp, enables MTI, sleeps in wfi and counts
 * TICKS interrupts, re-arming mtimecmp one period later in each one. Every core of an SMP tile
 * does this at the same time with its own mtimecmp (state is per hart).
 * Expected: "timer irq: 5 of 5 interrupts, mtime delta <d> ticks (period <p>)", "timer irq ok";
 * exit 0 if all arrived with mcause = interrupt 7 and the elapsed mtime covers TICKS periods. */
#include <stdint.h>
#include <stdio.h>

#include "hal/hal.h"

#define TICKS 5

#define MAX_HARTS 32

static volatile uint32_t irq_count[MAX_HARTS], bad_cause[MAX_HARTS];
static uint64_t next_compare[MAX_HARTS];
static uint64_t period; /* same for all harts */

static void timer_handler(trap_frame_t *frame)
{
    uint32_t h = hart_id();
    if (frame->mcause != (MCAUSE_INTERRUPT | IRQ_M_TIMER))
        bad_cause[h]++;
    if (++irq_count[h] < TICKS) {
        next_compare[h] += period;
        timer_set_compare(next_compare[h]); /* also clears the pending MTIP */
    } else {
        timer_disarm();
    }
}

int main(void)
{
    uint32_t h = hart_id();
    if (h >= MAX_HARTS)
        return 0;
    /* 100 us per tick, at least 50 mtime ticks whatever the timer frequency. */
    period = timer_us_to_ticks(100);
    if (period < 50)
        period = 50;

    irq_set_handler(IRQ_M_TIMER, timer_handler);
    uint64_t start = timer_now();
    next_compare[h] = start + period;
    timer_set_compare(next_compare[h]);
    irq_enable(IRQ_M_TIMER);
    irq_global_enable();

    while (irq_count[h] < TICKS)
        wait_for_interrupt();

    uint64_t delta = timer_now() - start;
    irq_global_disable();
    irq_disable(IRQ_M_TIMER);

    printf("timer irq: %lu of %d interrupts, mtime delta %llu ticks (period %llu, timer %lu Hz)\n",
           (unsigned long)irq_count[h], TICKS, (unsigned long long)delta,
           (unsigned long long)period, (unsigned long)timer_hz());
    if (irq_count[h] == TICKS && bad_cause[h] == 0 && delta >= TICKS * period) {
        printf("timer irq ok\n");
        return 0;
    }
    printf("FAIL: timer interrupts\n");
    return 1;
}
