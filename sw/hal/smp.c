/* Spinlock and barrier for the cores of a tile. */
#include "hal/smp.h"

#include "hal/tileinfo.h"

int spin_trylock(spinlock_t *lock)
{
    uint32_t old, fail;
    __asm__ volatile("1: lr.w.aq  %0, (%2)\n"
                     "   bnez     %0, 2f\n" /* held: give up */
                     "   sc.w     %1, %3, (%2)\n"
                     "   bnez     %1, 1b\n" /* reservation lost: retry the whole sequence */
                     "2:\n"
                     : "=&r"(old), "=&r"(fail)
                     : "r"(&lock->locked), "r"(1u)
                     : "memory");
    return old == 0;
}

void spin_lock(spinlock_t *lock)
{
    for (;;) {
        if (spin_trylock(lock))
            return;
        while (lock->locked) /* wait with plain loads: no reservation traffic while held */
            ;
    }
}

void spin_unlock(spinlock_t *lock) { atomic_store_u32(&lock->locked, 0); }

void smp_barrier_wait(smp_barrier_t *barrier, uint32_t participants)
{
    /* Sense reversal: the last arrival resets the count and flips the sense; the others wait
     * for the flip. Reading the sense before arriving makes the barrier reusable at once. */
    uint32_t sense = atomic_load_u32(&barrier->sense);
    if (atomic_fetch_add_u32(&barrier->arrived, 1) == participants - 1) {
        barrier->arrived = 0;
        atomic_store_u32(&barrier->sense, !sense);
    } else {
        while (atomic_load_u32(&barrier->sense) == sense)
            ;
    }
}

static smp_barrier_t tile_wide_barrier;

void tile_barrier(void) { smp_barrier_wait(&tile_wide_barrier, tile_num_cores()); }
