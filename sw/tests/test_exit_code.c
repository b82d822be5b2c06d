/* Exit-code propagation: main returns 42, crt0 passes it to exit(), which writes SIMCTRL_EXIT.
 * Expected: prints "exiting with 42", the VP exits with code 42.
 *
 * It first waits 1 ms of simulated time: the e2e tests also load it on one tile beside other
 * firmware (per-tile firmware), and the VP stops the whole run at the first non-zero exit
 * (stop_on_failure); the wait lets the other tiles print their first lines before that. */
#include <stdio.h>

#include "hal/timer.h"

int main(void)
{
    timer_delay_us(1000);
    printf("exiting with 42\n");
    return 42;
}
