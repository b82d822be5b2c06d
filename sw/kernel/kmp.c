/* The MCAPI library (sw/lib/mp) in kernel threads. The library keeps one node's state in
 * globals, so threads call it under one kernel mutex (kmp_lock/kmp_unlock, or KMP()). Where the
 * library would sleep in wfi (mp_idle_wait), the thread instead releases that mutex and blocks
 * until the adapter interrupts or the library's wake-up time comes, then takes the mutex again:
 * other threads run meanwhile, and a blocking MCAPI call suspends only its thread. */
#include "kernel/kmp.h"
#include "mp/hooks.h"

#include "kinternal.h"

static k_mutex_t mp_mutex = {NULL, {NULL, NULL}, K_MUTEX_MAGIC};
static volatile uint32_t waits;

unsigned long kmp_wait_count(void) { return waits; }

void kmp_lock(void) { k_mutex_lock(&mp_mutex); }
void kmp_unlock(void) { k_mutex_unlock(&mp_mutex); }

/* Overrides the library's weak default (wfi). Called with interrupts off: the ecall works all
 * the same, and the library restores the interrupt state afterwards. */
void mp_idle_wait(uint64_t wake)
{
    waits++; /* under the library mutex */
    register uint32_t a0 __asm__("a0") = (uint32_t)&mp_mutex;
    register uint32_t a1 __asm__("a1") = (uint32_t)wake;
    register uint32_t a2 __asm__("a2") = (uint32_t)(wake >> 32);
    register uint32_t a7 __asm__("a7") = K_SYS_MP_WAIT;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
    k_mutex_lock(&mp_mutex);
}

/* Overrides the library's timer-interrupt sleep: the kernel owns the timer. */
void mp_sleep_ticks(uint32_t ticks)
{
    uint64_t wake = timer_now() + ticks;
    while (timer_now() < wake)
        mp_idle_wait(wake);
}
