/* NAMP-SV isolation, end to end (docs/kernel.md "SV isolation"), preset svfull (or svbase) on a
 * 2x1 mesh. Tile 1: the kernel receives on an MCAPI endpoint, checks the victim's stream and its
 * own secret. Tile 0, beside a victim task that sends a checksummed stream and keeps a secret:
 *  - SVA_RANDOM=0 (kernel_sv_attacks): the breaches B1..B9 of the isolation issue and the holds
 *    (status refusals, refused system calls, killed probes, a spinning and a flooding task);
 *  - SVA_RANDOM=1 (kernel_sv_adversary): a task that starts thousands of random transfers with
 *    random header words, offsets, flags, vIDs and credits on both its send and receive side.
 * The kernel checksums its secret and the victim's before and after: nothing outside the
 * attacker's pages may change, nothing of anyone else may reach it. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hal/hal.h"
#include "kernel/kmp.h"
#include "ktest.h"
#include "mcapi.h"
#include "mp/cbuffer.h"
#include "na_registers.h"
#include "namp_structs.h"
#include "sv_attack.h"
#include "sv_main.h"
#include "tile_memory_map.h"

#ifndef SVA_RANDOM
#define SVA_RANDOM 0
#endif
#ifndef SVA_ITERATIONS
#define SVA_ITERATIONS 4000
#endif

volatile unsigned ktest_failures;

/* kernel data an attacker aims at (tile 0 and tile 1 each have their own) */
static volatile uint32_t kernel_secret[SVA_SECRET_WORDS];
static volatile uint32_t kernel_word = MP_CB_COMMITTED | 0x10u; /* bit 31 set (B3) */

static void fill_secret(volatile uint32_t *w, uint32_t base)
{
    for (uint32_t i = 0; i < SVA_SECRET_WORDS; ++i)
        w[i] = SVA_SECRET(base + i);
}

static uint32_t secret_damage(const volatile uint32_t *w, uint32_t base)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < SVA_SECRET_WORDS; ++i)
        n += w[i] != SVA_SECRET(base + i);
    return n;
}

static struct sva_task *ctl(k_thread_t *t)
{
    return kmp_task_ptr(t, K_USER_DATA + SVA_CTL_OFFSET, sizeof(struct sva_task));
}

static uint32_t pa_of(k_thread_t *t, uint32_t va) { return (uint32_t)kmp_task_ptr(t, va, 4); }

static int wait_for(volatile uint32_t *w, uint32_t v, int ticks)
{
    for (int i = 0; i < ticks && *w != v; ++i)
        k_sleep(1);
    return *w == v;
}

/* A task of this test; slot < 0: no vif (no MCAPI). */
static k_thread_t *make(uint32_t role, uint32_t param, int slot)
{
    k_task_image_t img = {
        "sva", sva_task_main, NULL, slot >= 0 ? SVA_MCAPI_BYTES : SVA_PLAIN_BYTES, 1, 3, 1};
    k_thread_t *t = k_task_create(&img);
    CHECK(t != NULL);
    if (!t)
        return NULL;
    if (slot >= 0)
        CHECK_EQ(kmp_task_attach(t, (unsigned)slot), K_OK);
    struct sva_task *d = ctl(t);
    d->role = role;
    d->param = param;
    d->own_slot = slot >= 0 ? (uint32_t)slot : 1u;
    d->kernel_secret = (uint32_t)kernel_secret;
    d->kernel_word = (uint32_t)&kernel_word;
    if (slot >= 0) {
        d->tx_pa = pa_of(t, K_USER_DATA + offsetof(mp_task_state_t, tx));
        d->rx_pa = pa_of(t, K_USER_DATA + offsetof(mp_task_state_t, rx));
    }
    return t;
}

static int join(k_thread_t *t)
{
    int status = -1;
    CHECK_EQ(k_join(t, K_FOREVER, &status), K_OK);
    return status;
}

static void report(const char *what, uint32_t got, uint32_t want)
{
    CHECK_EQ(got, want);
    k_printf("%s %s: 0x%lx\n", what, got == want ? "held" : "BROKE", (unsigned long)got);
}

