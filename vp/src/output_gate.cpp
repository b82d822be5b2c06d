#include "vp/output_gate.h"

#include <algorithm>
#include <cerrno>
#include <sys/stat.h>
#include <unistd.h>

namespace vp {

output_gate::output_gate(int fd, uint64_t *written, uint64_t at, bool own)
    : fd_(fd), written_(written), count_(at), own_(own) {
    *written_ = std::max(*written_, at);
    buf_.reserve(1 << 16);
}

output_gate::~output_gate() {
    flush();
    if (own_ && fd_ >= 0) ::close(fd_);
}

bool output_gate::flush() {
    size_t from = 0;
    // the bytes this history already wrote (by a process before this copy) are dropped
    if (count_ < *written_) from = size_t(std::min<uint64_t>(*written_ - count_, buf_.size()));
    const char *p = buf_.data() + from;
    size_t left = buf_.size() - from;
    count_ += from;
    while (left) {
        const ssize_t n = ::write(fd_, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            failed_ = true;
            break;
        }
        p += n;
        left -= size_t(n);
        count_ += uint64_t(n);
    }
    *written_ = std::max(*written_, count_);
    buf_.clear();
    return !failed_;
}

int output_gate::overflow(int c) {
    if (failed_) return traits_type::eof();
    if (c != traits_type::eof()) {
        buf_.push_back(char(c));
        if (buf_.size() >= (1u << 16) && !flush()) return traits_type::eof();
    }
    return traits_type::not_eof(c);
}

std::streamsize output_gate::xsputn(const char *s, std::streamsize n) {
    if (failed_) return 0;
    buf_.insert(buf_.end(), s, s + n);
    if (buf_.size() >= (1u << 16) && !flush()) return 0;
    return n;
}

int output_gate::sync() { return flush() ? 0 : -1; }

void output_gate::cut(uint64_t at) {
    flush();
    at = std::max(at, count_);
    struct stat st;
    if (own_ && ::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode) && uint64_t(st.st_size) > at) {
        if (::ftruncate(fd_, off_t(at)) != 0) failed_ = true;
        ::lseek(fd_, off_t(at), SEEK_SET);
    }
    *written_ = std::min(*written_, at);
}

}  // namespace vp
