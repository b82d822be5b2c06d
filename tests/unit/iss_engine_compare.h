// What the engine tests compare (iss_engine_test.cpp, iss_jit_pool_test.cpp): everything that must
// not depend on the engine, after running the reference (interpreter) and the machine under test
// to the same cycle limit.
#pragma once

#include "iss_test_util.h"

#include <sstream>
#include <string>

// Registers, pc, privilege, trap CSRs, every statistics counter, device accesses and traps.
inline std::string engine_state_of(rv_cpu *c, const IssMachine &m) {
    std::ostringstream o;
    for (unsigned r = 0; r < 32; r++)
        o << "x" << r << "=" << std::hex << rv_cpu_get_reg(c, r) << " ";
    o << "pc=" << rv_cpu_get_pc(c) << " priv=" << rv_cpu_get_priv(c) << "\n";
    for (uint32_t n :
         {0x300u, 0x341u, 0x342u, 0x343u, 0x344u, 0x141u, 0x142u, 0x143u, 0xb00u, 0xb02u}) {
        uint32_t v = 0;
        rv_cpu_read_csr(c, n, &v);
        o << "csr" << n << "=" << v << " ";
    }
    const rv_cpu_stats *s = rv_cpu_get_stats(c);
    o << std::dec << "\ncycles=" << s->cycles << " instret=" << s->instret << " loads=" << s->loads
      << " stores=" << s->stores << " atomics=" << s->atomics << " bt=" << s->branches_taken
      << " bnt=" << s->branches_not_taken << " mul=" << s->muls << " div=" << s->divs
      << " exc=" << s->exceptions << " irq=" << s->interrupts << " wfi=" << s->wfi_count
      << " misses=" << s->decode_cache_misses << "\n";
    for (unsigned k = 0; k < 16; k++) o << s->exceptions_by_cause[k] << ",";
    o << "\nconsole=" << m.console << " exited=" << m.exited << " code=" << m.exit_code << "\n";
    for (const auto &a : m.bus_log)
        o << "bus " << a.kind << " " << std::hex << a.addr << " " << a.data << "\n";
    for (const auto &t : m.traps)
        o << "trap " << std::hex << t.cause << " " << t.epc << " " << t.tval << "\n";
    return o.str();
}

// rv_cpu_run on the reference hart r and the hart under test d to the same cycle limit; the
// status and the whole state must agree.
inline rv_run_status run_both_to(rv_cpu *r, const IssMachine &ref, rv_cpu *d, const IssMachine &dut,
                                 uint64_t limit) {
    rv_run_status a = rv_cpu_run(r, limit), b = rv_cpu_run(d, limit);
    EXPECT_EQ(a, b) << "limit " << limit;
    EXPECT_EQ(engine_state_of(r, ref), engine_state_of(d, dut)) << "limit " << limit;
    return a;
}

inline rv_engine_counters engine_counters(const rv_cpu *c) {
    rv_engine_counters k;
    rv_cpu_engine_counters(c, &k);
    return k;
}
