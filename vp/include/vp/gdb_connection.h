// The transport of the GDB remote serial protocol: a TCP listener on one address, at most one
// client (a second one is refused with an error reply), packet framing ($payload#checksum, acks, escapes) and the interrupt byte. Errors of the
// peer (bad checksums, garbage, a closed socket) are handled here and never reach the server as
// anything but "no packet" or "client gone".
#pragma once
#include <cstdint>
#include <iosfwd>
#include <stdexcept>
#include <string>

namespace vp {

struct gdb_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class gdb_connection {
public:
    // address: "PORT" or "HOST:PORT" (HOST an IPv4 address of this machine; default 127.0.0.1;
    // PORT 0 lets the system choose). Throws gdb_error if it cannot listen there.
    explicit gdb_connection(const std::string &address);
    ~gdb_connection();
    gdb_connection(const gdb_connection &) = delete;
    gdb_connection &operator=(const gdb_connection &) = delete;

    std::string address() const;  // "HOST:PORT" actually listened on
    bool connected() const { return client_ >= 0; }

    // Accepts a waiting client; with block, waits for one. True if a client is connected now.
    bool accept_client(bool block);
    // Blocks for the next packet; false when the client went away (the connection is closed).
    bool read_packet(std::string &payload);
    void send_packet(const std::string &payload);
    // While the target runs: true if the client sent the interrupt byte (0x03). Never blocks.
    bool poll_interrupt();
    void close_client();
    // Connections refused because a client was already connected (each got an error reply).
    unsigned refused() const { return refused_; }
    void set_log(std::ostream &log) { log_ = &log; }  // where refusals are reported
    // Reverse execution hands the session to another process (vp/checkpoints.h): the client's
    // descriptor and the bytes read from it but not yet used go along.
    int client_fd() const { return client_; }
    const std::string &pending_input() const { return in_; }
    void adopt(int fd, const std::string &pending) {
        client_ = fd;
        in_ = pending;
        interrupt_ = false;
    }

private:
    void refuse_second_client();
    bool fill(bool block);  // reads what the socket has into in_; false on EOF or error
    void send_raw(const std::string &bytes);

    int listener_ = -1, client_ = -1;
    std::string host_;
    uint16_t port_ = 0;
    std::string in_;
    bool interrupt_ = false;
    unsigned refused_ = 0;
    std::ostream *log_ = nullptr;
};

}  // namespace vp
