#include "gdb_target.h"

#include <sstream>

namespace vp {

const std::vector<gdb_csr> &gdb_csrs() {
    // The CSRs of the ISS (tiles/iss/src/csr.c) a firmware engineer looks at; time/timeh are left
    // out because reading them asks the CLINT, which is not a side-effect-free debug read.
    static const std::vector<gdb_csr> list = {
        {"sstatus", 0x100},    {"sie", 0x104},       {"stvec", 0x105},     {"scounteren", 0x106},
        {"sscratch", 0x140},   {"sepc", 0x141},      {"scause", 0x142},    {"stval", 0x143},
        {"sip", 0x144},        {"satp", 0x180},      {"mstatus", 0x300},   {"misa", 0x301},
        {"medeleg", 0x302},    {"mideleg", 0x303},   {"mie", 0x304},       {"mtvec", 0x305},
        {"mcounteren", 0x306}, {"mscratch", 0x340},  {"mepc", 0x341},      {"mcause", 0x342},
        {"mtval", 0x343},      {"mip", 0x344},       {"mcycle", 0xB00},    {"minstret", 0xB02},
        {"mcycleh", 0xB80},    {"minstreth", 0xB82}, {"cycle", 0xC00},     {"instret", 0xC02},
        {"cycleh", 0xC80},     {"instreth", 0xC82},  {"mvendorid", 0xF11}, {"marchid", 0xF12},
        {"mimpid", 0xF13},     {"mhartid", 0xF14},
    };
    return list;
}

std::string gdb_target_xml() {
    static const char *const abi[32] = {"zero", "ra", "sp",  "gp",  "tp", "t0", "t1", "t2",
                                        "fp",   "s1", "a0",  "a1",  "a2", "a3", "a4", "a5",
                                        "a6",   "a7", "s2",  "s3",  "s4", "s5", "s6", "s7",
                                        "s8",   "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
    std::ostringstream x;
    x << "<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
      << "<target version=\"1.0\">\n<architecture>riscv:rv32</architecture>\n"
      << "<feature name=\"org.gnu.gdb.riscv.cpu\">\n";
    for (unsigned i = 0; i < 32; ++i) {
        const char *type = i == 2 || i == 8 ? "data_ptr" : "int";
        x << "  <reg name=\"" << abi[i] << "\" bitsize=\"32\" type=\"" << type << "\" regnum=\""
          << i << "\"/>\n";
    }
    x << "  <reg name=\"pc\" bitsize=\"32\" type=\"code_ptr\" regnum=\"" << gdb_pc_regnum
      << "\"/>\n</feature>\n<feature name=\"org.gnu.gdb.riscv.csr\">\n";
    for (const gdb_csr &c : gdb_csrs())
        x << "  <reg name=\"" << c.name << "\" bitsize=\"32\" type=\"int\" regnum=\""
          << gdb_csr_regnum + c.number << "\" group=\"csr\"/>\n";
    x << "</feature>\n<feature name=\"org.gnu.gdb.riscv.virtual\">\n"
      << "  <reg name=\"priv\" bitsize=\"32\" type=\"int\" regnum=\"" << gdb_priv_regnum
      << "\"/>\n</feature>\n</target>\n";
    return x.str();
}

}  // namespace vp
