/* A firmware that can never continue: it sleeps in wfi with every interrupt source disabled.
 * Expected: prints "sleeping forever", the VP detects that nothing can wake the core and exits
 * with 125 (hang), naming the core and its pc. */
#include <stdio.h>

#include "hal/csr.h"
#include "hal/irq.h"

int main(void)
{
    printf("sleeping forever\n");
    irq_global_disable();
    csr_write(mie, 0);
    for (;;)
        wait_for_interrupt();
}
