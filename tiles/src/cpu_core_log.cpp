// A core's lines in the instruction and event log (--log, docs/logging.md): instructions
// (disassembled by the ISS's decoder), traps and interrupts, device accesses; and the context a
// lockup message gives.
#include <cstdio>

#include "iss/rv32_disasm.h"
#include "tiles/cpu_core.h"

namespace tiles {

namespace {

const char *exception_text(uint32_t cause) {
    static const char *const names[16] = {"instruction address misaligned",
                                          "instruction access fault",
                                          "illegal instruction",
                                          "breakpoint",
                                          "load address misaligned",
                                          "load access fault",
                                          "store address misaligned",
                                          "store access fault",
                                          "ecall from U-mode",
                                          "ecall from S-mode",
                                          "reserved",
                                          "ecall from M-mode",
                                          "instruction page fault",
                                          "load page fault",
                                          "reserved",
                                          "store page fault"};
    return cause < 16 ? names[cause] : "reserved";
}

const char *interrupt_text(uint32_t cause) {
    switch (cause) {
    case 1: return "supervisor software";
    case 3: return "machine software";
    case 5: return "supervisor timer";
    case 7: return "machine timer";
    case 9: return "supervisor external";
    case 11: return "machine external";
    default: return "reserved";
    }
}

// "80000100  00a50533  add a0, a0, a0" (compressed: 4 hex digits, padded)
std::string insn_text(uint32_t pc, uint32_t bits) {
    char text[160], dis[128];
    const unsigned len = rv_disasm(bits, pc, dis, sizeof dis);
    if (len == 2)
        std::snprintf(text, sizeof text, "%08x      %04x  %s", unsigned(pc),
                      unsigned(bits & 0xffff), dis);
    else
        std::snprintf(text, sizeof text, "%08x  %08x  %s", unsigned(pc), unsigned(bits), dis);
    return text;
}

}  // namespace

const rv_debug_points *cpu_core::logged_points(const rv_debug_points *debugger) {
    log_points_ = debugger ? *debugger : rv_debug_points{};
    log_points_.on_insn = &cpu_core::insn_thunk;
    log_points_.after_insn = log_commit_ ? &cpu_core::after_insn_thunk : nullptr;
    log_points_.insn_ctx = this;
    return &log_points_;
}

void cpu_core::insn_thunk(void *ctx, uint32_t pc, uint32_t bits) {
    auto *self = static_cast<cpu_core *>(ctx);
    ++self->log_path_steps_;
    if (self->log_commit_) {
        rv_cpu_commit_begin(self->cpu_, &self->commit_);
        self->commit_cycle_ = rv_cpu_cycles(self->cpu_);
    }
    if (!self->log_insn_ || !self->p_.log->in_range(pc)) return;
    self->p_.log->write(trace::log_insn, self->p_.tile_id, int(self->p_.core),
                        rv_cpu_cycles(self->cpu_), insn_text(pc, bits));
}

// Spike's --log-commits line of a retired instruction (riscv-isa-sim, riscv/execute.cc):
// "core   0: 3 0x80000000 (0x00000297) x5  0x80000000", then " c768_mstatus 0x..." per CSR
// written, " mem 0xADDR" per load and " mem 0xADDR 0xVALUE" per store. RV32: 8 hex digits.
void cpu_core::after_insn_thunk(void *ctx) {
    auto *self = static_cast<cpu_core *>(ctx);
    rv_commit &c = self->commit_;
    rv_cpu_commit_end(self->cpu_, &c);
    if (!c.retired || !self->p_.log->in_range(c.pc)) return;
    char text[256];
    int n = std::snprintf(text, sizeof text, "core%4u: %d 0x%08x (0x%0*x)", self->p_.core,
                          int(c.priv), unsigned(c.pc), c.len == 2 ? 4 : 8, unsigned(c.bits));
    const auto add = [&](const char *fmt, auto... args) {
        if (n > 0 && size_t(n) < sizeof text)
            n += std::snprintf(text + n, sizeof text - size_t(n), fmt, args...);
    };
    if (c.rd) add(" x%-2u 0x%08x", c.rd, unsigned(c.rd_value));
    for (unsigned i = 0; i < c.csr_count; ++i) {
        char name[32];
        rv_csr_name(c.csr[i], name, sizeof name);
        add(" c%u_%s 0x%08x", unsigned(c.csr[i]), name, unsigned(c.csr_value[i]));
    }
    if (c.load) add(" mem 0x%08x", unsigned(c.addr));
    if (c.store)
        add(" mem 0x%08x 0x%0*x", unsigned(c.addr), int(c.size * 2), unsigned(c.store_value));
    self->p_.log->write(trace::log_commit, self->p_.tile_id, int(self->p_.core),
                        self->commit_cycle_, text);
}

void cpu_core::log_trap(uint32_t cause, uint32_t epc, uint32_t tval) {
    const bool irq = cause >> 31;
    const uint32_t code = cause & 0x7FFFFFFF;
    const trace::log_category cat = irq ? trace::log_irq : trace::log_trap;
    if (!p_.log->wants(cat, p_.tile_id, p_.core) || !p_.log->in_range(epc)) return;
    char text[256];
    if (irq) {
        std::snprintf(text, sizeof text, "interrupt %u (%s) at pc %08x", unsigned(code),
                      interrupt_text(code), unsigned(epc));
    } else {
        int n = std::snprintf(text, sizeof text, "exception %u (%s) at pc %08x, tval %08x",
                              unsigned(code), exception_text(code), unsigned(epc), unsigned(tval));
        if (code == RV_EXC_ILLEGAL && n > 0 && size_t(n) < sizeof text) {
            char dis[128];
            rv_disasm(tval, epc, dis, sizeof dis);
            std::snprintf(text + n, sizeof text - size_t(n), ": %s", dis);
        }
    }
    p_.log->write(cat, p_.tile_id, int(p_.core), rv_cpu_cycles(cpu_), text);
}

void cpu_core::log_access(rv_access kind, uint32_t addr, const void *data, uint32_t len, bool ok,
                          uint64_t latency) {
    if (!p_.log->in_range(addr)) return;
    uint32_t value = 0;
    for (uint32_t i = 0; i < len && i < 4; ++i)
        value |= uint32_t(static_cast<const uint8_t *>(data)[i]) << (8 * i);
    char text[128];
    std::snprintf(text, sizeof text, "%s %08x  %u byte%s  %s%0*x  (%llu cycles)",
                  kind == RV_ACCESS_WRITE ? "write" : "read ", unsigned(addr), unsigned(len),
                  len == 1 ? " " : "s", ok ? "" : "bus error, ", int(len * 2), unsigned(value),
                  (unsigned long long)latency);
    p_.log->write(trace::log_mmio, p_.tile_id, int(p_.core), rv_cpu_cycles(cpu_), text);
}

std::string cpu_core::lockup_context() const {
    // Only when no instruction retired since: the illegal instruction started this chain of traps.
    if (!last_illegal_.valid || last_illegal_.instret != rv_cpu_instret(cpu_)) return "";
    char dis[128];
    rv_disasm(last_illegal_.bits, last_illegal_.pc, dis, sizeof dis);
    char text[200];
    std::snprintf(text, sizeof text, "; it began with an illegal instruction at pc 0x%x: %s",
                  unsigned(last_illegal_.pc), dis);
    return text;
}

}  // namespace tiles
