/* Socket layer tests (docs/sockets.md), one scenario per run, chosen by argv[1] (--args):
 *   pairs    every tile connects to every other tile (4x4): a message there and its echo back
 *   stream   random-sized sends arrive intact and in order through partial recvs while new
 *            connections cut the stream's chunk; a peer that closes mid-stream fails the sender
 *   chunks   the peer is told its chunk: halved by each new connection, grown back on closes
 *   exhaust  connections to one server until its space is exhausted (ENOBUFS), again after closes
 *   poll     poll over several ready sockets, POLLHUP, non-blocking connect and accept
 *   misuse   bad descriptors, calls in the wrong state, NULL buffers, bad options: errors, no hang
 *   death    a peer that exits mid-stream (its sockets reset by the exit): errors, no hang
 * Every failed check prints "FAIL" and the run ends with exit code 1. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "hal/hal.h"
#include "sock/sock.h"

static uint32_t me, ntiles, checks;

#define CHECK(cond, ...)                                                              \
    do {                                                                              \
        checks++;                                                                     \
        if (!(cond)) {                                                                \
            printf("sock_test FAIL tile %lu line %d: ", (unsigned long)me, __LINE__); \
            printf(__VA_ARGS__);                                                      \
            printf(" (errno %d)\n", errno);                                           \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

static uint32_t rng = 1;
static uint32_t rnd(uint32_t n) /* 1..n */
{
    rng = rng * 1103515245u + 12345u;
    return 1u + (rng >> 8) % n;
}

static uint8_t pattern(uint32_t stream, uint32_t i)
{
    return (uint8_t)(i * 7u + (i >> 9) + stream * 31u);
}

static struct sockaddr_tile addr(uint32_t tile, uint16_t port)
{
    return (struct sockaddr_tile){.st_family = AF_TILE, .st_port = port, .st_tile = tile};
}

static int listener(uint16_t port, int backlog)
{
    int l = socket(AF_TILE, SOCK_STREAM, 0);
    struct sockaddr_tile a = addr(me, port);
    CHECK(l >= 0 && bind(l, (struct sockaddr *)&a, sizeof a) == 0 && listen(l, backlog) == 0,
          "listen on port %u", port);
    return l;
}

/* Connects, retrying while the server's listener is not up yet (ECONNREFUSED). */
static int connect_to(uint32_t tile, uint16_t port)
{
    for (int tries = 0; tries < 2000; ++tries) {
        int c = socket(AF_TILE, SOCK_STREAM, 0);
        CHECK(c >= 0, "socket");
        struct sockaddr_tile a = addr(tile, port);
        if (connect(c, (struct sockaddr *)&a, sizeof a) == 0)
            return c;
        int e = errno;
        close(c);
        CHECK(e == ECONNREFUSED, "connect to %lu:%u", (unsigned long)tile, port);
        timer_delay_us(20);
    }
    CHECK(0, "connect to %lu:%u: refused 2000 times", (unsigned long)tile, port);
    return -1;
}

static void send_all(int fd, const void *buf, size_t n)
{
    CHECK(send(fd, buf, n, 0) == (ssize_t)n, "send %u bytes", (unsigned)n);
}

static void recv_all(int fd, void *buf, size_t n)
{
    ssize_t got = recv(fd, buf, n, MSG_WAITALL);
    CHECK(got == (ssize_t)n, "recv %u bytes, got %d", (unsigned)n, (int)got);
}

/* ---------------------------------------------------------------- pairs */

struct hello {
    uint32_t from, to;
    uint8_t body[56];
};

