/* Shared by the two halves of kernel.sv_cc (sv_cc_test.c, the kernels; sv_cc_task.c, the task):
 * collectives of a U-mode task through its vif (docs/kernel.md "Collectives in tasks"). */
#ifndef SV_CC_H
#define SV_CC_H

#include <stdint.h>

#include "mp/task.h"

#define SVC_TASK_PORT    30  /* the task's message endpoint (multicast, reduction, gather) */
#define SVC_TASK_CH_PORT 31  /* + k: its channel send endpoints to tiles 1 and 2 (scatter) */
#define SVC_RX_PORT      40  /* tiles 1..3: multicast receiver */
#define SVC_CH_PORT      41  /* tiles 1, 2: scatter channel receiver */
#define SVC_RED_PORT     42  /* tile 1: reduction root */
#define SVC_GATHER_PORT  43  /* tile 2: gather root */
#define SVC_T3_PORT      50  /* tile 3: its sending endpoint */
#define SVC_HOLD_PORT    45  /* tile 1: one element, drained only after tile 0's DRAIN message */
#define SVC_DRAIN_PORT   46  /* tile 1: that message */
#define SVC_HELD_SIZE    100 /* the two messages to the held endpoint (patterns 20, 21) */
#define SVC_MCASTS       3
#define SVC_MCAST_SIZES \
    {                   \
        8, 200, 1000    \
    }
#define SVC_SCATTER_COUNT 6 /* rows of a 6 x 10 matrix; tile 1 gets columns 0..3, tile 2 4..9 */
#define SVC_SCATTER_WIDTH 10
#define SVC_RED_WORDS     64 /* int32 sum of the task's and tile 3's vectors */
#define SVC_GATHER_ROWS   5  /* 5 x 8 matrix at the root: columns 0..2 from the task, 3..7 tile 3 */
#define SVC_GATHER_WIDTH  8
#define SVC_MIGRATE_TO    3   /* after the first round the task moves to tile 3 (NAMP-PS) */
#define SVC_ROUND2_SIZE   300 /* the second round's multicast (message 3) */
#define SVC_AREA_OFFSET   (sizeof(mp_task_state_t) + 4096u) /* in the task's data: one page */

static inline uint8_t svc_byte(uint32_t msg, uint32_t i)
{
    return (uint8_t)(msg * 29u + i * 13u + 5u);
}
static inline int32_t svc_word(uint32_t who, uint32_t i)
{
    return (int32_t)(who * 1000u + i * 7u) - 300;
}

/* After the library's state in the task's data region (the page after it). */
struct sv_cc_task {
    volatile uint32_t mark, ack, done;
    uint32_t st_area, st_setup, mcasts_ok, scatter_ok, reduce_ok, gather_ok;
    uint32_t round2_ok; /* after the migration: multicast, scatter, reduction, gather (4) */
    uint32_t held_started, held_status, held_result; /* the collective under way at the move */
    uint32_t step, misuse_done, misuse_fail, bad_code, bad_status;
};

void sv_cc_task_main(void *arg);

#endif
