/* Console output. Each core writes bytes to its own line buffer in the platform, which prints
 * complete lines prefixed with tile and core, so cores never need to lock the console.
 * printf/puts/fputs(stderr) go through the same path (runtime/stdio_console.c). */
#ifndef HAL_CONSOLE_H
#define HAL_CONSOLE_H

#include <stddef.h>
#include <stdint.h>

void console_putc(char c);
/* Writes s without adding a newline (unlike stdio's puts). */
void console_puts(const char *s);
void console_write(const void *buf, size_t len);
/* Formatting without stdio, safe in trap handlers: "0x%08x" and "%u". */
void console_put_hex32(uint32_t value);
void console_put_udec(uint32_t value);

#endif
