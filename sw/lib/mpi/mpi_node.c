/* The tile's MCAPI node, shared by the MPI ranks of its cores (docs/mpi.md "Ranks").
 *
 * Every core of a tile is a rank. The MCAPI library keeps one node's state in globals and is
 * written for one core whose interrupt handler (the progress engine) may run between any two of
 * its critical sections, e.g. between the packets of a long send, to drain the packets that
 * arrive meanwhile. So the ranks of a tile share the node like this:
 *  - every MCAPI call of a rank runs under the node lock (recursive);
 *  - the holder takes the adapter's interrupt line (NA_IRQ_TARGET = its core) and gives it back
 *    to core 0 at the release: the handler runs on the holder's core, nested in its library code
 *    exactly as on a single-core tile, and takes the lock recursively. With nobody holding it,
 *    core 0's handler takes the lock (waiting for a holder that has just taken it is fine: that
 *    holder has the line and serves what it needs itself);
 *  - the library's idle wait (mp_idle_wait) gives the lock (and the line) up while its core sleeps;
 *  - whoever served the adapter, and a rank that put a message straight into another core's
 *    endpoint, wakes the sleeping cores with a software interrupt when it lets go of the lock.
 *    A sleeping core also wakes every MPI_NODE_POLL_TICKS as a safety net.
 * With one core per tile none of this runs: the lock calls are one untaken branch. */
#include <stdio.h>

#include "hal/hal.h"
#include "hal/smp.h"
#include "mp/hooks.h"
#include "mpi_internal.h"
#include "na/na.h"
#include "tile_memory_map.h"

#define MPI_NODE_POLL_TICKS 256u /* mtime ticks (25.6 us at 10 MHz) */

int mpi_node_shared;
uint32_t mpi_ranks_per_tile = 1;

/* A ticket lock: fair, so that a core that lets go to sleep and wakes at once (a wake-up that
 * was already pending) queues behind the core waiting for the lock instead of starving it. */
static volatile uint32_t next_ticket, serving;
static volatile uint32_t owner;      /* hart + 1 of the lock holder, 0: free */
static uint32_t depth;               /* the holder's nesting */
static volatile uint32_t sleepers;   /* bit per hart asleep in mp_idle_wait */
static uint32_t seen_isr;            /* mp_isr_count() when the sleepers were last woken */
static volatile uint32_t touched;    /* a holder changed what another core may wait for */
static volatile uint32_t node_state; /* 0 starting, 1 up, 2 MCAPI failed (set by core 0) */

/* Take and give the lock (interrupts off: a nested handler must see a consistent owner and
 * depth), and with it the adapter's line: the holder's core while held, core 0 otherwise. */
static void take(uint32_t me)
{
    uint32_t t = atomic_fetch_add_u32(&next_ticket, 1u);
    if (atomic_load_u32(&serving) != t) {
        ++mpi_stats.node_contended;
        while (atomic_load_u32(&serving) != t)
            ;
    }
    owner = me;
    if (me != 1u)
        na_irq_set_target(me - 1u);
}

static void give(void)
{
    if (owner != 1u)
        na_irq_set_target(0);
    owner = 0;
    atomic_store_u32(&serving, serving + 1u);
}

/* Holder only: software interrupt to the other sleeping cores if the adapter was served or a
 * message was put into a local endpoint since the last round. */
static void wake_others(void)
{
    uint32_t n = mp_isr_count();
    if (n == seen_isr && !touched)
        return;
    seen_isr = n;
    touched = 0;
    uint32_t others = sleepers & ~(1u << hart_id());
    while (others) {
        ipi_send((uint32_t)__builtin_ctz(others));
        others &= others - 1u;
        ++mpi_stats.node_wakeups;
    }
}

void mpi_node_lock_slow(void)
{
    uint32_t s = irq_global_disable();
    uint32_t me = hart_id() + 1u;
    if (owner == me) { /* nested: a call inside a call, or the handler inside the holder */
        ++depth;
    } else {
        take(me);
        depth = 1;
    }
    irq_global_restore(s);
}

void mpi_node_unlock_slow(void)
{
    uint32_t s = irq_global_disable();
    if (--depth == 0) {
        wake_others();
        give();
    }
    irq_global_restore(s);
}

