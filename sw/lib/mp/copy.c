/* mp_copy (include/mp/copy.h). */
#include "mp/copy.h"

#include <stdint.h>

void mp_copy(void *dst, const void *src, uint32_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    if (n >= 16 && (((uintptr_t)d ^ (uintptr_t)s) & 3u) != 0) {
        /* Misaligned against each other (a stream's bytes at any offset of a ring): align the
         * destination, then merge pairs of aligned source words with shifts. */
        while ((uintptr_t)d & 3u) {
            *d++ = *s++;
            --n;
        }
        uint32_t k = (uintptr_t)s & 3u, sh = 8u * k, sh2 = 32u - sh;
        const uint32_t *sw = (const uint32_t *)(s - k);
        uint32_t *dw = (uint32_t *)d, cur = *sw++;
        for (; n >= 8; n -= 8, dw += 2, sw += 2) {
            uint32_t a = sw[0], b = sw[1];
            dw[0] = (cur >> sh) | (a << sh2);
            dw[1] = (a >> sh) | (b << sh2);
            cur = b;
        }
        d = (uint8_t *)dw;
        s = (const uint8_t *)sw - 4 + k;
    }
    if ((((uintptr_t)d ^ (uintptr_t)s) & 3u) == 0) {
        while (n && ((uintptr_t)d & 3u)) {
            *d++ = *s++;
            --n;
        }
        uint32_t *dw = (uint32_t *)d;
        const uint32_t *sw = (const uint32_t *)s;
        /* eight words per round: the loop overhead is a third of a four-word round */
        for (; n >= 32u; n -= 32u, dw += 8, sw += 8) {
            uint32_t a = sw[0], b = sw[1], c = sw[2], e = sw[3];
            uint32_t f = sw[4], g = sw[5], h = sw[6], i = sw[7];
            dw[0] = a;
            dw[1] = b;
            dw[2] = c;
            dw[3] = e;
            dw[4] = f;
            dw[5] = g;
            dw[6] = h;
            dw[7] = i;
        }
        for (; n >= 4u; n -= 4u)
            *dw++ = *sw++;
        d = (uint8_t *)dw;
        s = (const uint8_t *)sw;
    }
    while (n--)
        *d++ = *s++;
}
