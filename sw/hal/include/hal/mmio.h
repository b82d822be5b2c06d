/* Volatile 32-bit device register access. Device registers of the tile are word-sized; the
 * compiler must neither merge, reorder nor drop these accesses. */
#ifndef HAL_MMIO_H
#define HAL_MMIO_H

#include <stdint.h>

static inline uint32_t mmio_read32(uintptr_t addr) { return *(volatile uint32_t *)addr; }
static inline void mmio_write32(uintptr_t addr, uint32_t value) { *(volatile uint32_t *)addr = value; }

#endif
