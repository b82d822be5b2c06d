/* Interrupt handler registration and CLINT software interrupts. */
#include "hal/irq.h"

#include "hal/mmio.h"
#include "tile_memory_map.h"

void irq_set_handler(unsigned irq, trap_handler_t handler)
{
    if (irq < TRAP_NUM_CAUSES)
        __atomic_store_n(&namp_irq_handlers[irq], handler, __ATOMIC_RELEASE);
}

void ipi_send(uint32_t hart) { mmio_write32(TILE_CLINT_BASE + CLINT_MSIP(hart), 1); }

void ipi_clear(uint32_t hart)
{
    /* MSIP is a level: the receiver clears its own bit in its handler, or it re-enters forever. */
    mmio_write32(TILE_CLINT_BASE + CLINT_MSIP(hart), 0);
}
