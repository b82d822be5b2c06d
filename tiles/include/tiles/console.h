// Console: collects the bytes each core writes into a line buffer of its own and prints complete
// lines prefixed with the tile and core ("[0,1:0] text"), to stdout and/or a log file.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "tiles/register_target.h"

namespace tiles {

class console : public register_target {
public:
    // out may be null (quiet); log may be null (no file). Both outlive the module.
    console(sc_core::sc_module_name name, unsigned tile_x, unsigned tile_y, unsigned cores,
            unsigned access_latency_cycles, sc_core::sc_time clock_period, std::ostream *out,
            std::ostream *log);
    ~console() override;

    uint64_t bytes_written() const { return bytes_; }
    // Text of core `source` as if it had written it to the TX register (semihosting's :tt).
    void write_text(unsigned source, const char *data, size_t len);
    uint64_t lines_written() const { return lines_; }

private:
    bool read_register(uint32_t offset, uint32_t &value, tlm::tlm_generic_payload &,
                       const sc_core::sc_time &) override;
    bool write_register(uint32_t offset, uint32_t value, tlm::tlm_generic_payload &trans,
                        const sc_core::sc_time &) override;
    bool accepts_width(unsigned len) const override { return len == 1 || len == 4; }
    void emit_line(unsigned source, const std::string &text);
    void put(unsigned source, char c);

    std::string prefix_base_;
    std::vector<std::string> pending_;  // per core, plus one for other bus masters
    std::ostream *out_, *log_;
    uint64_t bytes_ = 0, lines_ = 0;
};

}  // namespace tiles
