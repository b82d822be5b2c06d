// Tile-local SRAM: a TLM target with DMI for the cores and timed b_transport for other bus masters.
#pragma once
#include <cstdint>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "iss/rv32.h"

namespace tiles {

class sram : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<sram> socket;

    // Latencies are cycles per access; reservations are the tile's LR/SC reservations, which a
    // write from a bus master (not through DMI) must break.
    sram(sc_core::sc_module_name name, uint32_t physical_base, uint32_t size, unsigned read_latency,
         unsigned write_latency, sc_core::sc_time clock_period, rv_reservation_set *reservations);

    uint32_t size() const { return storage_.size; }
    uint8_t *data() { return storage_.data; }
    unsigned read_latency() const { return read_latency_; }
    unsigned write_latency() const { return write_latency_; }

    // Copies an image into the memory (firmware loading). Returns false if it does not fit.
    bool load(uint32_t offset, const uint8_t *bytes, uint32_t len);

    uint64_t bus_reads() const { return bus_reads_; }
    uint64_t bus_writes() const { return bus_writes_; }
    // 32-bit words of those accesses (a burst counts each word; the energy model's array accesses)
    uint64_t bus_read_words() const { return bus_read_words_; }
    uint64_t bus_write_words() const { return bus_write_words_; }

private:
    void b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);
    bool get_direct_mem_ptr(tlm::tlm_generic_payload &trans, tlm::tlm_dmi &dmi);
    unsigned transport_dbg(tlm::tlm_generic_payload &trans);
    bool in_range(uint64_t addr, unsigned len) const;

    // Zero-filled memory reserved up front and backed by the host page by page as it is first
    // touched, so an idle tile costs only the pages its firmware and data use.
    struct lazy_memory {
        uint8_t *data = nullptr;
        uint32_t size = 0;
        explicit lazy_memory(uint32_t bytes);
        ~lazy_memory();
        lazy_memory(const lazy_memory &) = delete;
        lazy_memory &operator=(const lazy_memory &) = delete;
    };
    lazy_memory storage_;
    unsigned read_latency_, write_latency_;
    sc_core::sc_time period_;
    rv_reservation_set *reservations_;
    uint32_t physical_base_;  // reservations hold physical addresses, the socket sees offsets
    uint64_t bus_reads_ = 0, bus_writes_ = 0, bus_read_words_ = 0, bus_write_words_ = 0;
};

}  // namespace tiles
