/* Test payloads: every byte depends on (sender, sequence number, offset), so a lost, duplicated,
 * reordered or corrupted message is detected. Bytes 0..7 carry sender and sequence. */
#ifndef MP_E2E_PAYLOAD_H
#define MP_E2E_PAYLOAD_H
#include <stdint.h>
#include <string.h>

static inline uint8_t payload_byte(uint32_t sender, uint32_t seq, uint32_t i)
{
    uint32_t x = sender * 0x9E3779B1u ^ seq * 0x85EBCA77u ^ i * 0xC2B2AE3Du;
    x ^= x >> 15;
    return (uint8_t)(x * 0x2C1B3C6Du >> 24);
}

static inline void payload_fill(uint8_t *p, uint32_t size, uint32_t sender, uint32_t seq)
{
    for (uint32_t i = 0; i < size; ++i)
        p[i] = payload_byte(sender, seq, i);
    if (size >= 8) {
        memcpy(p, &sender, 4);
        memcpy(p + 4, &seq, 4);
    }
}

/* 0 if p holds the payload of (sender, seq) with `size` bytes */
static inline int payload_check(const uint8_t *p, uint32_t size, uint32_t sender, uint32_t seq)
{
    uint32_t i = 0;
    if (size >= 8) {
        uint32_t s, q;
        memcpy(&s, p, 4);
        memcpy(&q, p + 4, 4);
        if (s != sender || q != seq)
            return 1;
        i = 8;
    }
    for (; i < size; ++i)
        if (p[i] != payload_byte(sender, seq, i))
            return 2;
    return 0;
}

static inline uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}
#endif
