/* The software-emulation baseline of NAMP-SV (thesis 3.4.1, Fig. 3.30): a task sends a message
 * by a system call; the kernel checks the user buffer, looks the destination up in the task's
 * endpoint table, copies the message into its own send buffer and starts a physical NAMP slot
 * (K_SEND_SLOT) on the task's behalf. The benchmark compares it with sending through the vif. */

#include "kinternal.h"
#include "mp/cbuffer.h"
#include "mp/copy.h"
#include "namp/namp.h"
#include "namp/namp_regs.h"
#include "namp_structs.h"

#define K_SEND_SLOT 0u
#define SB_N        2u /* 4 elements */
#define SB_M        9u /* of 512 bytes */

/* A send still under way after this long is aborted at the next call: a receiver that never
 * drains must not keep the kernel's slot from every other task (docs/security.md "CPU time"). */
#define K_SEND_ABORT_TICKS 20u

static uint8_t send_buffer[MP_CB_HEADER_SIZE + (4u << SB_N) + (1u << (SB_N + SB_M))]
    __attribute__((aligned(8)));
static int ready;
static uint64_t started; /* mtime of the send under way */

/* The NAMP driver (when the firmware has it): the slot is taken from the MCAPI library's hands
 * for the transfer and given back by the driver once the NAMP is done with it (an implicitly
 * completing slot), so a task's send never runs over a kernel thread's transfer in the same slot
 * (docs/security.md). */
#pragma weak namp_slot_claim
#pragma weak namp_slot_implicit_for
#pragma weak namp_slot_free

int32_t k_sys_namp_send(k_thread_t *cur, trap_frame_t *fr)
{
    const uint32_t vid = fr->regs[REG_A0], va = fr->regs[REG_A1], size = fr->regs[REG_A2];
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
    /* the slot must be free (the previous send finished, the library not using it): no waiting
     * here, with the kernel lock held, on a task's behalf; the caller tries again */
    const uint32_t f = namp_reg_slot_flags(K_SEND_SLOT);
    const int claimed = namp_slot_claim ? namp_slot_claim(K_SEND_SLOT)
                                        : !(f & NAMP_FLAG_VALID) || (f & NAMP_FLAG_DONE);
    if (!claimed) { /* a send of ours under way too long (its PARAM2 is our buffer): aborted */
        if ((f & NAMP_FLAG_VALID) && !(f & NAMP_FLAG_DONE) &&
            namp_reg_slot_param2(K_SEND_SLOT) == (uint32_t)b &&
            timer_now() - started > (uint64_t)K_SEND_ABORT_TICKS * k_cfg.tick_ticks)
            namp_reg_slot_abort(K_SEND_SLOT, 0);
        return K_EAGAIN;
    }
    uint32_t idx;
    if (mp_cbuffer_reserve(b, &idx) != 0) {
        if (namp_slot_free)
            namp_slot_free(K_SEND_SLOT);
        return K_EAGAIN;
    }
    namp_reg_slot_set_flags(K_SEND_SLOT, 0); /* acknowledge a DONE (or failure) left before */
    started = timer_now();
    mp_copy(mp_cbuffer_data(b, idx), (const void *)pa, size);
    mp_cbuffer_commit(b, idx, size);
    namp_reg_slot_start(K_SEND_SLOT, NAMP_FLAG_BUF, task->et[vid][0], (uint32_t)b, idx);
    if (namp_slot_implicit_for)
        namp_slot_implicit_for(K_SEND_SLOT, (uintptr_t)send_buffer);
    return (namp_reg_slot_status(K_SEND_SLOT) & NAMP_STATUS_ERROR) ? K_EINVAL : K_OK;
}