static void t_pairs(void)
{
    enum { PORT = 7 };
    int l = listener(PORT, 15);
    int c[64];
    /* staggered order: tile t starts with t+1, so the servers see their clients interleaved */
    for (uint32_t k = 1; k < ntiles; ++k) {
        uint32_t d = (me + k) % ntiles;
        c[d] = connect_to(d, PORT);
        struct hello h = {.from = me, .to = d};
        for (uint32_t i = 0; i < sizeof h.body; ++i)
            h.body[i] = pattern(me * 64u + d, i);
        send_all(c[d], &h, sizeof h);
    }
    /* serve: accept every incoming connection and echo its message (poll over all of them) */
    struct pollfd p[64];
    int done[64];
    uint32_t n = 0, served = 0;
    p[n++] = (struct pollfd){.fd = l, .events = POLLIN};
    while (served < ntiles - 1) {
        int r = poll(p, n, -1);
        CHECK(r > 0, "poll");
        for (uint32_t i = 0; i < n; ++i) {
            if (!p[i].revents)
                continue;
            if (p[i].fd == l) {
                struct sockaddr_tile from;
                socklen_t fl = sizeof from;
                int a = accept(l, (struct sockaddr *)&from, &fl);
                CHECK(a >= 0 && fl == sizeof from && from.st_family == AF_TILE, "accept");
                p[n++] = (struct pollfd){.fd = a, .events = POLLIN};
                continue;
            }
            struct hello h;
            recv_all(p[i].fd, &h, sizeof h);
            struct sockaddr_tile peer;
            socklen_t pl = sizeof peer;
            CHECK(getpeername(p[i].fd, (struct sockaddr *)&peer, &pl) == 0 &&
                      peer.st_tile == h.from,
                  "peer %lu sent from %lu", (unsigned long)peer.st_tile, (unsigned long)h.from);
            CHECK(h.to == me, "message for %lu", (unsigned long)h.to);
            for (uint32_t b = 0; b < sizeof h.body; ++b)
                CHECK(h.body[b] == pattern(h.from * 64u + me, b), "body byte %lu",
                      (unsigned long)b);
            h.to = h.from;
            h.from = me;
            send_all(p[i].fd, &h, sizeof h);
            done[served++] = p[i].fd; /* closed at the end; poll ignores it from now on (with */
            p[i].fd = -1;             /* events 0 it would still report the peer's hang-up)   */
        }
    }
    for (uint32_t k = 1; k < ntiles; ++k) {
        uint32_t d = (me + k) % ntiles;
        struct hello h;
        recv_all(c[d], &h, sizeof h);
        CHECK(h.from == d && h.to == me, "echo from %lu", (unsigned long)d);
        for (uint32_t b = 0; b < sizeof h.body; ++b)
            CHECK(h.body[b] == pattern(me * 64u + d, b), "echo byte %lu", (unsigned long)b);
        CHECK(close(c[d]) == 0, "close");
    }
    for (uint32_t i = 0; i < served; ++i)
        CHECK(close(done[i]) == 0, "close accepted");
    CHECK(close(l) == 0, "close listener");
    printf("sock pairs ok: tile %lu, %lu peers each way, %lu checks\n", (unsigned long)me,
           (unsigned long)(ntiles - 1), (unsigned long)checks);
}

/* ---------------------------------------------------------------- stream */

#define STREAM_BYTES 49152u

