/* The MCAPI library in a U-mode task (library mp_task, sw/lib/mp/mcapi_task.c; docs/kernel.md
 * "MCAPI in tasks"): the contract between the task-side library and the kernel (sw/kernel/
 * kmp_task.c). The library's state is the first part of the task's data region (K_USER_DATA):
 * a task image that uses MCAPI starts its data with an mp_task_state_t. The task sends through
 * its vif (no system call); endpoint creation, deletion and lookups are system calls served by a
 * kernel thread that runs the kernel's MCAPI library; receives read the endpoint's receive buffer,
 * which is a page of the task's own state. */
#ifndef MP_TASK_H
#define MP_TASK_H

#include <stdint.h>

#define MP_TASK_PAGE          4096u
#define MP_TASK_EPS           3u  /* local endpoints of a task */
#define MP_TASK_REMOTES       8u  /* remote endpoints it may look up */
#define MP_TASK_TX_N          1u  /* send buffer: 2 elements */
#define MP_TASK_TX_M          10u /*   of 1 KiB (the largest message a task sends) */
#define MP_TASK_RX_N          2u  /* receive buffer of each endpoint: 4 elements */
#define MP_TASK_RX_M          9u  /*   of 512 bytes */
#define MP_TASK_MAGIC         0x4d505453u
#define MP_TASK_SENDQ         2u /* non-blocking sends under way: one per send-buffer element */
#define MP_TASK_MAX_SEND      (1u << MP_TASK_TX_M)
#define MP_TASK_GET_TRY_US    1000u /* one lookup request: its MCAPI timeout in the kernel */
/* a connect asked again, a tick apart, while the receiver
 * has not asked to open its side (CHAN_NOTOPEN) */
#define MP_TASK_CONNECT_TRIES 20000u

struct mp_task_ep {
    uint32_t used, port;
    int32_t kid; /* the kernel's index of the endpoint */
    /* packet channel: 0 none, 1 connected, 2 sending side open,
     * 3 receiving side open */
    uint32_t chan;
    /* sending: vID of the connected receive endpoint's handle;
     * receiving: vID of the credit path (NAMP_ET_CREDIT) */
    uint32_t chan_vid;
    uint32_t released, voids_seen; /* receiving: packets released since the last credit */
    /* set by the kernel: the channel's sender deleted its endpoint
     * (e.g. its task was killed); receives end once the buffer is
     * empty, no credits go back */
    volatile uint32_t gone;
};
struct mp_task_remote {
    uint32_t used, node, port, vid;
};

/* Control words, written by the kernel at set-up (magic, vif, tx_vid, node) and then by the task. */
struct mp_task_ctrl {
    uint32_t magic;
    uint32_t vif;    /* virtual address of the vif interface page */
    uint32_t tx_vid; /* vID of the send buffer */
    uint32_t node;
    uint32_t initialized;
    uint32_t sends, send_errors, last_vif_status;
    uint32_t timer_hz; /* mtime frequency (kernel, at set-up): request timeouts */
    /* non-blocking sends (task side): FIFO of request addresses; sq[sq_head] owns the vif while
     * sq_started */
    uint32_t sq[MP_TASK_SENDQ], sq_head, sq_n, sq_started;
    struct mp_task_ep ep[MP_TASK_EPS];
    struct mp_task_remote rem[MP_TASK_REMOTES];
    /* collectives (mcapi_task_cc.c): the registered collective area, 0 bytes = none */
    uint32_t cc_vid, cc_va, cc_bytes;
};

typedef struct mp_task_state {
    union {
        struct mp_task_ctrl c;
        uint8_t pad[MP_TASK_PAGE];
    } u;
    uint8_t tx[MP_TASK_PAGE];              /* mp_cbuffer, vID tx_vid */
    uint8_t rx[MP_TASK_EPS][MP_TASK_PAGE]; /* mp_cbuffer of local endpoint i */
} __attribute__((aligned(4096))) mp_task_state_t;

/* Requests (K_SYS_MP_REQ a0 = op, a1, a2); K_SYS_MP_RES returns K_EAGAIN while pending, else the
 * result: >= 0, or MP_TASK_ERR(mcapi status). */
enum mp_task_op {
    MP_TASK_OP_CREATE = 1,    /* a1 = port, a2 = index of the local endpoint: kernel index */
    MP_TASK_OP_DELETE = 2,    /* a1 = kernel index */
    MP_TASK_OP_GET = 3,       /* a1 = node, a2 = port: vID (one try of about 1 ms) */
    MP_TASK_OP_CONNECT = 4,   /* a1 = kernel index, a2 = vID of the remote receive endpoint */
    MP_TASK_OP_SEND_OPEN = 5, /* a1 = kernel index: vID of the channel's connected handle */
    /* a1 = kernel index: vID of the channel's credit path (one try
     * of about 1 ms for the connect: MCAPI_TIMEOUT, try again) */
    MP_TASK_OP_RECV_OPEN = 6,
    MP_TASK_OP_CC_AREA = 7, /* a1 = address, a2 = bytes of the task's collective area: its vID */
    /* a1 = vID of a looked-up root, a2 = MP_TASK_MEMBER(kernel
     * index of the task's sending endpoint, the root's element log2
     * (gather; the kernel checks it against the lookup), kind
     * NAMP_CC_K_REDUCE or _GATHER): vID of the contributor's handle
     * (NAMP_ET_MEMBER; a gather's connected, unlimited credits) */
    MP_TASK_OP_MEMBER_HANDLE = 8,
    MP_TASK_OP_LAST = MP_TASK_OP_MEMBER_HANDLE
};
#define MP_TASK_MEMBER(kid, msg_log2, kind)                          \
    (((uint32_t)(kid)&0xFFu) | (((uint32_t)(msg_log2)&0xFFu) << 8) | \
     (((uint32_t)(kind)&0xFFu) << 16))
#define MP_TASK_ERR(st)   (-1000 - (int32_t)(st))
#define MP_TASK_STATUS(r) ((int32_t)(-1000 - (r)))

#endif
