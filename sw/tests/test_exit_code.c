/* Exit-code propagation: main returns 42, crt0 passes it to exit(), which writes SIMCTRL_EXIT.
 * Expected: prints "exiting with 42", the VP exits with code 42. */
#include <stdio.h>

int main(void)
{
    printf("exiting with 42\n");
    return 42;
}