static void t_stream(void)
{
    enum { P_STREAM = 9, P_EXTRA = 10, P_CLOSE = 11 };
    static uint8_t buf[4096];
    if (me == 0) {
        int l = listener(P_STREAM, 4), lx = listener(P_EXTRA, 8), lc = listener(P_CLOSE, 4);
        int a = accept(l, NULL, NULL);
        CHECK(a >= 0, "accept stream");
        uint32_t got = 0;
        rng = 77;
        for (;;) { /* partial reads of random size */
            ssize_t r = recv(a, buf, rnd(1500), 0);
            CHECK(r >= 0, "recv at %lu", (unsigned long)got);
            if (r == 0)
                break;
            for (ssize_t i = 0; i < r; ++i)
                CHECK(buf[i] == pattern(1, got + (uint32_t)i), "byte %lu",
                      (unsigned long)(got + i));
            got += (uint32_t)r;
        }
        CHECK(got == STREAM_BYTES, "stream of %lu bytes", (unsigned long)got);
        const sockx_stats_t *st = sockx_stats();
        /* the extra connections split the stream's chunk while it was full of data in flight */
        CHECK(st->splits >= 3 && st->shrinks >= 1 && st->compactions >= 1 && st->spills >= 1,
              "splits %lu shrinks %lu compactions %lu spills %lu", (unsigned long)st->splits,
              (unsigned long)st->shrinks, (unsigned long)st->compactions,
              (unsigned long)st->spills);
        CHECK(close(a) == 0, "close stream");
        for (int k = 0; k < 3; ++k) {
            int x = accept(lx, NULL, NULL);
            CHECK(x >= 0, "accept extra");
            recv_all(x, buf, 100);
            for (int i = 0; i < 100; ++i)
                CHECK(buf[i] == (uint8_t)(k + i), "extra byte");
            send_all(x, "k", 1);
            CHECK(recv(x, buf, 1, 0) == 0, "extra EOF");
            close(x);
        }
        /* a peer closing mid-stream: read a little of tile 3's endless stream, then close */
        int c = accept(lc, NULL, NULL);
        CHECK(c >= 0, "accept close");
        recv_all(c, buf, 3000);
        CHECK(close(c) == 0, "close mid-stream");
        close(l);
        close(lx);
        close(lc);
        printf("sock stream ok: %lu bytes in order, splits %lu shrinks %lu compactions %lu\n",
               (unsigned long)got, (unsigned long)st->splits, (unsigned long)st->shrinks,
               (unsigned long)st->compactions);
    } else if (me == 1) {
        int c = connect_to(0, P_STREAM);
        uint32_t sent = 0;
        rng = 99;
        while (sent < STREAM_BYTES) {
            uint32_t n = rnd(3000);
            if (n > STREAM_BYTES - sent)
                n = STREAM_BYTES - sent;
            for (uint32_t i = 0; i < n; ++i)
                buf[i] = pattern(1, sent + i);
            send_all(c, buf, n);
            sent += n;
        }
        CHECK(shutdown(c, SHUT_WR) == 0, "shutdown");
        CHECK(send(c, buf, 1, 0) == -1 && errno == EPIPE, "send after SHUT_WR");
        CHECK(recv(c, buf, 1, 0) == 0, "EOF after the server closed");
        close(c);
        printf("sock stream sender ok: %lu bytes\n", (unsigned long)sent);
    } else if (me == 2) {
        timer_delay_us(300); /* mid-stream */
        int x[3];
        for (int k = 0; k < 3; ++k)
            x[k] = connect_to(0, P_EXTRA);
        for (int k = 0; k < 3; ++k) {
            for (int i = 0; i < 100; ++i)
                buf[i] = (uint8_t)(k + i);
            send_all(x[k], buf, 100);
        }
        for (int k = 0; k < 3; ++k) {
            recv_all(x[k], buf, 1);
            close(x[k]);
        }
        printf("sock stream extra ok\n");
    } else if (me == 3) {
        int c = connect_to(0, P_CLOSE);
        memset(buf, 0x5A, sizeof buf);
        uint32_t sent = 0;
        for (;;) {
            ssize_t r = send(c, buf, rnd(2000), 0);
            if (r < 0)
                break;
            sent += (uint32_t)r;
            CHECK(sent < 10u * 1024u * 1024u, "the closed peer is never noticed");
        }
        int e = errno;
        CHECK(e == EPIPE || e == ECONNRESET, "send to a closed peer fails with %d", e);
        CHECK(send(c, buf, 10, 0) == -1 && errno == EPIPE, "then EPIPE");
        close(c);
        printf("sock stream close ok: send failed with %s after %lu bytes\n",
               e == EPIPE ? "EPIPE" : "ECONNRESET", (unsigned long)sent);
    }
}

/* ---------------------------------------------------------------- chunks */

