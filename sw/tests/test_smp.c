/* SMP within a tile: atomics, LR/SC spinlock, barrier and inter-core interrupts.
 *
 * Every core adds 1 to counter_amo ITERATIONS times with amoadd, and increments counter_lock
 * ITERATIONS times under an LR/SC spinlock. After a barrier core 0 checks both equal
 * cores * ITERATIONS. Then core 0 sends a software interrupt (CLINT msip) to core 1, which sleeps
 * in wfi until its handler has run.
 * Expected on core 0 of every tile: "smp ok: <n> cores, ..."; every core exits 0 (1 on failure).
 * With a single core the IPI part is skipped. */
#include <stdint.h>
#include <stdio.h>

#include "hal/hal.h"

#define ITERATIONS 10000u

static volatile uint32_t counter_amo;
static volatile uint32_t counter_lock;
static spinlock_t lock = SPINLOCK_INIT;

static volatile uint32_t ipi_ready, ipi_received, ipi_bad_cause;

static void msi_handler(trap_frame_t *frame)
{
    if (frame->mcause != (MCAUSE_INTERRUPT | IRQ_M_SOFT))
        ipi_bad_cause++;
    ipi_clear(hart_id()); /* msip is a level: clear it or the interrupt repeats */
    atomic_store_u32(&ipi_received, 1);
}

static void ipi_receiver(void)
{
    irq_set_handler(IRQ_M_SOFT, msi_handler);
    irq_enable(IRQ_M_SOFT);
    irq_global_enable();
    atomic_store_u32(&ipi_ready, 1);
    while (!atomic_load_u32(&ipi_received))
        wait_for_interrupt();
    irq_global_disable();
    irq_disable(IRQ_M_SOFT);
}

static int ipi_sender(void)
{
    while (!atomic_load_u32(&ipi_ready))
        ;
    ipi_send(1);
    /* Bounded wait, so a lost IPI fails the test instead of hanging the simulation. */
    uint64_t deadline = cpu_cycles() + 10000000u;
    while (!atomic_load_u32(&ipi_received))
        if (cpu_cycles() > deadline)
            return 0;
    return ipi_bad_cause == 0;
}

int main(void)
{
    uint32_t core = tile_core_id();
    uint32_t cores = tile_num_cores();

    for (uint32_t i = 0; i < ITERATIONS; i++) {
        atomic_fetch_add_u32(&counter_amo, 1);
        spin_lock(&lock);
        counter_lock = counter_lock + 1; /* plain read-modify-write: only the lock protects it */
        spin_unlock(&lock);
    }
    tile_barrier();

    if (core == 1)
        ipi_receiver();
    if (core != 0)
        return 0;

    uint32_t expect = cores * ITERATIONS;
    int ipi_ok = cores < 2 ? 1 : ipi_sender();
    int ok = counter_amo == expect && counter_lock == expect && ipi_ok;
    printf("%s: %lu cores, amoadd counter %lu, spinlock counter %lu (expected %lu), ipi %s\n",
           ok ? "smp ok" : "FAIL smp", (unsigned long)cores, (unsigned long)counter_amo,
           (unsigned long)counter_lock, (unsigned long)expect,
           cores < 2 ? "skipped (1 core)"
           : ipi_ok  ? "ok"
                     : "FAILED");
    return ok ? 0 : 1;
}
