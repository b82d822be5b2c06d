#include "vp/gdb_connection.h"

#include <arpa/inet.h>
#include <cerrno>
#include <algorithm>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <ostream>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace vp {

namespace {

constexpr size_t max_packet = 64 * 1024;  // larger payloads are garbage: dropped with a NAK

std::string errno_text() { return std::strerror(errno); }

char hex_digit(unsigned v) { return "0123456789abcdef"[v & 15]; }

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

gdb_connection::gdb_connection(const std::string &address) {
    std::string host = "127.0.0.1", port_text = address;
    const size_t colon = address.rfind(':');
    if (colon != std::string::npos) {
        host = address.substr(0, colon);
        port_text = address.substr(colon + 1);
    }
    char *end = nullptr;
    const unsigned long port = std::strtoul(port_text.c_str(), &end, 10);
    if (port_text.empty() || *end || port > 65535)
        throw gdb_error("--gdb: '" + address + "' is not [HOST:]PORT with PORT in 0..65535");
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(uint16_t(port));
    if (inet_pton(AF_INET, host.c_str(), &sa.sin_addr) != 1)
        throw gdb_error("--gdb: '" + host + "' is not an IPv4 address");
    listener_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listener_ < 0) throw gdb_error("--gdb: cannot create a socket: " + errno_text());
    const int one = 1;
    setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(listener_, reinterpret_cast<sockaddr *>(&sa), sizeof sa) != 0 ||
        listen(listener_, 1) != 0) {
        const std::string why = errno_text();
        ::close(listener_);
        listener_ = -1;
        throw gdb_error("--gdb: cannot listen on " + host + ":" + port_text + ": " + why);
    }
    socklen_t len = sizeof sa;
    getsockname(listener_, reinterpret_cast<sockaddr *>(&sa), &len);
    host_ = host;
    port_ = ntohs(sa.sin_port);
}

gdb_connection::~gdb_connection() {
    close_client();
    if (listener_ >= 0) ::close(listener_);
}

std::string gdb_connection::address() const { return host_ + ":" + std::to_string(port_); }

bool gdb_connection::accept_client(bool block) {
    if (client_ >= 0) return true;
    pollfd p{listener_, POLLIN, 0};
    if (poll(&p, 1, block ? -1 : 0) <= 0) return false;
    client_ = accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client_ < 0) return false;
    const int one = 1;  // packets are small and answered one by one
    setsockopt(client_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    in_.clear();
    interrupt_ = false;
    return true;
}

// One client at a time: a second one gets an error reply to its first packet (GDB prints it as
// "Remote failure reply: E.…") and is closed; the session of the first goes on.
void gdb_connection::refuse_second_client() {
    const int fd = accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) return;
    ++refused_;
    // Wait briefly for its first packet, so the reply is read as the answer to it.
    std::string got;
    for (int i = 0; i < 20 && got.find('#') == std::string::npos; ++i) {
        pollfd p{fd, POLLIN, 0};
        char buf[512];
        if (poll(&p, 1, 50) <= 0) continue;
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0) break;
        got.append(buf, size_t(std::min<ssize_t>(n, 64)));
    }
    const std::string text = "E.namp-vp: another GDB is already connected (one client at a time)";
    unsigned sum = 0;
    for (char c : text) sum += uint8_t(c);
    std::string out = "+$" + text + "#";
    out += hex_digit(sum >> 4);
    out += hex_digit(sum);
    ::send(fd, out.data(), out.size(), MSG_NOSIGNAL);
    ::close(fd);
    if (log_)
        *log_ << "namp-vp: gdb: refused a second connection (one client at a time)" << std::endl;
}

void gdb_connection::close_client() {
    if (client_ >= 0) ::close(client_);
    client_ = -1;
    in_.clear();
}

bool gdb_connection::fill(bool block) {
    if (client_ < 0) return false;
    pollfd p[2] = {{client_, POLLIN, 0}, {listener_, POLLIN, 0}};
    int ready;
    for (;;) {  // a second client knocking is answered, then we wait on for ours
        ready = poll(p, 2, block ? -1 : 0);
        if (ready > 0 && (p[1].revents & POLLIN)) refuse_second_client();
        if (ready <= 0 || (p[0].revents & (POLLIN | POLLHUP | POLLERR))) break;
    }
    if (ready == 0) return true;
    char buf[4096];
    const ssize_t n = ready > 0 ? ::recv(client_, buf, sizeof buf, 0) : -1;
    if (n <= 0) {
        close_client();
        return false;
    }
    in_.append(buf, size_t(n));
    return true;
}

bool gdb_connection::read_packet(std::string &payload) {
    for (;;) {
        // Bytes before a '$' are acks, NAKs, interrupts or garbage.
        size_t start = 0;
        while (start < in_.size() && in_[start] != '$') {
            if (in_[start] == '\x03') interrupt_ = true;
            ++start;
        }
        in_.erase(0, start);
        const size_t hash = in_.find('#');
        if (!in_.empty() && hash != std::string::npos && hash + 2 < in_.size()) {
            const std::string body = in_.substr(1, hash - 1);
            const int hi = hex_value(in_[hash + 1]), lo = hex_value(in_[hash + 2]);
            in_.erase(0, hash + 3);
            unsigned sum = 0;
            for (char c : body) sum += uint8_t(c);
            if (hi < 0 || lo < 0 || unsigned(hi * 16 + lo) != (sum & 0xFF) ||
                body.find('$') != std::string::npos) {
                send_raw("-");
                continue;
            }
            send_raw("+");
            payload.clear();
            for (size_t i = 0; i < body.size(); ++i) {
                if (body[i] == '}' && i + 1 < body.size())
                    payload += char(body[++i] ^ 0x20);
                else
                    payload += body[i];
            }
            return true;
        }
        if (in_.size() > max_packet) {
            in_.clear();
            send_raw("-");
        }
        if (!fill(true)) return false;
    }
}

void gdb_connection::send_packet(const std::string &payload) {
    std::string out = "$";
    unsigned sum = 0;
    for (char c : payload) {
        if (c == '$' || c == '#' || c == '}' || c == '*') {
            out += '}';
            sum += '}';
            c = char(c ^ 0x20);
        }
        out += c;
        sum += uint8_t(c);
    }
    out += '#';
    out += hex_digit(sum >> 4);
    out += hex_digit(sum);
    send_raw(out);
}

void gdb_connection::send_raw(const std::string &bytes) {
    size_t done = 0;
    while (client_ >= 0 && done < bytes.size()) {
        const ssize_t n = ::send(client_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
        if (n <= 0) {
            if (n < 0 && errno == EINTR) continue;
            close_client();
            return;
        }
        done += size_t(n);
    }
}

bool gdb_connection::poll_interrupt() {
    const size_t seen = in_.size();  // bytes already looked at by an earlier poll
    if (!fill(false)) return false;
    for (size_t i = seen; i < in_.size(); ++i)
        if (in_[i] == '\x03') interrupt_ = true;
    // While running, nothing but the interrupt is expected: a started packet is kept for
    // read_packet, within the packet limit; anything else is dropped.
    if (in_.find('$') == std::string::npos || in_.size() > max_packet) in_.clear();
    const bool hit = interrupt_;
    interrupt_ = false;
    return hit;
}

}  // namespace vp
