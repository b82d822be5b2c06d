// libFuzzer target: the ISS on random instruction words and hart state (fuzz_formats.h): the
// header sets registers, trap CSRs, satp and interrupt inputs, an mret enters the privilege mode
// of the header, then the input's bytes run as code (and serve as data and page tables) from the
// start of a 64 KiB RAM. The host harness of the unit tests provides RAM and devices; addresses
// elsewhere are bus errors. Each input runs with the interpreter and with the JIT, whose outcomes
// (registers, CSRs, statistics, device accesses, traps) must be identical.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "fuzz_formats.h"
#include "iss_harness.h"
#include "rv_encode.h"

namespace {

constexpr uint32_t csr_mstatus = 0x300, csr_medeleg = 0x302, csr_mideleg = 0x303, csr_mie = 0x304,
                   csr_mtvec = 0x305, csr_stvec = 0x105, csr_satp = 0x180, csr_mepc = 0x341;

uint32_t priv_of(uint32_t p) { return (p & 3u) == 2u ? 3u : (p & 3u); }

// Everything an input's run leaves that must not depend on the ISS engine.
std::string outcome(rv_cpu *cpu, const IssMachine &m, rv_run_status last) {
    std::string o = std::to_string(last) + " pc " + std::to_string(rv_cpu_get_pc(cpu)) + " priv " +
                    std::to_string(rv_cpu_get_priv(cpu));
    for (unsigned r = 0; r < 32; ++r) o += " " + std::to_string(rv_cpu_get_reg(cpu, r));
    for (uint32_t c : {0x300u, 0x341u, 0x342u, 0x343u, 0x141u, 0x142u, 0x143u, 0x180u}) {
        uint32_t v = 0;
        rv_cpu_read_csr(cpu, c, &v);
        o += " " + std::to_string(v);
    }
    const rv_cpu_stats *s = rv_cpu_get_stats(cpu);
    for (uint64_t v : {s->cycles, s->instret, s->loads, s->stores, s->atomics, s->branches_taken,
                       s->branches_not_taken, s->muls, s->divs, s->exceptions, s->interrupts,
                       s->wfi_count, s->decode_cache_misses})
        o += " " + std::to_string(v);
    o += "\n" + m.console;
    for (const auto &a : m.bus_log)
        o += " " + std::to_string(a.kind) + ":" + std::to_string(a.addr) + "=" +
             std::to_string(a.data);
    for (const auto &t : m.traps)
        o += " " + std::to_string(t.cause) + "@" + std::to_string(t.epc) + "/" +
             std::to_string(t.tval);
    return o;
}

// Runs one input on a fresh machine with the given engine; "" for an input too short.
std::string run_input(const uint8_t *data, size_t size, rv_engine engine) {
    fuzz::iss_header h;
    if (size < sizeof h) return "";
    std::memcpy(&h, data, sizeof h);
    const uint32_t base = fuzz::iss_ram_base;
    IssMachine m(fuzz::iss_ram_size);
    m.engine = engine;
    const size_t code = std::min<size_t>(size - sizeof h, fuzz::iss_ram_size - 4);
    m.load(base + 4, data + sizeof h, code);
    m.w32(base, enc::mret());
    rv_cpu *cpu = m.add_hart(0, base);
    if (!cpu) abort();
    // mret to mepc with mstatus.MPP = the header's mode
    const uint32_t mpp = priv_of(h.priv) << 11;
    rv_cpu_write_csr(cpu, csr_mstatus, (h.mstatus & ~(3u << 11)) | mpp);
    rv_cpu_write_csr(cpu, csr_mtvec, h.mtvec);
    rv_cpu_write_csr(cpu, csr_stvec, h.stvec);
    rv_cpu_write_csr(cpu, csr_medeleg, h.medeleg);
    rv_cpu_write_csr(cpu, csr_mideleg, h.mideleg);
    rv_cpu_write_csr(cpu, csr_mie, h.mie);
    rv_cpu_write_csr(cpu, csr_satp, h.satp);
    // mostly into the code; with bit 31 anywhere (unmapped, misaligned, devices)
    const uint32_t entry = (h.mepc_offset & 0x80000000u)
                               ? h.mepc_offset << 1
                               : base + 4 + (h.mepc_offset % (fuzz::iss_ram_size - 4));
    rv_cpu_write_csr(cpu, csr_mepc, entry);
    rv_cpu_set_irq(cpu, RV_IRQ_MSIP, h.irq_levels & 1u);
    rv_cpu_set_irq(cpu, RV_IRQ_MTIP, h.irq_levels & 2u);
    rv_cpu_set_irq(cpu, RV_IRQ_MEIP, h.irq_levels & 4u);
    rv_cpu_set_irq(cpu, RV_IRQ_SEIP, h.irq_levels & 8u);
    rv_cpu_step(cpu);
    for (unsigned r = 1; r < 32; ++r) rv_cpu_set_reg(cpu, r, h.x[r]);

    rv_run_status st = RV_RUN_BUDGET;
    for (unsigned wakeups = 0; wakeups < 4; ++wakeups) {
        st = rv_cpu_run(cpu, fuzz::iss_cycle_budget);
        if (st != RV_RUN_WFI) break;
        rv_cpu_set_irq(cpu, RV_IRQ_MTIP, true);  // wake it once more, as a timer would
    }
    // Architectural invariants that hold whatever the program did.
    if (rv_cpu_get_pc(cpu) & 1u) abort();
    const enum rv_priv p = rv_cpu_get_priv(cpu);
    if (p != RV_PRIV_U && p != RV_PRIV_S && p != RV_PRIV_M) abort();
    if (rv_cpu_get_reg(cpu, 0) != 0) abort();
    return outcome(cpu, m, st);
}

}  // namespace

// The input with the interpreter and with the JIT (the block engine where there is none): the
// outcomes must be identical.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string ref = run_input(data, size, RV_ENGINE_INTERPRETER);
    if (run_input(data, size, RV_ENGINE_JIT) != ref) abort();
    return 0;
}
