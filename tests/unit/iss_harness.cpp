#include "iss_harness.h"

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

rv_timing IssMachine::unit_timing() {
    rv_timing t;
    t.alu = t.mul = t.div = t.load = t.store = 1;
    t.branch_taken = t.branch_not_taken = t.jump = t.csr = t.atomic = t.system = 1;
    t.trap = 0;
    return t;
}

rv_engine IssMachine::default_engine() {
    const char *e = std::getenv("ISS_TEST_ENGINE");
    const std::string name = e ? e : "interpreter";
    if (name == "block") return RV_ENGINE_BLOCK;
    if (name == "jit") return RV_ENGINE_JIT;
    if (name != "interpreter") throw std::invalid_argument("ISS_TEST_ENGINE: " + name);
    return RV_ENGINE_INTERPRETER;
}

IssMachine::IssMachine(uint32_t ram_size, const rv_timing &timing, uint32_t ram_read_latency,
                       uint32_t ram_write_latency)
    : ram(ram_size, 0),
      bus_ram(kBusRamSize, 0),
      timing_(timing),
      ram_read_latency_(ram_read_latency),
      ram_write_latency_(ram_write_latency) {
    rv_reservations_init(&reservations);
}

IssMachine::~IssMachine() {
    for (rv_cpu *c : harts_) rv_cpu_destroy(c);
}

rv_cpu *IssMachine::add_hart(uint32_t hart_id, uint32_t reset_pc) {
    rv_config cfg;
    std::memset(&cfg, 0, sizeof cfg);
    cfg.hart_id = hart_id;
    cfg.reset_pc = reset_pc;
    cfg.timing = timing_;
    cfg.bus_access = &IssMachine::bus_access;
    cfg.bus_ctx = this;
    cfg.on_trap = &IssMachine::on_trap;
    cfg.trap_ctx = this;
    cfg.reservations = &reservations;
    cfg.read_time = &IssMachine::read_time;
    cfg.time_ctx = this;
    cfg.engine = engine;
    cfg.jit_pool = jit_pool;
    rv_cpu *c = rv_cpu_create(&cfg);
    if (c == nullptr) return nullptr;
    if (rv_cpu_add_dmi(c, kRamBase, uint32_t(ram.size()), ram.data(), ram_read_latency_,
                       ram_write_latency_) != 0) {
        rv_cpu_destroy(c);
        return nullptr;
    }
    harts_.push_back(c);
    hart_ids_.push_back(hart_id);
    return c;
}

uint32_t IssMachine::hart_index(const rv_cpu *cpu) const {
    for (size_t i = 0; i < harts_.size(); i++)
        if (harts_[i] == cpu) return hart_ids_[i];
    return 0xffffffffu;
}

uint8_t *IssMachine::host(uint32_t a, uint32_t len) {
    if (a >= kRamBase && uint64_t(a) + len <= uint64_t(kRamBase) + ram.size())
        return &ram[a - kRamBase];
    if (a >= kBusRamBase && uint64_t(a) + len <= uint64_t(kBusRamBase) + kBusRamSize)
        return &bus_ram[a - kBusRamBase];
    throw std::out_of_range("IssMachine: address outside RAM");
}
void IssMachine::w8(uint32_t a, uint8_t v) { *host(a) = v; }
void IssMachine::w16(uint32_t a, uint16_t v) { std::memcpy(host(a, 2), &v, 2); }
void IssMachine::w32(uint32_t a, uint32_t v) { std::memcpy(host(a, 4), &v, 4); }
uint8_t IssMachine::r8(uint32_t a) { return *host(a); }
uint16_t IssMachine::r16(uint32_t a) {
    uint16_t v;
    std::memcpy(&v, host(a, 2), 2);
    return v;
}
uint32_t IssMachine::r32(uint32_t a) {
    uint32_t v;
    std::memcpy(&v, host(a, 4), 4);
    return v;
}
void IssMachine::load(uint32_t addr, const void *data, size_t len) {
    if (len) std::memcpy(host(addr, uint32_t(len)), data, len);
}

