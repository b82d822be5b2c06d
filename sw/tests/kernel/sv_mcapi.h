/* Shared by the two halves of kernel.sv_mcapi (sv_mcapi_test.c, the kernel; sv_mcapi_task.c, the
 * task). */
#ifndef SV_MCAPI_H
#define SV_MCAPI_H

#include <stdint.h>

#include "mp/task.h"

#define SVM_TASK_PORT     20
#define SVM_PEER_PORT     7
#define SVM_PKT_PORT      22 /* the task's channel send endpoint */
#define SVM_PEER_PKT_PORT 8  /* tile 1's channel receive endpoint */
#define SVM_PKTS          8
#define SVM_PKT_SIZES                      \
    {                                      \
        1, 4, 100, 256, 512, 1000, 1024, 7 \
    }
#define SVM_MSGS 10
#define SVM_SIZES                                  \
    {                                              \
        1, 3, 4, 64, 255, 512, 700, 1000, 1024, 17 \
    }
#define SVM_MAX          1024
#define SVM_REPLY_MAX    512
#define SVM_STATE_BYTES  sizeof(mp_task_state_t)
/* The non-blocking phase: messages and packets with requests, both directions. */
#define SVM_TASK_RX_PORT 23 /* the task's channel receive endpoint */
#define SVM_PEER_TX_PORT 9  /* tile 1's channel send endpoint */
#define SVM_NB_MSGS      5
#define SVM_NB_SIZES       \
    {                      \
        5, 64, 300, 512, 9 \
    }
#define SVM_NB_PKTS_OUT 3
#define SVM_NB_PKT_OUT_SIZES \
    {                        \
        3, 200, 1024         \
    }
#define SVM_NB_PKTS_IN 3
#define SVM_NB_PKT_IN_SIZES \
    {                       \
        1, 100, 512         \
    }

/* After the library's state in the task's data region. */
struct sv_mcapi_task {
    volatile uint32_t mark, ack, done;
    uint32_t pkts_sent, pkt_fail, st_chan;
    uint32_t st_bye, st_init, st_create, st_get, st_final, st_after;
    uint32_t sent, send_fail, received, recv_fail, byte_fail;
    uint32_t step, misuse_done, misuse_fail, bad_code, bad_status;
    uint32_t nb_sent, nb_received, nb_pkts_out, nb_pkts_in, nb_done;
};

void sv_mcapi_task_main(void *arg);

#endif
