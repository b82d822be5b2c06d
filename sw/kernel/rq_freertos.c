/* FreeRTOS-style ready queues: one doubly linked list per priority, every insertion appended at
 * the tail (vListInsertEnd), the list item inside the thread; the scheduler scans the priorities
 * from the highest down (uxTopReadyPriority without the port-optimised bitmap). */
/* init, removal and the scan: rq_list.c */
#include "kinternal.h"

const char *const k_rq_layout_name = "freertos";

void rq_insert(k_thread_t *t, int front)
{
    (void)front;
    q_append(&k_ready[t->prio], t);
}
