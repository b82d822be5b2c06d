/* Mutexes (ownership handed to the highest-priority waiter on unlock, no priority inheritance)
 * and counting semaphores with timeouts. Kernel side: runs in the trap handler. */
#include "kinternal.h"

static int mutex_ok(const k_mutex_t *m) { return m && m->magic == K_MUTEX_MAGIC; }
static int sem_ok(const k_sem_t *s) { return s && s->magic == K_SEM_MAGIC; }

int k_sys_mutex_lock(k_mutex_t *m)
{
    k_thread_t *cur = k_current();
    if (!mutex_ok(m))
        return K_EINVAL;
    if (!m->owner) {
        m->owner = cur;
        return K_OK;
    }
    if (m->owner == cur)
        return K_EDEADLK;
    k_block(&m->waiters, UINT64_MAX, 1); /* the unlocker makes us the owner */
    return K_OK;
}

int k_sys_mutex_unlock(k_mutex_t *m)
{
    if (!mutex_ok(m))
        return K_EINVAL;
    if (m->owner != k_current())
        return K_EPERM;
    k_thread_t *next = q_pop(&m->waiters);
    m->owner = next;
    if (next)
        k_wake(next, K_OK);
    return K_OK;
}

int k_sys_sem_take(k_sem_t *s, uint32_t timeout)
{
    if (!sem_ok(s))
        return K_EINVAL;
    if (s->count) {
        s->count--;
        return K_OK;
    }
    if (timeout == 0)
        return K_EAGAIN;
    uint64_t wake =
        timeout == K_FOREVER ? UINT64_MAX : timer_now() + (uint64_t)timeout * k_cfg.tick_ticks;
    k_block(&s->waiters, wake, 1); /* the giver or the timeout sets the result */
    return K_OK;
}

int k_sys_sem_give(k_sem_t *s)
{
    if (!sem_ok(s))
        return K_EINVAL;
    k_thread_t *t = q_pop(&s->waiters);
    if (t) {
        k_wake(t, K_OK);
        return K_OK;
    }
    if (s->count == UINT32_MAX)
        return K_EINVAL;
    s->count++;
    return K_OK;
}

/* Initialisation needs no kernel entry: the object is not shared yet. */
int k_mutex_init(k_mutex_t *m)
{
    if (!m)
        return K_EINVAL;
    m->owner = NULL;
    m->waiters.head = m->waiters.tail = NULL;
    m->magic = K_MUTEX_MAGIC;
    return K_OK;
}

int k_sem_init(k_sem_t *s, uint32_t count)
{
    if (!s)
        return K_EINVAL;
    s->count = count;
    s->waiters.head = s->waiters.tail = NULL;
    s->magic = K_SEM_MAGIC;
    return K_OK;
}
