// The component table of the structural area model (vp/area.h, docs/area.md): each entry names a
// hardware block, its group, how many instances the configuration has and a builder that lists
// the parts of one instance. Adding a block = adding a builder and an entry (area_components.cpp).
#pragma once
#include <string>
#include <vector>

#include "vp/area.h"

namespace vp {

struct area_component_def {
    const char *name, *group, *what;
    void (*build)(const platform_config &c, std::vector<area_part> &parts);
    unsigned (*count)(const platform_config &c);  // 0: not present
};
const std::vector<area_component_def> &area_component_defs();

}  // namespace vp
