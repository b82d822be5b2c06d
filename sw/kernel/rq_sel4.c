/* seL4-style ready queues: per priority a queue with head and end pointers (ksReadyQueues),
 * threads linked through tcbSchedNext/Prev. A thread that is woken or preempted goes to the front
 * (tcbSchedEnqueue); one whose time slice ended or that yields goes to the end (tcbSchedAppend). */
/* init, removal and the scan: rq_list.c */
#include "kinternal.h"

const char *const k_rq_layout_name = "sel4";

void rq_insert(k_thread_t *t, int front)
{
    if (front)
        q_prepend(&k_ready[t->prio], t);
    else
        q_append(&k_ready[t->prio], t);
}
