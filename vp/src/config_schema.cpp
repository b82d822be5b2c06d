// The configuration keys and presets of the platform (docs/configuration.md mirrors this table).
#include "vp/config.h"

namespace vp {

namespace {
constexpr int64_t kib = 1024, mib = 1024 * 1024;
}

const std::vector<config_key> &config_schema() {
    using vk = value_kind;
    static const std::vector<config_key> schema = {
        {"mesh.width", vk::integer, 1, 16, 4, "tiles", "tiles in x direction"},
        {"mesh.height", vk::integer, 1, 16, 4, "tiles", "tiles in y direction"},
        {"clock_hz", vk::integer, 1000000, 4000000000LL, 100000000, "Hz",
         "core and bus clock of every tile"},
        {"quantum_cycles", vk::integer, 1, 10000000, 1000, "cycles",
         "global quantum: how far a core may run ahead of SystemC time before it synchronizes"},
        {"stop_on_failure", vk::boolean, 0, 1, true, "",
         "end the simulation as soon as a core exits with a non-zero code or locks up"},
        {"tile.cores", vk::integer, 1, 32, 1, "cores", "cores per tile (SMP, shared SRAM)"},
        {"tile.sram_size", vk::integer, 64 * kib, 256 * mib, 1 * mib, "bytes",
         "local SRAM per tile, a multiple of 4 KiB, mapped at 0x80000000"},
        {"tile.sram_read_latency", vk::integer, 0, 1000, 1, "cycles", "added to every SRAM load"},
        {"tile.sram_write_latency", vk::integer, 0, 1000, 1, "cycles", "added to every SRAM store"},
        {"tile.device_latency", vk::integer, 0, 1000, 2, "cycles",
         "register access to a tile device (CLINT, console, sim control, tile info)"},
        {"tile.timer_divider", vk::integer, 1, 1000000, 10, "cycles",
         "core cycles per CLINT mtime tick (timer frequency = clock_hz / timer_divider)"},
        {"core.timing.alu", vk::integer, 1, 1000, 1, "cycles", "integer ALU op, lui, auipc"},
        {"core.timing.mul", vk::integer, 1, 1000, 3, "cycles", "mul, mulh, mulhsu, mulhu"},
        {"core.timing.div", vk::integer, 1, 1000, 34, "cycles", "div, divu, rem, remu"},
        {"core.timing.load", vk::integer, 1, 1000, 1, "cycles",
         "load issue (plus memory latency)"},
        {"core.timing.store", vk::integer, 1, 1000, 1, "cycles",
         "store issue (plus memory latency)"},
        {"core.timing.branch_taken", vk::integer, 1, 1000, 3, "cycles", "taken conditional branch"},
        {"core.timing.branch_not_taken", vk::integer, 1, 1000, 1, "cycles",
         "conditional branch not taken"},
        {"core.timing.jump", vk::integer, 1, 1000, 2, "cycles", "jal, jalr"},
        {"core.timing.csr", vk::integer, 1, 1000, 2, "cycles", "csrrw, csrrs, csrrc and immediates"},
        {"core.timing.atomic", vk::integer, 1, 1000, 2, "cycles",
         "lr, sc, amo (plus read and write latency)"},
        {"core.timing.system", vk::integer, 1, 1000, 3, "cycles",
         "fence, fence.i, sfence.vma, ecall, ebreak, mret, sret, wfi"},
        {"core.timing.trap", vk::integer, 0, 1000, 4, "cycles", "entering a trap handler"},
        {"noc.buffer_depth", vk::integer, 1, 64, 4, "flits",
         "input buffer per virtual channel and router port"},
        {"noc.router_latency", vk::integer, 1, 100, 1, "cycles", "router pipeline, per hop"},
        {"noc.link_latency", vk::integer, 0, 100, 1, "cycles", "router-to-router wire, per hop"},
        {"noc.max_packet_flits", vk::integer, 4, 64, 32, "flits",
         "longest NoC packet, header included (the adapter needs at least 4)"},
        {"noc.physical_channels", vk::boolean, 0, 1, false, "",
         "one physical network per channel instead of four virtual channels on one network"},
        {"na.enabled", vk::boolean, 0, 1, true, "",
         "attach a network adapter to every tile (false: NA and RMA windows are bus errors)"},
        {"na.rx_buffer_flits", vk::integer, 4, 65536, 128, "flits",
         "receive buffer of each NoC buffer (at least noc.max_packet_flits)"},
        {"na.dma_slots", vk::integer, 1, 128, 2, "slots", "user DMA slots per adapter"},
        {"na.irq_core", vk::integer, 0, 31, 0, "core",
         "core whose machine external interrupt the adapter drives (below tile.cores)"},
        {"na.register_latency", vk::integer, 0, 1000, 2, "cycles", "register access of a core"},
        {"na.packet_cycles", vk::integer, 0, 1000, 4, "cycles",
         "target: processing one incoming data-request packet (plus its bus access)"},
        {"na.dma_setup_cycles", vk::integer, 0, 100000, 8, "cycles",
         "initiator: set-up of one DMA transfer, before its first packet"},
        {"na.dma_packet_cycles", vk::integer, 0, 1000, 2, "cycles",
         "initiator: building one DMA data packet (plus the local read)"},
        {"na.rma_issue_cycles", vk::integer, 0, 1000, 2, "cycles",
         "initiator: building one RMA request packet"},
        {"na.bus_word_cycles", vk::integer, 0, 1000, 1, "cycles",
         "adapter bus-master burst: per 32-bit word after the first (plus the SRAM latency)"},
        {"na.target_queue_flits", vk::integer, 0, 65536, 0, "flits",
         "queue of incoming data requests; 0 = 2 * noc.max_packet_flits"},
        {"console.file", vk::string, 0, 0, "", "", "also write all console lines to this file"},
        {"console.echo", vk::boolean, 0, 1, true, "", "print console lines on standard output"},
        {"trace.traps", vk::boolean, 0, 1, false, "",
         "print every trap (cause, epc, tval, cycle) on standard error"},
    };
    return schema;
}

const std::vector<preset> &config_presets() {
    static const std::vector<preset> presets = {
        {"default", "4x4 mesh, one core per tile", nlohmann::json::object()},
        {"single", "one tile with one core (ISA tests, single-core benchmarks)",
         {{"mesh", {{"width", 1}, {"height", 1}}}}},
        {"smp", "2x2 mesh, four cores per tile", 
         {{"mesh", {{"width", 2}, {"height", 2}}}, {"tile", {{"cores", 4}}}}},
        {"mesh8x8", "8x8 mesh, one core per tile", {{"mesh", {{"width", 8}, {"height", 8}}}}},
        {"mesh16x16", "16x16 mesh, one core per tile",
         {{"mesh", {{"width", 16}, {"height", 16}}}}},
    };
    return presets;
}

}  // namespace vp
