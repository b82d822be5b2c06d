/* A key-value store over sockets (docs/sockets.md): tile 0 serves every other tile. One poll()
 * loop over the listener and all client connections; requests arrive as a byte stream and are
 * taken apart from whatever the partial reads return.
 *
 *   request:  op ('P' put, 'G' get), key length, value length (16 bit, little endian), key, value
 *   response: status (0 ok, 1 no such key), 0, value length (16 bit), value
 *
 *   --args "REQUESTS"   requests per client
 *
 * Client c owns the keys "c.<j>" (j < 16) and checks every get against what it last put there.
 * The server prints "kv server: clients=.. requests=.. cycles=.. puts=.. gets=.." (cycles from the
 * first request to the last client leaving); scripts/sock-bench turns it into requests/s. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "hal/hal.h"
#include "sock/sock.h"

#define PORT  6379
#define KEYS  16
#define VMAX  48
#define SLOTS 1024

static void fail(const char *what)
{
    printf("sock_kv FAIL tile %lu: %s (errno %d)\n", (unsigned long)tile_id(), what, errno);
    exit(1);
}

struct entry {
    uint8_t used, klen;
    uint16_t vlen;
    char key[16];
    uint8_t val[VMAX];
};
static struct entry table[SLOTS];

static struct entry *lookup(const char *key, uint8_t klen, int create)
{
    uint32_t h = 2166136261u;
    for (uint8_t i = 0; i < klen; ++i)
        h = (h ^ (uint8_t)key[i]) * 16777619u;
    for (uint32_t i = 0; i < SLOTS; ++i) {
        struct entry *e = &table[(h + i) % SLOTS];
        if (e->used && e->klen == klen && !memcmp(e->key, key, klen))
            return e;
        if (!e->used) {
            if (!create)
                return NULL;
            e->used = 1;
            e->klen = klen;
            memcpy(e->key, key, klen);
            return e;
        }
    }
    return NULL;
}

struct conn {
    int fd;
    uint32_t have;
    uint8_t in[4 + 16 + VMAX];
};

static void value_of(uint32_t client, uint32_t key, uint32_t version, uint8_t *v, uint16_t *len)
{
    *len = (uint16_t)(8 + (client * 7u + key * 3u + version) % (VMAX - 8));
    for (uint16_t i = 0; i < *len; ++i)
        v[i] = (uint8_t)(client + key * 5u + version * 11u + i);
}

static void server(uint32_t clients)
{
    sockx_config_t cfg = {.space = 16384, .min_chunk = 256, .max_sockets = clients + 4};
    if (sockx_init(&cfg))
        fail("sockx_init");
    int l = socket(AF_TILE, SOCK_STREAM, 0);
    struct sockaddr_tile a = {.st_family = AF_TILE, .st_port = PORT, .st_tile = 0};
    if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof a) || listen(l, SOMAXCONN))
        fail("listen");
    struct pollfd *p = calloc(clients + 1, sizeof *p);
    struct conn *c = calloc(clients + 1, sizeof *c);
    nfds_t n = 1;
    p[0] = (struct pollfd){.fd = l, .events = POLLIN};
    uint32_t accepted = 0, left = 0, puts = 0, gets = 0;
    uint64_t t0 = 0;
    while (left < clients) {
        if (poll(p, n, -1) <= 0)
            fail("poll");
        for (nfds_t i = 0; i < n; ++i) {
            if (!p[i].revents)
                continue;
            if (i == 0) {
                int fd = accept(l, NULL, NULL);
                if (fd < 0)
                    fail("accept");
                c[n] = (struct conn){.fd = fd};
                p[n++] = (struct pollfd){.fd = fd, .events = POLLIN};
                accepted++;
                continue;
            }
            struct conn *k = &c[i];
            ssize_t r = recv(k->fd, k->in + k->have, sizeof k->in - k->have, 0);
            if (r < 0)
                fail("recv");
            if (r == 0) { /* the client is done */
                close(k->fd);
                p[i].fd = -1;
                left++;
                continue;
            }
            if (!t0)
                t0 = cpu_cycles();
            k->have += (uint32_t)r;
            for (;;) { /* every complete request in the buffer */
                if (k->have < 4)
                    break;
                uint8_t klen = k->in[1];
                uint16_t vlen = (uint16_t)(k->in[2] | k->in[3] << 8);
                uint32_t need = 4u + klen + vlen;
                if (klen > 16 || vlen > VMAX)
                    fail("bad request");
                if (k->have < need)
                    break;
                uint8_t out[4 + VMAX] = {0};
                uint16_t olen = 0;
                struct entry *e = lookup((char *)k->in + 4, klen, k->in[0] == 'P');
                if (k->in[0] == 'P') {
                    if (!e)
                        fail("table full");
                    e->vlen = vlen;
                    memcpy(e->val, k->in + 4 + klen, vlen);
                    puts++;
                } else if (e) {
                    olen = e->vlen;
                    memcpy(out + 4, e->val, olen);
                    gets++;
                } else {
                    out[0] = 1;
                    gets++;
                }
                out[2] = (uint8_t)olen;
                out[3] = (uint8_t)(olen >> 8);
                if (send(k->fd, out, 4u + olen, 0) != 4 + olen)
                    fail("send");
                memmove(k->in, k->in + need, k->have - need);
                k->have -= need;
            }
        }
    }
    uint64_t cyc = cpu_cycles() - t0;
    printf("kv server: clients=%lu requests=%lu cycles=%lu puts=%lu gets=%lu\n",
           (unsigned long)clients, (unsigned long)(puts + gets), (unsigned long)cyc,
           (unsigned long)puts, (unsigned long)gets);
    close(l);
}