static void t_chunks(void)
{
    enum { PORT = 20 };
    const uint32_t space = 4096;
    if (me == 0) {
        sockx_config_t cfg = {.space = space, .min_chunk = 256, .max_sockets = 32};
        CHECK(sockx_init(&cfg) == 0, "sockx_init");
        CHECK(sockx_init(&cfg) == -1 && errno == EBUSY, "sockx_init twice");
        int l = listener(PORT, 8);
        int a[4];
        for (int k = 0; k < 4; ++k) {
            a[k] = accept(l, NULL, NULL);
            CHECK(a[k] >= 0, "accept");
        }
        char b;
        recv_all(a[0], &b, 1); /* the client has seen the shrinks: close three */
        for (int k = 1; k < 4; ++k) {
            CHECK(recv(a[k], &b, 1, 0) == 0, "EOF %d", k);
            close(a[k]);
        }
        CHECK(sockx_chunk(a[0]) == space, "grown back to %lu", (unsigned long)sockx_chunk(a[0]));
        CHECK(sockx_stats()->grows >= 2, "grows");
        send_all(a[0], "g", 1); /* the larger chunk rides along (piggy-backed) */
        recv_all(a[0], &b, 1);
        close(a[0]);
        close(l);
        printf("sock chunks server ok\n");
    } else if (me == 1) {
        /* the server's chunk for the first connection, as the client is told it */
        static const uint32_t expect[4] = {4096, 2048, 1024, 1024};
        int c[4];
        for (int k = 0; k < 4; ++k) {
            c[k] = connect_to(0, PORT);
            CHECK(sockx_peer_chunk(c[0]) == expect[k], "after %d connections: peer chunk %lu",
                  k + 1, (unsigned long)sockx_peer_chunk(c[0]));
            int v;
            socklen_t vl = sizeof v;
            CHECK(getsockopt(c[0], SOL_SOCKET, SO_SNDBUF, &v, &vl) == 0 && v == (int)expect[k],
                  "SO_SNDBUF");
        }
        /* the newest connection got the other half of the largest block */
        CHECK(sockx_peer_chunk(c[3]) == 1024, "newest %lu", (unsigned long)sockx_peer_chunk(c[3]));
        send_all(c[0], "a", 1);
        for (int k = 1; k < 4; ++k)
            close(c[k]);
        char g;
        recv_all(c[0], &g, 1);
        CHECK(g == 'g' && sockx_peer_chunk(c[0]) == space, "told of the growth: %lu",
              (unsigned long)sockx_peer_chunk(c[0]));
        /* its own receive side: one connection left holds the whole default space */
        CHECK(sockx_chunk(c[0]) == 16384, "own chunk %lu", (unsigned long)sockx_chunk(c[0]));
        send_all(c[0], "b", 1);
        close(c[0]);
        printf("sock chunks ok: 4096 -> 2048 -> 1024 -> 1024 -> 4096\n");
    }
}

/* ---------------------------------------------------------------- exhaust */

