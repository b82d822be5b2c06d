/* NAMP driver (see include/namp/namp.h). */
#include "namp/namp.h"

#include "hal/hal.h"

#define NA(off)      (TILE_NA_BASE + (off))
#define SLOT(s, reg) (TILE_NA_BASE + NA_NAMP_SLOT_BASE(s) + (reg))

volatile namp_driver_stats_t namp_stats;
static uint32_t n_slots, feat;
static uint32_t busy;               /* bit s: slot s allocated by a software user */
static volatile uint32_t irq_done;  /* bit s: DONE interrupt seen for slot s */
static volatile uint32_t ien_slots; /* bit s: slot s runs with IEN */
static uint32_t implicit;           /* bit s: buffered send, the NAMP releases the slot itself */
static uint32_t implicit_err;       /* last error code seen on an implicit slot without owner */
static uintptr_t impl_owner[NAMP_MAX_SLOTS]; /* who started implicit slot s (0: nobody) */
/* failed implicit slots whose error their owner has not taken yet */
static struct {
    uintptr_t owner;
    uint32_t code;
} impl_fail[NAMP_MAX_SLOTS];
static uint32_t impl_fail_count; /* entries of impl_fail in use */

/* An implicitly completed slot is free again once the NAMP has cleared VALID (or set DONE). */
static void reclaim(void)
{
    uint32_t m = implicit;
    for (uint32_t s = 0; m; ++s, m >>= 1) {
        if (!(m & 1u))
            continue;
        uint32_t f = mmio_read32(SLOT(s, NAMP_SLOT_FLAGS));
        if ((f & NAMP_F_VALID) && !(f & NAMP_F_DONE))
            continue;
        uint32_t st = mmio_read32(SLOT(s, NAMP_SLOT_STATUS));
        if (st & NAMP_STATUS_ERROR) {
            uint32_t code = NAMP_STATUS_CODE(st) ? NAMP_STATUS_CODE(st) : 0xFFu;
            if (impl_owner[s]) { /* kept for its owner, whoever asks first */
                if (!impl_fail[s].code)
                    impl_fail_count++;
                impl_fail[s].owner = impl_owner[s];
                impl_fail[s].code = code;
            } else {
                implicit_err = code;
            }
            namp_stats.errors++;
        }
        impl_owner[s] = 0;
        if (f & (NAMP_F_VALID | NAMP_F_DONE | NAMP_F_IEN))
            mmio_write32(SLOT(s, NAMP_SLOT_FLAGS), 0); /* DONE and IEN off: the line drops */
        implicit &= ~(1u << s);
        ien_slots &= ~(1u << s);
        irq_done &= ~(1u << s);
        busy &= ~(1u << s);
        namp_stats.completed++;
    }
}

void namp_slot_implicit_for(unsigned slot, uintptr_t owner)
{
    uint32_t saved = irq_global_disable();
    implicit |= 1u << slot;
    impl_owner[slot] = owner;
    irq_global_restore(saved);
}

void namp_slot_implicit(unsigned slot) { namp_slot_implicit_for(slot, 0); }

uint32_t namp_implicit_error(void)
{
    uint32_t e = implicit_err;
    implicit_err = 0;
    return e;
}

uint32_t namp_implicit_error_of(uintptr_t owner)
{
    uint32_t saved = irq_global_disable();
    if (implicit)
        reclaim();
    uint32_t e = 0;
    for (uint32_t s = 0; impl_fail_count && s < NAMP_MAX_SLOTS && !e; ++s)
        if (impl_fail[s].owner == owner && impl_fail[s].code) {
            e = impl_fail[s].code;
            impl_fail[s].owner = 0;
            impl_fail[s].code = 0;
            impl_fail_count--;
        }
    irq_global_restore(saved);
    return e;
}

uint32_t namp_init(void)
{
    feat = mmio_read32(NA(NA_FEATURES)) >> 8;
    n_slots = mmio_read32(NA(NA_NAMP_SLOTS));
    if (n_slots > NAMP_MAX_SLOTS)
        n_slots = NAMP_MAX_SLOTS;
    busy = 0;
    implicit = 0;
    irq_done = 0;
    ien_slots = 0;
    return n_slots;
}

uint32_t namp_slots(void) { return n_slots; }
uint32_t namp_features(void) { return feat; }
uint32_t namp_slots_busy(void)
{
    if (implicit) {
        uint32_t saved = irq_global_disable();
        reclaim();
        irq_global_restore(saved);
    }
    return busy;
}
uint32_t namp_done_mask(void) { return irq_done; }
uint32_t namp_done_slots(void) { return mmio_read32(NA(NA_NAMP_DONE_SLOTS)); }

void namp_slot_irq_on(unsigned slot)
{
    uint32_t bit = 1u << slot;
    uint32_t saved = irq_global_disable();
    if (!(ien_slots & bit)) {
        ien_slots |= bit;
        uint32_t f = mmio_read32(SLOT(slot, NAMP_SLOT_FLAGS));
        /* a running slot takes only IEN from this write; a finished one keeps VALID and DONE */
        mmio_write32(SLOT(slot, NAMP_SLOT_FLAGS), (f & ~NAMP_F_DONE) | NAMP_F_IEN);
    }
    irq_global_restore(saved);
}

