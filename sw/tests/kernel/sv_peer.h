/* Shared by the halves of kernel.sv_peer (sv_peer_test.c, the kernels; sv_peer_task.c, the
 * tasks): what a peer sees when the task at the other end is killed. */
#ifndef SV_PEER_H
#define SV_PEER_H

#include <stdint.h>

#include "mp/task.h"

/* tile 0: the victims; tile 1: their peers (tasks, and kernel threads with the kernel's library) */
#define SVP_VM_PORT    30 /* victim of the message exchange */
#define SVP_PM_PORT    31 /* its task peer */
#define SVP_KM_PORT    42 /* its kernel-thread peer */
#define SVP_VT_RX_PORT 32 /* victim of the channels with a task: receives from PT */
#define SVP_VT_TX_PORT 33 /*   sends to PT */
#define SVP_PT_TX_PORT 34
#define SVP_PT_RX_PORT 35
#define SVP_VK_RX_PORT 36 /* victim of the channels with a kernel thread (KC) */
#define SVP_VK_TX_PORT 37
#define SVP_KC_TX_PORT 38
#define SVP_KC_RX_PORT 39
#define SVP_CTL0_PORT  40 /* the kernels' control endpoints */
#define SVP_CTL1_PORT  41

#define SVP_MSGS_PM     3 /* victim -> task peer, before the kill */
#define SVP_MSGS_KM     2 /* victim -> kernel-thread peer */
#define SVP_FILL        4 /* peer -> victim: its receive buffer's elements (then one blocks) */
#define SVP_PKTS_OUT    2 /* victim -> channel peer, before the kill */
#define SVP_SIZE(i)     (16u + 97u * (i))
#define SVP_BAD_VA      0x40000000u /* unmapped in every task: a store there kills it */
#define SVP_AREA_OFFSET (sizeof(mp_task_state_t) + 4096u) /* a task's collective area: one page */
#define SVP_DATA_BYTES  (SVP_AREA_OFFSET + 4096u)

static inline uint8_t svp_pattern(uint32_t msg, uint32_t i)
{
    return (uint8_t)(msg * 37u + i * 5u + 3u);
}

/* After the library's state in each task's data region. */
struct sv_peer_task {
    volatile uint32_t ack; /* kernel -> peer: every victim's endpoints are gone */
    volatile uint32_t done, step;
    /* victims (read by tile 0 before the join) */
    uint32_t sent, send_fail, received, byte_fail, avail, st_setup;
    /* peers */
    uint32_t st_fill, fill_ok, st_blocked, st_wait, st_after, st_after_i;
    uint32_t st_chan_blocked, chan_sent, st_recv_gone, st_recv_again, st_recv_i, st_send_i;
    uint32_t st_avail, st_cancel;
    uint32_t st_mcast, st_mcast_member;      /* a multicast whose member is the dead victim */
    uint32_t blocked_ticks, recv_gone_ticks; /* mtime ticks a blocked call took */
};

void sv_peer_vm(void *arg);
void sv_peer_vt(void *arg);
void sv_peer_vk(void *arg);
void sv_peer_pm(void *arg);
void sv_peer_pt(void *arg);

#endif