static void t_exhaust(void)
{
    enum { PORT = 21 };
    if (me == 0) {
        sockx_config_t cfg = {.space = 4096, .min_chunk = 256, .max_sockets = 40};
        CHECK(sockx_init(&cfg) == 0, "sockx_init");
        int l = listener(PORT, 32);
        /* serve until the client says it is done (one byte on a connection) */
        struct pollfd p[40];
        nfds_t n = 0;
        p[n++] = (struct pollfd){.fd = l, .events = POLLIN};
        for (int done = 0; !done;) {
            CHECK(poll(p, n, -1) > 0, "poll");
            for (nfds_t i = 0; i < n; ++i) {
                if (!p[i].revents)
                    continue;
                if (p[i].fd == l) {
                    int a = accept(l, NULL, NULL);
                    CHECK(a >= 0 && n < 40, "accept");
                    p[n++] = (struct pollfd){.fd = a, .events = POLLIN};
                    continue;
                }
                char b;
                ssize_t r = recv(p[i].fd, &b, 1, 0);
                if (r == 1 && b == 'D')
                    done = 1;
                if (r == 0) {
                    close(p[i].fd);
                    p[i] = p[--n];
                    --i;
                }
            }
        }
        CHECK(sockx_stats()->refused_nobufs == 2, "refused %lu",
              (unsigned long)sockx_stats()->refused_nobufs);
        for (nfds_t i = 0; i < n; ++i)
            close(p[i].fd);
        printf("sock exhaust server ok: %lu refused for space\n",
               (unsigned long)sockx_stats()->refused_nobufs);
    } else if (me == 1) {
        int c[32], n = 0;
        for (;;) { /* the first connect may find no listener yet: connect_to retries that */
            int fd = n == 0 ? connect_to(0, PORT) : socket(AF_TILE, SOCK_STREAM, 0);
            if (n > 0) {
                struct sockaddr_tile a = addr(0, PORT);
                if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
                    CHECK(errno == ENOBUFS, "connect %d: expected ENOBUFS", n);
                    CHECK(close(fd) == 0, "close");
                    break;
                }
            }
            c[n++] = fd;
            CHECK(n <= 16, "more connections than chunks");
        }
        CHECK(n == 16, "exhausted after %d connections (4096 / 256 = 16)", n);
        for (int k = 0; k < 3; ++k)
            close(c[k]);
        for (int k = 0; k < 3; ++k) {
            c[k] = socket(AF_TILE, SOCK_STREAM, 0);
            struct sockaddr_tile a = addr(0, PORT);
            CHECK(connect(c[k], (struct sockaddr *)&a, sizeof a) == 0, "reconnect %d after closes",
                  k);
        }
        int fd = socket(AF_TILE, SOCK_STREAM, 0);
        struct sockaddr_tile a = addr(0, PORT);
        CHECK(connect(fd, (struct sockaddr *)&a, sizeof a) == -1 && errno == ENOBUFS,
              "exhausted again");
        close(fd);
        send_all(c[15], "D", 1);
        for (int k = 0; k < 16; ++k)
            close(c[k]);
        printf("sock exhaust ok: 16 connections, ENOBUFS, 3 closed, 3 reconnected, ENOBUFS\n");
    }
}

/* ---------------------------------------------------------------- poll */

