/* picolibc retargetable locking for the cores of one tile (shared SRAM).
 *
 * picolibc calls these around malloc, atexit, stdio buffers, etc. Its built-in versions are empty
 * (single-threaded); with several cores per tile, malloc's free lists would get corrupted, so this
 * file provides spinlocks built on the A extension. Locks are recursive per hart when asked to be.
 * A holder runs with interrupts off: an interrupt handler of the same core must not re-enter
 * malloc through the recursion, nor wait for a lock (e.g. the MPI node lock, sw/lib/mpi/mpi_node.c)
 * that another core holds while it waits for this one.
 * Defining every symbol of picolibc's lock.o here keeps that object out of the link. */
#include <stdint.h>
#include <sys/lock.h>

#include "hal/csr.h"
#include "hal/irq.h"

struct __lock {
    volatile uint32_t owner; /* 0: free, else mhartid + 1 */
    uint32_t depth;          /* recursion depth, owner only */
    uint32_t mstatus;        /* owner's interrupt state before its first acquire */
};

/* The one static lock picolibc uses (malloc, atexit, environment, ...). */
struct __lock __lock___libc_recursive_mutex;

/* Locks created at run time by __retarget_lock_init*: a fixed pool, no malloc (malloc locks). */
#define LOCK_POOL_SIZE 16
static struct __lock lock_pool[LOCK_POOL_SIZE];
static uint32_t lock_pool_used;

static _LOCK_T lock_alloc(void)
{
    uint32_t i = __atomic_fetch_add(&lock_pool_used, 1, __ATOMIC_RELAXED);
    return i < LOCK_POOL_SIZE ? &lock_pool[i] : (_LOCK_T)0; /* NULL: acquire becomes a no-op */
}

static int try_take(_LOCK_T lock, int recursive)
{
    uint32_t me = hart_id() + 1;
    uint32_t s = irq_global_disable();
    if (recursive && lock->owner == me) {
        lock->depth++; /* interrupts were already off */
        return 1;
    }
    uint32_t expected = 0;
    if (__atomic_compare_exchange_n(&lock->owner, &expected, me, 0, __ATOMIC_ACQUIRE,
                                    __ATOMIC_RELAXED)) {
        lock->depth = 1;
        lock->mstatus = s;
        return 1;
    }
    irq_global_restore(s);
    return 0;
}

static void take(_LOCK_T lock, int recursive)
{
    if (!lock)
        return;
    while (!try_take(lock, recursive))
        ;
}

static void give(_LOCK_T lock)
{
    if (!lock)
        return;
    if (--lock->depth == 0) {
        uint32_t s = lock->mstatus;
        __atomic_store_n(&lock->owner, 0, __ATOMIC_RELEASE);
        irq_global_restore(s);
    }
}

void __retarget_lock_init(_LOCK_T *lock) { *lock = lock_alloc(); }
void __retarget_lock_init_recursive(_LOCK_T *lock) { *lock = lock_alloc(); }
void __retarget_lock_close(_LOCK_T lock) { (void)lock; } /* pool entries are not reused */
void __retarget_lock_close_recursive(_LOCK_T lock) { (void)lock; }
void __retarget_lock_acquire(_LOCK_T lock) { take(lock, 0); }
void __retarget_lock_acquire_recursive(_LOCK_T lock) { take(lock, 1); }
int __retarget_lock_try_acquire(_LOCK_T lock) { return lock ? try_take(lock, 0) : 1; }
int __retarget_lock_try_acquire_recursive(_LOCK_T lock) { return lock ? try_take(lock, 1) : 1; }
void __retarget_lock_release(_LOCK_T lock) { give(lock); }
void __retarget_lock_release_recursive(_LOCK_T lock) { give(lock); }
