// The configuration keys and presets of the platform (docs/configuration.md mirrors this table).
#include "vp/config.h"

namespace vp {

namespace {
constexpr int64_t kib = 1024, mib = 1024 * 1024;
}

const std::vector<config_key> &config_schema() {
    using vk = value_kind;
    static const std::vector<config_key> schema = {
        {"mesh.width", vk::integer, 1, 64, 4, "tiles", "tiles in x direction"},
        {"mesh.height", vk::integer, 1, 64, 4, "tiles", "tiles in y direction"},
        {"clock_hz", vk::integer, 1000000, 4000000000LL, 100000000, "Hz",
         "core and bus clock of every tile"},
        {"quantum_cycles", vk::integer, 1, 10000000, 1000, "cycles",
         "global quantum: how far a core may run ahead of SystemC time before it synchronizes"},
        {"stop_on_failure", vk::boolean, 0, 1, true, "",
         "end the simulation as soon as a core exits with a non-zero code or locks up"},
        {"tile.cores", vk::integer, 1, 32, 1, "cores", "cores per tile (SMP, shared SRAM)"},
        {"tile.sram_size", vk::integer, 64 * kib, 512 * mib, 1 * mib, "bytes",
         "local SRAM per tile, a multiple of 4 KiB, mapped at 0x80000000"},
        {"tile.sram_read_latency", vk::integer, 0, 1000, 1, "cycles", "added to every SRAM load"},
        {"tile.sram_write_latency", vk::integer, 0, 1000, 1, "cycles", "added to every SRAM store"},
        {"tile.device_latency", vk::integer, 0, 1000, 2, "cycles",
         "register access to a tile device (CLINT, console, sim control, tile info)"},
        {"tile.bus_word_cycles", vk::integer, 0, 1000, 1, "cycles",
         "tile bus: cycles each 32-bit word of a transaction occupies the bus (first come first "
         "served; a burst adds (words - 1) * this to the device latency)"},
        {"tile.timer_divider", vk::integer, 1, 1000000, 10, "cycles",
         "core cycles per CLINT mtime tick (timer frequency = clock_hz / timer_divider)"},
        {"tile.arg", vk::integer, 0, 4294967295LL, 0, "",
         "a word every core reads from the tile information block (TILEINFO_ARG): a parameter of "
         "the run for the firmware, e.g. a benchmark's traffic seed in a sweep"},
        {"core.engine", vk::string, 0, 0, "jit", "",
         "how the ISS runs code: interpreter (one instruction at a time, the reference), block "
         "(chained blocks) or jit (blocks translated to x86-64; block on other hosts); all give "
         "the same simulation (docs/iss-engine.md)"},
        {"core.access_lookahead", vk::integer, 0, 10000000, 0, "cycles",
         "the lookahead mode: a core's access to its network adapter (registers, slots, virtual "
         "interfaces) made at most this far ahead of SystemC's time is taken at once, on the "
         "adapter's state at SystemC's time, and the core does not wait for it (fewer context "
         "switches, a different simulation: the adapter sees the access up to this early); 0: "
         "every access waits for the core's time, the exact reference (docs/timing.md, \"The "
         "lookahead mode\")"},
        {"core.timing.alu", vk::integer, 1, 1000, 1, "cycles", "integer ALU op, lui, auipc"},
        {"core.timing.mul", vk::integer, 1, 1000, 3, "cycles", "mul, mulh, mulhsu, mulhu"},
        {"core.timing.div", vk::integer, 1, 1000, 34, "cycles", "div, divu, rem, remu"},
        {"core.timing.load", vk::integer, 1, 1000, 1, "cycles", "load issue (plus memory latency)"},
        {"core.timing.store", vk::integer, 1, 1000, 1, "cycles",
         "store issue (plus memory latency)"},
        {"core.timing.branch_taken", vk::integer, 1, 1000, 3, "cycles", "taken conditional branch"},
        {"core.timing.branch_not_taken", vk::integer, 1, 1000, 1, "cycles",
         "conditional branch not taken"},
        {"core.timing.jump", vk::integer, 1, 1000, 2, "cycles", "jal, jalr"},
        {"core.timing.csr", vk::integer, 1, 1000, 2, "cycles",
         "csrrw, csrrs, csrrc and immediates"},
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
        {"na.dma_contexts", vk::integer, 1, 64, 4, "contexts",
         "data engine: transfers in progress at once (user DMA and NAMP share them)"},
        {"na.dma_fifo_packets", vk::integer, 1, 16, 2, "packets",
         "data engine: packets each context reads ahead of injection"},
        {"na.target_queue_flits", vk::integer, 0, 65536, 0, "flits",
         "queue of incoming data requests; 0 = 2 * noc.max_packet_flits"},
        {"na.fault_dma_every", vk::integer, 0, 1000000, 0, "packets",
         "fault injection: every n-th DMA data packet an adapter receives is refused like a bus "
         "error (0: off); the sender's transfer fails"},
        {"namp.enabled", vk::boolean, 0, 1, false, "",
         "NAMP hardware message passing in every adapter (docs/namp.md); needs na.enabled"},
        {"namp.slots", vk::integer, 1, 128, 8, "slots", "NAMP slots per adapter (SLOTS_PHYS)"},
        {"namp.enable_messages", vk::boolean, 0, 1, true, "", "feature: connection-less messages"},
        {"namp.enable_channels", vk::boolean, 0, 1, true, "",
         "feature: connection-oriented channels (credits, CoM)"},
        {"namp.enable_buffered", vk::boolean, 0, 1, true, "", "feature: buffered sends (BUF)"},
        {"namp.enable_ccm", vk::boolean, 0, 1, true, "", "feature: continuous channel mode (CCM)"},
        {"namp.enable_cc_multicast", vk::boolean, 0, 1, false, "",
         "feature ENABLE_CC_MULTICAST: collective multicast (docs/namp.md, CC)"},
        {"namp.enable_cc_scattergather", vk::boolean, 0, 1, false, "",
         "feature ENABLE_CC_SCATTERGATHER: scatter and gather (docs/namp.md, CC)"},
        {"namp.enable_cc_reduction", vk::boolean, 0, 1, false, "",
         "feature ENABLE_CC_REDUCTION: reduction (docs/namp.md, CC)"},
        {"namp.cc_gather_packing", vk::boolean, 0, 1, true, "",
         "gather: the DMA packs chunks smaller than half a packet (false: one plain transfer per "
         "chunk)"},
        {"namp.cc_reduce_word_cycles", vk::integer, 0, 1000, 1, "cycles",
         "reduction: arithmetic of the receiving DMA per 32-bit word (besides its bus read and "
         "write)"},
        {"namp.slots_virt", vk::integer, 0, 128, 0, "slots",
         "NAMP-SV: slots with a virtual interface (SLOTS_VIRT), the highest ones; <= namp.slots"},
        {"namp.vif_cycles", vk::integer, 0, 1000, 2, "cycles",
         "NAMP-SV: VALID written to a virtual interface until its table reads start"},
        {"namp.window_cycles", vk::integer, 0, 1000, 1, "cycles",
         "SV isolation: bounds compare of a guarded send set-up or a guarded endpoint's target "
         "access"},
        {"namp.ps", vk::boolean, 0, 1, false, "",
         "feature ENABLE_PS: protection switching for task migration (docs/namp.md, NAMP-PS)"},
        {"namp.identity", vk::boolean, 0, 1, false, "",
         "endpoint identity and collective membership: allocations, FINALs and CREDITs carry the "
         "identity their handle expects, a root admits only the contributors its member table "
         "lists "
         "(docs/security.md; not in the thesis)"},
        {"namp.identity_cycles", vk::integer, 0, 1000, 1, "cycles",
         "identity: the target's ID compare (allocation, FINAL, CREDIT) or member-table compare"},
        {"namp.osqm", vk::boolean, 0, 1, false, "",
         "feature ENABLE_OSQM: hardware OS queue manipulation (docs/namp.md, HW-OSQM)"},
        {"namp.osqm_cycles", vk::integer, 0, 1000000, 2, "cycles",
         "HW-OSQM: one insertion step (plus its bus accesses)"},
        {"namp.osqm_retry_cycles", vk::integer, 1, 100000, 16, "cycles",
         "HW-OSQM: back-off while the OS lock is held"},
        {"namp.osqm_static", vk::boolean, 0, 1, false, "",
         "HW-OSQM static configuration (thesis 4.2.3.4): TYPE, DIR, Q_LAYOUT, E_LAYOUT and the "
         "BITMAP/WAKEUP mode bits are fixed to the keys below; writing another value is refused"},
        {"namp.osqm_type", vk::string, 0, 0, "double", "",
         "HW-OSQM reset value of TYPE: single or double (linked lists)"},
        {"namp.osqm_dir", vk::string, 0, 0, "back", "",
         "HW-OSQM reset value of DIR: back (append at the tail) or front (insert at the head)"},
        {"namp.osqm_q_head", vk::integer, 0, 4092, 0, "bytes",
         "HW-OSQM reset Q_LAYOUT: offset of the head pointer in a queue (multiple of 4)"},
        {"namp.osqm_q_tail", vk::integer, 0, 4092, 4, "bytes",
         "HW-OSQM reset Q_LAYOUT: offset of the tail pointer in a queue (multiple of 4)"},
        {"namp.osqm_e_next", vk::integer, 0, 4092, 0, "bytes",
         "HW-OSQM reset E_LAYOUT: offset of the next pointer in a thread element (multiple of 4)"},
        {"namp.osqm_e_prev", vk::integer, 0, 4092, 4, "bytes",
         "HW-OSQM reset E_LAYOUT: offset of the prev pointer (double linked; multiple of 4)"},
        {"namp.osqm_bitmap", vk::boolean, 0, 1, false, "",
         "HW-OSQM reset MODE: bitmap scheduler support (OSQM_MODE_BITMAP)"},
        {"namp.osqm_wakeup", vk::boolean, 0, 1, false, "",
         "HW-OSQM reset MODE: separate wake-up queue (OSQM_MODE_WAKEUP)"},
        {"namp.osqm_ready_flag", vk::boolean, 0, 1, false, "",
         "HW-OSQM reset MODE: pure bitmap scheduler, QUEUE = bit field, THREAD = bit offset "
         "(OSQM_MODE_READY_FLAG)"},
        {"namp.atomics", vk::boolean, 0, 1, true, "",
         "the NAMP uses atomic read-modify-write bus accesses (false: read then write)"},
        {"namp.arbitration", vk::string, 0, 0, "lrs", "",
         "reset value of the egress arbitration: lrs, qos or map"},
        {"namp.retry_cycles", vk::integer, 1, 1000000, 64, "cycles",
         "back-off after the first NACK of a transfer; CCM poll period of an empty send buffer"},
        {"namp.retry_max_cycles", vk::integer, 1, 100000000, 8192, "cycles",
         "back-off limit: it doubles per NACK of a transfer up to this (jitter: half of it)"},
        {"namp.rx_count_gating", vk::boolean, 0, 1, true, "",
         "receive counter counts only endpoints with the notify flag (false: every endpoint)"},
        {"namp.start_cycles", vk::integer, 0, 1000, 2, "cycles",
         "VALID written: validation until the slot is READY"},
        {"namp.setup_cycles", vk::integer, 0, 1000, 4, "cycles",
         "egress set-up step (plus handle, credit and send-buffer bus accesses)"},
        {"namp.message_cycles", vk::integer, 0, 1000, 2, "cycles", "building one protocol message"},
        {"namp.data_setup_cycles", vk::integer, 0, 1000, 4, "cycles",
         "egress: programming a DMA context for a data phase"},
        {"namp.finalize_cycles", vk::integer, 0, 1000, 2, "cycles",
         "egress completion step (plus handle and send-buffer writes)"},
        {"namp.ingress_cycles", vk::integer, 0, 1000, 2, "cycles",
         "ingress: applying one allocation response or DMA completion"},
        {"namp.target_cycles", vk::integer, 0, 1000, 4, "cycles",
         "target: serving one protocol message (plus its bus accesses)"},
        // Area model (vp/src/area*.cpp, docs/area.md): a structural model; gates (NAND2
        // equivalents) per unit of structure in milli-gates. fsm_state and ff_bit are calibrated
        // on the thesis' figures (namp-vp --area-calibration), the others are cell-library values.
        // They change no simulated behaviour.
        {"area.ff_bit_mgates", vk::integer, 0, 100000000, 8375, "milli-gates",
         "area: one register bit (flip-flop with load enable), calibrated"},
        {"area.storage_bit_mgates", vk::integer, 0, 100000000, 7000, "milli-gates",
         "area: one FIFO / packet-buffer storage bit with its share of the read path"},
        {"area.mux_bit_mgates", vk::integer, 0, 100000000, 740, "milli-gates",
         "area: one multiplexer input beyond the first, per bit"},
        {"area.eq_bit_mgates", vk::integer, 0, 100000000, 925, "milli-gates",
         "area: one equality-compare bit"},
        {"area.cmp_bit_mgates", vk::integer, 0, 100000000, 1850, "milli-gates",
         "area: one magnitude-compare bit"},
        {"area.add_bit_mgates", vk::integer, 0, 100000000, 2590, "milli-gates",
         "area: one adder bit"},
        {"area.inc_bit_mgates", vk::integer, 0, 100000000, 1110, "milli-gates",
         "area: one incrementer / counter bit"},
        {"area.fsm_state_mgates", vk::integer, 0, 100000000, 14800, "milli-gates",
         "area: the control logic of one FSM state (protocol step), calibrated"},
        {"area.router_logic_gates", vk::integer, 0, 100000000, 2740, "gates",
         "area: one 5x5 router crossbar with its allocators, route logic and credit counters, per "
         "physical network (a derived estimate, docs/energy.md; the input buffers count as "
         "storage bits, area.storage_bit_mgates)"},
        // Energy model (vp/src/energy.cpp, docs/energy.md): integer femtojoules per event, each
        // with its source. They change no simulated behaviour.
        {"energy.alu_fj", vk::integer, 0, 100000000, 100, "fJ",
         "energy: 32-bit integer add, charged per ALU, jump, CSR and system instruction and per "
         "branch compare and load/store address. Source: Horowitz, ISSCC 2014, 45 nm 0.9 V: 0.1 "
         "pJ"},
        {"energy.mul_fj", vk::integer, 0, 100000000, 3100, "fJ",
         "energy: 32-bit integer multiply (mul, mulh*). Source: Horowitz, ISSCC 2014, 45 nm: 3.1 "
         "pJ"},
        {"energy.div_fj", vk::integer, 0, 100000000, 3200, "fJ",
         "energy: 32-bit divide (div*, rem*). Derived: 32 iterations of a 32-bit add (Horowitz "
         "0.1 pJ each)"},
        {"energy.sram_word_1mib_fj", vk::integer, 0, 100000000, 50000, "fJ",
         "energy: one 32-bit access of a 1 MiB SRAM (instruction fetch, core load/store, bus "
         "word), scaled by sqrt(tile.sram_size / 1 MiB). Source: Horowitz, ISSCC 2014, 45 nm: "
         "100 pJ per 64-bit access of a 1 MB SRAM, halved for 32 bits; the square-root scaling "
         "fits his 8 KB and 32 KB points within 12 % (derived)"},
        {"energy.regfile_fj", vk::integer, 0, 100000000, 552, "fJ",
         "energy: one read or write of the 32 x 32-bit register file. Derived: the SRAM law of "
         "energy.sram_word_1mib_fj at 128 bytes"},
        {"energy.bus_word_fj", vk::integer, 0, 100000000, 1562, "fJ",
         "energy: one 32-bit word over the tile bus (1 mm of wires). Derived: 32 x "
         "energy.link_bit_mm_fj"},
        {"energy.na_buffer_fj", vk::integer, 0, 100000000, 1105, "fJ",
         "energy: one flit written into or read from the adapter's NoC buffers (send, receive, "
         "data-request queue). Derived: the SRAM law at 512 bytes (128 flits)"},
        {"energy.dma_word_fj", vk::integer, 0, 100000000, 3220, "fJ",
         "energy: the data engine per 32-bit word it moves (address add and a write and read of "
         "its FIFO). Derived: 0.1 pJ add (Horowitz) + 2 x the SRAM law at 1 KiB"},
        {"energy.namp_step_fj", vk::integer, 0, 100000000, 1204, "fJ",
         "energy: one NAMP state-machine step (egress, ingress, target): a slot entry read and "
         "written and a 32-bit compare. Derived: 2 x energy.regfile_fj + energy.alu_fj"},
        {"energy.na_register_fj", vk::integer, 0, 100000000, 552, "fJ",
         "energy: one core access to an adapter or NAMP slot register. Derived: energy.regfile_fj"},
        {"energy.router_buffer_write_fj", vk::integer, 0, 100000000, 269, "fJ",
         "energy: a 32-bit flit written into a router input buffer, plus "
         "energy.router_buffer_depth_fj per flit of noc.buffer_depth. Source: Noxim power.yaml "
         "(4-flit 32-bit buffer push 0.762 pJ; fitted over depths 2-16), characterised at 65 nm, "
         "scaled to 45 nm by 45/65 x (1.1 V / 1.2 V)^2 (derived)"},
        {"energy.router_buffer_read_fj", vk::integer, 0, 100000000, 120, "fJ",
         "energy: a flit read from a router input buffer, plus energy.router_buffer_depth_fj per "
         "flit of depth. Source: Noxim power.yaml pop (0.534 pJ at 4 flits), scaled as the write"},
        {"energy.router_buffer_depth_fj", vk::integer, 0, 100000000, 44, "fJ",
         "energy: growth of a router buffer write and read per flit of noc.buffer_depth. Source: "
         "Noxim power.yaml push and pop over depths 2-16 (slope 75 fJ at 65 nm), scaled"},
        {"energy.router_crossbar_fj", vk::integer, 0, 100000000, 129, "fJ",
         "energy: a 32-bit flit across a 5x5 router crossbar. Source: Noxim power.yaml (0.221 pJ, "
         "65 nm), scaled to 45 nm (derived)"},
        {"energy.router_route_fj", vk::integer, 0, 100000000, 64, "fJ",
         "energy: route computation and output allocation of one packet in one router. Source: "
         "Noxim power.yaml XY routing and selection (0.06 + 0.05 pJ, 65 nm), scaled (derived)"},
        {"energy.link_bit_mm_fj", vk::integer, 0, 100000000, 49, "fJ",
         "energy: one bit over 1 mm of router-to-router link. Source: Noxim power.yaml (48.8 fJ "
         "per bit line of 1 mm); wire capacitance per mm does not shrink from 65 to 45 nm, so not "
         "scaled; Park et al., DATE 2013, measured 40.4 fJ/bit/mm for a low-swing 45 nm link"},
        {"energy.link_length_um", vk::integer, 1, 100000, 1000, "um",
         "energy: length of a router-to-router link (the tile pitch; an assumption, set it to the "
         "floorplan)"},
        {"energy.leakage_pw_per_gate", vk::integer, 0, 100000000, 18800, "pW",
         "energy: leakage of one NAND2-equivalent gate of the area model. Source: Nangate 45 nm "
         "Open Cell Library (typical, 1.1 V, 25 C): AND2_X1 25.07 nW on 1.064 um^2, per NAND2_X1 "
         "area 0.798 um^2 (derived)"},
        // The synthetic traffic run (namp-vp --traffic, docs/noc.md): the NoC alone, driven by
        // noc::traffic instead of firmware.
        {"traffic.pattern", vk::string, 0, 0, "uniform", "",
         "namp-vp --traffic: uniform, transpose, bit_complement, bit_reverse, shuffle, butterfly, "
         "hotspot or nearest_neighbour"},
        {"traffic.rate", vk::number, 0, 64, 0.1, "flits/cycle/tile",
         "namp-vp --traffic: offered load per tile"},
        {"traffic.packet_flits", vk::integer, 2, 64, 8, "flits",
         "namp-vp --traffic: packet length, header included (at most noc.max_packet_flits)"},
        {"traffic.hotspot_permille", vk::integer, 0, 1000, 200, "per mille",
         "namp-vp --traffic: share of the hotspot pattern's packets sent to the centre tile"},
        {"traffic.seed", vk::integer, 0, 4294967295LL, 1, "", "namp-vp --traffic: RNG seed"},
        {"traffic.warmup_cycles", vk::integer, 0, 100000000, 2000, "cycles",
         "namp-vp --traffic: cycles before the measurement window"},
        {"traffic.measure_cycles", vk::integer, 1, 1000000000, 8000, "cycles",
         "namp-vp --traffic: the measurement window (statistics and energy cover it)"},
        {"traffic.drain_limit_cycles", vk::integer, 0, 1000000000, 200000, "cycles",
         "namp-vp --traffic: at most this long after the window for every packet to arrive"},
        {"console.file", vk::string, 0, 0, "", "", "also write all console lines to this file"},
        {"console.echo", vk::boolean, 0, 1, true, "", "print console lines on standard output"},
        {"semihosting.enabled", vk::boolean, 0, 1, false, "",
         "RISC-V semihosting: the slli/ebreak/srai sequence asks the host for file and console "
         "I/O, "
         "time and the command line (docs/semihosting.md); off: the ebreak is a breakpoint "
         "exception"},
        {"semihosting.root", vk::string, 0, 0, ".", "",
         "the host directory semihosting's files live in; names cannot lead out of it (no '..' "
         "above it, no absolute name, no symbolic link out)"},
        {"semihosting.epoch", vk::integer, 0, 4294967295LL, 0, "seconds",
         "what SYS_TIME returns at simulated time 0 (it then counts simulated seconds)"},
        {"trace.traps", vk::boolean, 0, 1, false, "",
         "print every trap (cause, epc, tval, cycle) on standard error"},
        // host.*: how the host runs the simulation, never what is simulated (not in the statistics)
        {"host.stack_guards", vk::string, 0, 0, "auto", "",
         "guard pages on SystemC's thread stacks: auto (on unless the platform would then need "
         "more memory mappings than vm.max_map_count), on, or off (an overrun stack is then found "
         "after the run); the simulation is the same (docs/benchmarks.md, \"Large meshes\")"},
        {"host.checkpoints", vk::integer, 0, 1024, 32, "",
         "with --gdb: checkpoints kept for reverse execution (copy-on-write snapshots of the "
         "simulator process; 0: reverse execution off; docs/debugging.md)"},
        {"host.checkpoint_interval", vk::integer, 1000, 1000000000000LL, 50000000, "instructions",
         "with --gdb: instructions of all cores together between two checkpoints (a step back "
         "replays at most about this many)"},
        {"host.event_noise", vk::integer, 0, 4294967295LL, 0, "",
         "seed of a process that only adds SystemC events at pseudo-random cycles (0: none), to "
         "check that a run does not depend on SystemC's order among simultaneous processes "
         "(docs/timing.md, \"Ties\")"},
        {"host.skip_idle_sync", vk::boolean, 0, 1, true, "",
         "a core whose device access ends before anything else is due keeps the access's latency "
         "as run-ahead instead of waiting for it: the same simulation with fewer context switches "
         "(false: the core waits after every access; docs/timing.md, \"Loosely-timed execution\")"},
    };
    return schema;
}

const std::vector<preset> &config_presets() {
    static const std::vector<preset> presets = {
        {"default", "4x4 mesh, one core per tile", nlohmann::json::object()},
        {"single",
         "one tile with one core (ISA tests, single-core benchmarks)",
         {{"mesh", {{"width", 1}, {"height", 1}}}}},
        {"smp",
         "2x2 mesh, four cores per tile",
         {{"mesh", {{"width", 2}, {"height", 2}}}, {"tile", {{"cores", 4}}}}},
        {"mesh8x8", "8x8 mesh, one core per tile", {{"mesh", {{"width", 8}, {"height", 8}}}}},
        {"mesh16x16", "16x16 mesh, one core per tile", {{"mesh", {{"width", 16}, {"height", 16}}}}},
        {"baremsg",
         "4x4 mesh, NAMP with connection-less messages only (thesis Table 4.2)",
         {{"namp",
           {{"enabled", true},
            {"enable_messages", true},
            {"enable_channels", false},
            {"enable_buffered", false},
            {"enable_ccm", false}}}}},
        {"barechan",
         "4x4 mesh, NAMP with channels, buffered sends and CCM (thesis Table 4.2)",
         {{"namp",
           {{"enabled", true},
            {"enable_messages", false},
            {"enable_channels", true},
            {"enable_buffered", true},
            {"enable_ccm", true}}}}},
        {"bare",
         "4x4 mesh, NAMP with messages, channels, buffered sends, CCM and multicast (Table 4.2)",
         {{"namp",
           {{"enabled", true},
            {"enable_messages", true},
            {"enable_channels", true},
            {"enable_buffered", true},
            {"enable_ccm", true},
            {"enable_cc_multicast", true}}}}},
        {"barered",
         "bare with NAMP-CC reduction (ENABLE_CC_REDUCTION)",
         {{"namp",
           {{"enabled", true},
            {"enable_messages", true},
            {"enable_channels", true},
            {"enable_buffered", true},
            {"enable_ccm", true},
            {"enable_cc_multicast", true},
            {"enable_cc_reduction", true}}}}},
        {"baresg",
         "bare with NAMP-CC scatter and gather (ENABLE_CC_SCATTERGATHER)",
         {{"namp",
           {{"enabled", true},
            {"enable_messages", true},
            {"enable_channels", true},
            {"enable_buffered", true},
            {"enable_ccm", true},
            {"enable_cc_multicast", true},
            {"enable_cc_scattergather", true}}}}},
        {"barecc",
         "bare with every NAMP-CC feature (multicast, scatter/gather, reduction)",
         {{"namp",
           {{"enabled", true},
            {"enable_messages", true},
            {"enable_channels", true},
            {"enable_buffered", true},
            {"enable_ccm", true},
            {"enable_cc_multicast", true},
            {"enable_cc_scattergather", true},
            {"enable_cc_reduction", true}}}}},
        {"bareps",
         "bare with NAMP-PS protection switching (ENABLE_PS, a parameter of bare in Table 4.2)",
         {{"namp",
           {{"enabled", true},
            {"enable_messages", true},
            {"enable_channels", true},
            {"enable_buffered", true},
            {"enable_ccm", true},
            {"enable_cc_multicast", true},
            {"ps", true}}}}},
        // Table 4.2: SLOTS_PHYS 1 (a physical-only slot for the kernel) and SLOTS_VIRT 4 (the
        // table's "*": a parameter); namp.slots counts both. svbase has multicast (ENABLE_CC_MC);
        // svfull turns every "*" feature on.
        {"svbase",
         "4x4 mesh, NAMP-SV: 1 physical slot + 4 virtual interfaces, messages, channels, "
         "buffered sends, CCM, CC multicast (Table 4.2)",
         {{"namp",
           {{"enabled", true},
            {"slots", 5},
            {"slots_virt", 4},
            {"enable_messages", true},
            {"enable_channels", true},
            {"enable_buffered", true},
            {"enable_ccm", true},
            {"enable_cc_multicast", true},
            {"identity", true}}}}},
        {"svfull",
         "svbase with CC scatter/gather and reduction, HW-OSQM and protection switching "
         "(Table 4.2)",
         {{"namp",
           {{"enabled", true},
            {"slots", 5},
            {"slots_virt", 4},
            {"enable_messages", true},
            {"enable_channels", true},
            {"enable_buffered", true},
            {"enable_ccm", true},
            {"enable_cc_multicast", true},
            {"enable_cc_scattergather", true},
            {"enable_cc_reduction", true},
            {"osqm", true},
            {"ps", true},
            {"identity", true}}}}},
    };
    return presets;
}

}  // namespace vp
