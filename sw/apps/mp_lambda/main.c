/* Sender overhead against allocation re-transmissions (thesis 3.2.3.1, Fig. 3.13): tile 0 sends
 * blocking connection-less messages (4 B .. 4 KiB) to a one-element receive endpoint on tile 1,
 * whose receiver refuses k allocations of every message, k Poisson distributed with mean lambda:
 * the thesis' lambda, "the number of retries for an allocation message ... modeled as a poisson
 * process". The receiver holds the previous message (mcapix_msg_hold: its element stays taken, the
 * next allocation is refused "full") until it has counted k refusals of the next one
 * (mcapix_refused: the software protocol's count, or the NAMP target's NA_NAMP_REFUSED), then
 * releases it: the (k+1)-th request succeeds. The NAMP retries in hardware; the software RDMA
 * protocol wakes the sender's core for every NACK and back-off. The same code over the NAMP
 * (namp_lambda), over the baseline's RDMA with interrupts (mp_lambda_rdma) and with busy waiting
 * (mp_lambda_rdmabw: the library's idle wait spins instead of wfi, the thesis' "RDMAbw").
 *
 * tile.arg = lambda * 100 | log2(size) << 16 (size 0: every size 4 B .. 4 KiB in turn, one
 * warm-up send each). The k of the LAMBDA_M measured messages of a size are the Poisson(lambda)
 * quantiles at (j + 0.5) / LAMBDA_M in a fixed shuffled order: the sample has the distribution's
 * shape and (for lambda = 1 and 32 messages) exactly its mean, the same for every transport.
 * Between sends the sender pauses LAMBDA_THINK cycles (outside the measurement), so that with
 * k = 0 the element is free again when the next request comes.
 *   o_s = cycles the sender's core is busy in mcapi_msg_send (the library's wfi sleep not counted;
 *         with busy waiting every cycle counts), mean over the measured sends;
 *   t   = mean duration of the call (allocation waits included);
 * the library's NACK retries per send (the software protocol counts them on the sender; the NAMP's
 * are its hardware's) and interrupt services per send and their cycles (part of o_s).
 * The receiver prints, per size, the refusals it planned and the ones counted, per message; a
 * difference fails the run (the scenario would not be the one claimed).
 * Marks: id = 12 << 28 | (log2(size) * 2 + metric) << 20 | value, metric 0 o_s, 1 t (cycles,
 * clamped to 2^20 - 1). Console: "lambda ..." per size on tile 0, "lambda_rx ..." on tile 1. */
#include <math.h>
#include <stdio.h>

#include "hal/hal.h"
#include "mcapi.h"

#ifndef LAMBDA_M
#define LAMBDA_M 32u
#endif
#define LAMBDA_THINK 3000u /* sender pause between sends */
#define MIN_LG       2u
#define MAX_LG       12u

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

/* The refusals of the measured messages: Poisson(lambda) quantiles at (j + 0.5) / M, shuffled
 * by a fixed permutation (the same on both tiles and for every transport). */
static uint32_t plan[LAMBDA_M];
static void make_plan(double lambda)
{
    uint32_t k = 0;
    double p = exp(-lambda), cdf = p;
    for (uint32_t j = 0; j < LAMBDA_M; ++j) {
        const double q = (j + 0.5) / LAMBDA_M;
        while (lambda > 0 && q > cdf && k < 64) {
            ++k;
            p *= lambda / k;
            cdf += p;
        }
        plan[j] = lambda > 0 ? k : 0u;
    }
    uint32_t rng = 0x2545F491u;
    for (uint32_t j = LAMBDA_M - 1; j > 0; --j) { /* Fisher-Yates with xorshift32 */
        rng ^= rng << 13;
        rng ^= rng >> 17;
        rng ^= rng << 5;
        uint32_t r = rng % (j + 1), t = plan[j];
        plan[j] = plan[r];
        plan[r] = t;
    }
}

static void spin_until(uint64_t t)
{
    while (cpu_cycles() < t)
        ;
}

/* The receiver's counts, kept until every size is done: printing between two sizes would leave
 * the next size's first message unheld (and its sender refused) while the console is busy. */
static uint32_t counted[MAX_LG + 1][LAMBDA_M];
static uint32_t at_release;

/* Message 0 is the warm-up; message j + 1 (the j-th measured) is refused plan[j] times while
 * message j is held. counted[lg][j]: its refusals while message j was held, plus any after the
 * release (none if the release came in time): every refusal counts once. */
