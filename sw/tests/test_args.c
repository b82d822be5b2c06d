/* main(argc, argv) from the VP's --args (crt0.S): every core prints what it got. */
#include <stdio.h>
#include <string.h>

#include "hal/hal.h"

int main(int argc, char **argv)
{
    const char *base = argc > 0 && argv[0] ? strrchr(argv[0], '/') : NULL;
    printf("args tile %lu core %lu: argc=%d argv0=%s", (unsigned long)tile_id(),
           (unsigned long)tile_core_id(), argc, base ? base + 1 : (argc > 0 ? argv[0] : "(none)"));
    for (int i = 1; i < argc; ++i)
        printf(" [%s]", argv[i]);
    printf("%s\n", argv[argc] == NULL ? " end" : " argv[argc] is not NULL");
    return 0;
}
