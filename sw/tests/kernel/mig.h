/* Shared by the task migration firmwares (mig_task.c: the pipeline tasks; mig_chain.c, mig_study.c,
 * mig_stress.c: the kernels). A pipeline stage is a U-mode task with the MCAPI library: it
 * receives items on a channel (or as messages), passes them on, and the last one checks them. */
#ifndef MIG_H
#define MIG_H

#include <stdint.h>

#include "mp/task.h"

enum mig_role { MIG_SOURCE = 1, MIG_STAGE, MIG_SINK };

#define MIG_ITEM_WORDS  8 /* [stream][seq][t_send lo][t_send hi][payload x4] */
#define MIG_MAX_ITEMS   600
#define MIG_MAX_IN      2 /* inputs of a stage (a sink of two branches) */
#define MIG_MAX_OUT     2 /* outputs (a source that feeds two branches) */
#define MIG_PORT_IN(i)  (20u + (i))
#define MIG_PORT_OUT(i) (24u + (i))
#define MIG_GAP_CYCLES  400u /* a poll turn longer than this was taken by the kernel */

/* After the library's state in the task's data region. */
#define MIG_CTL_OFFSET ((uint32_t)sizeof(mp_task_state_t))
struct mig_task {
    /* set by the kernel before the task runs */
    uint32_t role, id, n_items, period_ticks, work_loops; /* id: the source's stream */
    uint32_t task_id; /* the kernels' name of the task (stress test) */
    /* 0: MIG_PORT_IN/OUT; else inputs port_base + i, outputs
     * port_base + MIG_MAX_IN + i (tasks that meet on a tile) */
    uint32_t port_base;
    uint32_t channels; /* 1: channels, 0: connection-less messages */
    uint32_t n_in, n_out;
    uint32_t out_node[MIG_MAX_OUT], out_port[MIG_MAX_OUT]; /* where each output goes */
    /* sink: streams it expects (ids 0..streams-1); a sink of
     * n_in > 1 inputs and one stream (a fork that joins
     * again) checks each input's sequence (next_seq[input]) */
    uint32_t streams;
    /* results */
    volatile uint32_t stage, done, go;
    uint32_t sent, received, bad, dup_or_gap, errors, last_status;
    uint32_t next_seq[4];
    uint32_t n_lat;
    uint32_t lat[MIG_MAX_ITEMS]; /* sink: latency of each item (mtime ticks), arrival order */
    /* sink: input << 24 | stream << 16 | seq of each, arrival
     * order */
    uint32_t seq_of[MIG_MAX_ITEMS];
    /* set by the kernel (after the results, so the fields above keep their places) */
    /* source: 0, or an I/O interface that releases item i at
     * t0 + i * release_ticks (mtime, polled) and stamps it
     * with that time, sent as soon as the pipeline takes it:
     * a stalled pipeline shows as latency, not as a slower
     * source */
    uint32_t release_ticks;
    /* stage, sink: 1 waits for an item by polling (never
     * sleeps: no tick in the latency) */
    uint32_t poll;
    uint32_t t0; /* result: the source's first release (mtime, low word) */
    /* result: cycles the kernel took from the task's poll
     * loops (gaps over MIG_GAP_CYCLES) */
    volatile uint32_t stolen;
};
#define MIG_DATA_BYTES (MIG_CTL_OFFSET + (uint32_t)sizeof(struct mig_task))

void mig_task_main(void *arg);

/* the payload word i of item (stream, seq): the sink checks every one */
static inline uint32_t mig_word(uint32_t stream, uint32_t seq, uint32_t i)
{
    return (stream * 0x01000193u) ^ (seq * 0x9E3779B1u) ^ (i * 0x85EBCA6Bu);
}

#endif