/* The named attacks and holds. */
static void attacks(struct sva_task *victim, uint32_t victim_pa_secret, uint32_t victim_vif)
{
    k_thread_t *spin = make(SVA_SPIN, 0, -1), *flood = make(SVA_FLOOD, 0, 4);
    k_thread_t *a = make(SVA_ATTACKER, 0, 2);
    struct sva_task *d = ctl(a), *ds = ctl(spin), *df = ctl(flood);
    d->victim_secret = victim_pa_secret;
    d->victim_vif = victim_vif;
    k_task_resume(spin);
    k_task_resume(flood);
    k_task_resume(a);
    CHECK(wait_for(&d->done, 1, 20000));
    /* B6: the attacker's own endpoint (kernel memory) is as the kernel made it */
    mcapi_status_t st;
    mcapi_endpoint_t h;
    KMP(h = mcapi_endpoint_get(MCAPI_DOMAIN, 0, SVA_ATTACKER_PORT, 1000, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    const namp_endpoint_t *ep = (const namp_endpoint_t *)((const namp_handle_t *)h)->endpoint;
    report("B6 endpoint receive buffer", ep->rx_buffer, d->rx_pa);
    report("B6 endpoint flags", ep->flags, NAMP_EP_F_NOTIFY | NAMP_EP_F_GUARDED);
    report("B1 data at kernel memory", d->result[B1_DATA_AT_KERNEL], NAMP_ERR_WINDOW);
    report("B2 data at the victim", d->result[B2_DATA_AT_VICTIM], NAMP_ERR_WINDOW);
    report("B3 size word at a kernel word", d->result[B3_SIZE_AT_KERNEL], NAMP_ERR_WINDOW);
    report("B3 kernel word", kernel_word, MP_CB_COMMITTED | 0x10u);
    report("B4 receive data at kernel memory", d->result[B4_RX_DATA_AT_KERNEL], NAMP_ERR_WINDOW);
    report("B5 receive data at the victim", d->result[B5_RX_DATA_AT_VICTIM], NAMP_ERR_WINDOW);
    report("B6 credit mode on a message handle", d->result[B6_COM_OWN_HANDLE], NAMP_ERR_VIF_ENTRY);
    report("B6 revoke on a message handle", d->result[B6_REVOKE_OWN_HANDLE], NAMP_ERR_VIF_ENTRY);
    report("B7 credits to another tile's kernel endpoint", d->result[B7_COM_REMOTE_KERNEL],
           NAMP_ERR_VIF_ENTRY);
    report("B9 write from the vif page", d->result[B9_WRITE_VIF_PAGE], (uint32_t)K_EINVAL);
    report("B9 send from the vif page", d->result[B9_SEND_VIF_PAGE], (uint32_t)K_EINVAL);
    report("H vID out of bound", d->result[H_BAD_VID], NAMP_ERR_VIF_BOUND);
    report("H BUF=0", d->result[H_BUF0], NAMP_ERR_VIF_MODE);
    /* a collective names a collective area: a handle's vID there is the wrong kind */
    report("H CC flag with a handle as area", d->result[H_CC_FLAG], NAMP_ERR_VIF_ENTRY);
    report("H reserved flag", d->result[H_RESERVED_FLAG], NAMP_ERR_MODE_UNSUPPORTED);
    report("H send buffer as destination", d->result[H_WRONG_KIND], NAMP_ERR_VIF_ENTRY);
    report("H message larger than the element", d->result[H_TOO_LARGE], NAMP_ERR_TOO_LARGE);
    report("H write of a kernel pointer", d->result[H_WRITE_KERNEL_PTR], (uint32_t)K_EINVAL);
    report("H send to a bad vID", d->result[H_SEND_BAD_VID], (uint32_t)K_EINVAL);
    report("H send of a kernel pointer", d->result[H_SEND_KERNEL_PTR], (uint32_t)K_EINVAL);
    report("H request with a bad operation", d->result[H_REQ_BAD_OP], (uint32_t)K_EINVAL);
    report("H deletes of foreign endpoints refused", d->result[H_REQ_FOREIGN_KID], 15);
    report("H wait on a foreign slot", d->result[H_OSQM_BAD_SLOT], (uint32_t)K_EINVAL);
    report("H honest self-send after the attacks", d->result[H_SELF_SEND_OK], 0);
    report("secret words the attacker received", d->secrets_seen, 0);
    d->go = 2;
    CHECK_EQ(join(a), 0);

    /* probes: every forbidden access kills its task alone */
    static const uint32_t cause[PROBE_COUNT] = {13, 15, 15, 15, 15, 13, 16};
    static const char *const name[PROBE_COUNT] = {"load of kernel memory",
                                                  "store to kernel memory",
                                                  "store to a device",
                                                  "store to the slot's physical page",
                                                  "store to the vif configuration",
                                                  "load from a foreign vif page",
                                                  "kernel-only system call"};
    for (uint32_t p = 0; p < PROBE_COUNT; ++p) {
        k_thread_t *t = make(SVA_PROBE, p, -1);
        ctl(t)->victim_vif = victim_vif;
        ctl(t)->own_slot = 2;
        k_task_resume(t);
        char what[80];
        snprintf(what, sizeof what, "H probe %s: exit", name[p]);
        report(what, (uint32_t)join(t), K_KILLED + cause[p]);
    }

    /* B8: CCM on an empty buffer, then exit: the slot is freed at the end of the task */
    k_thread_t *c = make(SVA_CCM_EXIT, 0, 3);
    k_task_resume(c);
    CHECK_EQ(join(c), 0);
    const uint32_t slot3 = TILE_NA_BASE + NA_NAMP_SLOT_BASE(3);
    report("B8 slot flags after the task", mmio_read32(slot3 + NAMP_SLOT_FLAGS), 0);
    report("B8 slot state after the task", NAMP_STATUS_STATE(mmio_read32(slot3 + NAMP_SLOT_STATUS)),
           NAMP_STATE_IDLE);
    k_thread_t *after = make(SVA_AFTER, 0, 3);
    k_task_resume(after);
    CHECK(wait_for(&ctl(after)->done, 1, 20000));
    report("B8 messages of the slot's next owner", ctl(after)->sent, SVA_AFTER_MSGS);
    ctl(after)->go = 2;
    CHECK_EQ(join(after), 0);

    /* H: a spinning and a flooding task did not starve the victim */
    CHECK(wait_for(&victim->done, 1, 20000));
    report("H victim messages beside a spinning and a flooding task", victim->sent,
           SVA_VICTIM_MSGS);
    ds->go = 2;
    df->go = 2;
    CHECK_EQ(join(spin), 0);
    CHECK_EQ(join(flood), 0);
}

/* The randomized adversary. */
static void adversary(uint32_t victim_pa_secret)
{
    k_thread_t *a = make(SVA_ADVERSARY, 0, 2);
    struct sva_task *d = ctl(a);
    d->victim_secret = victim_pa_secret;
    d->iterations = SVA_ITERATIONS;
    d->seed = 0x2026B17u;
    k_task_resume(a);
    CHECK(wait_for(&d->done, 1, 200000));
    k_printf(
        "kernel sv adversary: %lu iterations, %lu completed, %lu refused (%lu outside a window), "
        "%lu secret words received\n",
        (unsigned long)d->iters, (unsigned long)d->completed, (unsigned long)d->refused,
        (unsigned long)d->window_refusals, (unsigned long)d->secrets_seen);
    k_printf("kernel sv adversary collectives: %lu started through the vif\n",
             (unsigned long)d->cc_starts);
    CHECK(d->cc_starts > SVA_ITERATIONS / 8);
    CHECK_EQ(d->iters, SVA_ITERATIONS);
    CHECK_EQ(d->stuck, 0);
    CHECK_EQ(d->secrets_seen, 0);
    CHECK_EQ(d->last_bad, 0); /* honest self-sends after it all */
    char line[256];
    int at = snprintf(line, sizeof line, "kernel sv adversary refusals by code:");
    for (uint32_t c = 0; c < 64 && at < (int)sizeof line - 16; ++c)
        if (d->codes[c])
            at += snprintf(line + at, sizeof line - (size_t)at, " 0x%02lx:%lu", (unsigned long)c,
                           (unsigned long)d->codes[c]);
    k_printf("%s\n", line);
    CHECK(d->completed > SVA_ITERATIONS / 4);       /* the honest quarter and more get through */
    CHECK(d->window_refusals > SVA_ITERATIONS / 8); /* the attacks reach the window checks */
    d->go = 2;
    CHECK_EQ(join(a), 0);
}

static void tile0(void)
{
    mcapi_status_t st;
    mcapi_info_t info;
    KMP(mcapi_initialize(MCAPI_DOMAIN, 0, NULL, NULL, &info, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    CHECK_EQ(kmp_task_service_start(8), K_OK);
    const uint32_t pages = k_pages_free();
    fill_secret(kernel_secret, 0);
    k_thread_t *v = make(SVA_VICTIM, 0, 1);
    struct sva_task *dv = ctl(v);
    for (uint32_t i = 0; i < SVA_SECRET_WORDS; ++i)
        dv->secret[i] = SVA_SECRET(0x100u + i);
    const uint32_t victim_secret =
        pa_of(v, K_USER_DATA + SVA_CTL_OFFSET + offsetof(struct sva_task, secret));
    /* the victim's vif page, physical (every task sees its own at K_USER_VIF) */
    const uint32_t victim_vif = TILE_NA_BASE + NA_NAMP_SLOT_BASE(1) + NAMP_VIF_PAGE;
    k_task_resume(v);
    CHECK(wait_for(&dv->mark, 1, 20000)); /* its endpoint exists */
    if (SVA_RANDOM)
        adversary(victim_secret);
    else
        attacks(dv, victim_secret, victim_vif);
    CHECK(wait_for(&dv->done, 1, 200000));
    const uint32_t victim_damage = secret_damage(dv->secret, 0x100u);
    const uint32_t kernel_damage = secret_damage(kernel_secret, 0);
    CHECK_EQ(dv->secrets_breached, 0);
    CHECK_EQ(victim_damage, 0);
    CHECK_EQ(kernel_damage, 0);
    CHECK_EQ(kernel_word, MP_CB_COMMITTED | 0x10u);
    CHECK_EQ(dv->sent, SVA_VICTIM_MSGS);
    dv->go = 2;
    CHECK_EQ(join(v), 0);
    /* the end: tile 1 checks its side */
    mcapi_endpoint_t me, peer;
    uint32_t bye[SVA_MSG_WORDS] = {SVA_ID_DONE};
    for (uint32_t i = 1; i < SVA_MSG_WORDS; ++i)
        bye[i] = 0xB0E0000u + i; /* no random message is mistaken for the end */
    KMP(me = mcapi_endpoint_create(40, &st));
    KMP(peer = mcapi_endpoint_get(MCAPI_DOMAIN, 1, SVA_PEER_PORT, MCAPI_TIMEOUT_INFINITE, &st));
    KMP(mcapi_msg_send(me, peer, bye, sizeof bye, 0, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    /* every page of the ended tasks is back, once their endpoints were quiet (the service) */
    for (int i = 0; i < 2000 && k_pages_free() != pages; ++i)
        k_sleep(1);
    CHECK_EQ(k_pages_free(), pages);
    kmp_task_service_stop();
    if (ktest_failures == 0)
        k_printf("kernel sv %s ok: victim and kernel secrets intact (%u words), victim sent %u "
                 "messages\n",
                 SVA_RANDOM ? "adversary" : "attacks", 2u * SVA_SECRET_WORDS, SVA_VICTIM_MSGS);
}

/* Tile 1: the receiver; every stream in order and intact, its own secret untouched. */
static void tile1(void)
{
    mcapi_status_t st;
    mcapi_info_t info;
    mcapi_endpoint_t ep;
    fill_secret(kernel_secret, 0x200u);
    KMP(mcapi_initialize(MCAPI_DOMAIN, 1, NULL, NULL, &info, &st));
    KMP(ep = mcapi_endpoint_create(SVA_PEER_PORT, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    uint32_t next[2] = {0, 0}, bad = 0, secrets = 0, others = 0;
    for (;;) {
        uint32_t msg[SVA_MSG_WORDS];
        size_t got = 0;
        KMP(mcapi_msg_recv(ep, msg, sizeof msg, &got, &st));
        if (st != MCAPI_SUCCESS)
            continue; /* a message larger than 64 bytes (the adversary's): truncated */
        for (uint32_t i = 0; i < got / 4; ++i)
            secrets += SVA_IS_SECRET(msg[i]);
        int done = got == sizeof msg && msg[0] == SVA_ID_DONE;
        for (uint32_t i = 1; done && i < SVA_MSG_WORDS; ++i)
            done = msg[i] == 0xB0E0000u + i;
        if (done)
            break;
        /* a stream message: its pattern says so (an attacker's bytes never carry it); in order */
        const uint32_t id = msg[0], k = id == SVA_ID_AFTER;
        int stream = got == sizeof msg && (id == SVA_ID_VICTIM || id == SVA_ID_AFTER);
        for (uint32_t i = 2; stream && i < SVA_MSG_WORDS; ++i)
            stream = msg[i] == ((id * 0x9E3779B1u ^ msg[1] * 0x85EBCA6Bu ^ i) & 0x7FFFFFFFu);
        if (!stream) {
            others++;
            continue;
        }
        bad += msg[1] != next[k];
        next[k] = msg[1] + 1;
    }
    CHECK_EQ(next[0], SVA_VICTIM_MSGS);
    CHECK_EQ(next[1], SVA_RANDOM ? 0 : SVA_AFTER_MSGS);
    CHECK_EQ(bad, 0);
    CHECK_EQ(secrets, 0);
    CHECK_EQ(secret_damage(kernel_secret, 0x200u), 0);
    if (ktest_failures == 0)
        k_printf("kernel sv tile 1 ok: victim %lu, next owner %lu messages in order and intact, "
                 "%lu others, secret intact\n",
                 (unsigned long)next[0], (unsigned long)next[1], (unsigned long)others);
}

int main(void) { return sv_main(tile0, tile1); }
