/* kernel.security.revoke_hold (docs/security.md row 11): a sender task that keeps its vif busy must
 * not hold the endpoint, record and pages of a receiver that ended on another tile. Shared by
 * sec_hold_test.c (the kernels) and sec_hold_task.c (the tasks). */
#ifndef SEC_HOLD_H
#define SEC_HOLD_H

#include <stdint.h>

#include "mp/task.h"

#define SH_RX_PORT       50 /* receiver r (tile 0) at 50 + r */
#define SH_TX_PORT       52 /* attacker a's channel endpoint to receiver a (tile 1) at 52 + a */
#define SH_HOLD_PORT     54 /* attacker a's second endpoint at 54 + a */
#define SH_COLLUDER_PORT 56 /* tile 0: a colluding receiver task, no credit back until released */
#define SH_SINK_PORT     57 /* the colluder's sink the flooding attacker sends to */
#define SH_CTL0_PORT     58
#define SH_CTL1_PORT     59
#define SH_MAX_PKTS      6
#ifdef SH_MCAST_HOLD
#define SH_AREA_OFFSET (sizeof(mp_task_state_t) + 4096u) /* the collective area: one page */
#define SH_DATA_BYTES  (SH_AREA_OFFSET + 4096u)
#else
#define SH_DATA_BYTES (sizeof(mp_task_state_t) + 4096u)
#endif

enum sh_mode { SH_CREDIT_HOLD = 0, SH_FLOOD = 1 }; /* how attacker a keeps its vif busy */

static inline uint8_t sh_pattern(uint32_t who, uint32_t pkt, uint32_t i)
{
    return (uint8_t)(who * 89u + pkt * 37u + i * 5u + 1u);
}

/* After the library's state in each task's data region. */
struct sec_hold_task {
    uint32_t who, n_pkts, seed;  /* set by the kernel */
    uint32_t size[SH_MAX_PKTS];  /* packet sizes, random, set by the kernel */
    volatile uint32_t end, stop; /* receiver: end now; attacker: stop holding */
    volatile uint32_t step, done;
    uint32_t st_setup, received, byte_fail, sent, held_sends, st_after;
    /* SH_MIGRATE: the flooding attacker deletes its channel's endpoint while it floods on
     * (del_tx, set by its kernel; st_del), and its receiver waits for the channel to close
     * (expect_close, set by its kernel; st_closed) */
    volatile uint32_t del_tx, deleted;
    uint32_t expect_close, st_del, st_closed;
};

void sec_hold_receiver(void *arg);
void sec_hold_attacker(void *arg);
void sec_hold_colluder(void *arg);

#endif
