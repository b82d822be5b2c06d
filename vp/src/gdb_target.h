// The GDB target description of a core: the RV32 integer registers, the pc, the CSRs the ISS
// implements and the privilege level, with GDB's RISC-V register numbers (CSR n is register
// 65 + n, priv is 65 + 4096).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace vp {

constexpr unsigned gdb_pc_regnum = 32;
constexpr unsigned gdb_csr_regnum = 65;
constexpr unsigned gdb_priv_regnum = 65 + 4096;  // GDB's virtual register "priv" (read-only here)

struct gdb_csr {
    const char *name;
    uint32_t number;
};
const std::vector<gdb_csr> &gdb_csrs();
std::string gdb_target_xml();

}  // namespace vp
