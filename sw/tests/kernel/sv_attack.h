/* Shared by the two halves of the NAMP-SV isolation tests (sv_attack_test.c: the kernel harness
 * and tile 1; sv_attack_task.c: the tasks). The tasks get their endpoints through the ordinary
 * MCAPI requests; the harness hands them the physical addresses an attacker would derive from the
 * ELF and the page allocator's order. docs/kernel.md "SV isolation". */
#ifndef SV_ATTACK_H
#define SV_ATTACK_H

#include <stdint.h>

#include "mp/task.h"

#define SVA_PEER_PORT     7           /* tile 1: the kernel's receiving endpoint */
#define SVA_VICTIM_PORT   30          /* tile 0: the victim task's endpoint */
#define SVA_ATTACKER_PORT 31          /* tile 0: the attacker's own endpoint (it sends to itself) */
#define SVA_AFTER_PORT    32          /* tile 0: the task that takes the attacker's slot after it */
#define SVA_SECRET_WORDS  256         /* secrets: kernel (both tiles) and the victim's page */
#define SVA_SECRET_TAG    0x5EC10000u /* high half of every secret word: nothing else has it */
#define SVA_SECRET(i)     (SVA_SECRET_TAG | ((i)&0xFFFFu))
#define SVA_IS_SECRET(w)  (((w)&0xFFFF0000u) == SVA_SECRET_TAG)
#define SVA_VICTIM_MSGS   40 /* checksummed messages the victim sends to tile 1 */
#define SVA_AFTER_MSGS    20
#define SVA_MSG_WORDS     16 /* 64-byte messages: [sender][seq][14 words of its pattern] */
#define SVA_ID_VICTIM     0x11u
#define SVA_ID_AFTER      0x22u
#define SVA_ID_DONE       0x77u /* tile 0 tells tile 1 the run is over */

/* Roles (the task's entry dispatches on it). */
enum sva_role {
    SVA_ATTACKER = 1, /* the named breaches (B1..B9) and the status holds */
    SVA_ADVERSARY,    /* randomized: thousands of random starts and header words */
    SVA_VICTIM,       /* sends checksummed messages, keeps a secret */
    SVA_CCM_EXIT,     /* B8: a CCM slot on an empty send buffer, then exit */
    SVA_AFTER,        /* the next owner of that slot: sends SVA_AFTER_MSGS */
    SVA_SPIN,         /* burns its time slices */
    SVA_FLOOD,        /* starts refused transfers as fast as it can */
    SVA_PROBE,        /* one forbidden access (param: which); killed */
};

/* Probes: each one access a task must not make (the task is killed). */
enum sva_probe {
    PROBE_LOAD_KERNEL,
    PROBE_STORE_KERNEL,
    PROBE_DEVICE,
    PROBE_SLOT_PAGE,
    PROBE_VIF_CONFIG,
    PROBE_FOREIGN_VIF,
    PROBE_KERNEL_CALL,
    PROBE_COUNT
};

/* Attacker cases: result[] holds the STATUS code (or system call result) each one observed. */
enum sva_case {
    B1_DATA_AT_KERNEL,
    B2_DATA_AT_VICTIM,
    B3_SIZE_AT_KERNEL,
    B4_RX_DATA_AT_KERNEL,
    B5_RX_DATA_AT_VICTIM,
    B6_COM_OWN_HANDLE,
    B6_REVOKE_OWN_HANDLE,
    B7_COM_REMOTE_KERNEL,
    B9_WRITE_VIF_PAGE,
    B9_SEND_VIF_PAGE,
    H_BAD_VID,
    H_BUF0,
    H_CC_FLAG,
    H_RESERVED_FLAG,
    H_WRONG_KIND,
    H_TOO_LARGE,
    H_WRITE_KERNEL_PTR,
    H_SEND_BAD_VID,
    H_SEND_KERNEL_PTR,
    H_REQ_BAD_OP,
    H_REQ_FOREIGN_KID,
    H_OSQM_BAD_SLOT,
    H_SELF_SEND_OK,
    SVA_CASES
};

/* In the second half of the library's control page (mp_task_state_t at K_USER_DATA), so that a
 * task without MCAPI needs one data page only. */
struct sva_task {
    /* set by the harness before the task runs */
    uint32_t role, param;
    uint32_t tx_pa, rx_pa;  /* its own send buffer and receive buffer 0, physical */
    uint32_t kernel_secret; /* tile 0 kernel data */
    uint32_t kernel_word;   /* a kernel word with bit 31 set (B3) */
    uint32_t victim_secret; /* the victim's secret words, physical */
    uint32_t victim_vif;    /* the victim's vif page (a foreign page) */
    uint32_t own_slot;      /* the task's vif slot */
    uint32_t iterations, seed;
    /* results */
    volatile uint32_t mark, go, done;
    uint32_t result[SVA_CASES];
    uint32_t sent, send_fail, received, secrets_seen, secrets_breached;
    uint32_t iters, completed, refused, window_refusals, stuck;
    uint32_t last_bad;
    uint32_t codes[64];           /* adversary: refusals per STATUS code */
    uint32_t area_vid, cc_starts; /* adversary: its collective area, collectives started */
    /* the victim's secret (only the victim's copy is filled) */
    uint32_t secret[SVA_SECRET_WORDS];
};

#define SVA_CTL_OFFSET  2048u
#define SVA_MCAPI_BYTES ((uint32_t)sizeof(mp_task_state_t)) /* data region of an MCAPI task */
#define SVA_PLAIN_BYTES MP_TASK_PAGE                        /* of the others */
_Static_assert(sizeof(struct mp_task_ctrl) <= SVA_CTL_OFFSET, "library control words");
_Static_assert(sizeof(struct sva_task) <= MP_TASK_PAGE - SVA_CTL_OFFSET, "test control words");

void sva_task_main(void *arg);

#endif
