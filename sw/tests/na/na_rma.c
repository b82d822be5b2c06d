/* RMA: tile 0 stores words, halves and bytes into tile 3's SRAM through the RMA window, loads them
 * back, and checks the posted-store counter drains. A load beyond the remote SRAM (run with
 * tile.sram_size below 1 MiB) is a load access fault the firmware catches; a store there counts in
 * NA_RMA_ERRORS. Tile 3 checks the stored values in its own memory after a go-ahead packet.
 * Expected: "rma loads ok", "rma refused load caught", "rma store error counted", "rma remote
 * check ok"; exit 0. */
#include <stdio.h>

#include "na_fw.h"

#define TARGET 3u
static volatile uint32_t area[64] = {
    1}; /* .data: same address in every tile, not cleared at start-up */
static volatile uint32_t faults, fault_tval;

static void on_load_fault(trap_frame_t *frame)
{
    faults++;
    fault_tval = frame->mtval;
    trap_skip_instruction(frame);
}

#define R32(t, p) (*(volatile uint32_t *)RMA_ADDRESS(t, (uint32_t)(p)-TILE_SRAM_BASE))
#define R16(t, p) (*(volatile uint16_t *)RMA_ADDRESS(t, (uint32_t)(p)-TILE_SRAM_BASE))
#define R8(t, p)  (*(volatile uint8_t *)RMA_ADDRESS(t, (uint32_t)(p)-TILE_SRAM_BASE))

int main(void)
{
    uint32_t me = na_rd(NA_TILE_ID);
    uint32_t w[2];
    unsigned n;
    if (me == TARGET) {
        while (!na_rx_waiting(0))
            ;
        na_recv(0, w, 2, &n);
        int ok = 1;
        for (unsigned i = 0; i < 16; i++)
            ok &= area[i] == 0x1000u * i + 7u;
        ok &= area[16] == 0x00BB00AAu && area[17] == 0xBEEF0000u;
        printf(ok ? "rma remote check ok\n" : "rma remote check FAILED\n");
        return ok ? 0 : 1;
    }
    if (me != 0)
        return 0;
    int fails = 0;
    for (unsigned i = 0; i < 16; i++)
        R32(TARGET, &area[i]) = 0x1000u * i + 7u;
    area[16] = 0; /* the target's copy starts as zero too (BSS) */
    R8(TARGET, (uint8_t *)&area[16]) = 0xAA;
    R8(TARGET, (uint8_t *)&area[16] + 2) = 0xBB;
    R16(TARGET, (uint8_t *)&area[17] + 2) = 0xBEEF;
    for (unsigned i = 0; i < 16; i++)
        fails += R32(TARGET, &area[i]) != 0x1000u * i + 7u;
    fails += R32(TARGET, &area[16]) != 0x00BB00AAu;
    fails += R16(TARGET, (uint8_t *)&area[17] + 2) != 0xBEEF;
    while (na_rd(NA_RMA_OUTSTANDING) != 0)
        ;
    printf(fails ? "rma loads FAILED\n" : "rma loads ok\n");

    uint32_t sram = tile_sram_size();
    trap_set_handler(EXC_LOAD_ACCESS, on_load_fault);
    volatile uint32_t v = *(volatile uint32_t *)RMA_ADDRESS(TARGET, sram);
    (void)v;
    if (faults == 1 && fault_tval == RMA_ADDRESS(TARGET, sram))
        printf("rma refused load caught\n");
    else
        fails++;
    *(volatile uint32_t *)RMA_ADDRESS(TARGET, sram + 4) = 1;
    while (na_rd(NA_RMA_OUTSTANDING) != 0)
        ;
    if (na_rd(NA_RMA_ERRORS) == 1 && (na_rd(NA_IRQ_BASE + NA_IRQ_PENDING) & NA_IRQ_SRC_RMA_ERROR)) {
        printf("rma store error counted\n");
        na_wr(NA_RMA_ERRORS, 0);
    } else {
        fails++;
    }
    w[0] = 1;
    na_send(0, TARGET, 1, w, 1);
    return fails ? 1 : 0;
}
