/* Energy of a NAMP-SV send against a system call (docs/energy.md, scripts/energy-bench): the
 * workload of kernel_sv_bench (thesis Fig. 3.30/3.31: a user task on tile 0 sends to a kernel
 * thread on tile 1, preset svbase, 2x1 mesh), one path per run, so that runs differing only in
 * the path give the energy of a send by that path.
 *
 * tile.arg = count << 12 | path << 4 | log2(size): the task sends `count` messages of 2^size bytes
 * by path 1 (u_namp_send: the kernel's software emulation of the NAMP driver) or 2 (its virtual
 * interface: reserve, copy into the send buffer, commit, four register writes), and after each one
 * sleeps two kernel ticks (the transfer completes meanwhile; a vif send is then acknowledged).
 * Path 0 only sleeps as often: the baseline the other two are measured against. Tile 1's thread
 * receives `count` messages (none with path 0) and checks their sizes, then the 4-byte end
 * message tile 0's kernel thread sends after the task (so that tile 1 stays until tile 0 is done
 * with it, whatever the path).
 * Console: "energy_sv ok: ..." when every send succeeded. */
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

#define PORT     9
#define MAX_SIZE 512u

struct task_data {
    uint32_t vif, vid_dst, vid_buf, count, path, size;
    volatile uint32_t done;
    uint8_t msg[MAX_SIZE] __attribute__((aligned(8)));
    uint8_t cb[MP_CB_HEADER_SIZE + 16 + 4 * MAX_SIZE] __attribute__((aligned(8)));
};

static void task_energy(void *arg)
{
    struct task_data *d = arg;
    mp_cbuffer_t *b = (mp_cbuffer_t *)d->cb;
    memset(d->msg, 0x5a, d->size);
    for (uint32_t k = 0; k < d->count; ++k) {
        if (d->path == 1) {
            if (u_namp_send(d->vid_dst, d->msg, d->size) != 0)
                u_exit(2);
        } else if (d->path == 2) {
            uint32_t idx;
            if (mp_cbuffer_reserve(b, &idx) != 0)
                u_exit(3);
            mp_copy(mp_cbuffer_data(b, idx), d->msg, d->size);
            mp_cbuffer_commit(b, idx, d->size);
            namp_vif_start(d->vif, NAMP_FLAG_BUF, d->vid_dst, d->vid_buf, idx);
        }
        u_sleep(2);
        if (d->path == 2) {
            if (!(namp_vif_flags(d->vif) & NAMP_FLAG_DONE) ||
                (namp_vif_status(d->vif) & NAMP_STATUS_ERROR))
                u_exit(4);
            namp_vif_set_flags(d->vif, NAMP_FLAG_BUF); /* acknowledge */
        }
    }
    d->done = 1;
    u_exit(0);
}

static uint32_t arg_count(void) { return tile_arg() >> 12; }
static uint32_t arg_path(void) { return (tile_arg() >> 4) & 3u; }
static uint32_t arg_size(void) { return 1u << (tile_arg() & 15u); }

static void sender_main(void)
{
    mcapi_status_t st;
    mcapi_info_t info;
    mcapi_endpoint_t dst;
    const uint32_t size = arg_size(), path = arg_path();
    CHECK(size >= 4 && size <= MAX_SIZE && path <= 2);
    if (ktest_failures)
        return;
    KMP(mcapi_initialize(0, 0, NULL, NULL, &info, &st));
    KMP(dst = mcapi_endpoint_get(0, 1, PORT, MCAPI_TIMEOUT_INFINITE, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    static struct task_data init;
    k_task_image_t img = {"energy", task_energy, &init, sizeof init, 1, 3, 1};
    k_thread_t *t = k_task_create(&img);
    CHECK(t != NULL);
    struct task_data *d = k_task_data(t);
    d->count = arg_count();
    d->path = path;
    d->size = size;
    mp_cbuffer_init(d->cb, 2, 9, 0);
    d->vid_dst = (uint32_t)k_vif_add_handle(t, dst);
    d->vid_buf = (uint32_t)k_vif_add_sendbuf(t, K_USER_DATA + offsetof(struct task_data, cb),
                                             (uint32_t)mp_cbuffer_footprint(2, 9));
    /* slot 0: the kernel's system-call send claims it from the library for each send (ksend.c) */
    KMP(namp_slot_reserve(1));
    d->vif = k_vif_attach(t, 1);
    CHECK(d->vif != 0);
    k_task_resume(t);
    int status = -1;
    CHECK_EQ(k_join(t, K_FOREVER, &status), K_OK);
    CHECK_EQ(status, 0);
    mcapi_endpoint_t me;
    static const uint32_t end = 0;
    KMP(me = mcapi_endpoint_create(PORT, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    KMP(mcapi_msg_send(me, dst, &end, 4, 0, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    if (ktest_failures == 0)
        k_printf("energy_sv ok: %lu sends of %lu bytes by path %lu\n", (unsigned long)arg_count(),
                 (unsigned long)size, (unsigned long)path);
}

static void receiver_main(void)
{
    mcapi_status_t st;
    mcapi_info_t info;
    mcapi_endpoint_t ep;
    KMP(mcapi_initialize(0, 1, NULL, NULL, &info, &st));
    KMP(ep = mcapi_endpoint_create(PORT, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    static uint8_t buf[MAX_SIZE];
    const uint32_t n = arg_path() == 0 ? 0 : arg_count();
    for (uint32_t i = 0; i < n; ++i) {
        size_t got = 0;
        KMP(mcapi_msg_recv(ep, buf, sizeof buf, &got, &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
        CHECK_EQ(got, arg_size());
    }
    size_t got = 0;
    KMP(mcapi_msg_recv(ep, buf, sizeof buf, &got, &st)); /* the end message */
    CHECK_EQ(st, MCAPI_SUCCESS);
    CHECK_EQ(got, 4u);
}

int main(void) { return sv_main(sender_main, receiver_main); }
