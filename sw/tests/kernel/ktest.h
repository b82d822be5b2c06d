/* Checks for the kernel test firmwares: a failed check prints one FAIL line and counts; the
 * main thread ends with k_exit(ktest_failures != 0), which becomes the tile's exit code. The file
 * is named without its directory (__FILE_NAME__): the image is the same wherever the tree is
 * checked out and however it is built (a ccache build passes relative paths, a fresh one
 * absolute ones). */
#ifndef KTEST_H
#define KTEST_H

#include "kernel/kernel.h"

extern volatile unsigned ktest_failures;

#define CHECK(cond, ...)                                                  \
    do {                                                                  \
        if (!(cond)) {                                                    \
            ktest_failures++;                                             \
            k_printf("FAIL %s:%d: %s\n", __FILE_NAME__, __LINE__, #cond); \
        }                                                                 \
    } while (0)

#define CHECK_EQ(a, b)                                                                         \
    do {                                                                                       \
        long a_ = (long)(a), b_ = (long)(b);                                                   \
        if (a_ != b_) {                                                                        \
            ktest_failures++;                                                                  \
            k_printf("FAIL %s:%d: %s == %ld, expected %ld\n", __FILE_NAME__, __LINE__, #a, a_, \
                     b_);                                                                      \
        }                                                                                      \
    } while (0)

#endif
