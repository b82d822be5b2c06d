/* Threads and the scheduler: the trap handler every kernel entry goes through, the tick, ready
 * and blocked states, the per-core idle threads, thread creation and end. */
#include <string.h>

#include "kinternal.h"
#include "na_registers.h"
#include "tile_memory_map.h"

struct k_cpu k_cpus[K_MAX_CPUS];
k_config_t k_cfg;
k_stats_t k_stat;
k_ticket_lock_t k_lock;

static k_thread_t threads[K_MAX_THREADS];
static uint8_t stacks[K_MAX_THREADS][K_STACK_SIZE] __attribute__((aligned(16)));
static k_thread_t *timer_head; /* sorted by wake_at */
static uint32_t next_id = 1;
static volatile uint32_t initialized;
static volatile uint32_t live; /* threads and tasks not ended (idle threads excluded) */
static volatile uint32_t exit_status;
static volatile uint64_t tick_count;
static uint64_t next_tick[K_MAX_CPUS];

struct k_hooks k_hooks; /* the optional modules register here (kinternal.h) */
uint32_t k_rq_stale = ~0u;

uint32_t k_cpu_id(void) { return hart_id(); }
k_thread_t *k_current(void) { return k_cpus[hart_id()].current; }

/* ---------------------------------------------------------------- timeouts */

void k_timer_insert(k_thread_t *t)
{
    k_thread_t **at = &timer_head;
    while (*at && (*at)->wake_at <= t->wake_at)
        at = &(*at)->timer_next;
    t->timer_next = *at;
    *at = t;
}

void k_timer_remove(k_thread_t *t)
{
    for (k_thread_t **at = &timer_head; *at; at = &(*at)->timer_next)
        if (*at == t) {
            *at = t->timer_next;
            break;
        }
    t->timer_next = NULL;
    t->wake_at = UINT64_MAX;
}

/* ---------------------------------------------------------------- state changes */

/* The core running the lowest priority below t's, if any, is told to reschedule. */
void k_kick(const k_thread_t *t)
{
    uint32_t me = k_cpu_id();
    int best = -1, best_prio = (int)t->prio;
    for (uint32_t c = 0; c < K_MAX_CPUS; ++c) {
        if (c == me || !k_cpus[c].online || (t->cpu_mask && !(t->cpu_mask >> c & 1u)))
            continue;
        const k_thread_t *cur = k_cpus[c].current;
        int p = !cur || cur->is_idle ? -1 : (int)cur->prio;
        if (p < best_prio) {
            best_prio = p;
            best = (int)c;
        }
    }
    if (best >= 0) {
        k_stat.ipis++;
        ipi_send((uint32_t)best);
    }
}

void k_rq_insert(k_thread_t *t, int front)
{
    rq_insert(t, front);
    k_rq_stale = ~0u;
}

void k_make_ready(k_thread_t *t, int front)
{
    t->state = KS_READY;
    k_rq_insert(t, front);
    k_kick(t);
}

void k_block(k_queue_t *q, uint64_t wake_at, int by_prio)
{
    k_thread_t *cur = k_current();
    cur->state = q ? KS_BLOCKED : KS_SLEEPING;
    if (q) {
        if (by_prio)
            q_insert_prio(q, cur);
        else
            q_append(q, cur);
    }
    cur->wake_at = wake_at;
    if (wake_at != UINT64_MAX)
        k_timer_insert(cur);
}

void k_wake(k_thread_t *t, int32_t result)
{
    if (t->queue)
        q_remove(t->queue, t);
    if (t->wake_at != UINT64_MAX)
        k_timer_remove(t);
    t->wait_result = result;
    t->frame->regs[REG_A0] = (uint32_t)result;
    k_make_ready(t, 1);
}

