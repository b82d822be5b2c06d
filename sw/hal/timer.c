/* CLINT timer: mtime and this hart's mtimecmp, as 32-bit halves (RV32 has no 64-bit access). */
#include "hal/timer.h"

#include "hal/csr.h"
#include "hal/mmio.h"
#include "hal/tileinfo.h"
#include "tile_memory_map.h"

#define MTIME_LO (TILE_CLINT_BASE + CLINT_MTIME)
#define MTIME_HI (TILE_CLINT_BASE + CLINT_MTIME + 4)

uint64_t timer_now(void)
{
    uint32_t hi, lo, hi2;
    do { /* a carry from lo into hi between the reads would give a value off by 2^32 */
        hi = mmio_read32(MTIME_HI);
        lo = mmio_read32(MTIME_LO);
        hi2 = mmio_read32(MTIME_HI);
    } while (hi != hi2);
    return ((uint64_t)hi << 32) | lo;
}

uint32_t timer_hz(void) { return tile_timer_hz(); }

void timer_set_compare_hart(uint32_t hart, uint64_t value)
{
    uintptr_t cmp = TILE_CLINT_BASE + CLINT_MTIMECMP(hart);
    /* High word to the maximum first: while the low word changes, the compare value is never
     * below the final one, so no spurious interrupt fires in between. */
    mmio_write32(cmp + 4, 0xFFFFFFFFu);
    mmio_write32(cmp, (uint32_t)value);
    mmio_write32(cmp + 4, (uint32_t)(value >> 32));
}

void timer_set_compare(uint64_t value) { timer_set_compare_hart(hart_id(), value); }

uint64_t timer_arm_in(uint64_t ticks)
{
    uint64_t when = timer_now() + ticks;
    timer_set_compare(when);
    return when;
}

void timer_disarm(void) { timer_set_compare(UINT64_MAX); }

void timer_delay_ticks(uint64_t ticks)
{
    uint64_t end = timer_now() + ticks;
    while (timer_now() < end)
        ;
}

uint64_t timer_us_to_ticks(uint32_t us) { return (uint64_t)us * timer_hz() / 1000000u; }

void timer_delay_us(uint32_t us) { timer_delay_ticks(timer_us_to_ticks(us)); }

void timer_delay_ms(uint32_t ms) { timer_delay_ticks((uint64_t)ms * timer_hz() / 1000u); }
