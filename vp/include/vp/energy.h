// Energy estimate of a run (docs/energy.md), as McPAT, ORION and DSENT give architects: the run's
// own counters times an energy per event (instruction classes, SRAM and register-file accesses,
// bus words, adapter buffers, DMA words, NAMP steps and register accesses, router buffers,
// crossbars, route computations and link traversals), plus leakage: the gates of the area model
// times a leakage power per gate times the simulated time. Every figure is an energy.* key with its
// source; nothing simulated depends on them. Counts are integers and the arithmetic is the same for
// every engine, so the estimate is as deterministic as the counters.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "noc/stats.h"
#include "vp/config.h"

namespace vp {

class platform;

// The counters the model charges, summed over the platform (or the NoC alone: --traffic).
struct energy_counts {
    uint64_t instret = 0, loads = 0, stores = 0, atomics = 0, branches = 0, muls = 0, divs = 0;
    uint64_t sram_bus_read_words = 0, sram_bus_write_words = 0, bus_words = 0;
    uint64_t na_flits_sent = 0, na_flits_received = 0;
    uint64_t dma_bytes = 0;  // moved by the data engines: packetized and written here
    uint64_t namp_steps = 0, na_register_accesses = 0;
    noc::activity noc;
    uint64_t noc_packets_delivered = 0, namp_transfers = 0, data_bytes = 0;
    uint64_t cycles = 0;  // simulated time in clock cycles
};
energy_counts energy_counts_of(const platform &p);

struct energy_event {
    std::string name, group, what;
    uint64_t count = 0;
    uint64_t fj_each = 0;
    double pj() const { return double(count) * double(fj_each) / 1000.0; }
};

// A part of the chip that leaks: gates (NAND2 equivalents) from the area model.
struct leakage_part {
    std::string name, group;
    double gates = 0;
};

struct energy_report {
    std::vector<energy_event> events;
    std::vector<leakage_part> leakage;
    uint64_t leakage_pw_per_gate = 0;
    double seconds = 0;
    energy_counts counts;
    double group_pj(const std::string &group) const;  // dynamic energy of a group
    double leakage_pj(const leakage_part &part) const;
    double leakage_pj() const;
    double dynamic_pj() const;
    double total_pj() const { return dynamic_pj() + leakage_pj(); }
};

// The groups, in report order: cores, sram, bus, adapter, noc.
const std::vector<std::string> &energy_groups();

// What leaks, from the area model (the adapters, when there are any) and the routers: the one
// place that reads gates per component (rewire it here when the area model changes).
std::vector<leakage_part> leakage_inventory(const platform_config &c, bool adapters);

// Throws config_error when the area parameters are inconsistent (as estimate_area).
energy_report estimate_energy(const platform_config &c, const energy_counts &counts, bool adapters);

// The "energy" section of the statistics.
nlohmann::ordered_json energy_json(const energy_report &r);

// Router and link area of the mesh (the area model has no routers): the "area.noc" statistics.
nlohmann::ordered_json noc_area_json(const platform_config &c);
double router_gates(const platform_config &c);

// A markdown table of the energy.* keys: value, unit, what and source (namp-vp --energy-figures;
// docs/energy.md).
std::string energy_figures_table();

}  // namespace vp
