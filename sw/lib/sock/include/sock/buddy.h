/* Buddy allocator of a tile's socket receive space (seed 003, section 3.4). Plain C11, no
 * platform dependency: the same file is compiled for the host unit tests (tests/sock).
 *
 * The space (a power of two) is always partitioned into blocks of power-of-two sizes, each aligned
 * to its size and at least min_chunk. A block is free or owned by one connection. Policy:
 * - alloc: the largest free block whole (the first connection gets all the space); with no free
 *   block, the largest owned block (lowest offset on ties) is split: its owner keeps the lower
 *   half, the new owner gets the upper half, and the caller learns who shrank (the victim);
 * - free: the block becomes free and merges with its free buddy, level by level;
 * - grow: an owned block whose buddy is one whole free block takes it (the merge that gives a
 *   remaining connection the space of a closed one back). One step per call.
 * Blocks are kept in an array sorted by offset (a few hundred at most: linear scans are fine). */
#ifndef SOCK_BUDDY_H
#define SOCK_BUDDY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SOCK_BUDDY_FREE       0xFFFFu /* owner of a free block */
#define SOCK_BUDDY_MAX_LEVELS 20u

typedef struct sock_buddy_block {
    uint32_t off;
    uint16_t owner; /* SOCK_BUDDY_FREE or the owner's id */
    uint8_t log2;   /* block size = 1 << log2 */
    uint8_t pad;
} sock_buddy_block_t;

typedef struct sock_buddy {
    uint32_t space;
    uint8_t space_log2, min_log2;
    uint32_t n, cap; /* blocks in use of the caller's array */
    sock_buddy_block_t *b;
} sock_buddy_t;

/* 0, or -1 when space or min_chunk is not a power of two, min_chunk > space, more than
 * SOCK_BUDDY_MAX_LEVELS levels, or cap < 1. The array (cap entries) bounds the number of blocks:
 * an alloc that would need more fails. */
int sock_buddy_init(sock_buddy_t *bd, uint32_t space, uint32_t min_chunk, sock_buddy_block_t *array,
                    uint32_t cap);
/* A block for `owner` (not SOCK_BUDDY_FREE): 0 with *off, *size set and *victim = the owner whose
 * block was halved (SOCK_BUDDY_FREE if a free block was taken); -1 when every block is owned and
 * at min_chunk (the space is exhausted) or the array is full. */
int sock_buddy_alloc(sock_buddy_t *bd, uint16_t owner, uint32_t *off, uint32_t *size,
                     uint16_t *victim);
/* Frees the owned block at off (merging free buddies). 0, or -1 if no owned block starts there. */
int sock_buddy_free(sock_buddy_t *bd, uint32_t off);
/* One growth step: 1 if an owned block took its whole free buddy (*owner, its *old_off, the new
 * block *new_off, *new_size), else 0. `allow(owner, ctx)` may veto a candidate (NULL: all). */
int sock_buddy_grow(sock_buddy_t *bd, int (*allow)(uint16_t owner, void *ctx), void *ctx,
                    uint16_t *owner, uint32_t *old_off, uint32_t *new_off, uint32_t *new_size);
/* Size of the owned block at off, 0 if none. */
uint32_t sock_buddy_size(const sock_buddy_t *bd, uint32_t off);
/* Bytes in free blocks; the smallest owned block (0 when none). */
uint32_t sock_buddy_free_bytes(const sock_buddy_t *bd);
uint32_t sock_buddy_min_owned(const sock_buddy_t *bd);
/* Invariants (partition, alignment, sizes, no two free buddies): 0 if they hold. */
int sock_buddy_check(const sock_buddy_t *bd);

#ifdef __cplusplus
}
#endif
#endif
