// The area model (vp/src/area.cpp, docs/area.md): calibrated to the thesis, monotonic in what
// the configuration adds, its parameters are configuration keys.
#include <gtest/gtest.h>

#include "vp/area.h"

using vp::area_estimate;
using vp::config_builder;

namespace {

area_estimate area(const std::string &preset, const std::vector<std::string> &overrides = {}) {
    config_builder b;
    if (!preset.empty()) b.apply_preset(preset);
    for (const std::string &o : overrides) b.apply_override(o);
    return vp::estimate_area(b.build());
}
double namp_kgates(const std::string &preset, const std::vector<std::string> &overrides = {}) {
    return area(preset, overrides).group_kgates("namp");
}

}  // namespace

TEST(Area, EveryCalibrationPointWithinFivePercentOfTheThesis) {
    const auto points = vp::area_calibration();
    ASSERT_EQ(points.size(), 12u);
    for (const auto &p : points) {
        // both directions: neither above nor below the thesis figure by more than 5 %
        EXPECT_LE(p.model, p.thesis * 1.05) << p.name << " (" << p.how << ")";
        EXPECT_GE(p.model, p.thesis * 0.95) << p.name << " (" << p.how << ")";
    }
}

TEST(Area, AGrossMiscalibrationIsCaught) {
    // The same check fails when one parameter is far off: the tolerance is not vacuous.
    config_builder b;
    b.apply_preset("bare");
    b.apply_override("namp.slots=4");
    b.apply_override("area.namp_slot_gates=5000");
    EXPECT_GT(vp::estimate_area(b.build()).group_kgates("namp"), 24 * 1.05);
}

TEST(Area, GrowsWithSlotsAndVirtualInterfaces) {
    double last = 0;
    for (unsigned s : {1u, 2u, 4u, 8u, 16u, 128u}) {
        const double a = namp_kgates("bare", {"namp.slots=" + std::to_string(s)});
        EXPECT_GT(a, last) << s << " slots";
        last = a;
    }
    last = 0;
    for (unsigned v : {0u, 1u, 2u, 4u}) {
        const double a = namp_kgates("svbase", {"namp.slots_virt=" + std::to_string(v)});
        EXPECT_GT(a, last) << v << " virtual interfaces";
        last = a;
    }
    EXPECT_GT(area("", {"na.dma_slots=3"}).group_kgates("dma"), area("").group_kgates("dma"));
    EXPECT_GT(area("", {"na.dma_contexts=5"}).group_kgates("dma"), area("").group_kgates("dma"));
    EXPECT_GT(area("", {"na.rx_buffer_flits=256"}).group_kgates("noc_buffers"),
              area("").group_kgates("noc_buffers"));
}

TEST(Area, EachDisabledFeatureMakesItSmaller) {
    // svfull with every feature the model knows, then each one switched off alone
    const std::vector<std::string> all = {"namp.osqm=true"};
    const double full = namp_kgates("svfull", all);
    for (const char *off :
         {"namp.enable_messages=false", "namp.enable_channels=false", "namp.enable_buffered=false",
          "namp.enable_ccm=false", "namp.enable_cc_multicast=false",
          "namp.enable_cc_scattergather=false", "namp.enable_cc_reduction=false",
          "namp.osqm=false", "namp.osqm_static=true", "namp.slots_virt=0", "namp.ps=false"}) {
        std::vector<std::string> o = all;
        o.push_back(off);
        EXPECT_LT(namp_kgates("svfull", o), full) << off;
    }
    EXPECT_EQ(namp_kgates("", {}), 0.0);  // no NAMP, no NAMP area
    EXPECT_GT(area("").adapter_kgates(), 0.0);
    EXPECT_EQ(area("", {"na.enabled=false"}).adapter_kgates(), 0.0);
}

TEST(Area, ParametersAreConfigurationKeys) {
    // a user's own synthesis: 5000 gates per slot, a 600-gate window check per virtual interface
    const double before = namp_kgates("svbase");
    const auto a = area("svbase", {"area.namp_slot_gates=5000",
                                   "area.namp_vif_window_check_gates=600"});
    EXPECT_NEAR(a.group_kgates("namp") - before, 5 * 1.0 + 4 * 0.08 * 1.0 + 4 * (0.6 - 0.55), 1e-9);
    bool window = false;
    for (const auto &c : a.components)
        if (c.name == "namp_vif_window_checks") window = c.count == 4 && c.each_kgates == 0.6;
    EXPECT_TRUE(window);
}

TEST(Area, ContradictorySharesAreRefused) {
    config_builder b;
    b.apply_preset("bare");
    b.apply_override("area.namp_messages_permille=900");
    EXPECT_THROW(vp::estimate_area(b.build()), vp::config_error);
}

TEST(Area, JsonSectionHasComponentsAndTotals) {
    // the thesis' svfull (without PS, the isolation checks and collectives through a vif, which
    // it does not size)
    const auto j = vp::area_json(area("svfull", {"namp.ps=false", "area.namp_vif_window_check_gates=0",
                                                 "area.namp_vif_cc_gates=0"}));
    EXPECT_EQ(j["tiles"], 16);
    EXPECT_DOUBLE_EQ(j["namp_kgates"].get<double>(), 40.0);
    // the preset: + PS 1 kGate + 4 virtual interfaces' isolation of 0.55 kGates and member
    // tables of 0.3 kGates
    EXPECT_NEAR(vp::area_json(area("svfull"))["namp_kgates"].get<double>(), 44.4, 1e-9);
    EXPECT_EQ(vp::area_json(area("svfull"))["components"]["namp_vif_cc_members"]["count"], 4);
    // without any collective the member tables are absent
    EXPECT_FALSE(vp::area_json(area("svfull", {"namp.enable_cc_multicast=false", "namp.enable_cc_scattergather=false",
                                               "namp.enable_cc_reduction=false"}))["components"]
                     .contains("namp_vif_cc_members"));
    EXPECT_DOUBLE_EQ(j["noc_buffers_kgates"].get<double>(), 37.0);
    EXPECT_DOUBLE_EQ(j["dma_kgates"].get<double>(), 27.0);
    EXPECT_EQ(j["components"]["namp_slots"]["count"], 5);
    EXPECT_EQ(j["components"]["namp_vifs"]["count"], 4);
    EXPECT_DOUBLE_EQ(j["platform_kgates"].get<double>(), 16 * 104.0);
}