void k_thread_end(k_thread_t *t, int code)
{
    if (t->state == KS_READY)
        rq_remove(t);
    else if (t->queue)
        q_remove(t->queue, t);
    if (t->wake_at != UINT64_MAX)
        k_timer_remove(t);
    t->state = KS_DEAD;
    t->exit_code = code;
    if (t->task && k_hooks.vif)
        k_hooks.vif->task_ended(t->task); /* a dead task's vif takes no more starts */
    if (!t->task && code != 0)
        exit_status |= (uint32_t)code;
    while (t->joiners.head)
        k_wake(t->joiners.head, K_OK);
    live--;
}

/* ---------------------------------------------------------------- threads */

k_thread_t *k_thread_alloc(void)
{
    for (uint32_t i = 0; i < K_MAX_THREADS; ++i)
        if (threads[i].state == KS_FREE) {
            k_thread_t *t = &threads[i];
            memset(t, 0, sizeof *t);
            t->stack = stacks[i];
            t->id = next_id++;
            t->cpu = -1;
            t->wake_at = UINT64_MAX;
            t->state = KS_BLOCKED; /* taken; not in any list yet */
            return t;
        }
    return NULL;
}

/* Kernel threads start here (a0 = entry, a1 = arg) and end with the entry's return. */
static void thread_start(void (*entry)(void *), void *arg)
{
    entry(arg);
    k_exit(0);
}

void k_thread_setup_frame(k_thread_t *t, uint32_t pc, uint32_t sp, uint32_t arg, int user)
{
    trap_frame_t *f = (trap_frame_t *)(t->stack + K_STACK_SIZE - TRAP_FRAME_SIZE);
    memset(f, 0, sizeof *f);
    uint32_t ms = csr_read(mstatus) & ~(MSTATUS_MIE | MSTATUS_MPP | MSTATUS_MPRV);
    ms |= MSTATUS_MPIE; /* interrupts on once it runs */
    if (user) {
        f->regs[REG_SP] = sp;
        f->regs[REG_A0] = arg;
        f->mepc = pc;
        f->mstatus = ms | MSTATUS_MPP_U;
    } else {
        f->regs[REG_SP] = (uint32_t)(t->stack + K_STACK_SIZE);
        f->regs[REG_GP] = (uint32_t)__global_pointer$;
        f->regs[REG_A0] = pc;
        f->regs[REG_A1] = arg;
        f->mepc = (uint32_t)thread_start;
        f->mstatus = ms | MSTATUS_MPP_M;
    }
    t->frame = f;
}

k_thread_t *k_sys_thread_create(const char *name, void (*entry)(void *), void *arg, uint32_t prio,
                                uint32_t cpu_mask)
{
    if (!entry || prio >= K_PRIOS)
        return NULL;
    k_thread_t *t = k_thread_alloc();
    if (!t)
        return NULL;
    t->name = name ? name : "thread";
    t->prio = prio;
    t->cpu_mask = cpu_mask;
    t->slice_left = k_cfg.slice_ticks;
    k_thread_setup_frame(t, (uint32_t)entry, 0, (uint32_t)arg, 0);
    live++;
    k_make_ready(t, 0);
    return t;
}

/* ---------------------------------------------------------------- the tick */

static void tick(uint32_t cpu)
{
    k_stat.ticks++;
    if (cpu == 0)
        tick_count++;
    uint64_t now = timer_now();
    next_tick[cpu] += k_cfg.tick_ticks;
    if (next_tick[cpu] <= now)
        next_tick[cpu] = now + k_cfg.tick_ticks;
    timer_set_compare(next_tick[cpu]);
    while (timer_head && timer_head->wake_at <= now) {
        k_thread_t *t = timer_head;
        k_wake(t, t->state == KS_SLEEPING ? K_OK : K_ETIMEDOUT);
    }
    k_thread_t *cur = k_cpus[cpu].current;
    if (cur && !cur->is_idle && cur->slice_left && --cur->slice_left == 0)
        k_cpus[cpu].resched = 1;
}

