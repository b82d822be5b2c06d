/* The lock-free circular message buffer's algorithms (thesis Listing 4.1, sections 3.2.4.1 and
 * 4.2.2): reserve / commit / read / free on the byte layout of contract/cbuffer_layout.h, which the
 * NAMP hardware reads and writes too (the layout, the indices' tag scheme and the slot states are
 * described there). Implemented in sw/lib/mp/cbuffer.c. */
#ifndef MP_CBUFFER_H
#define MP_CBUFFER_H

#include <stddef.h>
#include <stdint.h>

#include "cbuffer_layout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Initialises a buffer in `mem` (footprint bytes, 4-byte aligned). start_idx is the initial value
 * of both indices (normally 0; tests use values near 2^32). Returns 0, or -1 for bad n/m. */
int mp_cbuffer_init(void *mem, uint32_t n, uint32_t m, uint32_t start_idx);

/* Producer: reserve the next slot (CAS on wr_idx). 0 and *idx = the reserved counter value, or -1
 * when the buffer is full. */
int mp_cbuffer_reserve(mp_cbuffer_t *b, uint32_t *idx);
/* Producer: mark the reserved slot complete with `size` bytes (size <= 2^m). */
void mp_cbuffer_commit(mp_cbuffer_t *b, uint32_t idx, uint32_t size);
/* reserve + copy + commit. 0, -1 full, -2 too large. */
int mp_cbuffer_push(mp_cbuffer_t *b, const void *data, uint32_t size);

/* reserve + copy + commit into a buffer whose header another party may write (a task's receive
 * buffer, pushed by its kernel): the layout is the one mp_cbuffer_init made for (n, m), never the
 * header's offsets or geometry; the indices only pick a slot inside it; at most a few tries.
 * 0, -1 full (or indices that make no sense), -2 too large. */
int mp_cbuffer_push_untrusted(mp_cbuffer_t *b, uint32_t n, uint32_t m, const void *data,
                              uint32_t size);

/* Consumer: take the next committed message (CAS on rd_idx). 0 and *idx, or -1 when empty. */
int mp_cbuffer_read(mp_cbuffer_t *b, uint32_t *idx);
/* Consumer: release the slot after use. */
void mp_cbuffer_free(mp_cbuffer_t *b, uint32_t idx);
/* read + copy (at most cap bytes) + free. 0 and *size = message size, -1 empty, -2 the message
 * was larger than cap (it is consumed; cap bytes were copied). */
int mp_cbuffer_pop(mp_cbuffer_t *b, void *data, uint32_t cap, uint32_t *size);

/* Messages between rd_idx and wr_idx (reserved or committed, a snapshot). */
static inline uint32_t mp_cbuffer_used(const mp_cbuffer_t *b)
{
    return __atomic_load_n(&b->wr_idx, __ATOMIC_ACQUIRE) -
           __atomic_load_n(&b->rd_idx, __ATOMIC_ACQUIRE);
}
/* 1 if the slot at rd_idx holds a committed message (mp_cbuffer_read would succeed now). */
int mp_cbuffer_ready(mp_cbuffer_t *b);

#ifdef __cplusplus
}
#endif
#endif
