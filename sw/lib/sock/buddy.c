/* Buddy allocator of the socket receive space (sock/buddy.h). */
#include "sock/buddy.h"

#include <string.h>

static int log2_exact(uint32_t v, uint8_t *out)
{
    if (v == 0 || (v & (v - 1u)))
        return -1;
    uint8_t l = 0;
    while ((1u << l) != v)
        ++l;
    *out = l;
    return 0;
}

int sock_buddy_init(sock_buddy_t *bd, uint32_t space, uint32_t min_chunk, sock_buddy_block_t *array,
                    uint32_t cap)
{
    uint8_t ls, lm;
    if (!bd || !array || cap < 1 || log2_exact(space, &ls) || log2_exact(min_chunk, &lm) ||
        lm > ls || (uint32_t)(ls - lm) > SOCK_BUDDY_MAX_LEVELS)
        return -1;
    bd->space = space;
    bd->space_log2 = ls;
    bd->min_log2 = lm;
    bd->b = array;
    bd->cap = cap;
    bd->n = 1;
    array[0] = (sock_buddy_block_t){.off = 0, .owner = SOCK_BUDDY_FREE, .log2 = ls};
    return 0;
}

static void insert_at(sock_buddy_t *bd, uint32_t i, sock_buddy_block_t blk)
{
    memmove(&bd->b[i + 1], &bd->b[i], (bd->n - i) * sizeof blk);
    bd->b[i] = blk;
    bd->n++;
}

static void remove_at(sock_buddy_t *bd, uint32_t i)
{
    memmove(&bd->b[i], &bd->b[i + 1], (bd->n - i - 1u) * sizeof bd->b[0]);
    bd->n--;
}

/* Index of the block that is i's buddy if it is whole (same size), else -1. Blocks are sorted by
 * offset and partition the space, so the buddy is the neighbour on the side the offset says. */
static int32_t buddy_of(const sock_buddy_t *bd, uint32_t i)
{
    const sock_buddy_block_t *x = &bd->b[i];
    if (x->log2 == bd->space_log2)
        return -1;
    uint32_t j = (x->off >> x->log2) & 1u ? i - 1u : i + 1u;
    if (j >= bd->n || bd->b[j].log2 != x->log2)
        return -1;
    return (int32_t)j;
}

int sock_buddy_alloc(sock_buddy_t *bd, uint16_t owner, uint32_t *off, uint32_t *size,
                     uint16_t *victim)
{
    if (owner == SOCK_BUDDY_FREE)
        return -1;
    int32_t best = -1;
    for (uint32_t i = 0; i < bd->n; ++i) /* largest free block, lowest offset on ties */
        if (bd->b[i].owner == SOCK_BUDDY_FREE && (best < 0 || bd->b[i].log2 > bd->b[best].log2))
            best = (int32_t)i;
    if (best >= 0) {
        bd->b[best].owner = owner;
        *off = bd->b[best].off;
        *size = 1u << bd->b[best].log2;
        *victim = SOCK_BUDDY_FREE;
        return 0;
    }
    for (uint32_t i = 0; i < bd->n; ++i) /* else: halve the largest owned block */
        if (bd->b[i].log2 > bd->min_log2 && (best < 0 || bd->b[i].log2 > bd->b[best].log2))
            best = (int32_t)i;
    if (best < 0 || bd->n == bd->cap)
        return -1;
    sock_buddy_block_t *v = &bd->b[best];
    v->log2--;
    sock_buddy_block_t upper = {.off = v->off + (1u << v->log2), .owner = owner, .log2 = v->log2};
    *victim = v->owner;
    insert_at(bd, (uint32_t)best + 1u, upper);
    *off = upper.off;
    *size = 1u << upper.log2;
    return 0;
}

int sock_buddy_free(sock_buddy_t *bd, uint32_t off)
{
    uint32_t i = 0;
    while (i < bd->n && bd->b[i].off != off)
        ++i;
    if (i == bd->n || bd->b[i].owner == SOCK_BUDDY_FREE)
        return -1;
    bd->b[i].owner = SOCK_BUDDY_FREE;
    for (;;) { /* merge with a free buddy, level by level */
        int32_t j = buddy_of(bd, i);
        if (j < 0 || bd->b[j].owner != SOCK_BUDDY_FREE)
            return 0;
        uint32_t lo = (uint32_t)j < i ? (uint32_t)j : i;
        bd->b[lo].log2++;
        remove_at(bd, lo + 1u);
        i = lo;
    }
}

int sock_buddy_grow(sock_buddy_t *bd, int (*allow)(uint16_t owner, void *ctx), void *ctx,
                    uint16_t *owner, uint32_t *old_off, uint32_t *new_off, uint32_t *new_size)
{
    for (uint32_t i = 0; i < bd->n; ++i) {
        if (bd->b[i].owner == SOCK_BUDDY_FREE)
            continue;
        int32_t j = buddy_of(bd, i);
        if (j < 0 || bd->b[j].owner != SOCK_BUDDY_FREE)
            continue;
        if (allow && !allow(bd->b[i].owner, ctx))
            continue;
        uint32_t lo = (uint32_t)j < i ? (uint32_t)j : i;
        *owner = bd->b[i].owner;
        *old_off = bd->b[i].off;
        bd->b[lo].owner = bd->b[i].owner;
        bd->b[lo].log2++;
        remove_at(bd, lo + 1u);
        *new_off = bd->b[lo].off;
        *new_size = 1u << bd->b[lo].log2;
        return 1;
    }
    return 0;
}

uint32_t sock_buddy_size(const sock_buddy_t *bd, uint32_t off)
{
    for (uint32_t i = 0; i < bd->n; ++i)
        if (bd->b[i].off == off)
            return bd->b[i].owner == SOCK_BUDDY_FREE ? 0u : 1u << bd->b[i].log2;
    return 0;
}

uint32_t sock_buddy_free_bytes(const sock_buddy_t *bd)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < bd->n; ++i)
        if (bd->b[i].owner == SOCK_BUDDY_FREE)
            n += 1u << bd->b[i].log2;
    return n;
}

uint32_t sock_buddy_min_owned(const sock_buddy_t *bd)
{
    uint32_t m = 0;
    for (uint32_t i = 0; i < bd->n; ++i)
        if (bd->b[i].owner != SOCK_BUDDY_FREE && (m == 0 || (1u << bd->b[i].log2) < m))
            m = 1u << bd->b[i].log2;
    return m;
}

int sock_buddy_check(const sock_buddy_t *bd)
{
    uint32_t at = 0;
    if (bd->n == 0 || bd->n > bd->cap)
        return -1;
    for (uint32_t i = 0; i < bd->n; ++i) {
        const sock_buddy_block_t *x = &bd->b[i];
        if (x->off != at || x->log2 < bd->min_log2 || x->log2 > bd->space_log2 ||
            (x->off & ((1u << x->log2) - 1u)))
            return -1;
        int32_t j = buddy_of(bd, i);
        if (x->owner == SOCK_BUDDY_FREE && j >= 0 && bd->b[j].owner == SOCK_BUDDY_FREE)
            return -1; /* two free buddies must have merged */
        at += 1u << x->log2;
    }
    return at == bd->space ? 0 : -1;
}
