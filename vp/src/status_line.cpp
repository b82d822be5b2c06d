#include "vp/status_line.h"

namespace vp {

status_line::status_line(std::ostream &err, bool terminal, std::ostream &console_out)
    : err_(err), terminal_(terminal), buf_(*this, console_out.rdbuf()), console_(&buf_) {}

void status_line::show(const std::string &text) {
    if (!terminal_) {
        err_ << text << "\n" << std::flush;
        return;
    }
    err_ << "\r" << text << "\033[K" << std::flush;  // overwrite, then clear what is left
    shown_ = true;
}

void status_line::done() {
    if (shown_) err_ << "\n" << std::flush;
    shown_ = false;
}

void status_line::erase() {
    if (!shown_) return;
    err_ << "\r\033[K" << std::flush;
    shown_ = false;
}

bool status_line::console_failed() const { return buf_.failed; }

int status_line::guard_buf::overflow(int c) {
    if (c == traits_type::eof()) return traits_type::not_eof(c);
    owner_.erase();
    if (target_->sputc(char(c)) == traits_type::eof()) {
        failed = true;
        return traits_type::eof();
    }
    return c;
}

std::streamsize status_line::guard_buf::xsputn(const char *s, std::streamsize n) {
    owner_.erase();
    const std::streamsize done = target_->sputn(s, n);
    if (done != n) failed = true;
    return done;
}

int status_line::guard_buf::sync() {
    const int r = target_->pubsync();
    if (r != 0) failed = true;
    return r;
}

}  // namespace vp