uint64_t k_ticks(void) { return tick_count; }

/* ---------------------------------------------------------------- scheduling */

static trap_frame_t *schedule(uint32_t cpu)
{
    if (k_hooks.osqm) /* wake-up queue mode: the OSQM's wake-ups become ordinary ones first */
        k_hooks.osqm->sched_entry();
    struct k_cpu *c = &k_cpus[cpu];
    k_thread_t *cur = c->current;
    /* The last decision stands (a system call or interrupt that made nothing ready: most of
     * them), so the scan is skipped, as a kernel's need-resched flag does. Not with the HW-OSQM:
     * it links threads into the ready queue without the kernel (3.5.2). */
    if (!k_hooks.osqm && cur && cur->state == KS_RUNNING && !c->resched &&
        !(k_rq_stale >> cpu & 1u))
        return cur->frame;
    k_rq_stale &= ~(1u << cpu);
    /* One scan decides: inserting cur below never puts it before top (preempted: a lower
     * priority; slice over: behind its equals), so top is what a second scan would find. */
    k_thread_t *top = rq_next(cpu);
    if (cur && cur->state == KS_RUNNING) {
        if (cur->is_idle) {
            if (!top)
                return cur->frame;
        } else {
            if (top && top->prio > cur->prio) {
                k_stat.preemptions++;
                cur->state = KS_READY;
                k_rq_insert(cur, 1); /* preempted: keeps its turn (front in seL4) */
            } else if (c->resched && top && top->prio == cur->prio) {
                cur->state = KS_READY;
                k_rq_insert(cur, 0); /* slice over: behind its equals */
            } else {
                if (c->resched)
                    cur->slice_left = k_cfg.slice_ticks;
                c->resched = 0;
                return cur->frame;
            }
        }
    }
    c->resched = 0;
    k_thread_t *next = top;
    if (next)
        rq_take(next);
    else
        next = c->idle;
    if (cur && cur != next) {
        cur->cpu = -1;
        k_stat.switches++;
    }
    k_rq_stale &= ~(1u << cpu); /* again: inserting cur above marked every core */
    if (cur != next || cur->slice_left == 0)
        next->slice_left = k_cfg.slice_ticks;
    next->state = KS_RUNNING;
    next->cpu = (int32_t)cpu;
    c->current = next;
    if (next->task)
        csr_write(satp, next->task->satp); /* M-mode is not translated: only the task sees it */
    else
        next->frame->regs[REG_TP] = c->tls; /* the hart's TLS block, wherever it ran before */
    return next->frame;
}

static void interrupt(uint32_t cpu, uint32_t code, trap_frame_t *f)
{
    switch (code) {
    case IRQ_M_TIMER: tick(cpu); break;
    case IRQ_M_SOFT: ipi_clear(hart_id()); break;
    case IRQ_M_EXT: {
        /* the OSQM's demand interrupt first: the library's ISR does not know the source */
        if (k_hooks.osqm)
            k_hooks.osqm->ext_irq();
        trap_handler_t h = namp_irq_handlers[IRQ_M_EXT]; /* the MCAPI library's adapter ISR */
        if (h)
            h(f);
        else if (mmio_read32(TILE_NA_BASE + NA_IRQ_BASE + NA_IRQ_ACTIVE) != 0)
            irq_disable(IRQ_M_EXT); /* a source nobody serves would keep the line up */
        k_mp_event();
        break;
    }
    default: k_lock_give(); trap_fatal(f);
    }
}

