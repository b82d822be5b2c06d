/* Unpopulated network-adapter addresses are bus errors: each load is a load access fault with
 * mtval = the address, which the firmware catches and skips.
 * Expected: "caught load access fault at 0x40000028" (and the others), "na faults ok"; exit 0. */
#include <stdio.h>

#include "na_fw.h"

static volatile uint32_t faults, tval;

static void on_fault(trap_frame_t *frame)
{
    faults++;
    tval = frame->mtval;
    trap_skip_instruction(frame);
}

int main(void)
{
    if (tile_core_id() != 0)
        return 0;
    trap_set_handler(EXC_LOAD_ACCESS, on_fault);
    const uint32_t addrs[] = {
        TILE_NA_BASE + NA_STATUS_LAST + 4,                 /* past the status block */
        TILE_NA_BASE + NA_DMA_BASE(na_rd(NA_DMA_SLOTS)),   /* absent DMA slot */
        TILE_NA_BASE + NA_NAMP_SLOT_BASE(0),               /* NAMP slot area */
        TILE_NA_BASE + NA_NOCBUF_BASE(0) + NOCBUF_RX_FLIT, /* nothing received */
    };
    int fails = 0;
    for (unsigned i = 0; i < sizeof addrs / sizeof addrs[0]; i++) {
        faults = 0;
        (void)*(volatile uint32_t *)addrs[i];
        if (faults == 1 && tval == addrs[i])
            printf("caught load access fault at 0x%08lx\n", (unsigned long)tval);
        else
            fails++;
    }
    if (na_rd(NA_VERSION) != 0x10000u)
        fails++;
    if (fails)
        return 1;
    printf("na faults ok\n");
    return 0;
}
