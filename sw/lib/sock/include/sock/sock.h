/* Extensions of the socket layer (sw/lib/sock, docs/sockets.md): configuration of the tile's
 * receive space and what the buddy allocator did. */
#ifndef SOCK_SOCK_H
#define SOCK_SOCK_H

#include <poll.h>
#include <stdint.h>
#include <sys/socket.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sockx_config {
    uint32_t space;       /* receive space of the tile, bytes, a power of two (default 16384) */
    uint32_t min_chunk;   /* smallest chunk a connection is cut down to, a power of two (256) */
    uint32_t max_sockets; /* listeners + connections of the tile (64) */
} sockx_config_t;

/* Before the first socket() of the tile (otherwise the defaults apply at that call): 0, or -1
 * with errno EINVAL (geometry) / EBUSY (already up) / ENOMEM / EPERM (not core 0) / EIO (MCAPI). */
int sockx_init(const sockx_config_t *cfg);
/* This end's receive chunk (what the buddy gave the connection) and the peer's, as last told. */
uint32_t sockx_chunk(int fd);
uint32_t sockx_peer_chunk(int fd);

typedef struct sockx_stats {
    uint32_t msgs_tx, msgs_rx, data_msgs_tx, data_msgs_rx;
    uint64_t bytes_tx, bytes_rx;
    uint32_t win_tx; /* window updates sent on their own (not piggy-backed) */
    uint32_t splits, shrinks, shrink_waits, grows, compactions;
    uint32_t spills; /* shrinking rings moved to the heap until the peer answered */
    uint32_t refused_nobufs, refused_noport, resets_tx, resets_rx;
    uint32_t free_bytes; /* of the receive space now */
} sockx_stats_t;
const sockx_stats_t *sockx_stats(void);

#ifdef __cplusplus
}
#endif
#endif
