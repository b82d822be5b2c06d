#include "tiles/tile_bus.h"

#include <algorithm>

#include "tiles/initiator_id.h"

namespace tiles {

tile_bus::tile_bus(sc_core::sc_module_name name, unsigned word_cycles,
                   sc_core::sc_time clock_period)
    : sc_module(name),
      masters("masters"),
      devices("devices"),
      word_cycles_(word_cycles),
      period_(clock_period) {
    masters.register_b_transport(this, &tile_bus::b_transport);
    masters.register_get_direct_mem_ptr(this, &tile_bus::get_direct_mem_ptr);
    masters.register_transport_dbg(this, &tile_bus::transport_dbg);
    devices.register_invalidate_direct_mem_ptr(this, &tile_bus::invalidate_direct_mem_ptr);
}

void tile_bus::map_device(uint32_t base, uint32_t size, const std::string &label, bool lookahead) {
    for (size_t i = 0; i < map_.size(); ++i) {
        const range &r = map_[i];
        if (base < r.base + r.size && r.base < uint64_t(base) + size) {
            SC_REPORT_FATAL(name(),
                            ("device '" + label + "' overlaps '" + labels_[i] + "'").c_str());
        }
    }
    map_.push_back({base, size, lookahead});
    labels_.push_back(label);
}

// Returns the device index, or -1 if the access is not entirely inside one device.
int tile_bus::decode(uint64_t addr, unsigned len) const {
    for (size_t i = 0; i < map_.size(); ++i) {
        const range &r = map_[i];
        if (addr >= r.base && addr - r.base < r.size && len <= r.size - (addr - r.base))
            return int(i);
    }
    return -1;
}

// First come first served in simulated time: a burst's grant may lie ahead of a transaction booked
// after it, so the bus keeps a calendar of granted intervals and grants each transaction the first
// free gap at or after its arrival. Only the annotated delay changes here.
void tile_bus::arbitrate(const tlm::tlm_generic_payload &trans, sc_core::sc_time &delay) {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    const sc_core::sc_time arrival = now + delay;
    const uint64_t words = std::max<uint64_t>(1, (trans.get_data_length() + 3) / 4);
    const uint64_t occupied = std::max<uint64_t>(1, words * word_cycles_);
    const sc_core::sc_time length = period_ * double(occupied);
    // intervals that ended cannot matter: no master's time is before now
    auto live = granted_.begin();
    while (live != granted_.end() && live->second <= now) ++live;
    granted_.erase(granted_.begin(), live);
    sc_core::sc_time start = arrival;
    auto it = granted_.begin();
    for (; it != granted_.end(); ++it) {
        if (it->second <= start) continue;       // ends before we would start
        if (it->first >= start + length) break;  // a gap large enough before it
        start = it->second;                      // overlaps: try after it
    }
    granted_.insert(it, {start, start + length});
    if (start > arrival) {
        wait_cycles_ += uint64_t((start - arrival) / period_ + 0.5);
        delay += start - arrival;
    }
    busy_cycles_ += occupied;
    words_ += words;
    // the burst beyond the first word, which overlaps the device's own latency
    if (words > 1) delay += period_ * double((words - 1) * word_cycles_);
}

void tile_bus::b_transport(int, tlm::tlm_generic_payload &trans, sc_core::sc_time &delay) {
    ++transactions_;
    const uint64_t addr = trans.get_address();
    const int dev = decode(addr, trans.get_data_length());
    // A core's access is booked at its own time, after the tie rule, like a bus master's: booked
    // at now + run-ahead, it went before the masters that act in between, so where the core last
    // synchronized decided who got the bus (docs/timing.md, "Ties"). In the lookahead mode a
    // device that allows it takes the access now, booked at the core's time all the same.
    if (initiator_id *id = find_initiator(trans)) {
        id->early = dev >= 0 && map_[dev].lookahead && id->lookahead != sc_core::SC_ZERO_TIME &&
                    delay <= id->lookahead;
        sync_to_initiator(trans, delay);
    }
    arbitrate(trans, delay);
    if (dev < 0) {
        ++decode_errors_;
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    trans.set_address(addr - map_[dev].base);
    devices[dev]->b_transport(trans, delay);
    trans.set_address(addr);
}

bool tile_bus::get_direct_mem_ptr(int, tlm::tlm_generic_payload &trans, tlm::tlm_dmi &dmi) {
    const uint64_t addr = trans.get_address();
    const int dev = decode(addr, 1);
    if (dev < 0) return false;
    trans.set_address(addr - map_[dev].base);
    const bool granted = devices[dev]->get_direct_mem_ptr(trans, dmi);
    trans.set_address(addr);
    if (granted) {
        // Clip to the mapped window, then translate back to physical addresses.
        const uint64_t base = map_[dev].base;
        const uint64_t last = map_[dev].size - 1;
        if (dmi.get_end_address() > last) dmi.set_end_address(last);
        dmi.set_start_address(dmi.get_start_address() + base);
        dmi.set_end_address(dmi.get_end_address() + base);
    }
    return granted;
}

unsigned tile_bus::transport_dbg(int, tlm::tlm_generic_payload &trans) {
    const uint64_t addr = trans.get_address();
    const int dev = decode(addr, 1);
    if (dev < 0) return 0;
    trans.set_address(addr - map_[dev].base);
    const unsigned n = devices[dev]->transport_dbg(trans);
    trans.set_address(addr);
    return n;
}

void tile_bus::invalidate_direct_mem_ptr(int device, sc_dt::uint64 start, sc_dt::uint64 end) {
    const uint64_t base = map_[device].base;
    for (unsigned m = 0; m < masters.size(); ++m)
        masters[m]->invalidate_direct_mem_ptr(start + base, end + base);
}

}  // namespace tiles