uint32_t IssMachine::code(uint32_t addr, std::initializer_list<uint32_t> insns) {
    for (uint32_t w : insns) {
        w32(addr, w);
        addr += 4;
    }
    return addr;
}
uint32_t IssMachine::code16(uint32_t addr, std::initializer_list<uint16_t> insns) {
    for (uint16_t h : insns) {
        w16(addr, h);
        addr += 2;
    }
    return addr;
}
void IssMachine::flush_code() {
    for (rv_cpu *c : harts_) rv_cpu_flush_decode_cache(c);
}

rv_run_status IssMachine::run(size_t i, uint64_t max_cycles) {
    rv_cpu *c = hart(i);
    for (;;) {
        rv_run_status st = rv_cpu_run(c, max_cycles);
        if (st == RV_RUN_WFI && rv_cpu_irq_pending(c) && rv_cpu_cycles(c) < max_cycles) continue;
        return st;
    }
}

int IssMachine::bus_access(void *ctx, rv_cpu *cpu, rv_access kind, uint32_t addr, void *data,
                           uint32_t len, uint32_t *extra_cycles) {
    auto *m = static_cast<IssMachine *>(ctx);
    uint32_t value = 0;
    if (kind == RV_ACCESS_WRITE) std::memcpy(&value, data, len);
    m->bus_log.push_back({m->hart_index(cpu), kind, addr, len, value});
    *extra_cycles = m->device_latency;

    if (addr >= kBusRamBase && uint64_t(addr) + len <= uint64_t(kBusRamBase) + kBusRamSize) {
        uint8_t *p = &m->bus_ram[addr - kBusRamBase];
        if (kind == RV_ACCESS_WRITE) {
            std::memcpy(p, data, len);
            rv_reservations_invalidate(&m->reservations, addr, len);
        } else {
            std::memcpy(data, p, len);
        }
        return RV_BUS_OK;
    }
    if (kind == RV_ACCESS_FETCH) return RV_BUS_ERROR;  // devices are not executable
    if (addr == kConsoleTx && len == 4 && kind == RV_ACCESS_WRITE) {
        m->console.push_back(char(value & 0xff));
        if (m->during_console) m->during_console();
        return RV_BUS_OK;
    }
    if (addr == kConsoleTx && len == 1 && kind == RV_ACCESS_WRITE) {
        m->console.push_back(char(value & 0xff));
        return RV_BUS_OK;
    }
    if (addr == kConsoleStatus && len == 4 && kind == RV_ACCESS_READ) {
        uint32_t one = 1;
        std::memcpy(data, &one, 4);
        return RV_BUS_OK;
    }
    if (addr == kIrqCtl && len == 4 && kind == RV_ACCESS_WRITE) {
        for (rv_irq irq : {RV_IRQ_MSIP, RV_IRQ_MTIP, RV_IRQ_MEIP, RV_IRQ_SEIP})
            rv_cpu_set_irq(cpu, irq, (value >> irq) & 1u);
        return RV_BUS_OK;
    }
    if (addr == kExit && len == 4) {
        if (kind == RV_ACCESS_WRITE) {
            m->exited = true;
            m->exit_code = value;
            m->exit_hart = m->hart_index(cpu);
            rv_cpu_request_stop(cpu);
        } else {
            std::memset(data, 0, 4);
        }
        return RV_BUS_OK;
    }
    return RV_BUS_ERROR;
}

void IssMachine::on_trap(void *ctx, rv_cpu *cpu, uint32_t cause, uint32_t epc, uint32_t tval) {
    auto *m = static_cast<IssMachine *>(ctx);
    m->traps.push_back({m->hart_index(cpu), cause, epc, tval});
}

uint64_t IssMachine::read_time(void *ctx) { return static_cast<IssMachine *>(ctx)->mtime; }
