/* picolibc stdout and exit for QEMU's virt machine: the NS16550A UART at 0x10000000 (byte-wide
 * registers) and the SiFive test device at 0x100000 (0x5555 = pass, (code << 16) | 0x3333 = fail:
 * QEMU exits with that code). */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#define UART_BASE     0x10000000u
#define UART_THR      0u
#define UART_LSR      5u
#define UART_LSR_THRE 0x20u
#define SIFIVE_TEST   0x00100000u

static int uart_put(char c, FILE *file)
{
    (void)file;
    volatile uint8_t *uart = (volatile uint8_t *)UART_BASE;
    while (!(uart[UART_LSR] & UART_LSR_THRE))
        ;
    uart[UART_THR] = (uint8_t)c;
    return (unsigned char)c;
}

static FILE uart_stream = FDEV_SETUP_STREAM(uart_put, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdin = &uart_stream;
FILE *const stdout = &uart_stream;
FILE *const stderr = &uart_stream;

void _exit(int code)
{
    volatile uint32_t *test = (volatile uint32_t *)SIFIVE_TEST;
    *test = code == 0 ? 0x5555u : ((uint32_t)code << 16) | 0x3333u;
    for (;;)
        __asm__ volatile("wfi");
}