void mpi_node_touch(void) { touched = 1; }

/* Replaces the library's weak idle wait (called with interrupts off). Holding the node lock, the
 * caller gives it up for the sleep and takes it back at the same depth. */
void mp_idle_wait(uint64_t wake)
{
    uint32_t me = hart_id();
    int held = mpi_node_shared && owner == me + 1u;
    if (!held) { /* the library's own behaviour */
        mp_idle_wfi(wake);
        return;
    }
    uint32_t d = depth;
    __atomic_fetch_or(&sleepers, 1u << me, __ATOMIC_ACQ_REL);
    wake_others();
    depth = 0;
    give();
    uint64_t poll = timer_now() + MPI_NODE_POLL_TICKS;
    timer_set_compare(wake < poll ? wake : poll);
    wait_for_interrupt(); /* a wake-up after the release is pending: wfi returns at once */
    __atomic_fetch_and(&sleepers, ~(1u << me), __ATOMIC_ACQ_REL);
    ipi_clear(me);
    timer_disarm();
    take(me + 1u); /* a line that is up now is served inline by the caller (mp_idle) */
    depth = d;
}

/* Replaces the library's timed sleep (the default waits for a flag its timer interrupt handler
 * sets, and cores other than 0 take no interrupts here). */
void mp_sleep_ticks(uint32_t ticks)
{
    uint64_t wake = timer_now() + ticks;
    uint32_t s = irq_global_disable();
    while (timer_now() < wake) {
        mp_idle_wait(wake);
        mp_irq_service_inline();
    }
    irq_global_restore(s);
}

/* The adapter's interrupt (on the holder's core, nested, or on core 0), under the node lock; the
 * sleepers are woken at the outermost unlock. */
static void node_isr(trap_frame_t *frame)
{
    (void)frame;
    mpi_node_lock_slow();
    mp_irq_service_inline();
    mpi_node_unlock_slow();
}

/* A software interrupt left pending after its core woke for another reason. */
static void node_soft_isr(trap_frame_t *frame)
{
    (void)frame;
    ipi_clear(hart_id());
}

int mpi_node_start(void)
{
    uint32_t cores = tile_num_cores(), core = tile_core_id();
    if (core == 0) {
        int ok = cores <= MPI_MAX_RANKS_PER_TILE;
        if (!ok)
            printf("MPI FATAL: %u cores on a tile, at most %u ranks per tile\n", (unsigned)cores,
                   (unsigned)MPI_MAX_RANKS_PER_TILE);
        mcapi_status_t st = MCAPI_SUCCESS;
        if (ok) {
            mcapi_initialize(MCAPI_DOMAIN, tile_id(), NULL, NULL, NULL, &st);
            if (st != MCAPI_SUCCESS) {
                printf("MPI FATAL: mcapi_initialize -> %s\n", mcapix_status_name(st));
                ok = 0;
            }
        }
        if (ok && cores > 1) {
            mpi_ranks_per_tile = cores;
            mpi_node_shared = 1;
            irq_set_handler(IRQ_M_EXT, node_isr); /* the library's handler, under the lock */
            irq_set_handler(IRQ_M_SOFT, node_soft_isr);
            irq_enable(IRQ_M_SOFT);
        }
        atomic_store_u32(&node_state, ok ? 1u : 2u);
        return ok ? MPI_SUCCESS : MPI_ERR_OTHER;
    }
    /* Until core 0 is done: sleep in poll periods (interrupts stay off). */
    irq_enable(IRQ_M_TIMER);
    while (atomic_load_u32(&node_state) == 0) {
        timer_set_compare(timer_now() + MPI_NODE_POLL_TICKS);
        wait_for_interrupt();
        timer_disarm();
    }
    if (atomic_load_u32(&node_state) != 1)
        return MPI_ERR_OTHER;
    /* Core 0 has installed the handlers (one table for the tile): this core takes the adapter's
     * interrupt while it holds the node, its software interrupt (wake-ups) and its timer. */
    irq_enable(IRQ_M_SOFT);
    irq_enable(IRQ_M_EXT);
    irq_global_enable();
    return MPI_SUCCESS;
}
