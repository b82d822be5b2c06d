/* The software-emulation baseline of NAMP-SV (thesis 3.4.1, Fig. 3.30): a task sends a message
 * by a system call; the kernel checks the user buffer, looks the destination up in the task's
 * endpoint table, copies the message into its own send buffer and starts a physical NAMP slot
 * (K_SEND_SLOT) on the task's behalf. The benchmark compares it with sending through the vif. */
#include <string.h>

#include "kinternal.h"
#include "mp/cbuffer.h"
#include "na_registers.h"
#include "namp_structs.h"
#include "tile_memory_map.h"

#define K_SEND_SLOT 0u
#define SB_N 2u          /* 4 elements */
#define SB_M 9u          /* of 512 bytes */
#define SLOT(reg) (*(volatile uint32_t *)(TILE_NA_BASE + NA_NAMP_SLOT_BASE(K_SEND_SLOT) + (reg)))

static uint8_t send_buffer[MP_CB_HEADER_SIZE + (4u << SB_N) + (1u << (SB_N + SB_M))] __attribute__((aligned(8)));
static int ready;

int32_t k_sys_namp_send(k_thread_t *cur, uint32_t vid, uint32_t va, uint32_t size)
{
    struct k_task *task = cur->task;
    if (!task || vid >= task->et_count || task->et[vid][1] != NAMP_ET_HANDLE)
        return K_EINVAL;
    if (size == 0 || size > (1u << SB_M))
        return K_EINVAL;
    uint32_t pa = vm_user_range(task, va, size, PTE_R);
    if (!pa)
        return K_EINVAL;
    mp_cbuffer_t *b = (mp_cbuffer_t *)send_buffer;
    if (!ready) {
        mp_cbuffer_init(b, SB_N, SB_M, 0);
        ready = 1;
    }
    /* the previous send must have finished: the slot is the kernel's only one */
    for (uint32_t i = 0; (SLOT(NAMP_SLOT_FLAGS) & NAMP_FLAG_VALID) && i < 1000000u; ++i)
        ;
    if (SLOT(NAMP_SLOT_FLAGS) & NAMP_FLAG_VALID)
        return K_EAGAIN;
    SLOT(NAMP_SLOT_FLAGS) = 0;   /* acknowledge a DONE left by the last one */
    uint32_t idx;
    if (mp_cbuffer_reserve(b, &idx) != 0)
        return K_EAGAIN;
    memcpy(mp_cbuffer_data(b, idx), (const void *)pa, size);
    mp_cbuffer_commit(b, idx, size);
    SLOT(NAMP_SLOT_PARAM1) = task->et[vid][0];
    SLOT(NAMP_SLOT_PARAM2) = (uint32_t)b;
    SLOT(NAMP_SLOT_PARAM3) = idx;
    SLOT(NAMP_SLOT_FLAGS) = NAMP_FLAG_BUF | NAMP_FLAG_VALID;
    return (SLOT(NAMP_SLOT_STATUS) & NAMP_STATUS_ERROR) ? K_EINVAL : K_OK;
}