static void t_poll(void)
{
    enum { PORT = 22 };
    if (me == 0) {
        int l = listener(PORT, 8);
        fcntl(l, F_SETFL, O_NONBLOCK);
        CHECK(accept(l, NULL, NULL) == -1 && errno == EAGAIN, "non-blocking accept, nobody there");
        struct pollfd p[4] = {{.fd = l, .events = POLLIN}};
        CHECK(poll(p, 1, -1) == 1 && p[0].revents == POLLIN, "listener readable");
        int a[3];
        for (int k = 0; k < 3; ++k) {
            struct pollfd q = {.fd = l, .events = POLLIN};
            CHECK(poll(&q, 1, -1) == 1, "listener");
            a[k] = accept(l, NULL, NULL);
            CHECK(a[k] >= 0, "accept %d", k);
        }
        CHECK(fcntl(a[0], F_GETFL) & O_NONBLOCK, "accepted socket inherits O_NONBLOCK");
        /* the clients each send one message, then wait: after a pause all three are readable */
        timer_delay_us(400);
        for (int k = 0; k < 3; ++k)
            p[k] = (struct pollfd){.fd = a[k], .events = POLLIN | POLLOUT};
        p[3] = (struct pollfd){.fd = 999, .events = POLLIN};
        int r = poll(p, 4, 0);
        CHECK(r == 4, "poll: %d ready", r);
        for (int k = 0; k < 3; ++k)
            CHECK(p[k].revents == (POLLIN | POLLOUT), "fd %d revents 0x%x", k, p[k].revents);
        CHECK(p[3].revents == POLLNVAL, "bad fd POLLNVAL");
        char b[8];
        for (int k = 0; k < 3; ++k) {
            CHECK(recv(a[k], b, sizeof b, 0) == 2, "two bytes");
            CHECK(recv(a[k], b, sizeof b, 0) == -1 && errno == EAGAIN, "then EAGAIN");
        }
        /* only POLLOUT asked: readable data is not reported */
        struct pollfd w = {.fd = a[0], .events = POLLOUT};
        CHECK(poll(&w, 1, 0) == 1 && w.revents == POLLOUT, "POLLOUT only");
        /* a timeout with nothing ready */
        struct pollfd in = {.fd = a[1], .events = POLLIN};
        uint64_t t0 = timer_now();
        CHECK(poll(&in, 1, 2) == 0 && in.revents == 0, "poll timeout");
        CHECK(timer_now() - t0 >= timer_us_to_ticks(2000), "waited 2 ms");
        /* the clients close: POLLIN (EOF) and POLLHUP */
        send_all(a[0], "go", 2);
        send_all(a[1], "go", 2);
        send_all(a[2], "go", 2);
        for (int k = 0; k < 3; ++k) {
            struct pollfd h = {.fd = a[k], .events = POLLIN};
            CHECK(poll(&h, 1, -1) == 1 && (h.revents & POLLIN) && (h.revents & POLLHUP),
                  "hang-up %d: 0x%x", k, h.revents);
            CHECK(recv(a[k], b, 1, 0) == 0, "EOF");
            close(a[k]);
        }
        close(l);
        printf("sock poll ok\n");
    } else {
        int c = socket(AF_TILE, SOCK_STREAM | SOCK_NONBLOCK, 0);
        struct sockaddr_tile a = addr(0, PORT);
        int rc;
        for (;;) { /* non-blocking connect: in progress, then writable (or refused: retry) */
            rc = connect(c, (struct sockaddr *)&a, sizeof a);
            CHECK(rc == 0 || errno == EINPROGRESS || errno == ECONNREFUSED, "non-blocking connect");
            if (rc == 0)
                break;
            if (errno == EINPROGRESS) {
                CHECK(connect(c, (struct sockaddr *)&a, sizeof a) == -1 && errno == EALREADY,
                      "EALREADY");
                struct pollfd q = {.fd = c, .events = POLLOUT};
                CHECK(poll(&q, 1, -1) == 1, "connect completes");
                int err = -1;
                socklen_t el = sizeof err;
                CHECK(getsockopt(c, SOL_SOCKET, SO_ERROR, &err, &el) == 0, "SO_ERROR");
                if (err == 0)
                    break;
                CHECK(err == ECONNREFUSED, "SO_ERROR %d", err);
            }
            close(c);
            timer_delay_us(20);
            c = socket(AF_TILE, SOCK_STREAM | SOCK_NONBLOCK, 0);
        }
        CHECK(send(c, "hi", 2, 0) == 2, "send");
        char b[2];
        struct pollfd q = {.fd = c, .events = POLLIN};
        CHECK(poll(&q, 1, -1) == 1, "go");
        CHECK(recv(c, b, 2, MSG_WAITALL) == 2 && b[0] == 'g', "go received");
        close(c);
        printf("sock poll client ok\n");
    }
}

/* ---------------------------------------------------------------- misuse */

