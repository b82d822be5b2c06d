/* The randomized adversaries of the isolation model (docs/security.md, issue 32), one firmware per
 * class (SEC_CLASS), preset svfull or svbase on a 2x2 mesh. sec_test.c is the kernels' side,
 * sec_task.c the tasks'. Every class runs beside checksummed victims:
 *   V0 (a task on tile 0, the attacker's own tile) and V1 (a task on tile 1) each receive a stream
 *   of messages and of channel packets from tile 3's kernel and send a stream to it; tile 3 checks
 *   every word. Tile 3's kernel also keeps a collective round running where the class needs it.
 * The verdict of every class: 0 foreign words read by an attacker (the secret tag of every tile's
 * kernel data and free pages, or a victim's payload tag, anywhere in an attacker's pages), 0 words
 * changed outside the attackers' pages (the kernels' secrets, the victims' secrets, the free
 * pages), every honest transfer delivered once and intact, every honest task scheduled (its
 * heartbeat moves between every two looks), every table of every tile back to its starting count. */
#ifndef SEC_H
#define SEC_H

#include <stdint.h>

#include "mp/task.h"

enum sec_class {
    SEC_HEADERS = 1, /* header words, indices and sizes written while the task is migrated */
    SEC_DROP,        /* objects made and dropped at random while the task is migrated */
    SEC_CLAIMS,      /* random request arguments, descriptors, members, vIDs, ksends */
    SEC_IDENTITY,    /* endpoints of killed tasks, their memory taken again */
    SEC_COLLECTIVE,  /* contributions under honest reductions' ids, parts of honest gathers */
    SEC_QUOTA,       /* colluding tasks on two tiles exhausting every shared table */
    /* SEC_HEADERS with its channel only, moved by software PS (which refuses
     * connection-less endpoints): runs without NAMP-PS too */
    SEC_HEADERS_SW,
};

#define SEC_TAG              0x5EC20000u /* high half of every secret word (kernels, free pages) */
#define SEC_VTAG             0x71C70000u /* high half of every victim payload word */
#define SEC_IS_FOREIGN(w)    ((((w)&0xFFFF0000u) == SEC_TAG) || (((w)&0xFFFF0000u) == SEC_VTAG))
#define SEC_FREE_PATTERN     (SEC_TAG | 0xF4EEu)
#define SEC_SECRET_WORDS     256
#define SEC_MSGS             64 /* per victim and direction */
#define SEC_MSG_WORDS        16 /* [victim][seq][14 payload words] */
#define SEC_PORT_VIC         20 /* victim v: messages in at 20 + v, packets at 22 + v */
#define SEC_PORT_VIC_CH      22
#define SEC_PORT_SINK        24 /* tile 3: the sink of victim v at 24 + v */
#define SEC_PORT_FEED        26 /* tile 3: the feeders' sending endpoints 26 + v, channel 30 + v */
#define SEC_PORT_FEED_CH     30
#define SEC_PORT_ATT         40 /* attackers' endpoints from 40 on */
#define SEC_PORT_ROOT_RED    60 /* tile 1: a reduction root; tile 2: a gather root */
#define SEC_PORT_ROOT_GATHER 61
#define SEC_PORT_MEMBER      62 /* V0's and tile 3's contributing endpoints */
#define SEC_PORT_RECV        80 /* identity: receiver instance k at 80 + k */
#define SEC_RECEIVERS        24
#define SEC_ROUNDS           12 /* collective rounds */
#define SEC_RED_WORDS        16

static inline uint32_t sec_word(uint32_t victim, uint32_t seq, uint32_t i)
{
    return SEC_VTAG | ((victim * 0x3Bu + seq * 0x61u + i * 0x17u) & 0xFFFFu);
}
static inline int32_t sec_red(uint32_t who, uint32_t round, uint32_t i)
{
    return (int32_t)(who * 977u + round * 131u + i * 7u) - 500;
}

enum sec_role { SEC_VICTIM = 1, SEC_ATTACKER, SEC_RECEIVER };

/* After the library's state in the task's data region. */
#define SEC_CTL_OFFSET ((uint32_t)sizeof(mp_task_state_t))
struct sec_task {
    /* set by the kernel */
    uint32_t role, who, cls, seed, iterations, n_msgs;
    uint32_t peer_tile[4];      /* attacker: tiles whose ports it names */
    uint32_t member;            /* victim: contributes to the collective rounds (V0) */
    volatile uint32_t go, stop; /* go: start; stop: the kernel's end of the attack */
    /* results */
    volatile uint32_t heartbeat, done;
    uint32_t iters, refused, accepted, foreign, errors, bad, received, sent, rounds;
    uint32_t codes[8];                 /* attacker: what happened, by kind (class-specific) */
    uint32_t secret[SEC_SECRET_WORDS]; /* a victim's secret: checked by the kernel at the end */
};
#define SEC_DATA_BYTES (SEC_CTL_OFFSET + 4096u)
_Static_assert(sizeof(struct sec_task) <= 4096u, "control words");

void sec_task_main(void *arg);

#endif
