/* Machine-mode interrupts: global enable, per-source enable, handlers, inter-core software IRQs. */
#ifndef HAL_IRQ_H
#define HAL_IRQ_H

#include <stdint.h>

#include "hal/csr.h"
#include "hal/trap.h"

/* Sets mstatus.MIE. */
static inline void irq_global_enable(void) { csr_set(mstatus, MSTATUS_MIE); }
/* Clears mstatus.MIE and returns the previous mstatus for irq_global_restore(). */
static inline uint32_t irq_global_disable(void) { return csr_read_clear(mstatus, MSTATUS_MIE); }
static inline void irq_global_restore(uint32_t saved)
{
    if (saved & MSTATUS_MIE)
        csr_set(mstatus, MSTATUS_MIE);
}

/* Per-source enable in mie; irq is IRQ_M_SOFT, IRQ_M_TIMER, IRQ_M_EXT (hal/csr.h). */
static inline void irq_enable(unsigned irq) { csr_set(mie, 1u << irq); }
static inline void irq_disable(unsigned irq) { csr_clear(mie, 1u << irq); }
static inline int irq_pending(unsigned irq) { return (csr_read(mip) >> irq) & 1u; }

/* Handler for interrupt cause irq (0..15), or NULL to remove it. An interrupt without a handler
 * is fatal (the default trap handler reports it). Handlers are shared by all cores of the tile. */
void irq_set_handler(unsigned irq, trap_handler_t handler);

/* Sleep until an interrupt is pending (wfi also returns with MIE clear, then no handler runs). */
static inline void wait_for_interrupt(void) { __asm__ volatile("wfi" ::: "memory"); }

/* Machine software interrupt (CLINT msip) to a hart of this tile, and its acknowledgement. */
void ipi_send(uint32_t hart);
void ipi_clear(uint32_t hart);

#endif