void namp_slot_reserve(unsigned slot)
{
    uint32_t saved = irq_global_disable();
    if (slot < n_slots)
        busy |= 1u << slot;
    irq_global_restore(saved);
}

int namp_slot_claim(unsigned slot)
{
    uint32_t saved = irq_global_disable();
    if (implicit)
        reclaim();
    const int got = slot < n_slots && !(busy & (1u << slot));
    if (got)
        busy |= 1u << slot;
    irq_global_restore(saved);
    return got;
}

int namp_slot_alloc(void)
{
    int got = -1;
    uint32_t saved = irq_global_disable();
    if (implicit)
        reclaim();
    for (uint32_t i = 0; i < n_slots; ++i)
        if (!(busy & (1u << i))) {
            busy |= 1u << i;
            got = (int)i;
            break;
        }
    irq_global_restore(saved);
    return got;
}

void namp_slot_free(unsigned slot)
{
    uint32_t saved = irq_global_disable();
    busy &= ~(1u << slot);
    irq_global_restore(saved);
}

void namp_slot_start(unsigned slot, uint32_t flags, uint32_t p1, uint32_t p2, uint32_t p3)
{
    uint32_t bit = 1u << slot;
    /* interrupts off throughout: the handler must not see a half-programmed slot */
    uint32_t saved = irq_global_disable();
    irq_done &= ~bit;
    if (flags & NAMP_F_IEN)
        ien_slots |= bit;
    else
        ien_slots &= ~bit;
    mmio_write32(SLOT(slot, NAMP_SLOT_PARAM1), p1);
    mmio_write32(SLOT(slot, NAMP_SLOT_PARAM2), p2);
    mmio_write32(SLOT(slot, NAMP_SLOT_PARAM3), p3);
    mmio_write32_release(SLOT(slot, NAMP_SLOT_FLAGS), (flags & ~NAMP_F_DONE) | NAMP_F_VALID);
    irq_global_restore(saved);
    namp_stats.started++;
}

void namp_ccm_stop(unsigned slot)
{
    uint32_t f = mmio_read32(SLOT(slot, NAMP_SLOT_FLAGS));
    mmio_write32(SLOT(slot, NAMP_SLOT_FLAGS), f & ~(NAMP_F_CCM | NAMP_F_DONE));
}

uint32_t namp_slot_status(unsigned slot) { return mmio_read32(SLOT(slot, NAMP_SLOT_STATUS)); }

int namp_slot_done(unsigned slot)
{
    uint32_t bit = 1u << slot;
    if (irq_done & bit)
        return 1;
    /* A slot with IEN is marked by the NAMP_DONE handler: no register read per poll, which would
     * compete with the adapter's bursts on the tile bus. Errors set DONE too. */
    if (ien_slots & bit)
        return 0;
    return (mmio_read32(SLOT(slot, NAMP_SLOT_FLAGS)) & NAMP_F_DONE) != 0;
}

uint32_t namp_slot_finish(unsigned slot)
{
    uint32_t st = mmio_read32(SLOT(slot, NAMP_SLOT_STATUS));
    mmio_write32(SLOT(slot, NAMP_SLOT_FLAGS), 0); /* VALID = 0: slot idle again */
    uint32_t saved = irq_global_disable();
    irq_done &= ~(1u << slot);
    ien_slots &= ~(1u << slot);
    irq_global_restore(saved);
    namp_stats.completed++;
    if (st & NAMP_STATUS_ERROR) {
        namp_stats.errors++;
        uint32_t c = NAMP_STATUS_CODE(st);
        return c ? c : 0xFFu;
    }
    return 0;
}

uint32_t namp_slot_wait(unsigned slot, int use_irq)
{
    if (use_irq) {
        for (;;) {
            uint32_t saved = irq_global_disable();
            int d = namp_slot_done(slot);
            if (!d)
                wait_for_interrupt();
            irq_global_restore(saved);
            if (d)
                break;
        }
    } else {
        while (!namp_slot_done(slot))
            ;
    }
    return namp_slot_finish(slot);
}

uint32_t namp_rx_count(void) { return mmio_read32(NA(NA_NAMP_RX_COUNT)); }
uint32_t namp_refused(void) { return mmio_read32(NA(NA_NAMP_REFUSED)); }
void namp_rx_ack(uint32_t n)
{
    if (n) {
        mmio_write32(NA(NA_NAMP_RX_COUNT), n);
        namp_stats.rx_acked += n;
    }
}

