// Checkpoints of the whole simulation as forked processes (vp/checkpoints.h).
#include "vp/checkpoints.h"

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <poll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

namespace vp {

namespace {

enum : uint32_t { report_live = 1, report_end = 2 };
struct report {
    uint32_t type;
    int64_t value;
};

// Abstract UNIX socket names: nothing on disk, gone with the last descriptor.
sockaddr_un socket_name(pid_t anchor, uint64_t seq, socklen_t &len) {
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    const int n = std::snprintf(a.sun_path + 1, sizeof a.sun_path - 1, "namp-vp.%d.%llu",
                                int(anchor), (unsigned long long)seq);
    len = socklen_t(offsetof(sockaddr_un, sun_path) + 1 + size_t(n));
    return a;
}

bool write_all(int fd, const void *data, size_t len) {
    const char *p = static_cast<const char *>(data);
    while (len) {
        const ssize_t n = ::write(fd, p, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        len -= size_t(n);
    }
    return true;
}

bool read_all(int fd, void *data, size_t len) {
    char *p = static_cast<char *>(data);
    while (len) {
        const ssize_t n = ::read(fd, p, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        len -= size_t(n);
    }
    return true;
}

}  // namespace

struct checkpoints::shared {
    pid_t anchor;
    uint64_t seq;
    uint64_t taken;
    uint64_t fork_ns;  // host time the live process spent forking checkpoints
    uint64_t written[checkpoints::streams];
    // then: entry[max], uint64_t steps[max][threads], uint64_t cycles[max][threads]
};

checkpoints::checkpoints(unsigned threads, unsigned max, uint64_t interval)
    : threads_(threads), max_(std::max(2u, max)), interval_(std::max<uint64_t>(1, interval)) {
    shm_size_ = sizeof(shared) + sizeof(entry) * max_ + 2 * sizeof(uint64_t) * max_ * threads_;
    void *p = mmap(nullptr, shm_size_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        throw std::runtime_error(std::string("checkpoints: ") + std::strerror(errno));
    shm_ = static_cast<shared *>(p);
    shm_->anchor = getpid();
    if (pipe2(report_, O_CLOEXEC) != 0 || pipe2(anchor_, O_CLOEXEC) != 0)
        throw std::runtime_error(std::string("checkpoints: ") + std::strerror(errno));
    // Checkpoints end by SIGKILL at any time: no zombies are wanted, and the children of a
    // process that ended come to the anchor, which reaps them the same way.
    std::signal(SIGCHLD, SIG_IGN);
    prctl(PR_SET_CHILD_SUBREAPER, 1);
}

checkpoints::~checkpoints() {
    if (is_anchor()) drop_all();
    for (int fd : {report_[0], report_[1], anchor_[0], anchor_[1]})
        if (fd >= 0) ::close(fd);
    if (shm_) munmap(shm_, shm_size_);
}

bool checkpoints::is_anchor() const { return getpid() == shm_->anchor; }

const checkpoints::entry &checkpoints::at(unsigned i) const {
    return reinterpret_cast<const entry *>(shm_ + 1)[i];
}

const uint64_t *checkpoints::steps(unsigned i) const {
    const auto *base =
        reinterpret_cast<const uint64_t *>(reinterpret_cast<const entry *>(shm_ + 1) + max_);
    return base + size_t(i) * threads_;
}

const uint64_t *checkpoints::cycles(unsigned i) const { return steps(i) + size_t(max_) * threads_; }

std::vector<unsigned> checkpoints::ordered() const {
    std::vector<unsigned> out;
    for (unsigned i = 0; i < max_; ++i)
        if (at(i).used) out.push_back(i);
    std::sort(out.begin(), out.end(), [this](unsigned a, unsigned b) {
        return at(a).global != at(b).global ? at(a).global < at(b).global : at(a).seq < at(b).seq;
    });
    return out;
}

int checkpoints::before(int thread, uint64_t s, uint64_t global_limit) const {
    int best = -1;
    for (unsigned i : ordered())
        if (steps(i)[thread] <= s && at(i).global < global_limit) best = int(i);
    return best;
}

int checkpoints::before_cycle(int thread, uint64_t cycle) const {
    int best = -1;
    for (unsigned i : ordered())
        if (cycles(i)[thread] <= cycle) best = int(i);
    return best;
}

bool checkpoints::recent(uint64_t global) const {
    for (unsigned i = 0; i < max_; ++i)
        if (at(i).used && at(i).global <= global && global - at(i).global < interval_) return true;
    return false;
}

uint64_t checkpoints::taken() const { return shm_->taken; }
uint64_t checkpoints::fork_ns() const { return shm_->fork_ns; }

uint64_t *checkpoints::written(unsigned stream) { return &shm_->written[stream]; }

void checkpoints::thin() {
    // Drop the checkpoint that is closest to its neighbours for its age: recent history keeps
    // its density (short replays near the present), old history thins out; not the first one,
    // the newest or one taken after a debugger changed the simulation (a barrier).
    const std::vector<unsigned> o = ordered();
    if (o.size() < 3) return;
    const uint64_t newest = at(o.back()).global;
    int victim = -1;
    double best = 0;
    for (size_t k = 1; k + 1 < o.size(); ++k) {
        if (at(o[k]).barrier) continue;
        const double gap = double(at(o[k + 1]).global - at(o[k - 1]).global);
        const double age = double(newest - at(o[k]).global + interval_);
        if (victim < 0 || gap / age < best) {
            best = gap / age;
            victim = int(o[k]);
        }
    }
    // Only points after a debugger changed the simulation are left: the oldest goes, and the
    // history then begins at the next one (a replay never crosses a change it did not see).
    if (victim < 0) victim = int(o.front());
    entry &e = reinterpret_cast<entry *>(shm_ + 1)[victim];
    ::kill(e.pid, SIGKILL);
    e.used = false;
}

int checkpoints::barrier_after(uint64_t global) const {
    for (unsigned i : ordered())
        if (at(i).barrier && at(i).global > global) return int(i);
    return -1;
}

bool checkpoints::take(uint64_t global, uint64_t time_ps, int thread,
                       const std::vector<uint64_t> &s, const std::vector<uint64_t> &c,
                       const std::vector<uint64_t> &out, bool barrier, std::string &message,
                       int &client, const std::vector<int> &close_in_child) {
    entry *table = reinterpret_cast<entry *>(shm_ + 1);
    int slot = -1;
    for (unsigned i = 0; i < max_ && slot < 0; ++i)
        if (!table[i].used) slot = int(i);
    if (slot < 0) {
        thin();
        for (unsigned i = 0; i < max_ && slot < 0; ++i)
            if (!table[i].used) slot = int(i);
    }
    if (slot < 0) return false;  // all kept for good reasons: go on without
    const uint64_t seq = ++shm_->seq;
    const int listener = ::socket(AF_UNIX, SOCK_STREAM, 0);
    socklen_t len;
    const sockaddr_un name = socket_name(shm_->anchor, seq, len);
    if (listener < 0 || ::bind(listener, reinterpret_cast<const sockaddr *>(&name), len) != 0 ||
        ::listen(listener, 4) != 0) {
        if (listener >= 0) ::close(listener);
        return false;
    }
    const auto started = std::chrono::steady_clock::now();
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(listener);
        return false;
    }
    if (pid > 0) {  // the live process goes on
        shm_->fork_ns += uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                      std::chrono::steady_clock::now() - started)
                                      .count());
        ::close(listener);
        table[slot] = {pid, seq, global, time_ps, thread, barrier, true, {}};
        for (size_t k = 0; k < out.size() && k < streams; ++k) table[slot].out[k] = out[k];
        std::copy(s.begin(), s.end(), const_cast<uint64_t *>(steps(unsigned(slot))));
        std::copy(c.begin(), c.end(), const_cast<uint64_t *>(cycles(unsigned(slot))));
        ++shm_->taken;
        return false;
    }
    // The checkpoint: it holds nothing the live process uses (the GDB client, the anchor's ends)
    // and sleeps until asked for a copy of itself.
    for (int fd : close_in_child)
        if (fd >= 0) ::close(fd);
    if (anchor_[1] >= 0) ::close(anchor_[1]), anchor_[1] = -1;
    if (report_[0] >= 0) ::close(report_[0]), report_[0] = -1;
    wait_for_request(listener, message, client);
    return true;  // in the copy that goes on from here
}

void checkpoints::wait_for_request(int listener, std::string &message, int &client) {
    for (;;) {
        pollfd fds[2] = {{listener, POLLIN, 0}, {anchor_[0], POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            _exit(0);
        }
        if (fds[1].revents) _exit(0);  // the anchor is gone: nobody can ask any more
        if (!(fds[0].revents & POLLIN)) continue;
        const int conn = ::accept(listener, nullptr, nullptr);
        if (conn < 0) continue;
        // the request: its length with the GDB client descriptor attached, then the message
        uint64_t size = 0;
        char control[CMSG_SPACE(sizeof(int))] = {};
        iovec iov{&size, sizeof size};
        msghdr msg{};
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control;
        msg.msg_controllen = sizeof control;
        int fd = -1;
        if (::recvmsg(conn, &msg, MSG_WAITALL) != ssize_t(sizeof size) || size > (64u << 20)) {
            ::close(conn);
            continue;
        }
        for (cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
            if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
                std::memcpy(&fd, CMSG_DATA(c), sizeof fd);
        std::string text(size, '\0');
        if (!read_all(conn, &text[0], size)) {
            if (fd >= 0) ::close(fd);
            ::close(conn);
            continue;
        }
        const pid_t pid = ::fork();
        if (pid == 0) {
            ::close(listener);
            ::close(conn);
            message = std::move(text);
            client = fd;
            return;
        }
        if (pid > 0) tell_anchor(report_live, pid);
        const char ack = pid > 0 ? 'k' : 'x';
        write_all(conn, &ack, 1);
        ::close(conn);
        if (fd >= 0) ::close(fd);
    }
}

bool checkpoints::hand_over(unsigned i, const std::string &message, int client, std::string &why) {
    const entry &e = at(i);
    const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
    socklen_t len;
    const sockaddr_un name = socket_name(shm_->anchor, e.seq, len);
    if (s < 0 || ::connect(s, reinterpret_cast<const sockaddr *>(&name), len) != 0) {
        why = std::string("checkpoint ") + std::to_string(e.seq) +
              " does not answer: " + std::strerror(errno);
        if (s >= 0) ::close(s);
        return false;
    }
    uint64_t size = message.size();
    char control[CMSG_SPACE(sizeof(int))] = {};
    iovec iov{&size, sizeof size};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    if (client >= 0) {
        msg.msg_control = control;
        msg.msg_controllen = sizeof control;
        cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        std::memcpy(CMSG_DATA(c), &client, sizeof client);
    }
    char ack = 0;
    if (::sendmsg(s, &msg, 0) != ssize_t(sizeof size) ||
        !write_all(s, message.data(), message.size()) || !read_all(s, &ack, 1) || ack != 'k') {
        why = "checkpoint " + std::to_string(e.seq) + " could not take over";
        ::close(s);
        return false;
    }
    ::close(s);
    if (is_anchor()) supervise();
    _exit(0);
}

void checkpoints::tell_anchor(uint32_t type, int64_t value) {
    const report r{type, value};
    write_all(report_[1], &r, sizeof r);
}

void checkpoints::report_exit(int code) {
    if (is_anchor()) {
        drop_all();
        return;
    }
    tell_anchor(report_end, code);
}

void checkpoints::supervise() {
    // From now on the anchor only waits: for the process that goes on to name itself, and for
    // the exit code of the run. A live process that ends without one died.
    int live = -1;
    for (;;) {
        pollfd fds[2] = {{report_[0], POLLIN, 0}, {live, POLLIN, 0}};
        if (::poll(fds, live >= 0 ? 2 : 1, -1) < 0 && errno != EINTR) break;
        if (fds[0].revents & POLLIN) {
            report r{};
            if (!read_all(report_[0], &r, sizeof r)) break;
            if (r.type == report_end) {
                drop_all();
                _exit(int(r.value));
            }
            if (r.type == report_live) {
                if (live >= 0) ::close(live);
                live = int(syscall(SYS_pidfd_open, pid_t(r.value), 0));
            }
            continue;
        }
        if (live >= 0 && (fds[1].revents & (POLLIN | POLLHUP))) break;
    }
    drop_all();
    std::fprintf(stderr, "namp-vp: error: the simulation process ended without a result\n");
    _exit(3);
}

void checkpoints::drop_after(uint64_t global) {
    entry *table = reinterpret_cast<entry *>(shm_ + 1);
    for (unsigned i = 0; i < max_; ++i)
        if (table[i].used && table[i].global > global) {
            ::kill(table[i].pid, SIGKILL);
            table[i].used = false;
        }
}

void checkpoints::drop_all() {
    entry *table = reinterpret_cast<entry *>(shm_ + 1);
    for (unsigned i = 0; i < max_; ++i)
        if (table[i].used) {
            ::kill(table[i].pid, SIGKILL);
            table[i].used = false;
        }
}

bool checkpoints::anchor_alive() const {
    if (anchor_[1] >= 0) return true;  // this is the anchor
    pollfd p{anchor_[0], POLLIN, 0};
    return ::poll(&p, 1, 0) == 0;
}

}  // namespace vp
