/* Lock-free MPMC circular buffer (see include/mp/cbuffer.h). CAS is __atomic_compare_exchange_n,
 * which is LR/SC on RV32A; size words are stored with release and loaded with acquire ordering. */
#include "mp/cbuffer.h"

#include "mp/copy.h"

#include <string.h>

int mp_cbuffer_init(void *mem, uint32_t n, uint32_t m, uint32_t start_idx)
{
    if (n > MP_CB_MAX_CAP_LOG2 || m < MP_CB_MIN_MSG_LOG2 || m > MP_CB_MAX_MSG_LOG2)
        return -1;
    mp_cbuffer_t *b = (mp_cbuffer_t *)mem;
    b->capacity_log2 = n;
    b->max_msg_log2 = m;
    b->wr_idx = start_idx;
    b->rd_idx = start_idx;
    b->size_offset = MP_CB_HEADER_SIZE;
    b->data_offset = MP_CB_HEADER_SIZE + (4u << n);
    b->voids = 0;
    b->reserved = 0;
    memset((uint8_t *)mem + b->size_offset, 0, 4u << n);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    return 0;
}

int mp_cbuffer_reserve(mp_cbuffer_t *b, uint32_t *idx)
{
    const uint32_t cap = 1u << b->capacity_log2;
    volatile uint32_t *sizes = mp_cbuffer_sizes(b);
    uint32_t cur = __atomic_load_n(&b->wr_idx, __ATOMIC_ACQUIRE);
    for (;;) {
        uint32_t rd = __atomic_load_n(&b->rd_idx, __ATOMIC_ACQUIRE);
        uint32_t used = cur - rd;
        if (used > cap) { /* cur is stale (consumers overtook it): re-read */
            cur = __atomic_load_n(&b->wr_idx, __ATOMIC_ACQUIRE);
            continue;
        }
        if (used == cap)
            return -1; /* full */
        if (__atomic_load_n(&sizes[cur & (cap - 1u)], __ATOMIC_ACQUIRE) != 0)
            return -1; /* a consumer still holds this slot */
        if (__atomic_compare_exchange_n(&b->wr_idx, &cur, cur + 1u, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
            *idx = cur;
            return 0;
        }
        /* CAS failed: cur now holds the current wr_idx */
    }
}

void mp_cbuffer_commit(mp_cbuffer_t *b, uint32_t idx, uint32_t size)
{
    __atomic_store_n(&mp_cbuffer_sizes(b)[mp_cbuffer_slot_of(b, idx)], MP_CB_COMMITTED | size,
                     __ATOMIC_RELEASE);
}

int mp_cbuffer_push(mp_cbuffer_t *b, const void *data, uint32_t size)
{
    uint32_t idx;
    if (size > mp_cbuffer_slot_bytes(b))
        return -2;
    if (mp_cbuffer_reserve(b, &idx) != 0)
        return -1;
    mp_copy(mp_cbuffer_data(b, idx), data, size);
    mp_cbuffer_commit(b, idx, size);
    return 0;
}

int mp_cbuffer_push_untrusted(mp_cbuffer_t *b, uint32_t n, uint32_t m, const void *data,
                              uint32_t size)
{
    if (size > (1u << m))
        return -2;
    const uint32_t cap = 1u << n;
    volatile uint32_t *sizes = (volatile uint32_t *)((uint8_t *)b + MP_CB_HEADER_SIZE);
    uint8_t *slots = (uint8_t *)b + MP_CB_HEADER_SIZE + (4u << n);
    for (int tries = 0; tries < 4; ++tries) { /* the other party may move wr_idx for ever */
        uint32_t cur = __atomic_load_n(&b->wr_idx, __ATOMIC_ACQUIRE);
        uint32_t rd = __atomic_load_n(&b->rd_idx, __ATOMIC_ACQUIRE);
        if (cur - rd >= cap)
            return -1;
        const uint32_t k = cur & (cap - 1u);
        if (__atomic_load_n(&sizes[k], __ATOMIC_ACQUIRE) != 0)
            return -1;
        if (__atomic_compare_exchange_n(&b->wr_idx, &cur, cur + 1u, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
            mp_copy(slots + ((size_t)k << m), data, size);
            __atomic_store_n(&sizes[k], MP_CB_COMMITTED | size, __ATOMIC_RELEASE);
            return 0;
        }
    }
    return -1;
}

int mp_cbuffer_read(mp_cbuffer_t *b, uint32_t *idx)
{
    const uint32_t mask = (1u << b->capacity_log2) - 1u;
    volatile uint32_t *sizes = mp_cbuffer_sizes(b);
    uint32_t cur = __atomic_load_n(&b->rd_idx, __ATOMIC_ACQUIRE);
    for (;;) {
        /* The slot may still hold an older, not yet freed message of the previous round while
         * rd_idx == wr_idx: only a slot below wr_idx belongs to the current round. */
        uint32_t wr = __atomic_load_n(&b->wr_idx, __ATOMIC_ACQUIRE);
        if (wr == cur || (int32_t)(wr - cur) < 0) {
            uint32_t again = __atomic_load_n(&b->rd_idx, __ATOMIC_ACQUIRE);
            if (again == cur)
                return -1; /* empty */
            cur = again;
            continue;
        }
        /* the size word is final once COMMITTED: the value read here decides VOID too */
        const uint32_t sw = __atomic_load_n(&sizes[cur & mask], __ATOMIC_ACQUIRE);
        if ((sw & MP_CB_COMMITTED) == 0)
            return -1; /* reserved, not committed yet */
        if (__atomic_compare_exchange_n(&b->rd_idx, &cur, cur + 1u, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
            if (sw & MP_CB_VOID) {
                /* a producer gave this element up: free it and take the next one */
                __atomic_store_n(&sizes[cur & mask], 0u, __ATOMIC_RELEASE);
                __atomic_fetch_add(&b->voids, 1u, __ATOMIC_ACQ_REL);
                cur = cur + 1u;
                continue;
            }
            *idx = cur;
            return 0;
        }
    }
}

void mp_cbuffer_free(mp_cbuffer_t *b, uint32_t idx)
{
    __atomic_store_n(&mp_cbuffer_sizes(b)[mp_cbuffer_slot_of(b, idx)], 0u, __ATOMIC_RELEASE);
}

int mp_cbuffer_pop(mp_cbuffer_t *b, void *data, uint32_t cap, uint32_t *size)
{
    uint32_t idx;
    if (mp_cbuffer_read(b, &idx) != 0)
        return -1;
    uint32_t s = mp_cbuffer_size(b, idx);
    uint32_t n = s < cap ? s : cap;
    mp_copy(data, mp_cbuffer_data(b, idx), n);
    mp_cbuffer_free(b, idx);
    *size = s;
    return s > cap ? -2 : 0;
}

int mp_cbuffer_ready(mp_cbuffer_t *b)
{
    for (;;) {
        uint32_t rd = __atomic_load_n(&b->rd_idx, __ATOMIC_ACQUIRE);
        uint32_t wr = __atomic_load_n(&b->wr_idx, __ATOMIC_ACQUIRE);
        if (rd == wr)
            return 0;
        volatile uint32_t *sz = &mp_cbuffer_sizes(b)[mp_cbuffer_slot_of(b, rd)];
        uint32_t v = __atomic_load_n(sz, __ATOMIC_ACQUIRE);
        if ((v & MP_CB_COMMITTED) == 0)
            return 0;
        if ((v & MP_CB_VOID) == 0)
            return 1;
        /* a given-up element: consume it here so that "ready" means a message */
        if (__atomic_compare_exchange_n(&b->rd_idx, &rd, rd + 1u, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
            __atomic_store_n(sz, 0u, __ATOMIC_RELEASE);
            __atomic_fetch_add(&b->voids, 1u, __ATOMIC_ACQ_REL);
        }
    }
}
