/* Doubly linked thread queues: head/tail in the queue, next/prev in the thread (NULL ends). */
#include "kinternal.h"

void q_append(k_queue_t *q, k_thread_t *t)
{
    t->next = NULL;
    t->prev = q->tail;
    if (q->tail)
        q->tail->next = t;
    else
        q->head = t;
    q->tail = t;
    t->queue = q;
}

void q_prepend(k_queue_t *q, k_thread_t *t)
{
    t->prev = NULL;
    t->next = q->head;
    if (q->head)
        q->head->prev = t;
    else
        q->tail = t;
    q->head = t;
    t->queue = q;
}

void q_insert_prio(k_queue_t *q, k_thread_t *t)
{
    k_thread_t *at = q->head;
    while (at && at->prio >= t->prio)
        at = at->next;
    if (!at) {
        q_append(q, t);
        return;
    }
    t->next = at;
    t->prev = at->prev;
    if (at->prev)
        at->prev->next = t;
    else
        q->head = t;
    at->prev = t;
    t->queue = q;
}

void q_remove(k_queue_t *q, k_thread_t *t)
{
    if (t->prev)
        t->prev->next = t->next;
    else
        q->head = t->next;
    if (t->next)
        t->next->prev = t->prev;
    else
        q->tail = t->prev;
    t->next = t->prev = NULL;
    t->queue = NULL;
}

k_thread_t *q_pop(k_queue_t *q)
{
    k_thread_t *t = q->head;
    if (t)
        q_remove(q, t);
    return t;
}
