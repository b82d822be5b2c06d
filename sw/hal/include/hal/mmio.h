/* Volatile 32-bit device register access. Device registers of the tile are word-sized; the
 * compiler must neither merge, reorder nor drop these accesses.
 *
 * `volatile` orders device accesses among themselves only: the compiler may move a plain store
 * to a payload or descriptor past the device write that starts a transfer of it (Linux's
 * writel_relaxed). A doorbell, the write that makes a device read memory the caller wrote, is
 * therefore mmio_write32_release: a compiler barrier, then the store (Linux's writel). No fence
 * instruction is needed on these tiles: the cores retire memory accesses in program order and
 * have no store buffer (SRAM by DMI, devices synchronously), so the order the compiler emits is
 * the order the bus masters see. The other device writes stay barrier-free: a barrier makes the
 * compiler reload what it kept in registers, which cost a send/receive benchmark 10 %.
 * docs/kernel.md "A payload stored after its doorbell" tells the bug this prevents. */
#ifndef HAL_MMIO_H
#define HAL_MMIO_H

#include <stdint.h>

static inline uint32_t mmio_read32(uintptr_t addr) { return *(volatile uint32_t *)addr; }
static inline void mmio_write32(uintptr_t addr, uint32_t value)
{
    *(volatile uint32_t *)addr = value;
}

/* A doorbell: every memory write before it is done before the device sees this one. */
static inline void mmio_write32_release(uintptr_t addr, uint32_t value)
{
    __asm__ volatile("" ::: "memory");
    *(volatile uint32_t *)addr = value;
}

#endif
