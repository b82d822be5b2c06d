#include "vp/text_table.h"

#include <algorithm>

namespace vp {

namespace {
bool numeric(const std::string &s) {
    return !s.empty() && s.find_first_not_of("0123456789.-") == std::string::npos;
}
}  // namespace

std::string text_table::str() const {
    std::vector<size_t> width;
    for (const auto &row : rows_) {
        if (row.size() > width.size()) width.resize(row.size(), 0);
        for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
    }
    std::string out;
    for (const auto &row : rows_) {
        std::string line;
        for (size_t c = 0; c < row.size(); ++c) {
            const std::string pad(width[c] - row[c].size(), ' ');
            if (c) line += "  ";
            line += numeric(row[c]) ? pad + row[c] : row[c] + pad;
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out += line + "\n";
    }
    return out;
}

}  // namespace vp
