/* Never terminates: the VP must stop it with its cycle limit (--max-cycles) and report the
 * watchdog. Expected: prints "spinning", then the VP's watchdog exit (code 124). */
#include <stdio.h>

int main(void)
{
    printf("spinning\n");
    for (;;)
        __asm__ volatile(""); /* keep the loop a real loop of instructions */
}
