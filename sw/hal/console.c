/* Console output through the tile's CONSOLE_TX register. */
#include "hal/console.h"

#include "hal/mmio.h"
#include "tile_memory_map.h"

void console_putc(char c)
{
    /* CONSOLE_STATUS is always ready on namp-vp: no polling needed. */
    mmio_write32(TILE_CONSOLE_BASE + CONSOLE_TX, (uint8_t)c);
}

void console_puts(const char *s)
{
    while (*s)
        console_putc(*s++);
}

void console_write(const void *buf, size_t len)
{
    const char *p = buf;
    while (len--)
        console_putc(*p++);
}

void console_put_hex32(uint32_t value)
{
    static const char digits[] = "0123456789abcdef";
    console_puts("0x");
    for (int shift = 28; shift >= 0; shift -= 4)
        console_putc(digits[(value >> shift) & 0xF]);
}

void console_put_udec(uint32_t value)
{
    char buf[10];
    int n = 0;
    do {
        buf[n++] = (char)('0' + value % 10);
        value /= 10;
    } while (value);
    while (n)
        console_putc(buf[--n]);
}