trap_frame_t *k_trap(trap_frame_t *f)
{
    k_lock_take();
    uint32_t cpu = k_cpu_id();
    k_thread_t *cur = k_cpus[cpu].current;
    if (cur)
        cur->frame = f;
    uint32_t code = MCAUSE_CODE(f->mcause);
    if (f->mcause & MCAUSE_INTERRUPT) {
        interrupt(cpu, code, f);
    } else if ((f->mstatus & MSTATUS_MPP) == MSTATUS_MPP_U) {
        if (code == EXC_ECALL_U) {
            f->mepc += 4;
            k_syscall(f);
        } else {
            k_task_kill(cur, code, f);
        }
    } else if (code == EXC_ECALL_M) {
        f->mepc += 4;
        k_syscall(f);
    } else {
        k_lock_give(); /* a fault of the kernel or a kernel thread: a bug, fatal */
        trap_fatal(f);
    }
    return schedule(cpu);
}

/* ---------------------------------------------------------------- start-up */

static void idle_main(void *arg)
{
    (void)arg;
    for (;;) {
        if (live == 0)
            sim_exit(exit_status);
        wait_for_interrupt();
    }
}

void k_init(const k_config_t *config)
{
    memset(&k_cfg, 0, sizeof k_cfg);
    if (config)
        k_cfg = *config;
    if (!k_cfg.tick_ticks)
        k_cfg.tick_ticks = K_TICK_DEFAULT;
    if (!k_cfg.slice_ticks)
        k_cfg.slice_ticks = 1;
    rq_init();
    atomic_store_u32(&initialized, 1);
}

int k_started_here(void) { return hart_id() < K_MAX_CPUS && k_cpus[hart_id()].current != NULL; }

void k_start(void)
{
    uint32_t cpu = hart_id();
    if (cpu >= K_MAX_CPUS)
        sim_exit(0);
    while (!atomic_load_u32(&initialized))
        ;
    struct k_cpu *c = &k_cpus[cpu];
    __asm__ volatile("mv %0, tp" : "=r"(c->tls));
    irq_global_disable();
    csr_write(mscratch, 0);
    csr_write(mtvec, (uint32_t)k_trap_entry);

    k_lock_take();
    k_thread_t *idle = k_thread_alloc();
    if (!idle) {
        k_lock_give();
        console_puts("k: no thread left for the idle thread\n");
        sim_exit(1);
    }
    idle->name = "idle";
    idle->is_idle = 1;
    idle->cpu_mask = 1u << cpu;
    k_thread_setup_frame(idle, (uint32_t)idle_main, 0, 0, 0);
    c->idle = idle;
    c->online = 1;
    next_tick[cpu] = timer_now() + k_cfg.tick_ticks;
    timer_set_compare(next_tick[cpu]);
    k_lock_give();

    /* tasks may read cycle, time and instret (benchmarks measure themselves) */
    csr_write(mcounteren, 7);
    csr_write(scounteren, 7);
    irq_enable(IRQ_M_TIMER);
    irq_enable(IRQ_M_SOFT);
    irq_enable(IRQ_M_EXT);
    register long a7 __asm__("a7") = K_SYS_START;
    __asm__ volatile("ecall" ::"r"(a7) : "memory");
    __builtin_unreachable();
}

void k_get_stats(k_stats_t *out)
{
    uint32_t saved = irq_global_disable(); /* a tick taking the lock here would deadlock */
    k_lock_take();
    *out = k_stat;
    k_lock_give();
    irq_global_restore(saved);
}

/* Used by syscall.c for joins: the slot of an ended thread is freed by its joiner. */
void k_thread_release(k_thread_t *t)
{
    k_task_release(t);
    t->state = KS_FREE;
}

uint32_t k_thread_index(const k_thread_t *t) { return (uint32_t)(t - threads); }
k_thread_t *k_thread_at(uint32_t i)
{
    return i < K_MAX_THREADS && threads[i].state != KS_FREE ? &threads[i] : NULL;
}

int k_thread_valid(const k_thread_t *t)
{
    return t >= threads && t < threads + K_MAX_THREADS && t->state != KS_FREE &&
           ((uintptr_t)t - (uintptr_t)threads) % sizeof *t == 0;
}

void k_live_add(void) { live++; }

void k_kputs(const char *s, uint32_t len) { console_write(s, len); }
