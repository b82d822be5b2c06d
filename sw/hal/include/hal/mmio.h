/* Volatile 32-bit device register access. Device registers of the tile are word-sized; the
 * compiler must neither merge, reorder nor drop these accesses.
 *
 * Ordering against ordinary memory (Linux's writel/readl): `volatile` orders device accesses
 * among themselves only; the compiler may still move a plain store to a payload or descriptor
 * past the device write that starts a transfer of it, or hoist a plain load of received data
 * above the device read that says it is there. So a write is preceded and a read followed by a
 * compiler barrier. No fence instruction is needed on these tiles: the cores retire memory
 * accesses in program order and have no store buffer (SRAM by DMI, devices synchronously), so
 * the order the compiler emits is the order masters on the bus see. docs/kernel.md "A payload
 * stored after its doorbell" tells the bug this prevents. */
#ifndef HAL_MMIO_H
#define HAL_MMIO_H

#include <stdint.h>

static inline uint32_t mmio_read32(uintptr_t addr)
{
    uint32_t v = *(volatile uint32_t *)addr;
    __asm__ volatile("" ::: "memory");   /* later loads of what the device announced stay after */
    return v;
}

static inline void mmio_write32(uintptr_t addr, uint32_t value)
{
    __asm__ volatile("" ::: "memory");   /* earlier stores (the payload) are done before */
    *(volatile uint32_t *)addr = value;
}

#endif
