/* The migration study (scripts/ps-bench, docs/namp-ps-bench.md): one task of a pipeline moves to
 * another tile while the items flow, with pausing (the baseline), relocation or dualcast, over
 * channels or connection-less messages. The firmware only measures and prints; the script runs it
 * per scenario, method and kind and computes the figures.
 *
 *   scenario 1, the three-task chain of thesis Fig. 3.37 (2x2 mesh): A (tile 0) -> B (tile 1) ->
 *     C (tile 3), B moves to tile 2.
 *   scenario 2, the application of Fig. 3.35 (4x4 mesh): IO (tile 0) -> A (tile 1) -> {B (tile 5),
 *     C (tile 15)} -> D (tile 6), C moves from the far corner to tile 2, next to A and D.
 *
 * tile.arg: method (K_MIGRATE_*: pausing, relocation, dualcast, software PS) in bits 0-3, channels in bit 4, scenario in bits 8-11, items in
 * bits 16-27 (0: 300). The first task (the I/O interface) releases an item every PERIOD kernel
 * ticks and stamps it with its release time (mig.h, release_ticks); the other tasks wait for items
 * by polling (mig.h, poll), so no kernel tick is part of a latency. The move starts when the task
 * has taken a third of the items.
 *
 * Printed (every line starts with "PSB"; times are mtime ticks, 10 cycles each):
 *   PSB t0 <first release> <ticks between releases>                  (the first task's tile)
 *   PSB item <input> <seq> <latency>     per item, arrival order      (the last task's tile)
 *   PSB s <t> <task> <received> <sent> <stolen>   a task's counters, every second kernel tick,
 *                                        on the tile it runs on (stolen: cycles the kernel took)
 *   PSB cpu <t> <count>                  the original tile: a lowest-priority thread's loop count,
 *                                        every second tick (it runs when neither the task nor a
 *                                        kernel thread wants the core: after the task stopped)
 *   PSB cpu_idle <count> <mtime ticks>   the same with nothing else to run, before the task
 *   PSB mig <method> <rc> <t_start> <t_stop> <t_resume> <t_end> <bytes> <phase I> <phase II>
 *           <phase III cycles> <vif action>                           (the original tile)
 *   PSB ok ...                           the last task: every item once, in order, intact */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hal/hal.h"
#include "kernel/kmp.h"
#include "kernel/migrate.h"
#include "ktest.h"
#include "mcapi.h"
#include "mig.h"
#include "mig_kernel.h"
#include "na_registers.h"
#include "namp_ps.h"

#define TICK          1000u /* mtime ticks per kernel tick */
#define PERIOD        2u    /* kernel ticks between two releases */
#define WORK          50u   /* a stage's loop iterations per item */
#define DEFAULT_ITEMS 300u
#define TAIL_TICKS    60u /* the original tile samples on this long after the move */
#define MAX_SAMPLES   4096u
#define MAX_CPU       4096u

volatile unsigned ktest_failures;

struct task_spec {
    const char *name;
    uint32_t tile, role, n_in, n_out;
    uint32_t out_tile[MIG_MAX_OUT], out_port[MIG_MAX_OUT];
};
struct scenario {
    uint32_t width, height, n_tasks, moved, to;
    struct task_spec t[5];
};
static const struct scenario scenarios[3] = {
    [1] = {2,
           2,
           3,
           1,
           2,
           {{"A", 0, MIG_SOURCE, 0, 1, {1}, {MIG_PORT_IN(0)}},
            {"B", 1, MIG_STAGE, 1, 1, {3}, {MIG_PORT_IN(0)}},
            {"C", 3, MIG_SINK, 1, 0, {0}, {0}}}},
    [2] = {4,
           4,
           5,
           3,
           2,
           {{"IO", 0, MIG_SOURCE, 0, 1, {1}, {MIG_PORT_IN(0)}},
            {"A", 1, MIG_STAGE, 1, 2, {5, 15}, {MIG_PORT_IN(0), MIG_PORT_IN(0)}},
            {"B", 5, MIG_STAGE, 1, 1, {6}, {MIG_PORT_IN(0)}},
            {"C", 15, MIG_STAGE, 1, 1, {6}, {MIG_PORT_IN(1)}},
            {"D", 6, MIG_SINK, 2, 0, {0}, {0}}}},
};

static uint32_t method, channels, items;
static const struct scenario *sc;

/* ---- the sampler (every tile with a task) and the probe (the original tile) ---- */

struct sample {
    uint32_t t, stolen;
    uint16_t task, received, sent, pad;
};
static struct sample samples[MAX_SAMPLES];
static uint32_t n_samples;
static volatile struct mig_task *watched; /* NULL: no task on the tile */
static volatile uint32_t watched_id;
static uint32_t cpu_t[MAX_CPU], cpu_n[MAX_CPU], n_cpu;
static volatile uint32_t sampling, probing, probe_count;
static k_thread_t *sampler_thread, *probe_thread;

