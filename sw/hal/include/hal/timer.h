/* CLINT machine timer: 64-bit mtime and one mtimecmp per hart of the tile. */
#ifndef HAL_TIMER_H
#define HAL_TIMER_H

#include <stdint.h>

/* mtime, read safely on RV32 (high word re-read until stable). */
uint64_t timer_now(void);
/* mtime frequency in Hz (TILEINFO_TIMER_HZ). */
uint32_t timer_hz(void);
/* Sets the calling hart's mtimecmp (absolute); the MTI fires once mtime >= value. The write order
 * never creates a transient compare value below both the old and the new one. */
void timer_set_compare(uint64_t value);
void timer_set_compare_hart(uint32_t hart, uint64_t value);
/* Arms the calling hart's timer interrupt ticks from now; returns the compare value. */
uint64_t timer_arm_in(uint64_t ticks);
/* Pushes the calling hart's compare value to the maximum: clears a pending MTI. */
void timer_disarm(void);
/* Busy-wait on mtime. */
void timer_delay_ticks(uint64_t ticks);
void timer_delay_us(uint32_t us);
void timer_delay_ms(uint32_t ms);
/* Conversions using timer_hz(). */
uint64_t timer_us_to_ticks(uint32_t us);

#endif
