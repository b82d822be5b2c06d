#include "vp/statistics.h"

#include "vp/area.h"
#include "vp/energy.h"

namespace vp {

using nlohmann::ordered_json;

namespace {

const char *exception_name(unsigned cause) {
    static const char *const names[16] = {"instruction_misaligned",
                                          "instruction_access_fault",
                                          "illegal_instruction",
                                          "breakpoint",
                                          "load_misaligned",
                                          "load_access_fault",
                                          "store_misaligned",
                                          "store_access_fault",
                                          "ecall_u",
                                          "ecall_s",
                                          "reserved_10",
                                          "ecall_m",
                                          "instruction_page_fault",
                                          "load_page_fault",
                                          "reserved_14",
                                          "store_page_fault"};
    return cause < 16 ? names[cause] : "other";
}

std::string core_state(const tiles::cpu_core &core, bool failed) {
    if (!core.started()) return "no_firmware";
    if (failed) return "failed";
    if (core.halted()) return "exited";
    if (core.sleeping()) return "sleeping";
    return "running";
}

ordered_json core_statistics(const run_control &rc, unsigned tile, unsigned index,
                             const tiles::cpu_core &core) {
    const rv_cpu_stats &s = *rv_cpu_get_stats(core.iss());
    ordered_json j;
    j["core"] = index;
    auto exit = rc.exit_codes().find({tile, index});
    auto failure = rc.failures().find({tile, index});
    j["state"] = core_state(core, failure != rc.failures().end());
    j["exit_code"] = exit != rc.exit_codes().end() ? ordered_json(exit->second) : ordered_json();
    if (failure != rc.failures().end()) j["failure"] = failure->second;
    j["cycles"] = s.cycles;
    j["instret"] = s.instret;
    j["sleep_cycles"] = core.stats().sleep_cycles;
    j["loads"] = s.loads;
    j["stores"] = s.stores;
    j["atomics"] = s.atomics;
    j["branches_taken"] = s.branches_taken;
    j["branches_not_taken"] = s.branches_not_taken;
    j["muls"] = s.muls;
    j["divs"] = s.divs;
    j["device_accesses"] = core.stats().device_accesses;
    // only in the lookahead mode: the exact mode's statistics stay as they were
    if (core.lookahead_mode()) j["early_accesses"] = core.stats().early_accesses;
    j["bus_errors"] = core.stats().bus_errors;
    j["interrupts"] = s.interrupts;
    j["exceptions"] = s.exceptions;
    ordered_json by_cause = ordered_json::object();
    for (unsigned c = 0; c < 16; ++c)
        if (s.exceptions_by_cause[c]) by_cause[exception_name(c)] = s.exceptions_by_cause[c];
    j["exceptions_by_cause"] = by_cause;
    j["wfi"] = s.wfi_count;
    j["decode_cache_misses"] = s.decode_cache_misses;
    return j;
}

ordered_json adapter_statistics(const namp::network_adapter &na) {
    const namp::na_stats &s = na.stats();
    ordered_json channels = ordered_json::object();
    for (unsigned c = 0; c < noc::channel_count; ++c)
        channels[noc::channel_name(noc::channel_from_index(c))] = {
            {"packets_sent", s.packets_sent[c]},
            {"flits_sent", s.flits_sent[c]},
            {"packets_received", s.packets_received[c]},
            {"flits_received", s.flits_received[c]}};
    ordered_json j;
    j["channels"] = channels;
    j["rx_refusals"] = s.rx_refusals;
    j["dma"] = {{"transfers", s.dma_transfers},
                {"bytes_sent", s.dma_bytes},
                {"errors", s.dma_errors},
                {"bytes_written_for_remote", s.dma_bytes_written}};
    j["data_engine"] = {{"contexts", na.dma().contexts()},
                        {"transfers", s.dma_contexts_started},
                        {"packets", s.dma_packets},
                        {"payload_bytes", s.dma_payload_bytes},
                        {"read_errors", s.dma_read_errors},
                        {"faults_injected", s.dma_faults_injected},
                        {"bus_accesses", na.dma().port.accesses()}};
    j["rma"] = {{"loads", s.rma_loads},
                {"stores", s.rma_stores},
                {"store_errors", s.rma_errors},
                {"served_for_remote", s.rma_served}};
    j["register_accesses"] = s.register_accesses;
    j["bus_errors"] = s.bus_errors;
    if (const namp::namp_unit *u = na.namp()) {
        static const char *const msg_names[NAMP_MSG_TYPES] = {
            "unknown",     "alloc_request", "alloc_response", "credit",  "finalize",
            "credit_nack", "nak_reloc",     "reloc",          "migrate", "reloc_credit"};
        ordered_json sent = ordered_json::object(), received = ordered_json::object();
        for (unsigned t = 0; t < NAMP_MSG_TYPES; ++t) {
            sent[msg_names[t]] = s.namp_msgs_sent[t];
            received[msg_names[t]] = s.namp_msgs_received[t];
        }
        ordered_json slots = ordered_json::array();
        for (const auto &sp : u->slots()) {
            const namp::slot::counters &sl = sp->stats();
            ordered_json cyc = ordered_json::object();
            for (unsigned k = 1; k < namp::slot_state_count; ++k)
                cyc[namp::slot_state_name(namp::slot_state(k))] = sl.state_cycles[k];
            slots.push_back({{"state", namp::slot_state_name(sp->state())},
                             {"transfers", sl.transfers},
                             {"bytes", sl.bytes},
                             {"retries", sl.retries},
                             {"nacks", sl.nacks},
                             {"credit_waits", sl.credit_waits},
                             {"errors", sl.errors},
                             {"state_cycles", cyc}});
        }
        j["namp"] = {{"egress_steps", s.namp_egress_steps},
                     {"ingress_steps", s.namp_ingress_steps},
                     {"target_steps", s.namp_target_steps},
                     {"messages_sent", sent},
                     {"messages_received", received},
                     {"nacks_sent", s.namp_nacks_sent},
                     {"rx_completed", s.namp_rx_completed},
                     {"voided", s.namp_voided},
                     {"dropped", s.namp_dropped},
                     {"atomic_ops", u->init.port.atomics() + u->target.port.atomics()},
                     {"raw_refused", s.namp_raw_refused},
                     {"window_refusals", s.namp_window_refusals},
                     {"credits_refused", s.namp_credit_refused},
                     {"credit_nacks", s.namp_credit_nacks},
                     {"identity_refusals", s.namp_identity_refusals},
                     {"member_refusals", s.namp_member_refusals},
                     {"relocations", s.namp_relocations},
                     {"ps_applied", s.namp_ps_applied},
                     {"ps_refused", s.namp_ps_refused},
                     {"shadow_transfers", s.namp_shadow_transfers},
                     {"shadow_errors", s.namp_shadow_errors},
                     {"slots", slots}};
    }
    return j;
}

}  // namespace

ordered_json collect_statistics(const platform &p) {
    const run_control &rc = p.control();
    ordered_json doc;
    ordered_json sim;
    sim["end_reason"] = to_string(rc.reason());
    sim["message"] = rc.message();
    sim["exit_code"] = rc.process_exit_code();
    sim["simulated_cycles"] = p.simulated_cycles();
    doc["simulation"] = sim;

    uint64_t total_instret = 0, total_cycles = 0;
    ordered_json tiles = ordered_json::array();
    for (const auto &t : p.tiles()) {
        const tiles::tile_geometry &g = t->geometry();
        ordered_json tj;
        tj["id"] = g.id;
        tj["x"] = g.x;
        tj["y"] = g.y;
        ordered_json cores = ordered_json::array();
        for (unsigned c = 0; c < t->cores().size(); ++c) {
            const tiles::cpu_core &core = *t->cores()[c];
            cores.push_back(core_statistics(rc, g.id, c, core));
            total_instret += rv_cpu_instret(core.iss());
            total_cycles += rv_cpu_cycles(core.iss());
        }
        tj["cores"] = cores;
        tj["console"] = {{"bytes", t->terminal().bytes_written()},
                         {"lines", t->terminal().lines_written()}};
        tj["bus"] = {{"transactions", t->bus().transactions()},
                     {"decode_errors", t->bus().decode_errors()},
                     {"busy_cycles", t->bus().busy_cycles()},
                     {"wait_cycles", t->bus().wait_cycles()},
                     {"words", t->bus().words()},
                     {"sram_bus_reads", t->memory().bus_reads()},
                     {"sram_bus_writes", t->memory().bus_writes()},
                     {"sram_bus_read_words", t->memory().bus_read_words()},
                     {"sram_bus_write_words", t->memory().bus_write_words()}};
        if (const namp::network_adapter *na = p.adapter(g.id)) tj["na"] = adapter_statistics(*na);
        tiles.push_back(tj);
    }
    doc["totals"] = {{"instret", total_instret}, {"core_cycles", total_cycles}};
    ordered_json marks = ordered_json::array();
    for (const mark_record &m : rc.marks())
        marks.push_back({{"tile", m.tile}, {"core", m.core}, {"id", m.id}, {"cycle", m.cycle}});
    doc["marks"] = marks;
    doc["tiles"] = tiles;
    doc["noc"] = ordered_json::parse(p.network().stats_json(int64_t(p.simulated_cycles())).dump());
    doc["area"] = area_json(estimate_area(p.config()));
    doc["area"]["noc"] = noc_area_json(p.config());
    doc["energy"] =
        energy_json(estimate_energy(p.config(), energy_counts_of(p), p.config().na_enabled));
    doc["config"] = p.config().effective;
    return doc;
}

}  // namespace vp
