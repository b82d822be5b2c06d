#include "vp/suggest.h"

#include <algorithm>

namespace vp {

namespace {

constexpr size_t max_word = 128;  // longer input is no typo of a name; skip the quadratic work

size_t edit_distance(const std::string &a, const std::string &b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

}  // namespace

std::string did_you_mean(const std::string &word, const std::vector<std::string> &candidates) {
    if (word.empty() || word.size() > max_word) return "";
    const std::string *best = nullptr;
    size_t best_distance = std::max<size_t>(1, word.size() / 4) + 1;
    for (const std::string &c : candidates) {
        if (c == word) continue;  // a group given a value: naming it again helps nobody
        const size_t d = edit_distance(word, c);
        if (d < best_distance) {
            best_distance = d;
            best = &c;
        }
    }
    return best ? " (did you mean '" + *best + "'?)" : "";
}

}  // namespace vp
