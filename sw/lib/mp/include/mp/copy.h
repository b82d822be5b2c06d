/* The firmware libraries' one payload copy (message slots, MPI buffers, socket rings, collective
 * staging): word-wise, also when source and destination disagree modulo 4. picolibc's memcpy is
 * built for size on this target and copies byte by byte (about 10 cycles a byte). */
#ifndef MP_COPY_H
#define MP_COPY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Copies n bytes; the areas must not overlap. n == 0 touches neither pointer (either may be
 * NULL). No load leaves an aligned word that holds a byte of the source. */
void mp_copy(void *dst, const void *src, uint32_t n);

#ifdef __cplusplus
}
#endif

#endif
