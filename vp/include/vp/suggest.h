// "Did you mean": the closest of a set of names to a mistyped one, for error messages.
#pragma once
#include <string>
#include <vector>

namespace vp {

// " (did you mean 'NAME'?)" for the candidate closest to word by edit distance, if it is close
// enough to be a typo (one edit, or up to a quarter of the word); "" otherwise.
std::string did_you_mean(const std::string &word, const std::vector<std::string> &candidates);

}  // namespace vp
