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
        io->out[i] = mcapi_endpoint_create(
            T->port_base ? T->port_base + MIG_MAX_IN + i : MIG_PORT_OUT(i), &st);
        io->dst[i] = mcapi_endpoint_get(MCAPI_DOMAIN, T->out_node[i], T->out_port[i],
                                        MCAPI_TIMEOUT_INFINITE, &st);
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
    T->stage = 1; /* the outputs are connected: the kernel may let the next stage go */
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

static uint32_t cycles(void)
{
    uint32_t c;
    __asm__ volatile("rdcycle %0" : "=r"(c));
    return c;
}

/* A poll loop's turn: a gap between two turns longer than MIG_GAP_CYCLES is time the kernel
 * took from the task (interrupts, its threads, a migration's steps), added to T->stolen. */
static void polled(uint32_t *last)
{
    const uint32_t c = cycles();
    if (c - *last > MIG_GAP_CYCLES)
        T->stolen += c - *last;
    *last = c;
}

/* T->poll: wait for input k's next item by polling its buffer instead of the library's blocking
 * call, which sleeps a tick while the buffer is empty (every hop would wait for the receiver's
 * next tick: latencies in steps of a tick, the settled latency after a move set by the phase of
 * the polls against the ticks) */
static void wait_input(struct io *io, uint32_t k)
{
    if (!T->poll)
        return;
    mcapi_status_t st;
    uint32_t last = cycles();
    while ((T->channels ? mcapi_pktchan_available(io->rh[k], &st)
                        : mcapi_msg_available(io->in[k], &st)) == 0)
        polled(&last);
}

static void source(struct io *io)
{
    uint64_t t0 = u_time();
    T->t0 = (uint32_t)t0;
    uint32_t last = cycles();
    for (uint32_t seq = 0; seq < T->n_items; ++seq) {
        uint64_t t = u_time();
        if (T->release_ticks) { /* released at its time; sent once the pipeline takes it */
            const uint64_t rel = t0 + (uint64_t)seq * T->release_ticks;
            while ((t = u_time()) < rel)
                polled(&last);
            t = rel;
        }
        uint32_t item[MIG_ITEM_WORDS] = {T->id, seq, (uint32_t)t, (uint32_t)(t >> 32)};
        for (uint32_t i = 4; i < MIG_ITEM_WORDS; ++i)
            item[i] = mig_word(T->id, seq, i);
        for (uint32_t k = 0; k < T->n_out; ++k)
            put(io, k, item);
        if (T->period_ticks && !T->release_ticks)
            u_sleep(T->period_ticks);
        last = cycles();
    }
}

static void stage(struct io *io)
{
    uint32_t item[MIG_ITEM_WORDS];
    for (uint32_t n = 0; n < T->n_items; ++n)
        for (uint32_t k = 0; k < T->n_in; ++k) {
            wait_input(io, k);
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
        wait_input(io, k);
        if (get(io, k, item) != 0)
            return;
        const uint64_t t = u_time(), sent = ((uint64_t)item[3] << 32) | item[2];
        const uint32_t stream = item[0], seq = item[1];
        int ok = stream < 4;
        for (uint32_t i = 4; ok && i < MIG_ITEM_WORDS; ++i)
            ok = item[i] == mig_word(stream, seq, i);
        if (!ok) {
            T->bad++;
            continue;
        }
        /* one stream over several inputs (fork and join): each input in order on its own */
        const uint32_t lane = T->streams == 1 && T->n_in > 1 ? k : stream;
        if (seq != T->next_seq[lane])
            T->dup_or_gap++;
        T->next_seq[lane] = seq + 1;
        if (T->n_lat < MIG_MAX_ITEMS) {
            T->lat[T->n_lat] = (uint32_t)(t - sent);
            T->seq_of[T->n_lat] = (k << 24) | (stream << 16) | seq;
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
    while (T->go != 2) { /* the kernel reads the results, then lets it end */
        if (T->go == 3)
            u_exit(3); /* told to end now (a task ending while it is being migrated) */
        u_sleep(1);
    }
    u_exit(0);
}