static void t_misuse(void)
{
    char b[16] = {0};
    struct sockaddr_tile a = addr(me, 30);
    /* before anything is set up, and on descriptors that are not sockets */
    CHECK(send(-1, b, 1, 0) == -1 && errno == EBADF, "send -1");
    CHECK(recv(0, b, 1, 0) == -1 && errno == EBADF, "recv on stdin");
    CHECK(close(2) == -1 && errno == EBADF, "close stderr");
    CHECK(close(99999) == -1 && errno == EBADF, "close huge");
    CHECK(socket(AF_UNSPEC, SOCK_STREAM, 0) == -1 && errno == EAFNOSUPPORT, "bad domain");
    CHECK(socket(AF_TILE, 2, 0) == -1 && errno == EPROTONOSUPPORT, "datagram");
    CHECK(socket(AF_TILE, SOCK_STREAM, 6) == -1 && errno == EPROTONOSUPPORT, "protocol");
    int s = socket(AF_TILE, SOCK_STREAM, 0);
    CHECK(s >= 3, "socket %d", s);
    CHECK(send(s, b, 1, 0) == -1 && errno == ENOTCONN, "send before connect");
    CHECK(recv(s, b, 1, 0) == -1 && errno == ENOTCONN, "recv before connect");
    CHECK(shutdown(s, SHUT_WR) == -1 && errno == ENOTCONN, "shutdown before connect");
    CHECK(accept(s, NULL, NULL) == -1 && errno == EINVAL, "accept on a non-listener");
    CHECK(getpeername(s, (struct sockaddr *)&a, &(socklen_t){sizeof a}) == -1 && errno == ENOTCONN,
          "getpeername");
    CHECK(bind(s, NULL, sizeof a) == -1 && errno == EFAULT, "bind NULL");
    CHECK(bind(s, (struct sockaddr *)&a, 4) == -1 && errno == EINVAL, "bind short");
    struct sockaddr_tile other = addr(me ^ 1u, 30);
    CHECK(bind(s, (struct sockaddr *)&other, sizeof other) == -1 && errno == EADDRNOTAVAIL,
          "bind another tile");
    CHECK(bind(s, (struct sockaddr *)&a, sizeof a) == 0, "bind");
    CHECK(bind(s, (struct sockaddr *)&a, sizeof a) == -1 && errno == EINVAL, "bind twice");
    int s2 = socket(AF_TILE, SOCK_STREAM, 0);
    CHECK(bind(s2, (struct sockaddr *)&a, sizeof a) == -1 && errno == EADDRINUSE, "port in use");
    struct sockaddr_tile far = addr(ntiles, 1);
    CHECK(connect(s2, (struct sockaddr *)&far, sizeof far) == -1 && errno == EINVAL,
          "no such tile");
    struct sockaddr_tile zero = addr(0, 0);
    CHECK(connect(s2, (struct sockaddr *)&zero, sizeof zero) == -1 && errno == EINVAL, "port 0");
    struct sockaddr_tile nobody = addr(me ^ 1u, 4444);
    CHECK(connect(s2, (struct sockaddr *)&nobody, sizeof nobody) == -1 && errno == ECONNREFUSED,
          "nobody listens");
    CHECK(close(s2) == 0, "close");
    CHECK(close(s2) == -1 && errno == EBADF, "close twice");
    CHECK(listen(s, 4) == 0, "listen");
    CHECK(connect(s, (struct sockaddr *)&nobody, sizeof nobody) == -1 && errno == EINVAL,
          "connect a listener");
    CHECK(recv(s, b, 1, 0) == -1 && errno == ENOTCONN, "recv on a listener");
    CHECK(setsockopt(s, 99, SO_RCVTIMEO, b, 8) == -1 && errno == ENOPROTOOPT, "bad level");
    CHECK(setsockopt(s, SOL_SOCKET, SO_RCVBUF, &(int){64}, sizeof(int)) == -1 &&
              errno == ENOPROTOOPT,
          "SO_RCVBUF is the allocator's");
    CHECK(setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, NULL, 8) == -1 && errno == EFAULT, "NULL option");
    CHECK(getsockopt(s, SOL_SOCKET, SO_ERROR, NULL, NULL) == -1 && errno == EFAULT,
          "NULL getsockopt");
    CHECK(poll(NULL, 1, 0) == -1 && errno == EFAULT, "poll NULL");
    CHECK(fcntl(1, F_GETFL) == -1 && errno == EBADF, "fcntl stdout");
    struct timeval tv = {.tv_sec = 0, .tv_usec = 300};
    CHECK(setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) == 0, "SO_RCVTIMEO");
    uint64_t t0 = timer_now();
    CHECK(accept(s, NULL, NULL) == -1 && errno == EAGAIN, "accept times out");
    CHECK(timer_now() - t0 >= timer_us_to_ticks(300), "after 300 us");
    /* a connection to itself (same tile), then misuse of it */
    int c = socket(AF_TILE, SOCK_STREAM, 0);
    CHECK(connect(c, (struct sockaddr *)&a, sizeof a) == 0, "loopback connect");
    int d = accept(s, NULL, NULL);
    CHECK(d >= 0, "loopback accept");
    CHECK(connect(c, (struct sockaddr *)&a, sizeof a) == -1 && errno == EISCONN, "connect twice");
    CHECK(send(c, NULL, 5, 0) == -1 && errno == EFAULT, "send NULL");
    CHECK(recv(d, NULL, 5, 0) == -1 && errno == EFAULT, "recv NULL");
    CHECK(send(c, NULL, 0, 0) == 0, "send nothing");
    CHECK(shutdown(c, 7) == -1 && errno == EINVAL, "shutdown how");
    CHECK(setsockopt(d, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) == 0, "SO_RCVTIMEO");
    CHECK(recv(d, b, 1, 0) == -1 && errno == EAGAIN, "recv times out");
    CHECK(recv(d, b, 1, MSG_DONTWAIT) == -1 && errno == EAGAIN, "MSG_DONTWAIT");
    send_all(c, "abcdef", 6);
    CHECK(recv(d, b, 3, MSG_PEEK) == 3 && memcmp(b, "abc", 3) == 0, "peek");
    CHECK(recv(d, b, 4, 0) == 4 && memcmp(b, "abcd", 4) == 0, "partial read");
    CHECK(recv(d, b, 16, 0) == 2 && memcmp(b, "ef", 2) == 0, "rest");
    CHECK(shutdown(c, SHUT_WR) == 0, "shutdown");
    CHECK(recv(d, b, 1, 0) == 0, "EOF");
    CHECK(send(d, "xy", 2, 0) == 2, "half-closed: the other way still works");
    CHECK(recv(c, b, 2, MSG_WAITALL) == 2, "received");
    CHECK(close(d) == 0 && close(c) == 0 && close(s) == 0, "close");
    CHECK(send(c, b, 1, 0) == -1 && errno == EBADF, "send on a closed fd");
    printf("sock misuse ok: tile %lu, %lu checks\n", (unsigned long)me, (unsigned long)checks);
}

