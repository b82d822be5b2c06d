/* Stream sockets on namp-vp (sw/lib/sock, docs/sockets.md): the POSIX calls over the MCAPI-style
 * library (baseline transport: library `sock`; NAMP: `sock_namp`). Addresses are a tile id and a
 * 16-bit port (family AF_TILE, struct sockaddr_tile). Only core 0 of a tile may use sockets. */
#ifndef NAMP_SYS_SOCKET_H
#define NAMP_SYS_SOCKET_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint32_t socklen_t;
typedef __sa_family_t sa_family_t;

struct sockaddr {
    sa_family_t sa_family;
    char sa_data[14];
};

#define AF_UNSPEC 0
#define AF_TILE   42 /* tile id + port */
#define PF_TILE   AF_TILE

struct sockaddr_tile {
    sa_family_t st_family; /* AF_TILE */
    uint8_t st_pad;
    uint16_t st_port; /* 1..65535; 0 in bind: any free port */
    uint32_t st_tile; /* tile id (y * mesh width + x) */
    uint8_t st_zero[8];
};

#define SOCK_STREAM   1
#define SOCK_NONBLOCK 0x800 /* or-ed into socket()'s type */

#define SOL_SOCKET   1
#define SO_REUSEADDR 2
#define SO_ERROR     4
#define SO_SNDBUF    7  /* get: the peer's receive chunk (this end may have that much in flight) */
#define SO_RCVBUF    8  /* get: this end's receive chunk (its buddy block) */
#define SO_RCVTIMEO  20 /* struct timeval */
#define SO_SNDTIMEO  21

#define SHUT_RD   0
#define SHUT_WR   1
#define SHUT_RDWR 2

#define MSG_PEEK     0x2
#define MSG_DONTWAIT 0x40
#define MSG_WAITALL  0x100
#define MSG_NOSIGNAL 0x4000 /* accepted; there are no signals */

#define SOMAXCONN 64

int socket(int domain, int type, int protocol);
int bind(int fd, const struct sockaddr *addr, socklen_t addrlen);
int listen(int fd, int backlog);
int accept(int fd, struct sockaddr *addr, socklen_t *addrlen);
int connect(int fd, const struct sockaddr *addr, socklen_t addrlen);
ssize_t send(int fd, const void *buf, size_t len, int flags);
ssize_t recv(int fd, void *buf, size_t len, int flags);
int shutdown(int fd, int how);
int getsockopt(int fd, int level, int optname, void *optval, socklen_t *optlen);
int setsockopt(int fd, int level, int optname, const void *optval, socklen_t optlen);
int getsockname(int fd, struct sockaddr *addr, socklen_t *addrlen);
int getpeername(int fd, struct sockaddr *addr, socklen_t *addrlen);
/* close() (unistd.h) and fcntl(F_GETFL/F_SETFL, O_NONBLOCK) (fcntl.h) also take sockets. */

#ifdef __cplusplus
}
#endif
#endif
