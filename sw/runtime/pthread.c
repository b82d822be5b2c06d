/* POSIX threads as cooperative user-level threads (docs/firmware-sdk.md "Threads", <pthread.h>).
 *
 * Each core keeps its own ring of threads in thread-local storage (crt0 gives every hart its TLS
 * block, and the threads of a core share it: errno, and an MPI rank's state, belong to the core).
 * A thread runs until it waits; the waits are loops that re-check their condition after each
 * sched_yield, which passes the core to the next thread of the ring. No thread is ever
 * preempted, so the library needs no atomics against its own threads, and a thread that computes
 * for a long time holds the others up (documented). A wait for something only another thread of
 * the core can change (join, a held mutex, a condition) is "internal": when every thread of the
 * core waits internally, none can ever run again, and the program stops with a message instead of
 * spinning for ever. Waits for the outside (sleep, MPI's progress) keep the ring going. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "hal/csr.h"
#include "hal/irq.h"
#include "hal/mmio.h"
#include "hal/timer.h"
#include "pthread.h"
#include "tile_memory_map.h"

#define DEFAULT_STACK (32u * 1024u)
#define MAGIC         0x7468726Du /* a pthread_t of this library, not a stray pointer */

struct namp_thread {
    uint32_t ctx[14]; /* ra, sp, s0..s11: namp_ctx_switch's layout */
    uint32_t magic;
    void *(*start)(void *);
    void *arg, *value;
    void *stack;
    int done, detached, joined;
    struct namp_thread *next; /* ring of the core's threads */
};

/* thread_switch.S: saves ra, sp, s0..s11 into save and continues with load's. */
void namp_ctx_switch(uint32_t *save, const uint32_t *load);

static _Thread_local struct namp_thread main_thread;
static _Thread_local struct namp_thread *current;
static _Thread_local int others;          /* threads of this core besides the current one */
static _Thread_local unsigned idle_turns; /* internal waits in a row */

static struct namp_thread *self(void)
{
    if (!current) { /* the core's first call: main becomes a ring of one */
        main_thread.magic = MAGIC;
        main_thread.next = &main_thread;
        current = &main_thread;
    }
    return current;
}

int namp_threads_others(void) { return others; }

static void pass(void)
{
    struct namp_thread *me = self(), *to = me->next;
    if (to == me)
        return;
    current = to;
    namp_ctx_switch(me->ctx, to->ctx);
}

int sched_yield(void)
{
    idle_turns = 0;
    pass();
    return 0;
}

/* One turn of a wait that only another thread of this core can end. */
static void wait_internal(const char *what)
{
    if (!others || ++idle_turns > 2u * (unsigned)(others + 1)) {
        printf("pthread: deadlock: every thread of core %lu waits (%s)\n", (unsigned long)hart_id(),
               what);
        abort();
    }
    pass();
}

/* A thread that ended leaves the ring; its stack is freed by whoever joins it (or, detached, by
 * the next thread that finds it: a thread cannot free the stack it is running on). */
static void reap(struct namp_thread *t)
{
    free(t->stack);
    t->magic = 0;
    free(t);
}

static void unlink_thread(struct namp_thread *t)
{
    struct namp_thread *p = t;
    while (p->next != t)
        p = p->next;
    p->next = t->next;
    --others;
}

static _Thread_local struct namp_thread *to_reap; /* a detached thread that ended */

static void __attribute__((noreturn)) finish(void *value)
{
    struct namp_thread *me = current, *to = me->next;
    me->value = value;
    me->done = 1;
    unlink_thread(me);
    if (me->detached) {
        if (to_reap)
            reap(to_reap);
        to_reap = me;
    }
    idle_turns = 0;
    current = to;
    uint32_t scratch[14];
    namp_ctx_switch(scratch, to->ctx);
    __builtin_unreachable();
}

/* The first instructions of every new thread (its ra): namp_ctx_switch returns here. */
static void __attribute__((noreturn)) entry(void) { finish(current->start(current->arg)); }

