// The GDB target description of a core: the RV32 integer registers, the pc and the CSRs the ISS
// implements, with GDB's RISC-V register numbers (CSR n is register 65 + n).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace vp {

constexpr unsigned gdb_pc_regnum = 32;
constexpr unsigned gdb_csr_regnum = 65;

struct gdb_csr {
    const char *name;
    uint32_t number;
};
const std::vector<gdb_csr> &gdb_csrs();
std::string gdb_target_xml();

}  // namespace vp