uint32_t namp_irq(uint32_t active, uint32_t *rx)
{
    uint32_t handled = 0;
    if (active & NA_IRQ_SRC_NAMP_DONE) {
        /* Level source: every slot with IEN and DONE. Mark them and take IEN away so that the
         * line drops until the thread finishes the slot (VALID = 0). */
        uint32_t m = ien_slots;
        for (uint32_t s = 0; m; ++s, m >>= 1) {
            if (!(m & 1u))
                continue;
            uint32_t f = mmio_read32(SLOT(s, NAMP_SLOT_FLAGS));
            if ((f & NAMP_F_DONE) || (mmio_read32(SLOT(s, NAMP_SLOT_STATUS)) & NAMP_STATUS_ERROR)) {
                irq_done |= 1u << s;
                ien_slots &= ~(1u << s);
                mmio_write32(SLOT(s, NAMP_SLOT_FLAGS), f & ~(NAMP_F_IEN | NAMP_F_DONE));
            }
        }
        namp_stats.irqs++;
        handled |= NA_IRQ_SRC_NAMP_DONE;
    }
    if (active & NA_IRQ_SRC_RX_COUNT) {
        uint32_t n = mmio_read32(NA(NA_NAMP_RX_COUNT));
        namp_rx_ack(n);
        if (rx)
            *rx += n;
        handled |= NA_IRQ_SRC_RX_COUNT;
    }
    return handled;
}

const char *namp_error_name(uint32_t code)
{
#ifdef NAMP_ERROR_NAMES
    static const char *const names[] = NAMP_ERROR_NAMES;
    if (code < sizeof names / sizeof names[0])
        return names[code];
#endif
    return code == 0 ? "ok" : "namp error";
}

uint32_t namp_slot_wait_wfi(unsigned slot, volatile uint64_t *idle)
{
    uint32_t saved = irq_global_disable();
    for (;;) {
        if ((irq_done & (1u << slot)) || (mmio_read32(SLOT(slot, NAMP_SLOT_FLAGS)) & NAMP_F_DONE)) {
            uint32_t e = namp_slot_finish(slot); /* DONE cleared: the line drops, no trap */
            irq_global_restore(saved);
            return e;
        }
        uint32_t act = mmio_read32(NA(NA_IRQ_BASE + NA_IRQ_ACTIVE));
        if (act == 0) {
            uint64_t t0 = cpu_cycles();
            wait_for_interrupt(); /* wakes on the line, MIE stays off */
            if (idle)
                *idle += cpu_cycles() - t0;
            continue; /* re-check with interrupts still off */
        }
        if (mmio_read32(SLOT(slot, NAMP_SLOT_FLAGS)) & NAMP_F_DONE)
            continue;              /* it was ours */
        irq_global_restore(saved); /* other sources: their handler runs */
        saved = irq_global_disable();
    }
}

int32_t namp_run(uint32_t flags, uint32_t p1, uint32_t p2, uint32_t p3, volatile uint64_t *idle)
{
    uint32_t saved = irq_global_disable();
    if (implicit)
        reclaim();
    uint32_t freem = ~busy & ((n_slots >= 32u) ? 0xFFFFFFFFu : ((1u << n_slots) - 1u));
    if (!freem) {
        irq_global_restore(saved);
        return -1;
    }
    uint32_t slot = (uint32_t)__builtin_ctz(freem), bit = 1u << slot;
    busy |= bit;
    irq_done &= ~bit;
    ien_slots |= bit; /* if another source's handler runs meanwhile, it acknowledges ours too */
    uintptr_t base = TILE_NA_BASE + NA_NAMP_SLOT_BASE(slot);
    mmio_write32(base + NAMP_SLOT_PARAM1, p1);
    mmio_write32(base + NAMP_SLOT_PARAM2, p2);
    mmio_write32(base + NAMP_SLOT_PARAM3, p3);
    mmio_write32_release(base + NAMP_SLOT_FLAGS,
                         (flags & ~NAMP_F_DONE) | NAMP_F_IEN | NAMP_F_VALID);
    /* Sleep first: a transfer is never done this soon, and wfi returns at once if the DONE line
     * (level) is already up, so no register read is spent before the first sleep. */
    for (;;) {
        uint64_t t0 = cpu_cycles();
        wait_for_interrupt();
        if (idle)
            *idle += cpu_cycles() - t0;
        if ((irq_done & bit) || (mmio_read32(base + NAMP_SLOT_FLAGS) & NAMP_F_DONE))
            break;
        /* another interrupt woke us (adapter, timer, software): let its handler run, or wfi
         * would return at once forever. That handler may have acknowledged our DONE too
         * (ien_slots): check before sleeping again, or the wake-up is lost. */
        irq_global_restore(saved);
        saved = irq_global_disable();
        if (irq_done & bit)
            break;
    }
    uint32_t st = mmio_read32(base + NAMP_SLOT_STATUS);
    mmio_write32(base + NAMP_SLOT_FLAGS, 0);
    busy &= ~bit;
    irq_done &= ~bit;
    ien_slots &= ~bit;
    irq_global_restore(saved);
    namp_stats.started++;
    namp_stats.completed++;
    if (st & NAMP_STATUS_ERROR) {
        namp_stats.errors++;
        uint32_t c = NAMP_STATUS_CODE(st);
        return (int32_t)(c ? c : 0xFFu);
    }
    return 0;
}
