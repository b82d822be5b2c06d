/* NAMP-SV end to end (docs/kernel.md "NAMP-SV"), preset svbase on a 2x1 mesh. Tile 1: a kernel
 * thread receives with MCAPI. Tile 0: two user tasks send through their own virtual interfaces
 * (slots 1 and 2) concurrently, with no system call while sending; a third task tries a vID out
 * of bound (error status), BUF=0 (error status), then the physical slot page (page fault: killed);
 * a fourth task uses a vID valid only in another task's table (error status).
 * Expected: "kernel sv ok: 2 tasks, 24 messages through vifs, 0 system calls while sending" on
 * tile 0, "kernel sv receiver ok: 24 messages" on tile 1, exit 0. */
#include <stdint.h>
#include <string.h>

#include "hal/hal.h"
#include "kernel/kmp.h"
#include "kernel/user.h"
#include "ktest.h"
#include "sv_main.h"
#include "mcapi.h"
#include "mp/cbuffer.h"
#include "namp/namp_regs.h"
#include "namp/namp.h"

volatile unsigned ktest_failures;

#define PORT 7
#define MSGS 12
#define CB_N 2 /* 4 elements */
#define CB_M 5 /* of 32 bytes */

/* ---- task side: its data region (K_USER_DATA) and the vif page, nothing else ---- */
struct sv_data {
    uint32_t vif;              /* virtual address of the vif interface page */
    uint32_t vid_dst, vid_buf; /* vIDs the kernel gave it */
    uint32_t id;
    volatile uint32_t sent, done, errors, last_status, code1, code2;
    uint8_t cb[512] __attribute__((aligned(8))); /* the send buffer (mp_cbuffer) */
};

static uint32_t vif_send(struct sv_data *d, uint32_t flags, uint32_t p1, uint32_t p2, uint32_t p3)
{
    namp_vif_start(d->vif, flags, p1, p2, p3);
    for (uint32_t i = 0; i < 1000000u; ++i) /* bounded: a lost completion fails the test */
        if (namp_vif_flags(d->vif) & NAMP_FLAG_DONE)
            break;
    uint32_t st = namp_vif_status(d->vif);
    namp_vif_set_flags(d->vif, flags & ~NAMP_FLAG_VALID); /* acknowledge */
    return st;
}

static void task_sender(void *arg)
{
    struct sv_data *d = arg;
    mp_cbuffer_t *b = (mp_cbuffer_t *)d->cb;
    for (uint32_t s = 0; s < MSGS; ++s) {
        uint32_t idx;
        if (mp_cbuffer_reserve(b, &idx) != 0) {
            d->errors++;
            break;
        }
        uint32_t *msg = (uint32_t *)mp_cbuffer_data(b, idx);
        msg[0] = d->id;
        msg[1] = s;
        msg[2] = d->id * 0x10001u ^ s;
        mp_cbuffer_commit(b, idx, 12);
        uint32_t st = vif_send(d, NAMP_FLAG_BUF, d->vid_dst, d->vid_buf, idx);
        if (st & NAMP_STATUS_ERROR) {
            d->errors++;
            d->last_status = st;
        } else {
            d->sent++;
        }
    }
    d->done = 1; /* the kernel reads this and our system-call count before we exit */
    while (d->done != 2)
        ;
    u_exit(0);
}

static void task_bad(void *arg)
{
    struct sv_data *d = arg;
    d->code1 = NAMP_STATUS_CODE(vif_send(d, NAMP_FLAG_BUF, 5, d->vid_buf, 0)); /* out of bound */
    d->code2 = NAMP_STATUS_CODE(vif_send(d, 0, d->vid_dst, 0, 4));             /* BUF=0 */
    d->done = 1;
    /* the slot's physical page (PARAM1 = any address) is not mapped for tasks */
    *(volatile uint32_t *)(TILE_NA_BASE + NA_NAMP_SLOT_BASE(3) + NAMP_SLOT_PARAM1) = 0x80000000u;
    u_exit(1);
}

static void task_foreign(void *arg)
{
    struct sv_data *d = arg;
    /* vID 1 is a send buffer in the other tasks' tables; in this table only vID 0 exists */
    d->code1 = NAMP_STATUS_CODE(vif_send(d, NAMP_FLAG_BUF, 0, 1, 0));
    d->done = 1;
    u_exit(0);
}

/* ---- kernel side ---- */
static mcapi_endpoint_t dst;

