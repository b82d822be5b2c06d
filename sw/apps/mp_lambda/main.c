/* Sender overhead against the allocation wait at the receiver (thesis Fig. 3.13): tile 0 sends
 * blocking connection-less messages (4 B .. 4 KiB) to a one-element receive endpoint on tile 1,
 * which holds every message k * LAMBDA_HOLD cycles after it arrived before receiving it, k drawn
 * from a Poisson distribution with mean lambda (the thesis' model of the allocation retries). The
 * sender's next allocation is refused until then: the NAMP retries in hardware; the software
 * RDMA protocol wakes the sender's core for every NACK and back-off. The same code over the NAMP
 * (namp_lambda), over the baseline's RDMA with interrupts (mp_lambda_rdma) and with busy waiting
 * (mp_lambda_rdmabw: the library's idle wait spins instead of wfi, the thesis' "RDMAbw").
 *
 * tile.arg = lambda * 100 (0: no hold). The k sequence is the same for every transport (fixed
 * seed). Between sends the sender pauses LAMBDA_THINK cycles (outside the measurement), so that
 * with k = 0 the element is free again when the next request comes.
 *   o_s = cycles the sender's core is busy in mcapi_msg_send (the library's wfi sleep not counted;
 *         with busy waiting every cycle counts), mean over LAMBDA_M sends after one warm-up;
 *   t   = mean duration of the call (allocation wait included);
 * and per send the NACKs, the library's interrupt services and their cycles (part of o_s).
 * Marks: id = 12 << 28 | (log2(size) * 2 + metric) << 20 | value, metric 0 o_s, 1 t (cycles,
 * clamped to 2^20 - 1). Console: one "lambda" line per size. */
#include <math.h>
#include <stdio.h>

#include "hal/hal.h"
#include "mcapi.h"

#ifndef LAMBDA_M
#define LAMBDA_M 24u
#endif
#define LAMBDA_HOLD 2000u    /* cycles the receiver holds a message per Poisson count */
#define LAMBDA_THINK 1000u   /* sender pause between sends */
#define MIN_LG 2u
#define MAX_LG 12u

static uint8_t buf[1u << MAX_LG] __attribute__((aligned(8)));

static void die(const char *what, mcapi_status_t st)
{
    printf("mp_lambda FAIL: %s: %s\n", what, mcapix_status_name(st));
    sim_shutdown(1);
}

#ifdef LAMBDA_BUSY
/* RDMAbw: the library waits for its replies and completions by spinning (interrupts stay off
 * here, the pending one is taken when the library enables them again). mp_idle counts this as
 * idle; the spin is added back, so o_s counts every cycle of the call. */
static volatile uint64_t bw_spin;
void mp_idle_wait(uint64_t wake)
{
    uint64_t t0 = cpu_cycles();
    while (!(csr_read(mip) & csr_read(mie)) && (wake == UINT64_MAX || timer_now() < wake))
        ;
    bw_spin += cpu_cycles() - t0;
}
#define BUSY_CYCLES() bw_spin
#else
#define BUSY_CYCLES() 0u
#endif

static uint32_t rng = 0x2545F491u;
static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return (rng + 0.5) / 4294967296.0;
}
/* Knuth's method: fine for the small means swept here */
static uint32_t poisson(double lambda)
{
    const double limit = exp(-lambda);
    uint32_t k = 0;
    for (double p = uniform(); p > limit; p *= uniform())
        ++k;
    return k;
}

static void spin_until(uint64_t t)
{
    while (cpu_cycles() < t)
        ;
}

int main(void)
{
    uint32_t me = tile_id();
    if (tile_core_id() != 0 || me > 1)
        return 0;
    const double lambda = tile_arg() / 100.0;
    mcapi_status_t st;
    mcapi_initialize(MCAPI_DOMAIN, me, NULL, NULL, NULL, &st);
    if (st != MCAPI_SUCCESS)
        die("initialize", st);
    mcapix_endpoint_attributes_t a = {.capacity_log2 = 0, .max_msg_log2 = MAX_LG};
    mcapi_endpoint_t ep = mcapix_endpoint_create(1, &a, &st);
    if (st != MCAPI_SUCCESS)
        die("endpoint_create", st);
    if (me == 1) {
        uint32_t held = 0;
        for (uint32_t lg = MIN_LG; lg <= MAX_LG; ++lg)
            for (uint32_t i = 0; i <= LAMBDA_M; ++i) {
                while (mcapi_msg_available(ep, &st) == 0)
                    ;
                uint32_t k = lambda > 0 ? poisson(lambda) : 0u;
                held += k;
                spin_until(cpu_cycles() + (uint64_t)k * LAMBDA_HOLD);
                size_t got;
                mcapi_msg_recv(ep, buf, sizeof buf, &got, &st);
                if (st != MCAPI_SUCCESS || got != 1u << lg)
                    die("recv", st);
            }
        printf("mp_lambda receiver: lambda %u.%02u, %u hold units over %u messages\n",
               (unsigned)(tile_arg() / 100), (unsigned)(tile_arg() % 100), (unsigned)held,
               (unsigned)((MAX_LG - MIN_LG + 1) * (LAMBDA_M + 1)));
        return 0;
    }
    mcapi_endpoint_t peer = mcapi_endpoint_get(MCAPI_DOMAIN, 1, 1, MCAPI_TIMEOUT_INFINITE, &st);
    if (st != MCAPI_SUCCESS)
        die("endpoint_get", st);
    for (uint32_t lg = MIN_LG; lg <= MAX_LG; ++lg) {
        uint32_t size = 1u << lg;
        mcapi_msg_send(ep, peer, buf, size, 0, &st);   /* warm-up */
        if (st != MCAPI_SUCCESS)
            die("send", st);
        uint64_t os = 0, t = 0;
        uint32_t nacks0 = mcapix_stats()->nacks, irqs0 = mcapix_stats()->isr_count;
        uint64_t isr0 = mcapix_stats()->isr_cycles;
        for (uint32_t i = 0; i < LAMBDA_M; ++i) {
            spin_until(cpu_cycles() + LAMBDA_THINK);
            uint64_t idle0 = mcapix_stats()->idle_cycles - BUSY_CYCLES(), t0 = cpu_cycles();
            mcapi_msg_send(ep, peer, buf, size, 0, &st);
            uint64_t t1 = cpu_cycles(), idle = mcapix_stats()->idle_cycles - BUSY_CYCLES() - idle0;
            if (st != MCAPI_SUCCESS)
                die("send", st);
            os += t1 - t0 - idle;
            t += t1 - t0;
        }
        os /= LAMBDA_M;
        t /= LAMBDA_M;
        sim_mark(12u << 28 | (lg * 2u) << 20 | (uint32_t)(os > 0xFFFFF ? 0xFFFFF : os));
        sim_mark(12u << 28 | (lg * 2u + 1u) << 20 | (uint32_t)(t > 0xFFFFF ? 0xFFFFF : t));
        /* the part of o_s spent in the library's interrupt work (trap or inline after wfi) */
        printf("lambda %u.%02u size %4u os %6u t %7u nacks %u interrupts %u isr %u\n",
               (unsigned)(tile_arg() / 100), (unsigned)(tile_arg() % 100), (unsigned)size,
               (unsigned)os, (unsigned)t, (unsigned)(mcapix_stats()->nacks - nacks0),
               (unsigned)((mcapix_stats()->isr_count - irqs0) / LAMBDA_M),
               (unsigned)((mcapix_stats()->isr_cycles - isr0) / LAMBDA_M));
    }
    return 0;
}
