/* Many-to-one: tiles 1..SENDERS send COUNT packets each to tile 0 (NoC buffer 0). Tile 0 reads
 * slowly, so with a small na.rx_buffer_flits the buffer fills, the network holds the rest and the
 * senders stall. Every packet carries (sequence, words..., checksum); the receiver checks the order
 * per sender and every checksum: nothing may be lost or damaged.
 * Expected: "many: <SENDERS>x<COUNT> packets, 0 errors"; exit 0. */
#include <stdio.h>

#include "na_fw.h"

#define SENDERS 4
#define COUNT   60

int main(void)
{
    uint32_t me = na_rd(NA_TILE_ID);
    uint32_t max = na_rd(NA_MAX_PACKET_FLITS);
    uint32_t w[64];
    if (me >= 1 && me <= SENDERS) {
        for (uint32_t s = 0; s < COUNT; s++) {
            unsigned n = 2 + (s + me) % (max - 2); /* 2 .. max-1 payload words */
            uint32_t sum = 0;
            w[0] = s;
            for (unsigned i = 1; i < n - 1; i++) {
                w[i] = me * 0x01000193u ^ (s * 0x9E3779B9u + i);
                sum += w[i] * (i + 1);
            }
            w[n - 1] = sum ^ s;
            na_send(0, 0, me, w, n);
        }
        return 0;
    }
    if (me != 0)
        return 0;
    uint32_t next[SENDERS + 1] = {0};
    unsigned errors = 0, got = 0;
    while (got < SENDERS * COUNT) {
        while (!na_rx_waiting(0))
            ;
        unsigned n;
        uint32_t h = na_recv(0, w, 64, &n);
        uint32_t src = na_src_tile(h);
        for (volatile unsigned d = 0; d < 200; d++)
            ; /* slow consumer */
        uint32_t sum = 0;
        for (unsigned i = 1; i + 1 < n; i++)
            sum += w[i] * (i + 1);
        if (src < 1 || src > SENDERS || (h & 15u) != src || n < 2 || w[0] != next[src] ||
            w[n - 1] != (sum ^ w[0])) {
            errors++;
        } else {
            next[src]++;
        }
        got++;
    }
    printf("many: %dx%d packets, %u errors\n", SENDERS, COUNT, errors);
    return errors ? 1 : 0;
}
