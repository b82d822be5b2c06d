#include "vp/config_limits.h"

#include <vector>

#include "vp/config.h"

namespace vp {

using nlohmann::json;

namespace {

// At most n characters of s, marked when cut.
std::string clipped(const std::string &s, size_t n = 64) {
    return s.size() <= n ? s : s.substr(0, n) + "...";
}

std::string joined(const std::vector<std::string> &keys, size_t count) {
    std::string path;
    for (size_t i = 0; i < count && i < keys.size(); ++i) path += (i ? "." : "") + clipped(keys[i]);
    return path.empty() ? "the top level" : "'" + path + "'";
}

}  // namespace

json parse_config_text(const std::string &text, const std::string &origin) {
    // keys[i]: the key of the object member being parsed at nesting level i + 1
    std::vector<std::string> keys;
    const auto check = [&](int depth, json::parse_event_t event, json &parsed) {
        switch (event) {
        case json::parse_event_t::object_start:
        case json::parse_event_t::array_start:
            // checked on entry, so the parser never builds a deeper document
            if (depth + 1 > config_limits::max_depth)
                throw config_error(origin + ": nesting deeper than " +
                                   std::to_string(config_limits::max_depth) + " levels under " +
                                   joined(keys, size_t(depth)));
            break;
        case json::parse_event_t::key: {
            const std::string &key = parsed.get_ref<const std::string &>();
            if (key.size() > config_limits::max_key_bytes)
                throw config_error(origin + ": a key of " + std::to_string(key.size()) +
                                   " bytes (at most " +
                                   std::to_string(config_limits::max_key_bytes) + ") under " +
                                   joined(keys, size_t(depth - 1)) + ": '" + clipped(key) + "'");
            keys.resize(size_t(depth - 1));
            keys.push_back(key);
            break;
        }
        case json::parse_event_t::value: {
            const size_t n = parsed.is_string() ? parsed.get_ref<const std::string &>().size() : 0;
            if (n > config_limits::max_string_bytes)
                throw config_error(origin + ": the string under " + joined(keys, size_t(depth)) +
                                   " has " + std::to_string(n) + " bytes (at most " +
                                   std::to_string(config_limits::max_string_bytes) + ")");
            break;
        }
        default: break;
        }
        return true;
    };
    try {
        return json::parse(text, check);
    } catch (const json::exception &e) {
        throw config_error(origin + ": not valid JSON: " + e.what());
    }
}

std::string describe_value(const json &value) {
    if (value.is_object()) return "an object";
    if (value.is_array()) return "an array";
    // invalid UTF-8 (a --set string) is shown replaced rather than thrown on
    return clipped(value.dump(-1, ' ', false, json::error_handler_t::replace));
}

}  // namespace vp