static k_thread_t *make_task(const char *name, void (*entry)(void *), uint32_t id, unsigned slot,
                             int with_buffer, int add_handle)
{
    static struct sv_data init; /* the template: zero */
    k_task_image_t img = {name, entry, &init, sizeof init, 1, 3, 1};
    k_thread_t *t = k_task_create(&img);
    CHECK(t != NULL);
    struct sv_data *d = k_task_data(t);
    d->id = id;
    /* the send buffer, initialised by the kernel through the physical address */
    mp_cbuffer_init(d->cb, CB_N, CB_M, 0);
    d->vid_dst = add_handle ? (uint32_t)k_vif_add_handle(t, dst) : 0;
    if (with_buffer)
        d->vid_buf = (uint32_t)k_vif_add_sendbuf(t, K_USER_DATA + offsetof(struct sv_data, cb),
                                                 (uint32_t)mp_cbuffer_footprint(CB_N, CB_M));
    KMP(namp_slot_reserve(slot)); /* the MCAPI library must not use a task's slot */
    d->vif = k_vif_attach(t, slot);
    CHECK(d->vif != 0);
    return t;
}

static int wait_done(k_thread_t *t)
{
    struct sv_data *d = k_task_data(t);
    for (int i = 0; i < 2000 && !d->done; ++i)
        k_sleep(1);
    return d->done != 0;
}

static void sender_main(void)
{
    mcapi_status_t st;
    mcapi_info_t info;
    KMP(mcapi_initialize(0, 0, NULL, NULL, &info, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    KMP(dst = mcapi_endpoint_get(0, 1, PORT, MCAPI_TIMEOUT_INFINITE, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);

    k_thread_t *a = make_task("sender_a", task_sender, 1, 1, 1, 1);
    k_thread_t *b = make_task("sender_b", task_sender, 2, 2, 1, 1);
    k_thread_t *bad = make_task("bad", task_bad, 3, 3, 1, 1);
    k_thread_t *foreign = make_task("foreign", task_foreign, 4, 4, 0, 1);
    /* the handle is vID 0, the send buffer vID 1 in every table but foreign's */
    CHECK_EQ(((struct sv_data *)k_task_data(a))->vid_buf, 1);
    k_task_resume(a);
    k_task_resume(b);
    k_task_resume(bad);
    k_task_resume(foreign);

    uint32_t total = 0, syscalls = 0;
    k_thread_t *senders[2] = {a, b};
    for (int i = 0; i < 2; ++i) {
        struct sv_data *d = k_task_data(senders[i]);
        CHECK(wait_done(senders[i]));
        syscalls += k_syscalls_of(senders[i]); /* before its exit call */
        CHECK_EQ(d->sent, MSGS);
        CHECK_EQ(d->errors, 0);
        if (d->errors)
            k_printf("task %lu: status 0x%lx\n", (unsigned long)d->id,
                     (unsigned long)d->last_status);
        total += d->sent;
        d->done = 2;
    }
    CHECK_EQ(syscalls, 0);
    int status;
    CHECK_EQ(k_join(a, K_FOREVER, &status), K_OK);
    CHECK_EQ(status, 0);
    CHECK_EQ(k_join(b, K_FOREVER, &status), K_OK);
    CHECK_EQ(status, 0);

    CHECK(wait_done(bad));
    struct sv_data *db = k_task_data(bad);
    CHECK_EQ(db->code1, NAMP_ERR_VIF_BOUND);
    CHECK_EQ(db->code2, NAMP_ERR_VIF_MODE);
    CHECK_EQ(k_join(bad, K_FOREVER, &status), K_OK);
    CHECK_EQ(status, K_KILLED + 15); /* store page fault on the physical slot page */

    CHECK(wait_done(foreign));
    CHECK_EQ(((struct sv_data *)k_task_data(foreign))->code1, NAMP_ERR_VIF_BOUND);
    CHECK_EQ(k_join(foreign, K_FOREVER, &status), K_OK);
    CHECK_EQ(status, 0);

    if (ktest_failures == 0)
        k_printf(
            "kernel sv ok: 2 tasks, %lu messages through vifs, %lu system calls while sending\n",
            (unsigned long)total, (unsigned long)syscalls);
}

static void receiver_main(void)
{
    mcapi_status_t st;
    mcapi_info_t info;
    mcapi_endpoint_t ep;
    KMP(mcapi_initialize(0, 1, NULL, NULL, &info, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    KMP(ep = mcapi_endpoint_create(PORT, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    uint32_t next[3] = {0, 0, 0}, got_total = 0;
    for (int i = 0; i < 2 * MSGS; ++i) {
        uint32_t msg[8];
        size_t got = 0;
        KMP(mcapi_msg_recv(ep, msg, sizeof msg, &got, &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
        CHECK_EQ(got, 12);
        uint32_t id = msg[0];
        CHECK(id == 1 || id == 2);
        if (id == 1 || id == 2) {
            CHECK_EQ(msg[1], next[id]);
            CHECK_EQ(msg[2], id * 0x10001u ^ msg[1]);
            next[id]++;
        }
        got_total++;
    }
    if (ktest_failures == 0)
        k_printf("kernel sv receiver ok: %lu messages\n", (unsigned long)got_total);
}

int main(void) { return sv_main(sender_main, receiver_main); }
