/* Micro benchmark of the NAMP driver path of a blocking unbuffered send (tile 0 -> 1): cycles and
 * instructions of slot programming and of the completion wait, and of the whole API call. */
#include <stdio.h>

#include "hal/hal.h"
#include "mcapi.h"
#include "namp/namp.h"

static uint8_t data[64] __attribute__((aligned(8)));

int main(void)
{
    uint32_t me = tile_id();
    if (tile_core_id() != 0 || me > 1)
        return 0;
    if (mmio_read32(TILE_NA_BASE + NA_NAMP_SLOTS) == 0)
        return 0;
    mcapi_status_t st;
    mcapi_initialize(MCAPI_DOMAIN, me, NULL, NULL, NULL, &st);
    mcapi_endpoint_t ep = mcapi_endpoint_create(1, &st);
    if (me == 1) {
        uint8_t b[64];
        size_t got;
        for (int i = 0; i < 20; ++i)
            mcapi_msg_recv(ep, b, sizeof b, &got, &st);
        return 0;
    }
    mcapi_endpoint_t peer = mcapi_endpoint_get(MCAPI_DOMAIN, 1, 1, MCAPI_TIMEOUT_INFINITE, &st);
    for (int i = 0; i < 10; ++i) {
        int s = namp_slot_alloc();
        uint64_t c0 = cpu_cycles(), n0 = cpu_instret();
        namp_slot_start((unsigned)s, NAMP_F_IEN, (uint32_t)(uintptr_t)peer, (uint32_t)(uintptr_t)data, 16);
        uint64_t c1 = cpu_cycles(), n1 = cpu_instret();
        volatile uint64_t idle = 0;
        uint32_t a0 = mmio_read32(TILE_NA_BASE + NA_IRQ_BASE + NA_IRQ_ACTIVE), k = 0, a1 = 0;
        while (!(mmio_read32(TILE_NA_BASE + NA_NAMP_SLOT_BASE(s) + NAMP_SLOT_FLAGS) & NAMP_F_DONE)) {
            a1 |= mmio_read32(TILE_NA_BASE + NA_IRQ_BASE + NA_IRQ_PENDING);
            k++;
        }
        printf("micro: active at start 0x%x, pending while running 0x%x, %u polls, st 0x%x\n", (unsigned)a0,
               (unsigned)a1, (unsigned)k, (unsigned)namp_slot_status(s));
        uint32_t e = namp_slot_wait_wfi((unsigned)s, &idle);
        uint64_t c2 = cpu_cycles(), n2 = cpu_instret();
        namp_slot_free((unsigned)s);
        printf("micro: start %lu cyc %lu instr; wait %lu cyc (%lu idle) %lu instr; err %u\n",
               (unsigned long)(c1 - c0), (unsigned long)(n1 - n0), (unsigned long)(c2 - c1),
               (unsigned long)idle, (unsigned long)(n2 - n1), (unsigned)e);
    }
    for (int i = 0; i < 10; ++i) {
        uint64_t c0 = cpu_cycles(), n0 = cpu_instret(), i0 = mcapix_stats()->idle_cycles;
        mcapi_msg_send(ep, peer, data, 16, 0, &st);
        uint64_t c1 = cpu_cycles(), n1 = cpu_instret(), i1 = mcapix_stats()->idle_cycles;
        printf("micro: msg_send %lu cyc (%lu idle) %lu instr %s\n", (unsigned long)(c1 - c0),
               (unsigned long)(i1 - i0), (unsigned long)(n1 - n0), mcapix_status_name(st));
    }
    return 0;
}