int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *), void *arg)
{
    if (!thread || !start)
        return EINVAL;
    struct namp_thread *me = self();
    size_t size = attr && attr->stacksize ? attr->stacksize : DEFAULT_STACK;
    struct namp_thread *t = calloc(1, sizeof *t);
    void *stack = malloc(size);
    if (!t || !stack) {
        free(t);
        free(stack);
        return EAGAIN;
    }
    t->magic = MAGIC;
    t->start = start;
    t->arg = arg;
    t->stack = stack;
    t->detached = attr ? attr->detached : 0;
    t->ctx[0] = (uint32_t)(uintptr_t)entry;
    t->ctx[1] = (uint32_t)(((uintptr_t)stack + size) & ~(uintptr_t)15u); /* ABI: 16-aligned */
    /* at the end of the ring as seen from the creator: threads first run in creation order */
    struct namp_thread *tail = me;
    while (tail->next != me)
        tail = tail->next;
    t->next = me;
    tail->next = t;
    ++others;
    *thread = t;
    return 0;
}

static int valid(pthread_t t) { return t && t->magic == MAGIC; }

int pthread_join(pthread_t t, void **value)
{
    if (!valid(t) || t->detached || t->joined)
        return EINVAL;
    if (t == self())
        return EDEADLK;
    t->joined = 1;
    while (!t->done)
        wait_internal("pthread_join");
    idle_turns = 0;
    if (value)
        *value = t->value;
    reap(t);
    return 0;
}

int pthread_detach(pthread_t t)
{
    if (!valid(t) || t->detached || t->joined)
        return EINVAL;
    if (t->done) {
        reap(t);
        return 0;
    }
    t->detached = 1;
    return 0;
}

void pthread_exit(void *value)
{
    struct namp_thread *me = self();
    if (me == &main_thread) { /* the process ends when the last thread does */
        while (others)
            sched_yield();
        exit(0);
    }
    finish(value);
}

pthread_t pthread_self(void) { return self(); }
int pthread_equal(pthread_t a, pthread_t b) { return a == b; }

int pthread_attr_init(pthread_attr_t *a)
{
    if (!a)
        return EINVAL;
    a->stacksize = DEFAULT_STACK;
    a->detached = PTHREAD_CREATE_JOINABLE;
    return 0;
}
int pthread_attr_destroy(pthread_attr_t *a) { return a ? 0 : EINVAL; }
int pthread_attr_setstacksize(pthread_attr_t *a, size_t size)
{
    if (!a || size < PTHREAD_STACK_MIN)
        return EINVAL;
    a->stacksize = size;
    return 0;
}
int pthread_attr_getstacksize(const pthread_attr_t *a, size_t *size)
{
    if (!a || !size)
        return EINVAL;
    *size = a->stacksize;
    return 0;
}
int pthread_attr_setdetachstate(pthread_attr_t *a, int state)
{
    if (!a || (state != PTHREAD_CREATE_JOINABLE && state != PTHREAD_CREATE_DETACHED))
        return EINVAL;
    a->detached = state;
    return 0;
}

int pthread_mutexattr_init(pthread_mutexattr_t *a)
{
    if (!a)
        return EINVAL;
    a->type = PTHREAD_MUTEX_DEFAULT;
    return 0;
}
int pthread_mutexattr_destroy(pthread_mutexattr_t *a) { return a ? 0 : EINVAL; }
int pthread_mutexattr_settype(pthread_mutexattr_t *a, int type)
{
    if (!a || type < PTHREAD_MUTEX_NORMAL || type > PTHREAD_MUTEX_ERRORCHECK)
        return EINVAL;
    a->type = type;
    return 0;
}

int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a)
{
    if (!m)
        return EINVAL;
    *m = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
    m->type = a ? a->type : PTHREAD_MUTEX_DEFAULT;
    return 0;
}
int pthread_mutex_destroy(pthread_mutex_t *m) { return !m ? EINVAL : m->owner ? EBUSY : 0; }

int pthread_mutex_trylock(pthread_mutex_t *m)
{
    if (!m)
        return EINVAL;
    struct namp_thread *me = self();
    if (m->owner == me && m->type == PTHREAD_MUTEX_RECURSIVE) {
        ++m->depth;
        return 0;
    }
    if (m->owner)
        return EBUSY;
    m->owner = me;
    m->depth = 1;
    return 0;
}

int pthread_mutex_lock(pthread_mutex_t *m)
{
    if (!m)
        return EINVAL;
    struct namp_thread *me = self();
    if (m->owner == me && m->type != PTHREAD_MUTEX_RECURSIVE)
        return EDEADLK; /* a normal mutex would hang for ever: say so instead */
    while (pthread_mutex_trylock(m) == EBUSY)
        wait_internal("pthread_mutex_lock");
    idle_turns = 0;
    return 0;
}

