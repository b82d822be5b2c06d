/* Binds picolibc's tinystdio stdin/stdout/stderr to the tile console.
 * In the runtime object library (always linked) rather than the HAL archive: libc is searched
 * after the HAL, so a HAL archive member would not be pulled in for libc's reference to stdout. */
#include <stdio.h>

#include "hal/console.h"

static int console_put(char c, FILE *file)
{
    (void)file;
    console_putc(c);
    return (unsigned char)c;
}

static int console_get(FILE *file)
{
    (void)file;
    return _FDEV_EOF; /* the console has no input */
}

static FILE console_stream = FDEV_SETUP_STREAM(console_put, console_get, NULL, _FDEV_SETUP_RW);

FILE *const stdin = &console_stream;
FILE *const stdout = &console_stream;
FILE *const stderr = &console_stream;
