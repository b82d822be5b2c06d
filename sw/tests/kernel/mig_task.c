/* A pipeline stage for the task migration firmwares (mig.h): plain MCAPI calls in a U-mode task.
 * The source stamps each item with its stream, sequence number and mtime; a stage passes items
 * on (after some work); the sink checks that every item of every stream arrives once, in order,
 * intact, and keeps each item's latency. None of them knows it may be migrated. */
#include <stddef.h>
#include <stdint.h>

#include "kernel/kconfig.h"
#include "kernel/user.h"
#include "mcapi.h"
#include "mig.h"

#define T ((struct mig_task *)(K_USER_DATA + MIG_CTL_OFFSET))

static uint64_t now(void)
{
    uint32_t hi, lo, hi2;
    do {
        __asm__ volatile("rdtimeh %0" : "=r"(hi));
        __asm__ volatile("rdtime %0" : "=r"(lo));
        __asm__ volatile("rdtimeh %0" : "=r"(hi2));
    } while (hi != hi2);
    return ((uint64_t)hi << 32) | lo;
}

static void work(uint32_t loops)
{
    for (volatile uint32_t i = 0; i < loops; ++i)
        ;
}

struct io {
    mcapi_endpoint_t in[MIG_MAX_IN], out[MIG_MAX_OUT], dst[MIG_MAX_OUT];
    mcapi_pktchan_recv_hndl_t rh[MIG_MAX_IN];
    mcapi_pktchan_send_hndl_t sh[MIG_MAX_OUT];
};

static void fail(mcapi_status_t st)
{
    T->errors++;
    T->last_status = (uint32_t)st;
}

/* the outputs first (connect and open them), then the inputs (opening waits for their senders) */
static int setup(struct io *io)
{
    mcapi_status_t st;
    mcapi_request_t r;
    size_t sz;
    mcapi_initialize(MCAPI_DOMAIN, mcapi_node_id_get(&st), NULL, NULL, NULL, &st);
    for (uint32_t i = 0; i < T->n_in; ++i) {
        io->in[i] = mcapi_endpoint_create(T->port_base ? T->port_base + i : MIG_PORT_IN(i), &st);
        if (st != MCAPI_SUCCESS)
            return fail(st), -1;
    }
    for (uint32_t i = 0; i < T->n_out; ++i) {
        io->out[i] = mcapi_endpoint_create(T->port_base ? T->port_base + MIG_MAX_IN + i : MIG_PORT_OUT(i), &st);
        io->dst[i] = mcapi_endpoint_get(MCAPI_DOMAIN, T->out_node[i], T->out_port[i], MCAPI_TIMEOUT_INFINITE, &st);
        if (st != MCAPI_SUCCESS)
            return fail(st), -1;
        if (T->channels) {
            mcapi_pktchan_connect_i(io->out[i], io->dst[i], &r, &st);
            mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
            mcapi_pktchan_send_open_i(&io->sh[i], io->out[i], &r, &st);
            if (st != MCAPI_SUCCESS)
                return fail(st), -1;
        }
    }
    T->stage = 1;   /* the outputs are connected: the kernel may let the next stage go */
    for (uint32_t i = 0; T->channels && i < T->n_in; ++i) {
        mcapi_pktchan_recv_open_i(&io->rh[i], io->in[i], &r, &st);
        if (st != MCAPI_SUCCESS)
            return fail(st), -1;
    }
    T->stage = 2;
    return 0;
}

static void put(struct io *io, uint32_t k, const uint32_t *item)
{
    mcapi_status_t st;
    if (T->channels)
        mcapi_pktchan_send(io->sh[k], item, MIG_ITEM_WORDS * 4u, &st);
    else
        mcapi_msg_send(io->out[k], io->dst[k], item, MIG_ITEM_WORDS * 4u, 0, &st);
    if (st == MCAPI_SUCCESS)
        T->sent++;
    else
        fail(st);
}

/* The next item of input k (blocking), copied into item. */
static int get(struct io *io, uint32_t k, uint32_t *item)
{
    mcapi_status_t st;
    size_t got = 0;
    if (T->channels) {
        void *p;
        mcapi_pktchan_recv(io->rh[k], &p, &got, &st);
        if (st != MCAPI_SUCCESS)
            return fail(st), -1;
        for (uint32_t i = 0; i < MIG_ITEM_WORDS; ++i)
            item[i] = ((const uint32_t *)p)[i];
        mcapi_pktchan_release(p, &st);
    } else {
        mcapi_msg_recv(io->in[k], item, MIG_ITEM_WORDS * 4u, &got, &st);
    }
    if (st != MCAPI_SUCCESS)
        return fail(st), -1;
    if (got != MIG_ITEM_WORDS * 4u)
        T->bad++;
    return 0;
}

static void source(struct io *io)
{
    for (uint32_t seq = 0; seq < T->n_items; ++seq) {
        const uint64_t t = now();
        uint32_t item[MIG_ITEM_WORDS] = {T->id, seq, (uint32_t)t, (uint32_t)(t >> 32)};
        for (uint32_t i = 4; i < MIG_ITEM_WORDS; ++i)
            item[i] = mig_word(T->id, seq, i);
        for (uint32_t k = 0; k < T->n_out; ++k)
            put(io, k, item);
        if (T->period_ticks)
            u_sleep(T->period_ticks);
    }
}

static void stage(struct io *io)
{
    uint32_t item[MIG_ITEM_WORDS];
    for (uint32_t n = 0; n < T->n_items; ++n)
        for (uint32_t k = 0; k < T->n_in; ++k) {
            if (get(io, k, item) != 0)
                return;
            T->received++;
            work(T->work_loops);
            for (uint32_t o = 0; o < T->n_out; ++o)
                put(io, o, item);
        }
}

static void sink(struct io *io)
{
    uint32_t item[MIG_ITEM_WORDS];
    for (uint32_t n = 0; n < T->n_items * T->n_in; ++n) {
        const uint32_t k = n % T->n_in;
        if (get(io, k, item) != 0)
            return;
        const uint64_t t = now(), sent = ((uint64_t)item[3] << 32) | item[2];
        const uint32_t stream = item[0], seq = item[1];
        int ok = stream < 4;
        for (uint32_t i = 4; ok && i < MIG_ITEM_WORDS; ++i)
            ok = item[i] == mig_word(stream, seq, i);
        if (!ok) {
            T->bad++;
            continue;
        }
        if (seq != T->next_seq[stream])
            T->dup_or_gap++;
        T->next_seq[stream] = seq + 1;
        if (T->n_lat < MIG_MAX_ITEMS) {
            T->lat[T->n_lat] = (uint32_t)(t - sent);
            T->seq_of[T->n_lat] = (stream << 16) | seq;
            T->n_lat++;
        }
        T->received++;
    }
}

void mig_task_main(void *arg)
{
    (void)arg;
    struct io io;
    if (T->role && setup(&io) == 0) {
        if (T->role == MIG_SOURCE)
            source(&io);
        else if (T->role == MIG_STAGE)
            stage(&io);
        else
            sink(&io);
    }
    T->done = 1;
    while (T->go != 2) {   /* the kernel reads the results, then lets it end */
        if (T->go == 3)
            u_exit(3);     /* told to end now (a task ending while it is being migrated) */
        u_sleep(1);
    }
    u_exit(0);
}
