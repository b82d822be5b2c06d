/* poll() over sockets (sw/lib/sock). */
#ifndef NAMP_POLL_H
#define NAMP_POLL_H

#ifdef __cplusplus
extern "C" {
#endif

#define POLLIN     0x001
#define POLLPRI    0x002
#define POLLOUT    0x004
#define POLLERR    0x008
#define POLLHUP    0x010
#define POLLNVAL   0x020
#define POLLRDNORM POLLIN
#define POLLWRNORM POLLOUT

typedef unsigned int nfds_t;
struct pollfd {
    int fd; /* negative: ignored (revents 0) */
    short events;
    short revents;
};
/* timeout in ms: -1 waits forever, 0 only looks. Returns the number of fds with revents. */
int poll(struct pollfd *fds, nfds_t nfds, int timeout);

#ifdef __cplusplus
}
#endif
#endif