static void client(uint32_t me, uint32_t requests)
{
    struct sockaddr_tile a = {.st_family = AF_TILE, .st_port = PORT, .st_tile = 0};
    int fd = -1;
    for (int tries = 0; fd < 0 && tries < 100000; ++tries) {
        fd = socket(AF_TILE, SOCK_STREAM, 0);
        if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
            if (errno != ECONNREFUSED)
                fail("connect");
            close(fd);
            fd = -1;
            timer_delay_us(50);
        }
    }
    if (fd < 0)
        fail("connect: refused for good");
    uint32_t version[KEYS] = {0};
    uint8_t req[4 + 16 + VMAX], resp[4 + VMAX], v[VMAX];
    uint64_t t0 = cpu_cycles();
    for (uint32_t j = 0; j < requests; ++j) {
        uint32_t key = j % KEYS;
        int put = j < KEYS || (j / KEYS) % 2 == 0;
        int klen = snprintf((char *)req + 4, 16, "%lu.%lu", (unsigned long)me, (unsigned long)key);
        uint16_t vlen = 0;
        req[0] = put ? 'P' : 'G';
        req[1] = (uint8_t)klen;
        if (put) {
            version[key]++;
            value_of(me, key, version[key], req + 4 + klen, &vlen);
        }
        req[2] = (uint8_t)vlen;
        req[3] = (uint8_t)(vlen >> 8);
        if (send(fd, req, 4u + (uint32_t)klen + vlen, 0) != (ssize_t)(4 + klen + vlen))
            fail("send");
        if (recv(fd, resp, 4, MSG_WAITALL) != 4)
            fail("recv header");
        uint16_t rlen = (uint16_t)(resp[2] | resp[3] << 8);
        if (rlen && recv(fd, resp + 4, rlen, MSG_WAITALL) != rlen)
            fail("recv value");
        if (!put) {
            uint16_t want;
            value_of(me, key, version[key], v, &want);
            if (resp[0] != 0 || rlen != want || memcmp(resp + 4, v, want))
                fail("get returned a wrong value");
        }
    }
    uint64_t cyc = cpu_cycles() - t0;
    close(fd);
    printf("kv client %lu ok: %lu requests, %lu cycles\n", (unsigned long)me,
           (unsigned long)requests, (unsigned long)cyc);
}

int main(int argc, char **argv)
{
    if (tile_core_id() != 0)
        return 0;
    uint32_t requests = argc > 1 ? (uint32_t)atoi(argv[1]) : 64;
    uint32_t tiles = tile_mesh_width() * tile_mesh_height();
    if (tile_id() == 0)
        server(tiles - 1);
    else
        client(tile_id(), requests);
    return 0;
}
