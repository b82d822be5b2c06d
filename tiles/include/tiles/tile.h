// A compute tile: cores, SRAM, CLINT, console, simulation control and tile information on the tile
// bus. The network-adapter window (TILE_NA_BASE, 4 MiB) and the RMA window are unpopulated (bus
// errors) until the platform attaches an adapter with attach_device() and drives external_irq().
#pragma once
#include <memory>
#include <ostream>
#include <string>
#include <vector>
#include <systemc>

#include "iss/rv32.h"
#include "tiles/clint.h"
#include "tiles/console.h"
#include "tiles/cpu_core.h"
#include "tiles/module_vector.h"
#include "tiles/run_control_if.h"
#include "tiles/semihosting.h"
#include "tiles/sim_control.h"
#include "tiles/sram.h"
#include "tiles/tile_bus.h"
#include "tiles/tile_config.h"
#include "tiles/tile_info.h"

namespace tiles {

class tile : public sc_core::sc_module {
public:
    struct outputs {
        std::ostream *console_out = nullptr;  // null: quiet
        std::ostream *console_log = nullptr;  // null: no log file
        std::ostream *trace = nullptr;        // trap trace (when enabled)
        core_debug_if *debug = nullptr;       // the debugger every core reports to (--gdb)
        trace::tracer *tracer = nullptr;      // the timeline every core records into (--trace)
        trace::event_log *log = nullptr;      // the instruction and event log (--log)
        rv_jit_pool *jit_pool = nullptr;  // translated code the cores share (null: each its own)
        tie_gate *gate = nullptr;         // the tie rule of bus masters and cores (null: SystemC's)
        bool skip_idle_sync = true;       // host.skip_idle_sync (cpu_core::params)
        int semihosting_root = -1;        // semihosting's directory (-1: semihosting off)
        uint64_t semihosting_epoch = 0;   // SYS_TIME at simulated time 0
    };

    tile(sc_core::sc_module_name name, const tile_config &config, const tile_geometry &geometry,
         sc_core::sc_time clock_period, run_control_if &run_control, const outputs &out);

    // Further bus masters (the network adapter, test initiators) join the tile bus here.
    void bind_master(tlm::tlm_initiator_socket<32> &socket) { socket.bind(bus_->masters); }
    // Further devices (the network adapter's windows) are mapped here, before elaboration ends.
    // `lookahead`: the device may take a core's access ahead of its time (tile_bus::map_device).
    void attach_device(tlm::tlm_target_socket<32> &socket, uint32_t base, uint32_t size,
                       const std::string &label, bool lookahead = false) {
        bus_->devices.bind(socket);
        bus_->map_device(base, size, label, lookahead);
    }
    // The machine external interrupt wire of core c, for a device to drive (one writer).
    sc_core::sc_signal<bool> &external_irq(unsigned core) { return meip_[core]; }

    const tile_geometry &geometry() const { return geometry_; }
    sram &memory() { return *sram_; }
    const sram &memory() const { return *sram_; }
    std::vector<std::unique_ptr<cpu_core>> &cores() { return cores_; }
    const std::vector<std::unique_ptr<cpu_core>> &cores() const { return cores_; }
    const clint &timer() const { return *clint_; }  // its lookahead (tests)
    const tile_bus &bus() const { return *bus_; }
    const console &terminal() const { return *console_; }
    // Semihosting of each core (empty when it is off): the loader gives it the command line.
    const std::vector<std::unique_ptr<semihosting>> &semihosts() { return semihosting_; }

private:
    tile_geometry geometry_;
    rv_reservation_set reservations_;
    std::unique_ptr<tile_bus> bus_;
    std::unique_ptr<sram> sram_;
    std::unique_ptr<clint> clint_;
    std::unique_ptr<console> console_;
    module_vector<semihosting> semihosting_;  // before the cores that call it
    std::unique_ptr<sim_control> sim_control_;
    std::unique_ptr<tile_info> tile_info_;
    module_vector<cpu_core> cores_;
    // Interrupt wires: msip/mtip from the CLINT; meip from the network adapter (external_irq); seip low.
    sc_core::sc_vector<sc_core::sc_signal<bool>> msip_, mtip_, meip_, seip_;
};

}  // namespace tiles
