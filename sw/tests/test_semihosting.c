/* RISC-V semihosting (docs/semihosting.md), run by tests/e2e/semihosting_test.py with
 * semihosting.root pointing at a directory it prepared (in.txt, subdir/, out_link -> a file
 * outside) and --args "alpha beta". Core 0 of tile 0 reads and writes host files, tries every way
 * out of the directory, uses the console, the clocks and the command line, and ends with
 * SYS_EXIT_EXTENDED (its exit code: the number of failed checks). Other cores exit 0. Without
 * semihosting.enabled the first call is a breakpoint exception (exit 131). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hal/hal.h"

enum {
    SYS_OPEN = 0x01,
    SYS_CLOSE = 0x02,
    SYS_WRITE0 = 0x04,
    SYS_WRITE = 0x05,
    SYS_READ = 0x06,
    SYS_ISTTY = 0x09,
    SYS_SEEK = 0x0a,
    SYS_FLEN = 0x0c,
    SYS_REMOVE = 0x0e,
    SYS_RENAME = 0x0f,
    SYS_CLOCK = 0x10,
    SYS_TIME = 0x11,
    SYS_ERRNO = 0x13,
    SYS_GET_CMDLINE = 0x15,
    SYS_EXIT_EXTENDED = 0x20,
    SYS_SYSTEM = 0x12,
};
enum { EXDEV_ = 18, ENOENT_ = 2, ENOSYS_ = 38 };

/* The call sequence: three 32-bit instructions, aligned so they never straddle a page. */
__attribute__((naked, noinline, aligned(16))) static long semihost(long op, void *arg)
{
    __asm__ volatile(".option push\n.option norvc\n"
                     "slli x0, x0, 0x1f\nebreak\nsrai x0, x0, 7\n"
                     ".option pop\nret\n");
}

static unsigned checks, failures;

static void check(int ok, const char *what)
{
    checks++;
    if (!ok) {
        failures++;
        printf("FAIL: %s\n", what);
    }
}

static long sh_open(const char *name, long mode)
{
    uint32_t block[3] = {(uint32_t)name, (uint32_t)mode, (uint32_t)strlen(name)};
    return semihost(SYS_OPEN, block);
}

static long sh_rw(long op, long h, void *buf, uint32_t len)
{
    uint32_t block[3] = {(uint32_t)h, (uint32_t)buf, len};
    return semihost(op, block);
}

static long sh_1(long op, long v)
{
    uint32_t block[1] = {(uint32_t)v};
    return semihost(op, block);
}

static long sh_rename(const char *a, const char *b)
{
    uint32_t block[4] = {(uint32_t)a, strlen(a), (uint32_t)b, strlen(b)};
    return semihost(SYS_RENAME, block);
}

static long sh_remove(const char *name)
{
    uint32_t block[2] = {(uint32_t)name, strlen(name)};
    return semihost(SYS_REMOVE, block);
}

static void escape(const char *name, long mode)
{
    long h = sh_open(name, mode);
    check(h == -1 && semihost(SYS_ERRNO, 0) == EXDEV_, name);
}

int main(void)
{
    if (tile_id() != 0 || tile_core_id() != 0)
        return 0;
    char buf[64];
    long h = sh_open("in.txt", 0);
    check(h > 0, "open in.txt");
    check(sh_1(SYS_FLEN, h) == 20, "flen in.txt");
    check(sh_1(SYS_ISTTY, h) == 0, "a file is no tty");
    check(sh_rw(SYS_READ, h, buf, 5) == 0 && memcmp(buf, "hello", 5) == 0, "read 5 bytes");
    uint32_t seek[2] = {(uint32_t)h, 6};
    check(semihost(SYS_SEEK, seek) == 0, "seek");
    memset(buf, 0, sizeof buf);
    check(sh_rw(SYS_READ, h, buf, 40) == 40 - 14 && strcmp(buf, "from the host\n") == 0,
          "read to the end: the bytes not read come back");
    check(sh_1(SYS_CLOSE, h) == 0, "close");
    check(sh_1(SYS_CLOSE, h) == -1, "close twice");

    h = sh_open("out.txt", 4);
    check(h > 0 && sh_rw(SYS_WRITE, h, "written by firmware\n", 20) == 0, "write out.txt");
    sh_1(SYS_CLOSE, h);
    h = sh_open("out.txt", 8);
    check(h > 0 && sh_rw(SYS_WRITE, h, "appended\n", 9) == 0, "append to out.txt");
    sh_1(SYS_CLOSE, h);
    check(sh_rename("out.txt", "subdir/moved.txt") == 0, "rename into subdir");

    escape("../secret.txt", 0);
    escape("subdir/../../secret.txt", 0);
    escape("/etc/hostname", 0);
    escape("out_link", 0);
    escape("out_link", 4);
    escape("../new.txt", 4);
    check(sh_rename("subdir/moved.txt", "../escaped.txt") == -1 && semihost(SYS_ERRNO, 0) == EXDEV_,
          "rename out of the root");
    check(sh_remove("../secret.txt") == -1, "remove out of the root");
    check(sh_open("missing.txt", 0) == -1 && semihost(SYS_ERRNO, 0) == ENOENT_, "a missing file");
    check(semihost(SYS_SYSTEM, 0) == -1 && semihost(SYS_ERRNO, 0) == ENOSYS_, "no host commands");

    long tt = sh_open(":tt", 4);
    check(tt > 0 && sh_1(SYS_ISTTY, tt) == 1, ":tt is a tty");
    check(sh_rw(SYS_WRITE, tt, "semihosting console line\n", 25) == 0, "write to :tt");
    semihost(SYS_WRITE0, "write0 line\n");

    long c0 = semihost(SYS_CLOCK, 0);
    for (volatile uint32_t i = 0; i < 200000u; i++)
        ;
    long c1 = semihost(SYS_CLOCK, 0);
    check(c0 >= 0 && c1 > c0, "the clock moves with simulated time");
    check(semihost(SYS_TIME, 0) == 1700000000, "time: the epoch plus simulated seconds");

    uint32_t cmd[2] = {(uint32_t)buf, sizeof buf};
    check(semihost(SYS_GET_CMDLINE, cmd) == 0 &&
              strstr(buf, "test_semihosting.elf alpha beta") != NULL && cmd[1] == strlen(buf),
          "the command line");
    uint32_t small[2] = {(uint32_t)buf, 4};
    check(semihost(SYS_GET_CMDLINE, small) == -1, "a command line buffer too small");

    printf("semihosting %s: %u checks, %u failed\n", failures ? "FAILED" : "ok", checks, failures);
    uint32_t exit_block[2] = {0x20026, failures};
    semihost(SYS_EXIT_EXTENDED, exit_block);
    return 99; /* not reached: the core ended in the call */
}