/* Highest priority, woken every second kernel tick; the kernel threads that change what it
 * watches run below it, so it never sees half a change. */
static void sampler_main(void *arg)
{
    (void)arg;
    while (sampling) {
        const uint32_t t = (uint32_t)timer_now();
        volatile struct mig_task *d = watched;
        if (d && n_samples < MAX_SAMPLES)
            samples[n_samples++] = (struct sample){
                t, d->stolen, (uint16_t)watched_id, (uint16_t)d->received, (uint16_t)d->sent, 0};
        if (probing && n_cpu < MAX_CPU) {
            cpu_t[n_cpu] = t;
            cpu_n[n_cpu++] = probe_count;
        }
        k_sleep(1); /* the next tick after a whole one: every second tick */
    }
}

/* Lowest priority: runs only when nothing else on the tile wants the core. */
static void probe_main(void *arg)
{
    (void)arg;
    while (probing)
        probe_count++;
}

static void watch_task(k_thread_t *t, uint32_t task);

static void sampler_start(int probe)
{
    sampling = 1;
    probing = probe;
    sampler_thread = k_thread_create("sampler", sampler_main, NULL, K_PRIOS - 1, 0);
    CHECK(sampler_thread != NULL);
    if (probe) {
        probe_thread = k_thread_create("probe", probe_main, NULL, 0, 0);
        CHECK(probe_thread != NULL);
    }
}

static void sampler_stop_and_print(void)
{
    int status;
    sampling = 0;
    probing = 0;
    if (sampler_thread)
        CHECK_EQ(k_join(sampler_thread, K_FOREVER, &status), K_OK);
    if (probe_thread)
        CHECK_EQ(k_join(probe_thread, K_FOREVER, &status), K_OK);
    for (uint32_t i = 0; i < n_samples; ++i)
        k_printf("PSB s %lu %u %u %u %lu\n", (unsigned long)samples[i].t, samples[i].task,
                 samples[i].received, samples[i].sent, (unsigned long)samples[i].stolen);
    for (uint32_t i = 0; i < n_cpu; ++i)
        k_printf("PSB cpu %lu %lu\n", (unsigned long)cpu_t[i], (unsigned long)cpu_n[i]);
    CHECK(n_samples < MAX_SAMPLES);
    CHECK(n_cpu < MAX_CPU);
}

/* ---- tasks ---- */

static void watch_task(k_thread_t *t, uint32_t task)
{
    watched_id = task;
    watched = t ? mig_ctl(t) : NULL;
}

static k_thread_t *start_task(uint32_t task)
{
    const struct task_spec *s = &sc->t[task];
    k_thread_t *t = mig_create(s->name, 1);
    if (!t)
        return NULL;
    struct mig_task *d = mig_ctl(t);
    d->role = s->role;
    d->id = 0;
    d->n_items = items;
    d->period_ticks = s->role == MIG_SOURCE ? PERIOD : 0;
    d->release_ticks = s->role == MIG_SOURCE ? PERIOD * TICK : 0;
    d->poll = 1;
    d->work_loops = WORK;
    d->channels = channels;
    d->n_in = s->n_in;
    d->n_out = s->n_out;
    for (uint32_t k = 0; k < s->n_out; ++k) {
        d->out_node[k] = s->out_tile[k];
        d->out_port[k] = s->out_port[k];
    }
    d->streams = 1;
    watch_task(t, task);
    k_task_resume(t);
    return t;
}

/* What a finished task must have done: every item in and out, no error. */
static void check_task(uint32_t task, const struct mig_task *d)
{
    const struct task_spec *s = &sc->t[task];
    CHECK_EQ(d->errors, 0);
    if (d->errors)
        k_printf("task %lu: last status %lu\n", (unsigned long)task, (unsigned long)d->last_status);
    CHECK_EQ(d->bad, 0);
    CHECK_EQ(d->sent, items * s->n_out);
    if (s->role != MIG_SOURCE)
        CHECK_EQ(d->received, items * s->n_in);
    if (s->role == MIG_SOURCE)
        k_printf("PSB t0 %lu %lu\n", (unsigned long)d->t0, (unsigned long)d->release_ticks);
    if (s->role != MIG_SINK)
        return;
    CHECK_EQ(d->dup_or_gap, 0);
    for (uint32_t k = 0; k < s->n_in; ++k)
        CHECK_EQ(d->next_seq[k], items);
    CHECK_EQ(d->n_lat, items * s->n_in);
    for (uint32_t i = 0; i < d->n_lat; ++i)
        k_printf("PSB item %lu %lu %lu\n", (unsigned long)(d->seq_of[i] >> 24),
                 (unsigned long)(d->seq_of[i] & 0xFFFFu), (unsigned long)d->lat[i]);
    if (ktest_failures == 0)
        k_printf("PSB ok: scenario %lu, method %lu, %s, %lu items once, in order, intact\n",
                 (unsigned long)(sc - scenarios), (unsigned long)method,
                 channels ? "channels" : "messages", (unsigned long)items);
}

