/* Timer interrupts on time (docs/timing.md "Timer interrupts on time"): the hart computes in SRAM
 * only (no device access that would synchronize it) while its timer fires TICKS times, each
 * handler re-arming the compare a few timer ticks ahead (inside the running slice of the ISS).
 * The handler reads mtime first: its distance from the compare is the interrupt's latency, which
 * must be the trap's own cost and not depend on the quantum the core runs ahead by.
 * Expected: "timer latency: <n> interrupts, latency <min>..<max> timer ticks", "timer latency ok". */
#include <stdint.h>
#include <stdio.h>

#include "hal/hal.h"

#define TICKS       40
/* timer ticks: the trap entry and the handler's first access; a compare that falls inside the
 * handler waits for its return (before timer interrupts came on time: up to a quantum more) */
#define MAX_LATENCY 32u

static volatile uint32_t count, lat_min = ~0u, lat_max;
static uint64_t compare;

static void timer_handler(trap_frame_t *frame)
{
    (void)frame;
    const uint32_t lat = (uint32_t)(timer_now() - compare);
    lat_min = lat < lat_min ? lat : lat_min;
    lat_max = lat > lat_max ? lat : lat_max;
    if (++count < TICKS) {
        compare = timer_now() + 3 + count % 17; /* near: inside the quantum, at varied phases */
        timer_set_compare(compare);
    } else {
        timer_disarm();
    }
}

int main(void)
{
    if (hart_id() != 0)
        return 0;
    irq_set_handler(IRQ_M_TIMER, timer_handler);
    compare = timer_now() + 50;
    timer_set_compare(compare);
    irq_enable(IRQ_M_TIMER);
    irq_global_enable();
    volatile uint32_t work = 0;
    while (count < TICKS)
        work = work * 1664525u + 1013904223u; /* SRAM only: the core never synchronizes here */
    irq_global_disable();
    printf("timer latency: %lu interrupts, latency %lu..%lu timer ticks\n", (unsigned long)count,
           (unsigned long)lat_min, (unsigned long)lat_max);
    if (lat_max > MAX_LATENCY)
        return 1;
    printf("timer latency ok\n");
    return 0;
}
