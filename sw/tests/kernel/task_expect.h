/* The misuse steps of the task halves of the kernel tests (sv_mcapi_task.c, sv_cc_task.c): a task
 * cannot print, so each step records where it is and, if the status is not the wanted one, which
 * step failed with what; the kernel reads the task's words and reports. d: the task's control
 * words with step, bad_code, bad_status and misuse_fail. */
#ifndef TASK_EXPECT_H
#define TASK_EXPECT_H

#include <stdint.h>

#define EXPECT(d, code, st, want)             \
    do {                                      \
        (d)->step = (code);                   \
        if ((st) != (want)) {                 \
            (d)->bad_code = (code);           \
            (d)->bad_status = (uint32_t)(st); \
            (d)->misuse_fail++;               \
        }                                     \
    } while (0)

#endif