/* The tile the task starts on: the task, its move, and the CPU probe. */
static void original_tile(uint32_t task)
{
    sampler_start(1);
    /* the probe alone (and the sampler): its count per tick with nothing else to run */
    k_sleep(1);
    const uint32_t c0 = probe_count, t0 = (uint32_t)timer_now();
    k_sleep(8);
    k_printf("PSB cpu_idle %lu %lu\n", (unsigned long)(probe_count - c0),
             (unsigned long)((uint32_t)timer_now() - t0));
    k_thread_t *t = start_task(task);
    struct mig_task *d = mig_ctl(t);
    const uint32_t mig_at = items / 3u * sc->t[task].n_in;
    for (int i = 0; i < 1000000 && d->received < mig_at; ++i)
        k_sleep(1);
    k_migrate_result_t r = {0};
    const int rc = k_task_migrate(t, sc->to, (int)method, &r);
    if (rc != K_OK) { /* the task would run on here: the study has nothing to measure */
        k_printf("FAIL: k_task_migrate -> %d\n", rc);
        sim_exit(1);
    }
    k_printf("PSB mig %lu %d %lu %lu %lu %lu %lu %lu %lu %lu %lu\n", (unsigned long)method, rc,
             (unsigned long)r.t_start, (unsigned long)r.t_stop, (unsigned long)r.t_resume,
             (unsigned long)r.t_end, (unsigned long)r.bytes_moved, (unsigned long)r.phase1_cycles,
             (unsigned long)r.phase2_cycles, (unsigned long)r.phase3_cycles,
             (unsigned long)r.vif_action);
    watch_task(NULL, 0); /* its pages go back to the pool at the join */
    int status = -1;
    CHECK_EQ(k_join(t, K_FOREVER, &status), K_OK);
    CHECK_EQ(status, K_MIGRATED);
    k_sleep(TAIL_TICKS); /* what the tile does after the move */
    sampler_stop_and_print();
}

static void destination_tile(uint32_t task)
{
    sampler_start(0);
    k_thread_t *t = NULL;
    for (int i = 0; i < 1000000 && !(t = k_migrate_take_arrival()); ++i)
        k_sleep(1);
    CHECK(t != NULL);
    if (t) {
        watch_task(t, task);
        struct mig_task *d = mig_finish(t, 1000000);
        check_task(task, d);
        watch_task(NULL, 0);
        mig_end(t);
    }
    sampler_stop_and_print();
}

static void task_tile(uint32_t task)
{
    sampler_start(0);
    k_thread_t *t = start_task(task);
    if (t) {
        struct mig_task *d = mig_finish(t, 1000000);
        check_task(task, d);
        watch_task(NULL, 0);
        mig_end(t);
    }
    sampler_stop_and_print();
}

static void tile_main(void *arg)
{
    (void)arg;
    const uint32_t me = tile_id(), a = tile_arg();
    method = a & 0xFu;
    channels = (a >> 4) & 1u;
    const uint32_t s = (a >> 8) & 0xFu;
    items = (a >> 16) & 0xFFFu;
    if (!items)
        items = DEFAULT_ITEMS;
    if (s < 1 || s > 2 || method < K_MIGRATE_PAUSE || method > K_MIGRATE_SOFTWARE ||
        items * 2u > MIG_MAX_ITEMS || items > 0xFFFFu / 2u) {
        k_printf("FAIL: bad tile.arg 0x%lx\n", (unsigned long)a);
        k_exit(1);
    }
    sc = &scenarios[s];
    if (tile_mesh_width() != sc->width || tile_mesh_height() != sc->height) {
        k_printf("FAIL: scenario %lu needs a %lux%lu mesh\n", (unsigned long)s,
                 (unsigned long)sc->width, (unsigned long)sc->height);
        k_exit(1);
    }
    uint32_t task = ~0u;
    for (uint32_t i = 0; i < sc->n_tasks; ++i)
        if (sc->t[i].tile == me)
            task = i;
    const int dest = me == sc->to;
    if (task == ~0u && !dest)
        k_exit(0); /* no part in it */
    mig_services_start();
    if (!(mmio_read32(TILE_NA_BASE + NA_FEATURES) & NA_FEATURE_NAMP_PS)) {
        k_printf("FAIL: no NAMP-PS\n"); /* a study without PS is no study: the run fails */
        sim_exit(1);
    }
    if (dest)
        destination_tile(sc->moved);
    else if (task == sc->moved)
        original_tile(task);
    else
        task_tile(task);
    mig_services_stop_and_exit();
}

int main(void) { mig_kernel_main(tile_main, TICK); }
