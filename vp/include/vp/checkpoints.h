// Checkpoints of the whole simulation for reverse execution (docs/debugging.md, "Reverse
// execution"): copy-on-write snapshots of the process.
//
// The simulator is one host thread (SystemC's processes are coroutines) and deterministic, so a
// fork() taken inside a core's thread holds everything needed to go on from that point: every
// tile's memory, the cores, the SystemC kernel and its event queues, the network's packets in
// flight, the JIT's code. A checkpoint is a forked child that sleeps on a socket. Going back means
// asking the latest checkpoint before the target for a fresh copy of itself (it forks again and
// stays a checkpoint); the copy runs forward to the target and takes over the GDB connection,
// while the process that asked ends.
//
// Processes: the first one (the anchor, whose pid the user or a test waits for) runs the
// simulation until the first step back; from then on it only waits for the live process to
// report the exit code of the run, and ends with it. Every process holds the write end of a
// report pipe to the anchor and watches an anchor pipe that closes when the anchor dies (then it
// ends too). The table of checkpoints lives in shared memory.
#pragma once
#include <cstdint>
#include <string>
#include <sys/types.h>
#include <vector>

namespace vp {

class checkpoints {
public:
    struct entry {
        pid_t pid;
        uint64_t seq;      // creation order (ties in `global`)
        uint64_t global;   // steps of all cores together when it was taken: history order
        uint64_t time_ps;  // SystemC time
        int thread;        // the core whose slice it was taken before
        bool barrier;      // taken after a debugger changed the simulation: never thinned
        bool used;
        uint64_t out[8];  // bytes each output stream had written (output_gate)
    };

    // threads: the cores GDB sees; max: checkpoints kept (the first is never dropped); interval:
    // steps of all cores between two.
    checkpoints(unsigned threads, unsigned max, uint64_t interval);
    ~checkpoints();
    checkpoints(const checkpoints &) = delete;
    checkpoints &operator=(const checkpoints &) = delete;

    unsigned capacity() const { return max_; }
    uint64_t interval() const { return interval_; }
    bool is_anchor() const;

    // The checkpoints in history order (index, entry); steps/cycles of entry i per thread.
    std::vector<unsigned> ordered() const;
    const entry &at(unsigned i) const;
    const uint64_t *steps(unsigned i) const;
    const uint64_t *cycles(unsigned i) const;
    // The latest checkpoint from which `thread` has not yet done step `steps` + 1 and that lies
    // strictly before `global` (if given): where a replay to that point starts; -1 if none.
    int before(int thread, uint64_t steps, uint64_t global_limit = UINT64_MAX) const;
    int before_cycle(int thread, uint64_t cycle) const;
    // Whether a checkpoint lies within `interval` steps before `global` (no new one needed).
    bool recent(uint64_t global) const;

    // Takes a checkpoint of this process. Returns false in the process that goes on; in a copy
    // made later from the checkpoint (a step back), returns true with the message that asked for it
    // and the GDB client descriptor it sent (or -1).
    bool take(uint64_t global, uint64_t time_ps, int thread, const std::vector<uint64_t> &steps,
              const std::vector<uint64_t> &cycles, const std::vector<uint64_t> &out, bool barrier,
              std::string &message, int &client, const std::vector<int> &close_in_child);
    // The first barrier after `global`, or -1: a run that goes on from `global` will not do what
    // the debugger did there (vp/gdb_server.h, the end of a replay).
    int barrier_after(uint64_t global) const;
    // Asks checkpoint i for a copy that goes on with `message`; this process then ends (the
    // anchor waits for the run's result instead). Never returns; if the checkpoint is gone,
    // returns false with the reason.
    bool hand_over(unsigned i, const std::string &message, int client, std::string &why);
    // Drops every checkpoint taken after `global` (a debugger changed the simulation there).
    void drop_after(uint64_t global);
    // Drops every checkpoint (the end of the run).
    void drop_all();
    // The live process ends the run with this exit code: the anchor ends with it too.
    void report_exit(int code);
    // False once the anchor is gone (its pipe closed): the live process should end.
    bool anchor_alive() const;
    uint64_t taken() const;    // checkpoints taken so far in this history (statistics, tests)
    uint64_t fork_ns() const;  // host time spent taking them (the fork calls)
    // Bytes an output stream of this history has written (shared by every process, output_gate).
    uint64_t *written(unsigned stream);
    static constexpr unsigned streams = 8;

private:
    struct shared;
    void thin();
    void wait_for_request(int listener, std::string &message, int &client);
    [[noreturn]] void supervise();
    void tell_anchor(uint32_t type, int64_t value);

    unsigned threads_, max_;
    uint64_t interval_;
    shared *shm_ = nullptr;
    size_t shm_size_ = 0;
    int report_[2] = {-1, -1};  // the anchor reads; everyone writes
    int anchor_[2] = {-1, -1};  // the anchor holds the write end; its death closes it
};

}  // namespace vp
