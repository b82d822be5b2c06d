/* Synchronisation between the cores of one tile (they share the tile's SRAM; different tiles
 * do not share memory). Built directly on the A extension so the instructions are explicit. */
#ifndef HAL_SMP_H
#define HAL_SMP_H

#include <stdint.h>

/* amoadd.w with acquire+release ordering; returns the old value. */
static inline uint32_t atomic_fetch_add_u32(volatile uint32_t *p, uint32_t v)
{
    uint32_t old;
    __asm__ volatile("amoadd.w.aqrl %0, %2, (%1)" : "=r"(old) : "r"(p), "r"(v) : "memory");
    return old;
}

static inline uint32_t atomic_swap_u32(volatile uint32_t *p, uint32_t v)
{
    uint32_t old;
    __asm__ volatile("amoswap.w.aqrl %0, %2, (%1)" : "=r"(old) : "r"(p), "r"(v) : "memory");
    return old;
}

static inline uint32_t atomic_load_u32(const volatile uint32_t *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline void atomic_store_u32(volatile uint32_t *p, uint32_t v)
{
    __atomic_store_n(p, v, __ATOMIC_RELEASE);
}

/* Full memory fence. */
static inline void smp_fence(void) { __asm__ volatile("fence rw, rw" ::: "memory"); }

/* Spinlock on LR/SC (not an AMO) so that the reservation path of the core is exercised. */
typedef struct {
    volatile uint32_t locked;
} spinlock_t;
#define SPINLOCK_INIT \
    {                 \
        0             \
    }

void spin_lock(spinlock_t *lock);
int spin_trylock(spinlock_t *lock); /* 1 if taken */
void spin_unlock(spinlock_t *lock);

/* Sense-reversing barrier for a fixed number of participants. Zero-initialised = ready. */
typedef struct {
    volatile uint32_t arrived;
    volatile uint32_t sense;
} smp_barrier_t;
#define SMP_BARRIER_INIT \
    {                    \
        0, 0             \
    }

void smp_barrier_wait(smp_barrier_t *barrier, uint32_t participants);
/* Barrier across all cores of this tile (one shared barrier object). */
void tile_barrier(void);

#endif