/* ---------------------------------------------------------------- death */

static void t_death(void)
{
    enum { PORT = 40 };
    static uint8_t buf[2048];
    if (me == 0) { /* reads a little of every connection, then exits without closing them */
        int l = listener(PORT, 4);
        for (uint32_t k = 1; k < ntiles; ++k) {
            struct sockaddr_tile from;
            socklen_t fl = sizeof from;
            int a = accept(l, (struct sockaddr *)&from, &fl);
            CHECK(a >= 0, "accept");
            recv_all(a, buf, from.st_tile == 1 ? 1000 : 10);
        }
        printf("sock death: tile 0 exits with its connections open\n");
        exit(0);
    }
    int c = connect_to(0, PORT);
    if (me == 1) { /* streams until the peer is gone */
        uint32_t sent = 0;
        ssize_t r;
        while ((r = send(c, buf, sizeof buf, 0)) > 0)
            sent += (uint32_t)r;
        CHECK(errno == ECONNRESET || errno == EPIPE, "send to a dead peer: errno %d", errno);
        printf("sock death sender ok: %s after %lu bytes\n",
               errno == ECONNRESET ? "ECONNRESET" : "EPIPE", (unsigned long)sent);
    } else { /* waits in recv for an answer that never comes */
        send_all(c, buf, 10);
        ssize_t r = recv(c, buf, 1, 0);
        CHECK(r == -1 && errno == ECONNRESET, "recv from a dead peer: %d", (int)r);
        printf("sock death receiver ok: ECONNRESET\n");
    }
    close(c);
}

int main(int argc, char **argv)
{
    me = tile_id();
    ntiles = tile_mesh_width() * tile_mesh_height();
    if (tile_core_id() != 0) {
        CHECK(socket(AF_TILE, SOCK_STREAM, 0) == -1 && errno == EPERM, "core %lu",
              (unsigned long)tile_core_id());
        return 0;
    }
    const char *what = argc > 1 ? argv[1] : "";
    if (!strcmp(what, "pairs"))
        t_pairs();
    else if (!strcmp(what, "stream"))
        t_stream();
    else if (!strcmp(what, "chunks"))
        t_chunks();
    else if (!strcmp(what, "exhaust"))
        t_exhaust();
    else if (!strcmp(what, "poll"))
        t_poll();
    else if (!strcmp(what, "misuse"))
        t_misuse();
    else if (!strcmp(what, "death"))
        t_death();
    else {
        printf("sock_test FAIL: scenario '%s' (argc %d): pairs stream chunks exhaust poll misuse "
               "death\n",
               what, argc);
        return 1;
    }
    return 0;
}