static void receiver(mcapi_endpoint_t ep, uint32_t lg)
{
    mcapi_status_t st;
    uint32_t *c = counted[lg];
    for (uint32_t i = 0; i <= LAMBDA_M; ++i) {
        void *data;
        size_t got;
        mcapix_msg_hold(ep, &data, &got, &st);
        if (st != MCAPI_SUCCESS || got != 1u << lg)
            die("hold", st);
        const uint32_t now = mcapix_refused();
        if (i > 0)
            c[i - 1] += now - at_release;
        while (i < LAMBDA_M && mcapix_refused() - now < plan[i])
            ;
        /* release at once (the next request comes a back-off after the last NACK), count after */
        mcapix_msg_release(ep, &st);
        at_release = mcapix_refused();
        if (st != MCAPI_SUCCESS)
            die("release", st);
        if (i < LAMBDA_M)
            c[i] = at_release - now;
    }
}

static int receiver_report(uint32_t lg)
{
    const unsigned l100 = (unsigned)(tile_arg() & 0xFFFFu);
    uint32_t total = 0, planned = 0, bad = 0;
    printf("lambda_rx lambda %u.%02u size %u refused per message:", l100 / 100, l100 % 100,
           1u << lg);
    for (uint32_t i = 0; i < LAMBDA_M; ++i) {
        printf(" %u", (unsigned)counted[lg][i]);
        total += counted[lg][i];
        planned += plan[i];
        bad += counted[lg][i] != plan[i];
    }
    printf("\nlambda_rx lambda %u.%02u size %u planned %u refused %u over %u messages%s\n",
           l100 / 100, l100 % 100, 1u << lg, (unsigned)planned, (unsigned)total, (unsigned)LAMBDA_M,
           bad ? " FAIL: not as planned" : "");
    return bad != 0;
}

static void sender(mcapi_endpoint_t ep, mcapi_endpoint_t peer, uint32_t lg)
{
    mcapi_status_t st;
    const uint32_t size = 1u << lg;
    mcapi_msg_send(ep, peer, buf, size, 0, &st); /* warm-up */
    if (st != MCAPI_SUCCESS)
        die("send", st);
    uint64_t os = 0, t = 0;
    uint32_t retries0 = mcapix_stats()->retries, irqs0 = mcapix_stats()->isr_count;
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
    const uint32_t retries = mcapix_stats()->retries - retries0;
    printf("lambda %u.%02u size %4u os %6u t %7u retries/send %u.%02u (library, %u sends) "
           "interrupts/send %u isr/send %u\n",
           (unsigned)(tile_arg() & 0xFFFFu) / 100, (unsigned)(tile_arg() & 0xFFFFu) % 100,
           (unsigned)size, (unsigned)os, (unsigned)t, (unsigned)(retries / LAMBDA_M),
           (unsigned)(retries * 100u / LAMBDA_M % 100u), (unsigned)LAMBDA_M,
           (unsigned)((mcapix_stats()->isr_count - irqs0) / LAMBDA_M),
           (unsigned)((mcapix_stats()->isr_cycles - isr0) / LAMBDA_M));
}

int main(void)
{
    uint32_t me = tile_id();
    if (tile_core_id() != 0 || me > 1)
        return 0;
    const double lambda = (tile_arg() & 0xFFFFu) / 100.0;
    const uint32_t only = (tile_arg() >> 16) & 0xFFu;
    if (only && (only < MIN_LG || only > MAX_LG)) {
        printf("mp_lambda FAIL: size 2^%u outside 2^%u .. 2^%u\n", (unsigned)only, MIN_LG, MAX_LG);
        sim_shutdown(1);
    }
    make_plan(lambda);
    mcapi_status_t st;
    mcapi_initialize(MCAPI_DOMAIN, me, NULL, NULL, NULL, &st);
    if (st != MCAPI_SUCCESS)
        die("initialize", st);
    mcapix_endpoint_attributes_t a = {.capacity_log2 = 0, .max_msg_log2 = MAX_LG};
    mcapi_endpoint_t ep = mcapix_endpoint_create(1, &a, &st);
    if (st != MCAPI_SUCCESS)
        die("endpoint_create", st);
    mcapi_endpoint_t peer = NULL;
    if (me == 0) {
        peer = mcapi_endpoint_get(MCAPI_DOMAIN, 1, 1, MCAPI_TIMEOUT_INFINITE, &st);
        if (st != MCAPI_SUCCESS)
            die("endpoint_get", st);
    }
    const uint32_t first = only ? only : MIN_LG, last = only ? only : MAX_LG;
    at_release = mcapix_refused();
    for (uint32_t lg = first; lg <= last; ++lg) {
        if (me == 1)
            receiver(ep, lg);
        else
            sender(ep, peer, lg);
    }
    int bad = 0;
    for (uint32_t lg = first; me == 1 && lg <= last; ++lg)
        bad |= receiver_report(lg);
    if (bad)
        sim_shutdown(1);
    return 0;
}
