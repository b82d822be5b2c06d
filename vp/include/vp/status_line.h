// The --progress status line on standard error. On a terminal it is redrawn in place, and every
// console line written through console() first erases it, so the two never share a line; the
// next redraw brings it back below. Elsewhere (a pipe, a file) each update is a line of its own.
#pragma once
#include <memory>
#include <ostream>
#include <streambuf>
#include <string>

namespace vp {

class status_line {
public:
    status_line(std::ostream &err, bool terminal, std::ostream &console_out);
    void show(const std::string &text);  // the current status
    void done();                         // after the last show: end the line
    // The stream console lines go through (it erases the status line before each write).
    std::ostream &console() { return console_; }
    bool console_failed() const;  // a console write failed (a full disk, a closed pipe)

private:
    class guard_buf : public std::streambuf {
    public:
        guard_buf(status_line &owner, std::streambuf *target) : owner_(owner), target_(target) {}
        bool failed = false;

    protected:
        int overflow(int c) override;
        std::streamsize xsputn(const char *s, std::streamsize n) override;
        int sync() override;

    private:
        status_line &owner_;
        std::streambuf *target_;
    };
    void erase();

    std::ostream &err_;
    bool terminal_, shown_ = false;
    guard_buf buf_;
    std::ostream console_;
};

}  // namespace vp