int pthread_mutex_unlock(pthread_mutex_t *m)
{
    if (!m)
        return EINVAL;
    if (m->owner != self())
        return EPERM;
    if (--m->depth == 0)
        m->owner = NULL;
    return 0;
}

int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *a)
{
    (void)a;
    if (!c)
        return EINVAL;
    c->seq = 0;
    return 0;
}
int pthread_cond_destroy(pthread_cond_t *c) { return c ? 0 : EINVAL; }

/* Signal wakes every waiter (POSIX allows spurious wake-ups; each re-checks its predicate). */
int pthread_cond_signal(pthread_cond_t *c)
{
    if (!c)
        return EINVAL;
    ++c->seq;
    return 0;
}
int pthread_cond_broadcast(pthread_cond_t *c) { return pthread_cond_signal(c); }

static uint64_t ticks_of(const struct timespec *t)
{
    return (uint64_t)t->tv_sec * timer_hz() + (uint64_t)t->tv_nsec * timer_hz() / 1000000000u;
}

int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *abstime)
{
    if (!c || !m || m->owner != self())
        return EINVAL;
    unsigned seq = c->seq;
    unsigned depth = m->depth;
    m->owner = NULL;
    m->depth = 0;
    int rc = 0;
    while (c->seq == seq) {
        if (abstime) { /* CLOCK_REALTIME is mtime (sw/runtime/posix.c) */
            if (timer_now() >= ticks_of(abstime)) {
                rc = ETIMEDOUT;
                break;
            }
            sched_yield(); /* time ends this wait too: not a deadlock */
        } else {
            wait_internal("pthread_cond_wait");
        }
    }
    idle_turns = 0;
    pthread_mutex_lock(m);
    m->depth = depth;
    return rc;
}

int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
    return pthread_cond_timedwait(c, m, NULL);
}

/* ------------------------------------------------------------------ sleeping */

/* Sleeps in wfi until mtime reaches end or an interrupt is pending: the hart's compare value is
 * lowered to end for the wait (and put back), with interrupts masked so that the timer interrupt
 * is not taken by a handler that did not arm it; any other pending interrupt is taken when they are
 * unmasked again. */
static void idle_until(uint64_t end)
{
    uintptr_t cmp = TILE_CLINT_BASE + CLINT_MTIMECMP(hart_id());
    uint32_t st = csr_read_clear(mstatus, MSTATUS_MIE);
    uint32_t hi, lo;
    do {
        hi = mmio_read32(cmp + 4);
        lo = mmio_read32(cmp);
    } while (hi != mmio_read32(cmp + 4));
    uint64_t saved = ((uint64_t)hi << 32) | lo;
    uint32_t had_mtie = csr_read(mie) & (1u << IRQ_M_TIMER);
    csr_set(mie, 1u << IRQ_M_TIMER);
    if (end < saved)
        timer_set_compare(end);
    wait_for_interrupt();
    if (end < saved)
        timer_set_compare(saved);
    if (!had_mtie)
        csr_clear(mie, 1u << IRQ_M_TIMER);
    csr_set(mstatus, st & MSTATUS_MIE);
}

static void sleep_ticks(uint64_t ticks)
{
    uint64_t end = timer_now() + ticks;
    for (uint64_t now; (now = timer_now()) < end;) {
        if (others)
            sched_yield(); /* the other threads run meanwhile */
        else
            idle_until(end);
    }
}

int nanosleep(const struct timespec *req, struct timespec *rem);
int nanosleep(const struct timespec *req, struct timespec *rem)
{
    if (!req || req->tv_nsec < 0 || req->tv_nsec >= 1000000000L || req->tv_sec < 0) {
        errno = EINVAL;
        return -1;
    }
    sleep_ticks(ticks_of(req));
    if (rem)
        rem->tv_sec = rem->tv_nsec = 0;
    return 0;
}

unsigned sleep(unsigned seconds)
{
    sleep_ticks((uint64_t)seconds * timer_hz());
    return 0;
}

int usleep(useconds_t us)
{
    sleep_ticks((uint64_t)us * timer_hz() / 1000000u);
    return 0;
}
