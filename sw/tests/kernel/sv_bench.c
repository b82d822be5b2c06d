/* Thesis Fig. 3.30/3.31: sender overhead of a user task sending a message by a system call into
 * the kernel's NAMP driver (software emulation, sw/kernel/ksend.c) against sending through its
 * NAMP-SV virtual interface, by message size. Preset svbase, 2x1 mesh: tile 0's task sends, tile
 * 1's kernel thread receives. The task measures its own cycles (rdcycle) from the start of a send
 * to its return: vif = reserve + copy into the send buffer + commit + 4 register writes; syscall =
 * the ecall with the kernel's checks, table look-up, copy and slot start. Between sends it waits
 * (outside the measurement) until the transfer is done.
 * The task then polls DONE: the adapter's part of the vif send (translation, the isolation
 * checks, allocation, data, completion) until the transfer is done.
 * Prints "sv_bench size <n>: syscall <c> vif <c> cycles, vif until done <c> cycles" per size and "sv_bench ok" when the vif
 * is cheaper at every size. scripts/sv-bench writes docs/namp-sv-bench.md from it. tile.arg = the
 * size index + 1 measures that size alone (a claim's run), 0 every size. */
#include <stdint.h>
#include <string.h>

#include "hal/hal.h"
#include "kernel/kmp.h"
#include "kernel/user.h"
#include "ktest.h"
#include "sv_main.h"
#include "mcapi.h"
#include "mp/cbuffer.h"
#include "mp/copy.h"
#include "namp/namp_regs.h"
#include "namp/namp.h"

volatile unsigned ktest_failures;

#define PORT   9
#define REPS   4
#define NSIZES 6
static const uint32_t sizes[NSIZES] = {4, 16, 64, 128, 256, 512};

struct bench_data {
    uint32_t vif, vid_dst, vid_buf;
    uint32_t only; /* tile.arg: the size index + 1 to measure (0: every size) */
    volatile uint32_t done;
    uint32_t sys_cycles[NSIZES], vif_cycles[NSIZES], done_cycles[NSIZES];
    uint8_t msg[512] __attribute__((aligned(8)));
    uint8_t cb[MP_CB_HEADER_SIZE + 16 + 2048] __attribute__((aligned(8))); /* 4 x 512 B */
};

static void settle(void)
{
    uint32_t t0 = u_cycles();
    while (u_cycles() - t0 < 20000u) /* the transfer completes meanwhile */
        ;
}

static void task_bench(void *arg)
{
    struct bench_data *d = arg;
    mp_cbuffer_t *b = (mp_cbuffer_t *)d->cb;
    for (uint32_t k = 0; k < NSIZES; ++k) {
        if (d->only && d->only != k + 1)
            continue;
        uint32_t size = sizes[k], sys = 0, vif = 0, done = 0;
        memset(d->msg, (int)k, size);
        for (uint32_t r = 0; r < REPS; ++r) {
            uint32_t t0 = u_cycles();
            long rc = u_namp_send(d->vid_dst, d->msg, size);
            sys += u_cycles() - t0;
            if (rc != 0)
                u_exit(2);
            settle();
            t0 = u_cycles();
            uint32_t idx;
            if (mp_cbuffer_reserve(b, &idx) != 0)
                u_exit(3);
            mp_copy(mp_cbuffer_data(b, idx), d->msg, size);
            mp_cbuffer_commit(b, idx, size);
            namp_vif_start(d->vif, NAMP_FLAG_BUF, d->vid_dst, d->vid_buf, idx);
            const uint32_t t1 = u_cycles();
            vif += t1 - t0;
            /* the adapter's part: translation, checks, allocation, data, completion */
            for (uint32_t i = 0; i < 100000u && !(namp_vif_flags(d->vif) & NAMP_FLAG_DONE); ++i)
                ;
            done += u_cycles() - t1;
            settle();
            if (!(namp_vif_flags(d->vif) & NAMP_FLAG_DONE) ||
                (namp_vif_status(d->vif) & NAMP_STATUS_ERROR))
                u_exit(4);
            namp_vif_set_flags(d->vif, NAMP_FLAG_BUF); /* acknowledge */
        }
        d->sys_cycles[k] = sys / REPS;
        d->vif_cycles[k] = vif / REPS;
        d->done_cycles[k] = done / REPS;
    }
    d->done = 1;
    u_exit(0);
}

static void sender_main(void)
{
    mcapi_status_t st;
    mcapi_info_t info;
    mcapi_endpoint_t dst;
    KMP(mcapi_initialize(0, 0, NULL, NULL, &info, &st));
    KMP(dst = mcapi_endpoint_get(0, 1, PORT, MCAPI_TIMEOUT_INFINITE, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    static struct bench_data init;
    k_task_image_t img = {"bench", task_bench, &init, sizeof init, 1, 3, 1};
    k_thread_t *t = k_task_create(&img);
    CHECK(t != NULL);
    struct bench_data *d = k_task_data(t);
    mp_cbuffer_init(d->cb, 2, 9, 0);
    d->only = tile_arg();
    d->vid_dst = (uint32_t)k_vif_add_handle(t, dst);
    d->vid_buf = (uint32_t)k_vif_add_sendbuf(t, K_USER_DATA + offsetof(struct bench_data, cb),
                                             (uint32_t)mp_cbuffer_footprint(2, 9));
    /* slot 0: the kernel's system-call send claims it from the library for each send (ksend.c) */
    KMP(namp_slot_reserve(1));
    d->vif = k_vif_attach(t, 1);
    CHECK(d->vif != 0);
    k_task_resume(t);
    int status = -1;
    /* the data stays readable until the join collects the task: wait for done first */
    for (int i = 0; i < 5000 && !d->done; ++i)
        k_sleep(1);
    CHECK(d->done);
    for (uint32_t k = 0; k < NSIZES; ++k) {
        if (d->only && d->only != k + 1)
            continue;
        k_printf("sv_bench size %lu: syscall %lu vif %lu cycles, vif until done %lu cycles\n",
                 (unsigned long)sizes[k], (unsigned long)d->sys_cycles[k],
                 (unsigned long)d->vif_cycles[k], (unsigned long)d->done_cycles[k]);
        CHECK(d->vif_cycles[k] < d->sys_cycles[k]);
    }
    CHECK_EQ(k_join(t, K_FOREVER, &status), K_OK);
    CHECK_EQ(status, 0);
    if (ktest_failures == 0)
        k_printf("sv_bench ok\n");
}

static void receiver_main(void)
{
    mcapi_status_t st;
    mcapi_info_t info;
    mcapi_endpoint_t ep;
    KMP(mcapi_initialize(0, 1, NULL, NULL, &info, &st));
    KMP(ep = mcapi_endpoint_create(PORT, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    static uint8_t buf[512];
    const uint32_t only = tile_arg(); /* as the sender: one size (index + 1) or all */
    for (uint32_t i = 0; i < 2 * REPS * NSIZES; ++i) {
        if (only && only != i / (2 * REPS) + 1)
            continue;
        size_t got = 0;
        KMP(mcapi_msg_recv(ep, buf, sizeof buf, &got, &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
        CHECK_EQ(got, sizes[i / (2 * REPS)]);
    }
}

int main(void) { return sv_main(sender_main, receiver_main); }
