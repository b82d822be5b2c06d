// One bus-master port of the network adapter onto the tile bus (thesis Fig. 4.2: the master
// interface, "multiplexed inside the NAMP"): each component that reads or writes tile memory (the
// DMA engine, the NAMP initiator, the NAMP target, the data-request target) owns one, so the tile
// bus arbitrates between them like between any masters. Every access waits for its time (bus
// wait, device latency, burst), so the calls are for SC_THREADs only.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "tiles/tie_gate.h"

namespace namp {

class bus_port : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<bus_port> socket;

    explicit bus_port(sc_core::sc_module_name name);

    // Plain accesses; false on a bus error.
    bool read(uint32_t addr, void *data, uint32_t len);
    // A read whose latency the caller waits with its own next wait: the access's time is added
    // to `owed` (one activation fewer where nothing happens between the two waits).
    bool read(uint32_t addr, void *data, uint32_t len, sc_core::sc_time &owed);
    bool write(uint32_t addr, const void *data, uint32_t len);
    bool read_word(uint32_t addr, uint32_t &v) { return read(addr, &v, 4); }
    bool write_word(uint32_t addr, uint32_t v) { return write(addr, &v, 4); }

    // Atomic read-modify-write of one aligned word (tiles::atomic_ext, executed by the SRAM).
    // cas: store `operand` if the word equals `compare`; otherwise fetch-and-add `operand`.
    // `atomic` = false does the same as a read followed by a write (not atomic against the cores).
    // Returns false on a bus error; `old` is the word before, `success` whether it was changed.
    bool rmw(uint32_t addr, bool cas, uint32_t operand, uint32_t compare, bool atomic,
             uint32_t &old, bool &success);
    bool fetch_add(uint32_t addr, uint32_t n, bool atomic) {
        uint32_t old;
        bool ok;
        return rmw(addr, false, n, 0, atomic, old, ok);
    }

    // The tie rule (tiles/tie_gate.h): every transaction waits its turn among the bus masters
    // that act in the same instant. Null: SystemC's order (unit tests of a component alone).
    void set_gate(tiles::tie_gate *gate, uint64_t key) {
        gate_ = gate;
        gate_key_ = key;
    }

    // Waits for this port's turn in the instant (the tie rule), as every transaction does first.
    // Called alone by a thread that decides from state other threads may change in the same
    // instant (which context to serve, which member's step is due), so that what they do in it
    // is seen first, whatever SystemC's order (docs/timing.md "Ties").
    void wait_turn() {
        if (gate_) gate_->pass(gate_key_);
    }

    uint64_t accesses() const { return accesses_; }
    uint64_t atomics() const { return atomics_; }

private:
    bool transport(tlm::tlm_command cmd, uint32_t addr, uint8_t *data, uint32_t len,
                   sc_core::sc_time *owed = nullptr);
    // Payloads owned by the port, one per access in flight (several threads of a component may
    // wait inside an access at once): a payload on a thread's stack would hold heap memory that
    // is never freed if the simulation ends while the thread waits.
    tlm::tlm_generic_payload &take_payload(tlm::tlm_command cmd, uint32_t addr, uint8_t *data,
                                           uint32_t len);
    void give_payload(tlm::tlm_generic_payload &t) { free_.push_back(&t); }

    std::vector<std::unique_ptr<tlm::tlm_generic_payload>> payloads_;
    std::vector<tlm::tlm_generic_payload *> free_;
    uint64_t accesses_ = 0, atomics_ = 0;
    tiles::tie_gate *gate_ = nullptr;
    uint64_t gate_key_ = 0;
};

}  // namespace namp
