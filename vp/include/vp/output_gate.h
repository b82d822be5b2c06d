// Output while the simulation can go back (reverse execution, docs/debugging.md).
//
// A copy of the simulation that replays history from a checkpoint produces again, byte for byte,
// what the process before it already wrote. Each output (standard output and error, console.file,
// --log-file, --trace) therefore goes through a gate that counts the bytes of this history and
// drops those the history has already written (the count is shared by every process), so every
// line appears once. When a debugger changes the simulation, the future written so far is
// abandoned: files the gate opened itself are cut back to the present; a terminal or pipe keeps
// what it showed.
#pragma once
#include <cstdint>
#include <streambuf>
#include <string>
#include <vector>

namespace vp {

class output_gate : public std::streambuf {
public:
    // fd: where bytes go; written: the bytes this history wrote (shared); at: bytes already there
    // (a file the stream wrote into before the gate); own: close fd at the end, cut it back on
    // an abandoned future.
    output_gate(int fd, uint64_t *written, uint64_t at, bool own);
    ~output_gate() override;
    output_gate(const output_gate &) = delete;
    output_gate &operator=(const output_gate &) = delete;

    // The future after this point was abandoned (a debugger changed the simulation).
    void abandon_future() { cut(count()); }
    // ... after byte `at` of this history (at >= what this process has written).
    void cut(uint64_t at);
    uint64_t count() {
        flush();
        return count_;
    }
    bool failed() const { return failed_; }

protected:
    int overflow(int c) override;
    std::streamsize xsputn(const char *s, std::streamsize n) override;
    int sync() override;

private:
    bool flush();
    int fd_;
    uint64_t *written_;
    uint64_t count_;
    bool own_;
    bool failed_ = false;
    std::vector<char> buf_;
};

}  // namespace vp
