// libFuzzer target: the GDB remote-protocol server (vp/src/gdb_connection.cpp, gdb_server.cpp)
// under arbitrary client bytes over a real TCP connection on 127.0.0.1. One platform (preset
// single, test_watchdog.elf: one core that spins forever) serves every input, as in fuzz_na: the
// simulation runs on a thread of its own, never ends, and each input is one client session:
// connect (the running platform stops: all-stop), send the input's bytes while reading every
// reply, half-close, and read until the server closes the connection (it treats the end of the
// input as a detach). Bytes after a resume (`c`, `vCont;c`, a step) arrive while the target runs
// (the poll path: Ctrl-C, buffering), the rest while it is stopped (the packet loop).
//
// Commands that would end the one simulation, or change the spinning firmware so that it exits,
// are blanked before sending, by rewriting bytes: `k` and `vKill` (k/K become l/L), `monitor
// quit` ("71756974" in hex), register writes `G`/`P` (pc), memory writes `M`/`X` (code) and the
// address of `c ADDR`/`s ADDR`. Everything else, including malformed packets, goes through.
// A session that the server does not close within 20 s of host time is a hang (abort).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <thread>

#include <systemc>

#include "fuzz_systemc.h"
#include "vp/config.h"
#include "vp/firmware.h"
#include "vp/platform.h"

namespace {

std::string blank_ending_commands(const uint8_t *data, size_t size) {
    std::string s(reinterpret_cast<const char *>(data), size);
    for (size_t i = 0; i < s.size(); ++i) {
        char &c = s[i];
        if (c == 'k')
            c = 'l';
        else if (c == 'K')
            c = 'L';
        else if (c == 'G' || c == 'P' || c == 'M' || c == 'X')
            c = char(c + 32);  // the read forms
        else if ((c == 'c' || c == 's') && i > 0 && s[i - 1] == '$' && i + 1 < s.size() &&
                 std::isxdigit(static_cast<unsigned char>(s[i + 1])))
            s[i + 1] = 'z';  // "c ADDR" would move the pc: malformed instead
    }
    for (size_t at = s.find("71756974"); at != std::string::npos; at = s.find("71756974", at))
        s[at + 7] = '5';  // "quit" in hex becomes "quiu"
    return s;
}

class gdb_bench {
public:
    gdb_bench() {
        vp::config_builder b;
        b.apply_preset("single");
        b.apply_override("console.echo=false");
        // Short run slices: a resumed target notices the client's end after 64 slices, so a
        // session that resumes costs 64 x 100 simulated cycles instead of 64 x 1000.
        b.apply_override("quantum_cycles=100");
        const vp::platform_config cfg = b.build();
        vp::run_options opt;
        opt.quiet = true;
        opt.gdb = "127.0.0.1:0";
        // the server names its port on std::cerr: catch it there
        std::ostringstream log;
        std::streambuf *old = std::cerr.rdbuf(log.rdbuf());
        plat_ = std::make_unique<vp::platform>("vp", cfg, opt);
        std::cerr.rdbuf(old);
        std::smatch m;
        const std::string text = log.str();
        if (!std::regex_search(text, m, std::regex("listening on 127\\.0\\.0\\.1:(\\d+)"))) {
            std::fprintf(stderr, "fuzz_gdb: no port in %s\n", text.c_str());
            abort();
        }
        port_ = uint16_t(std::stoi(m[1]));
        vp::firmware_map fw;
        fw.add(NAMP_FUZZ_GDB_FIRMWARE, 1);
        plat_->load(fw);
        sim_ = std::thread([this] {
            plat_->simulate();  // never returns unless an input ended the run
            std::fprintf(stderr, "fuzz_gdb: the simulation ended: %s\n",
                         plat_->control().message().c_str());
            abort();
        });
    }

    void session(const uint8_t *data, size_t size) {
        const std::string out = blank_ending_commands(data, size);
        const int fd = socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in sa{};
        sa.sin_family = AF_INET;
        sa.sin_port = htons(port_);
        sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (fd < 0 || connect(fd, reinterpret_cast<sockaddr *>(&sa), sizeof sa) != 0) {
            std::perror("fuzz_gdb: connect");
            abort();
        }
        size_t sent = 0;
        bool half_closed = false;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        char buf[65536];
        for (;;) {
            if (sent == out.size() && !half_closed) {
                shutdown(fd, SHUT_WR);
                half_closed = true;
            }
            pollfd p{fd, short(POLLIN | (half_closed ? 0 : POLLOUT)), 0};
            if (std::chrono::steady_clock::now() > deadline) {
                std::fprintf(stderr, "fuzz_gdb: hang: the server kept the session open for 20 s\n");
                abort();
            }
            if (poll(&p, 1, 100) <= 0) continue;
            if (p.revents & POLLOUT) {
                const ssize_t n = send(fd, out.data() + sent, out.size() - sent, MSG_NOSIGNAL);
                if (n > 0)
                    sent += size_t(n);
                else if (n < 0)
                    sent = out.size();  // the server closed: nothing more to send
            }
            if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
                const ssize_t n = recv(fd, buf, sizeof buf, 0);
                if (n <= 0) break;  // the server closed the session
            }
        }
        close(fd);
    }

private:
    std::unique_ptr<vp::platform> plat_;
    uint16_t port_ = 0;
    std::thread sim_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static gdb_bench *bench = new gdb_bench;  // lives as long as the process (see fuzz_na)
    bench->session(data, size);
    return 0;
}
