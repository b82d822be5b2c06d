// RISC-V semihosting of one core (tiles/semihosting.h, docs/semihosting.md).
#include "tiles/semihosting.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdexcept>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tiles/console.h"
#include "tiles/cpu_core.h"

namespace tiles {

namespace {

// The operations (ARM's semihosting numbers, which the RISC-V semihosting spec takes over).
enum op : uint32_t {
    sys_open = 0x01,
    sys_close = 0x02,
    sys_writec = 0x03,
    sys_write0 = 0x04,
    sys_write = 0x05,
    sys_read = 0x06,
    sys_iserror = 0x08,
    sys_istty = 0x09,
    sys_seek = 0x0a,
    sys_flen = 0x0c,
    sys_remove = 0x0e,
    sys_rename = 0x0f,
    sys_clock = 0x10,
    sys_time = 0x11,
    sys_errno = 0x13,
    sys_get_cmdline = 0x15,
    sys_heapinfo = 0x16,
    sys_exit = 0x18,
    sys_exit_extended = 0x20,
    sys_elapsed = 0x30,
    sys_tickfreq = 0x31,
};
constexpr uint32_t application_exit = 0x20026;  // ADP_Stopped_ApplicationExit
constexpr uint32_t max_name = 4096, chunk = 65536;

// name beneath dir, resolved by the kernel: no `..` above it, no absolute name, no symbolic link
// leading out, no magic /proc links.
int open_beneath(int dir, const std::string &name, uint64_t flags, uint64_t mode) {
    open_how how{};
    how.flags = flags | O_CLOEXEC;
    how.mode = (flags & O_CREAT) ? mode : 0;  // openat2 refuses a mode it would not use
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    return int(syscall(SYS_openat2, dir, name.c_str(), &how, sizeof how));
}

// The directory holding `name` (opened beneath root) and its last component; -1 with errno.
int parent_beneath(int root, const std::string &name, std::string &base) {
    const size_t slash = name.find_last_of('/');
    base = slash == std::string::npos ? name : name.substr(slash + 1);
    if (base.empty() || base == "." || base == "..") return errno = EINVAL, -1;
    const std::string dir = slash == std::string::npos ? "."
                            : slash == 0               ? "/"
                                                       : name.substr(0, slash);
    return open_beneath(root, dir, O_PATH | O_DIRECTORY, 0);
}

}  // namespace

int semihosting_open_root(const std::string &root) {
    const int fd = ::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        throw std::runtime_error("semihosting.root: cannot open the directory '" + root +
                                 "': " + std::strerror(errno));
    const int probe = open_beneath(fd, ".", O_PATH | O_DIRECTORY, 0);
    if (probe < 0) {
        const int e = errno;
        ::close(fd);
        throw std::runtime_error("semihosting.root '" + root +
                                 "': this host cannot confine names "
                                 "to a directory (openat2: " +
                                 std::strerror(e) + "; Linux 5.6 or later)");
    }
    ::close(probe);
    return fd;
}

semihosting::semihosting(int root_fd, uint64_t epoch, uint64_t clock_hz, console &out,
                         unsigned core)
    : root_(root_fd), epoch_(epoch), clock_hz_(clock_hz), out_(out), core_(core) {}

semihosting::~semihosting() {
    for (int fd : files_)
        if (fd >= 0) ::close(fd);
}

int *semihosting::handle(uint32_t h) {
    if (h == 0 || h > files_.size() || files_[h - 1] == -1) {
        errno_ = EBADF;
        return nullptr;
    }
    return &files_[h - 1];
}

bool semihosting::read_words(cpu_core &core, uint32_t addr, uint32_t *w, unsigned n) {
    uint8_t b[16];
    if (n > 4 || core.debug_memory(false, addr, b, 4 * n) != 4 * n) return false;
    for (unsigned i = 0; i < n; ++i)
        w[i] = uint32_t(b[4 * i]) | uint32_t(b[4 * i + 1]) << 8 | uint32_t(b[4 * i + 2]) << 16 |
               uint32_t(b[4 * i + 3]) << 24;
    return true;
}

bool semihosting::read_string(cpu_core &core, uint32_t addr, uint32_t len, std::string &out) {
    if (len > max_name) return false;
    out.assign(len, '\0');
    return core.debug_memory(false, addr, reinterpret_cast<uint8_t *>(&out[0]), len) == len &&
           out.find('\0') == std::string::npos;
}

int32_t semihosting::open(cpu_core &core, uint32_t name_addr, uint32_t mode, uint32_t len) {
    std::string name;
    if (mode > 11 || !read_string(core, name_addr, len, name)) return fail(EINVAL);
    if (name == ":tt") {
        files_.push_back(mode < 4 ? tt_in : mode < 8 ? tt_out : tt_err);
        return int32_t(files_.size());
    }
    static const int flags[3] = {0, O_CREAT | O_TRUNC, O_CREAT | O_APPEND};  // r, w, a
    const bool plus = (mode >> 1) & 1u;
    const unsigned kind = mode >> 2;
    const int access = plus ? O_RDWR : kind == 0 ? O_RDONLY : O_WRONLY;
    const int fd = open_beneath(root_, name, uint64_t(access | flags[kind]), 0644);
    if (fd < 0) return fail(errno);
    for (size_t i = 0; i < files_.size(); ++i)
        if (files_[i] == -1) {
            files_[i] = fd;
            return int32_t(i + 1);
        }
    files_.push_back(fd);
    return int32_t(files_.size());
}

int32_t semihosting::transfer(cpu_core &core, bool write, uint32_t h, uint32_t buf, uint32_t len) {
    int *fd = handle(h);
    if (!fd) return -1;
    if (*fd == tt_in) {
        if (write) return fail(EBADF);
        return int32_t(len);  // no console input: end of file
    }
    if (*fd == tt_out || *fd == tt_err) {
        if (!write) return fail(EBADF);
    }
    std::vector<uint8_t> data;
    uint32_t done = 0;
    while (done < len) {
        const uint32_t n = std::min(chunk, len - done);
        data.resize(n);
        if (write) {
            if (core.debug_memory(false, buf + done, data.data(), n) != n) return fail(EFAULT);
            if (*fd < 0) {
                out_.write_text(core_, reinterpret_cast<const char *>(data.data()), n);
                done += n;
                continue;
            }
            const ssize_t w = ::write(*fd, data.data(), n);
            if (w < 0) return fail(errno);
            done += uint32_t(w);
            if (uint32_t(w) < n) break;
        } else {
            const ssize_t r = ::read(*fd, data.data(), n);
            if (r < 0) return fail(errno);
            if (core.debug_memory(true, buf + done, data.data(), unsigned(r)) != unsigned(r))
                return fail(EFAULT);
            done += uint32_t(r);
            if (uint32_t(r) < n) break;
        }
    }
    return int32_t(len - done);  // what was not transferred
}

int32_t semihosting::seek(uint32_t h, uint32_t pos) {
    int *fd = handle(h);
    if (!fd) return -1;
    if (*fd < 0) return fail(ESPIPE);
    return ::lseek(*fd, off_t(pos), SEEK_SET) < 0 ? fail(errno) : 0;
}

int32_t semihosting::flen(uint32_t h) {
    int *fd = handle(h);
    if (!fd) return -1;
    struct stat st;
    if (*fd < 0) return fail(ESPIPE);
    if (::fstat(*fd, &st) != 0) return fail(errno);
    return st.st_size > INT32_MAX ? fail(EOVERFLOW) : int32_t(st.st_size);
}

int32_t semihosting::close(uint32_t h) {
    int *fd = handle(h);
    if (!fd) return -1;
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
    return 0;
}

int32_t semihosting::remove(cpu_core &core, uint32_t name_addr, uint32_t len) {
    std::string name, base;
    if (!read_string(core, name_addr, len, name)) return fail(EINVAL);
    const int dir = parent_beneath(root_, name, base);
    if (dir < 0) return fail(errno);
    const int r = ::unlinkat(dir, base.c_str(), 0);  // a link is removed, not what it names
    const int e = errno;
    ::close(dir);
    return r == 0 ? 0 : fail(e);
}

int32_t semihosting::rename(cpu_core &core, uint32_t from, uint32_t from_len, uint32_t to,
                            uint32_t to_len) {
    std::string a, b, base_a, base_b;
    if (!read_string(core, from, from_len, a) || !read_string(core, to, to_len, b))
        return fail(EINVAL);
    const int da = parent_beneath(root_, a, base_a);
    if (da < 0) return fail(errno);
    const int db = parent_beneath(root_, b, base_b);
    if (db < 0) {
        const int e = errno;
        ::close(da);
        return fail(e);
    }
    const int r = ::renameat(da, base_a.c_str(), db, base_b.c_str());
    const int e = errno;
    ::close(da);
    ::close(db);
    return r == 0 ? 0 : fail(e);
}

int32_t semihosting::cmdline(cpu_core &core, uint32_t block) {
    uint32_t w[2];
    if (!read_words(core, block, w, 2)) return fail(EFAULT);
    if (cmdline_.size() + 1 > w[1]) return fail(ENOSPC);
    std::vector<uint8_t> text(cmdline_.begin(), cmdline_.end());
    text.push_back(0);
    if (core.debug_memory(true, w[0], text.data(), unsigned(text.size())) != text.size())
        return fail(EFAULT);
    const uint32_t n = uint32_t(cmdline_.size());
    uint8_t len[4] = {uint8_t(n), uint8_t(n >> 8), uint8_t(n >> 16), uint8_t(n >> 24)};
    return core.debug_memory(true, block + 4, len, 4) == 4 ? 0 : fail(EFAULT);
}

semihosting::result semihosting::call(cpu_core &core) {
    rv_cpu *cpu = core.debug_iss();
    const uint32_t operation = rv_cpu_get_reg(cpu, 10), arg = rv_cpu_get_reg(cpu, 11);
    const uint64_t cycles = rv_cpu_cycles(cpu);
    uint32_t w[4] = {0, 0, 0, 0};
    int32_t r = -1;
    result out;
    const auto words = [&](unsigned n) {
        return read_words(core, arg, w, n) || (errno_ = EFAULT, false);
    };
    switch (operation) {
    case sys_open:
        if (words(3)) r = open(core, w[0], w[1], w[2]);
        break;
    case sys_close:
        if (words(1)) r = close(w[0]);
        break;
    case sys_writec: {
        uint8_t c;
        if (core.debug_memory(false, arg, &c, 1) == 1) {
            out_.write_text(core_, reinterpret_cast<const char *>(&c), 1);
            r = 0;
        } else {
            r = fail(EFAULT);
        }
        break;
    }
    case sys_write0: {
        std::string text;
        for (uint32_t a = arg;; ++a) {
            uint8_t c;
            if (core.debug_memory(false, a, &c, 1) != 1) {
                r = fail(EFAULT);
                break;
            }
            if (c == 0) {
                r = 0;
                break;
            }
            text += char(c);
            if (text.size() >= chunk) {
                r = fail(E2BIG);
                break;
            }
        }
        if (r == 0) out_.write_text(core_, text.data(), text.size());
        break;
    }
    case sys_write:
        if (words(3)) r = transfer(core, true, w[0], w[1], w[2]);
        break;
    case sys_read:
        if (words(3)) r = transfer(core, false, w[0], w[1], w[2]);
        break;
    case sys_iserror:
        if (words(1)) r = int32_t(w[0]) < 0 ? 1 : 0;
        break;
    case sys_istty:
        if (words(1)) {
            const int *fd = handle(w[0]);
            r = fd ? (*fd < 0 ? 1 : 0) : -1;
        }
        break;
    case sys_seek:
        if (words(2)) r = seek(w[0], w[1]);
        break;
    case sys_flen:
        if (words(1)) r = flen(w[0]);
        break;
    case sys_remove:
        if (words(2)) r = remove(core, w[0], w[1]);
        break;
    case sys_rename:
        if (words(4)) r = rename(core, w[0], w[1], w[2], w[3]);
        break;
    // Time is simulated time, so a run stays deterministic: the core's cycles at its clock.
    case sys_clock: r = int32_t(cycles * 100 / clock_hz_); break;
    case sys_time: r = int32_t(epoch_ + cycles / clock_hz_); break;
    case sys_elapsed: {
        uint8_t b[8] = {uint8_t(cycles),       uint8_t(cycles >> 8),  uint8_t(cycles >> 16),
                        uint8_t(cycles >> 24), uint8_t(cycles >> 32), uint8_t(cycles >> 40),
                        uint8_t(cycles >> 48), uint8_t(cycles >> 56)};
        r = core.debug_memory(true, arg, b, 8) == 8 ? 0 : fail(EFAULT);
        break;
    }
    case sys_tickfreq: r = int32_t(clock_hz_ > INT32_MAX ? -1 : int64_t(clock_hz_)); break;
    case sys_errno: r = errno_; break;
    case sys_get_cmdline: r = cmdline(core, arg); break;
    case sys_heapinfo: {
        // a pointer to four words: heap base and limit, stack base and limit; 0 = not known
        uint32_t block;
        uint8_t zeros[16] = {};
        r = read_words(core, arg, &block, 1) && core.debug_memory(true, block, zeros, 16) == 16
                ? 0
                : fail(EFAULT);
        break;
    }
    case sys_exit:  // RV32 passes the reason itself, as AArch32 does
        out.exit = true;
        out.code = arg == application_exit ? 0 : 1;
        r = 0;
        break;
    case sys_exit_extended:
        if (words(2)) {
            out.exit = true;
            out.code = w[0] == application_exit ? w[1] : 1;
            r = 0;
        }
        break;
    default: r = fail(ENOSYS); break;  // no SYS_SYSTEM: the firmware never runs host commands
    }
    rv_cpu_set_reg(cpu, 10, uint32_t(r));
    return out;
}

}  // namespace tiles
