// A plain-text table for terminal output (monitor commands): a header row and data rows, columns
// as wide as their widest cell, numbers right-aligned, everything else left-aligned.
#pragma once
#include <string>
#include <vector>

namespace vp {

class text_table {
public:
    explicit text_table(std::vector<std::string> header) { rows_.push_back(std::move(header)); }
    void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
    std::string str() const;  // one line per row, "\n"-terminated

private:
    std::vector<std::vector<std::string>> rows_;
};

}  // namespace vp
