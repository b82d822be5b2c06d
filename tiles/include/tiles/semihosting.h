// RISC-V semihosting of one core (docs/semihosting.md): the firmware asks the host for file and
// console I/O, time and its command line with the sequence slli x0,x0,0x1f; ebreak; srai x0,x0,7
// (a0: operation, a1: parameter block; the ARM semihosting operations, RV32 like AArch32).
// Files live beneath one host directory (semihosting.root): every name is resolved inside it by
// the kernel (openat2 with RESOLVE_BENEATH), so neither `..`, an absolute name nor a symbolic
// link leads out of it. Off unless semihosting.enabled; then an ebreak outside the sequence is
// still a breakpoint exception.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tiles {

class console;
class cpu_core;

// Opens the root directory for semihosting (an O_PATH descriptor the cores share); throws
// std::runtime_error naming the directory and the reason (missing, not a directory, a host
// without openat2).
int semihosting_open_root(const std::string &root);

class semihosting {
public:
    // root_fd: from semihosting_open_root, owned by the caller and open while this lives.
    semihosting(int root_fd, uint64_t epoch, uint64_t clock_hz, console &out, unsigned core);
    ~semihosting();
    semihosting(const semihosting &) = delete;
    semihosting &operator=(const semihosting &) = delete;

    // SYS_GET_CMDLINE: the tile's argv joined by blanks.
    void set_cmdline(const std::string &text) { cmdline_ = text; }

    struct result {
        bool exit = false;  // SYS_EXIT / SYS_EXIT_EXTENDED: the core ends with `code`
        uint32_t code = 0;
    };
    // One call of `core` (its a0 and a1 as the ISS has them); writes the result to a0.
    result call(cpu_core &core);

private:
    enum : int { tt_in = -2, tt_out = -3, tt_err = -4 };  // the console as :tt handles
    int32_t open(cpu_core &core, uint32_t name, uint32_t mode, uint32_t len);
    int32_t transfer(cpu_core &core, bool write, uint32_t handle, uint32_t buf, uint32_t len);
    int32_t seek(uint32_t handle, uint32_t pos);
    int32_t flen(uint32_t handle);
    int32_t close(uint32_t handle);
    int32_t remove(cpu_core &core, uint32_t name, uint32_t len);
    int32_t rename(cpu_core &core, uint32_t from, uint32_t from_len, uint32_t to, uint32_t to_len);
    int32_t cmdline(cpu_core &core, uint32_t block);
    int *handle(uint32_t h);  // the host descriptor of a handle, or nullptr (errno EBADF)
    bool read_words(cpu_core &core, uint32_t addr, uint32_t *w, unsigned n);
    bool read_string(cpu_core &core, uint32_t addr, uint32_t len, std::string &out);
    int32_t fail(int e) {
        errno_ = e;
        return -1;
    }

    int root_;
    uint64_t epoch_, clock_hz_;
    console &out_;
    unsigned core_;
    std::vector<int> files_;  // handle h is files_[h - 1]; -1: closed
    std::string cmdline_;
    int errno_ = 0;
};

}  // namespace tiles
