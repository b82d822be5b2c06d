/* Unhandled load access fault: 0x30000000 is not mapped in a tile, the bus answers with an error.
 * No handler is registered, so the HAL's default handler prints
 *   FATAL TRAP: cause=5 (load access fault) mepc=0x... mtval=0x30000000
 * and the core exits with 128 + 5 = 133. */
#include <stdint.h>
#include <stdio.h>

#define UNMAPPED_ADDR 0x30000000u

int main(void)
{
    printf("loading from 0x%08x\n", (unsigned)UNMAPPED_ADDR);
    uint32_t value = *(volatile uint32_t *)UNMAPPED_ADDR;
    printf("ERROR: load returned 0x%08lx instead of trapping\n", (unsigned long)value);
    return 1;
}
