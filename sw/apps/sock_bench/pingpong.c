/* Seed 003's Table 1 on namp-vp (docs/sockets.md): one server (tile 0), the measured client
 * (tile 1) and extra clients (tiles 2..) holding the other connections to the same server; the
 * measured pair runs a ping-pong while the others stay connected.
 *
 *   --args "N SPACE MIN MSG ITERS"   N connections at the server in all (the measured one + N-1
 *                                    spread over the extra tiles), receive space and smallest
 *                                    chunk of every tile, message bytes, timed round trips
 *
 * The measured client prints "pingpong n=.. space=.. min=.. msg=.. server_chunk=.. client_chunk=..
 * smallest=.. cycles_per_rt=.. bytes_per_kcycle=.."; scripts/sock-bench turns it into MB/s. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "hal/hal.h"
#include "sock/sock.h"

#define PORT 5000

static void fail(const char *what)
{
    printf("sock_bench FAIL tile %lu: %s (errno %d)\n", (unsigned long)tile_id(), what, errno);
    exit(1);
}

static int connect_to(uint32_t tile)
{
    struct sockaddr_tile a = {.st_family = AF_TILE, .st_port = PORT, .st_tile = tile};
    for (int tries = 0; tries < 100000; ++tries) {
        int c = socket(AF_TILE, SOCK_STREAM, 0);
        if (c < 0)
            fail("socket");
        if (connect(c, (struct sockaddr *)&a, sizeof a) == 0)
            return c;
        if (errno != ECONNREFUSED) /* not listening yet, or the backlog is full: again */
            fail("connect");
        close(c);
        timer_delay_us(50);
    }
    fail("connect: refused for good");
    return -1;
}

static void xfer(int fd, void *buf, uint32_t n, int out)
{
    ssize_t r = out ? send(fd, buf, n, 0) : recv(fd, buf, n, MSG_WAITALL);
    if (r != (ssize_t)n)
        fail(out ? "send" : "recv");
}

int main(int argc, char **argv)
{
    if (tile_core_id() != 0)
        return 0;
    if (argc < 6) {
        printf("sock_bench FAIL: args N SPACE MIN MSG ITERS\n");
        return 1;
    }
    uint32_t n = (uint32_t)atoi(argv[1]), space = (uint32_t)atoi(argv[2]),
             min = (uint32_t)atoi(argv[3]);
    uint32_t msg = (uint32_t)atoi(argv[4]), iters = (uint32_t)atoi(argv[5]);
    uint32_t me = tile_id(), tiles = tile_mesh_width() * tile_mesh_height();
    uint32_t extra_tiles = tiles - 2;
    if (me >= 2 + extra_tiles || (n > 1 && extra_tiles == 0))
        return 0;
    sockx_config_t cfg = {.space = space, .min_chunk = min, .max_sockets = me == 0 ? n + 8 : 64};
    if (sockx_init(&cfg))
        fail("sockx_init");
    uint8_t *buf = malloc(msg);
    if (!buf)
        fail("malloc");
    for (uint32_t i = 0; i < msg; ++i)
        buf[i] = (uint8_t)(i * 13u);

    if (me == 0) {
        int l = socket(AF_TILE, SOCK_STREAM, 0);
        struct sockaddr_tile a = {.st_family = AF_TILE, .st_port = PORT, .st_tile = 0};
        if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof a) || listen(l, SOMAXCONN))
            fail("listen");
        int *fds = malloc(n * sizeof *fds), measured = -1;
        for (uint32_t k = 0; k < n; ++k) {
            struct sockaddr_tile from;
            socklen_t fl = sizeof from;
            fds[k] = accept(l, (struct sockaddr *)&from, &fl);
            if (fds[k] < 0)
                fail("accept");
            if (from.st_tile == 1)
                measured = fds[k];
        }
        xfer(measured, buf, 1, 1);                 /* go: everyone is connected */
        for (uint32_t r = 0; r < iters + 1; ++r) { /* echo; one warm-up round trip */
            xfer(measured, buf, msg, 0);
            xfer(measured, buf, msg, 1);
        }
        const sockx_stats_t *st = sockx_stats();
        printf("pingpong server: n=%lu chunk=%lu splits=%lu shrinks=%lu spills=%lu win_tx=%lu\n",
               (unsigned long)n, (unsigned long)sockx_chunk(measured), (unsigned long)st->splits,
               (unsigned long)st->shrinks, (unsigned long)st->spills, (unsigned long)st->win_tx);
        char b;
        if (recv(measured, &b, 1, 0) != 0) /* the client closes first */
            fail("end");
        for (uint32_t k = 0; k < n; ++k)
            close(fds[k]);
        close(l);
        return 0;
    }
    if (me == 1) {
        int c = connect_to(0);
        xfer(c, buf, 1, 0);
        xfer(c, buf, msg, 1); /* warm-up */
        xfer(c, buf, msg, 0);
        uint32_t server_chunk = sockx_peer_chunk(c), client_chunk = sockx_chunk(c);
        uint64_t t0 = cpu_cycles();
        for (uint32_t r = 0; r < iters; ++r) {
            xfer(c, buf, msg, 1);
            xfer(c, buf, msg, 0);
        }
        uint64_t cyc = (cpu_cycles() - t0) / iters;
        for (uint32_t i = 0; i < msg; ++i)
            if (buf[i] != (uint8_t)(i * 13u))
                fail("echo corrupted");
        /* one-way data rate of the ping-pong: msg bytes per half round trip */
        uint64_t per_kcycle = (uint64_t)msg * 2000u / (cyc ? cyc : 1u);
        printf("pingpong n=%lu space=%lu min=%lu msg=%lu server_chunk=%lu client_chunk=%lu "
               "cycles_per_rt=%lu bytes_per_kcycle=%lu\n",
               (unsigned long)n, (unsigned long)space, (unsigned long)min, (unsigned long)msg,
               (unsigned long)server_chunk, (unsigned long)client_chunk, (unsigned long)cyc,
               (unsigned long)per_kcycle);
        close(c);
        return 0;
    }
    /* extra clients: their share of the other n - 1 connections, held until the server closes */
    uint32_t idx = me - 2, share = (n - 1) / extra_tiles + (idx < (n - 1) % extra_tiles ? 1u : 0u);
    if (share == 0)
        return 0;
    int *fds = malloc(share * sizeof *fds);
    for (uint32_t k = 0; k < share; ++k)
        fds[k] = connect_to(0);
    char b;
    if (recv(fds[0], &b, 1, 0) != 0)
        fail("extra: expected the end");
    for (uint32_t k = 0; k < share; ++k)
        close(fds[k]);
    return 0;
}
