/* LR/SC reservation set shared by the harts of one tile. A reservation covers one naturally aligned
 * 4-byte granule; any write overlapping it (any hart or another bus master) breaks it. */
#include "cpu_internal.h"

#include <string.h>

void rv_reservations_init(rv_reservation_set *set) { memset(set, 0, sizeof *set); }

void rv_reservations_invalidate(rv_reservation_set *set, uint32_t paddr, uint32_t len)
{
    if (set->valid_mask == 0 || len == 0)
        return;
    uint32_t first = paddr & ~3u;
    uint32_t last = (paddr + len - 1u) & ~3u;
    for (unsigned h = 0; h < RV_MAX_HARTS; h++) {
        if (!(set->valid_mask & (1u << h)))
            continue;
        uint32_t a = set->addr[h];
        /* unsigned range test also copes with a write wrapping around 4 GiB */
        if (a - first <= last - first)
            set->valid_mask &= ~(1u << h);
    }
}
