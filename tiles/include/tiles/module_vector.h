// Owned SystemC modules, destroyed in the reverse order of their creation. SystemC 2.3's module
// registry finds a module to remove by scanning from its front and fills the gap with its last
// entry, so teardown is linear only when every module goes in reverse order of creation (after the
// front modules the platform creates first and destroys first: vp/platform.h, registry_front); a
// std::vector destroys its elements front to back, which made tearing down a 64x64 mesh take
// seconds (docs/benchmarks.md, "Large meshes").
#pragma once
#include <memory>
#include <vector>

namespace tiles {

template <class T>
struct module_vector : std::vector<std::unique_ptr<T>> {
    ~module_vector() {
        while (!this->empty()) this->pop_back();
    }
};

}  // namespace tiles
