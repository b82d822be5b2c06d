/* A trap that cannot be delivered: mtvec points to unmapped memory, then an ecall traps.
 * The handler fetch faults, and that fault would go to the same unreachable handler again.
 * Expected: prints "breaking mtvec", the VP reports a lockup and exits with 126. */
#include <stdio.h>

#include "hal/csr.h"

int main(void)
{
    printf("breaking mtvec\n");
    csr_write(mtvec, 0x30000000u);
    __asm__ volatile("ecall");
    printf("unreachable\n");
    return 1;
}
