#include "looplab/posing/JointGaps.h"

#include "looplab/kinematics/Constraints.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace looplab {

std::string JointGap::label() const {
    char buf[160];
    if (angle > 1e-6 && distance > 1e-9)
        std::snprintf(buf, sizeof buf, "%s: %.3g m apart, %.3g° out of line", name.c_str(), distance,
                      angle * 180.0 / M_PI);
    else if (angle > 1e-6)
        std::snprintf(buf, sizeof buf, "%s: %.3g° out of line", name.c_str(), angle * 180.0 / M_PI);
    else
        std::snprintf(buf, sizeof buf, "%s: %.3g m apart", name.c_str(), distance);
    return buf;
}

std::vector<JointGap> jointGaps(const Model& m, const State& s, double tolerance) {
    ConstraintValues cv;
    evaluateConstraints(m, s, cv, kPhi);
    std::vector<JointGap> gaps;
    for (int ji = 0; ji < static_cast<int>(m.joints.size()); ++ji) {
        const Joint& j = m.joints[static_cast<size_t>(ji)];
        double len2 = 0.0, ang2 = 0.0;
        for (int r = j.firstEquation; r < j.firstEquation + j.equationCount; ++r) {
            const double x = cv.phi[r];
            (m.equations[static_cast<size_t>(r)].angular ? ang2 : len2) += x * x;
        }
        JointGap g;
        g.joint = JointIndex(ji);
        g.name = j.name;
        g.distance = std::sqrt(len2);
        // Orientation rows are sines or cosine deviations of the misalignment.
        g.angle = std::asin(std::min(1.0, std::sqrt(ang2)));
        if (g.distance <= tolerance && g.angle <= tolerance) continue;
        g.point1 = pointPosition(m, s, j.frame1.body, j.frame1.origin);
        g.point2 = pointPosition(m, s, j.frame2.body, j.frame2.origin);
        gaps.push_back(g);
    }
    std::sort(gaps.begin(), gaps.end(), [&](const JointGap& a, const JointGap& b) {
        return a.distance + a.angle * m.lengthScale > b.distance + b.angle * m.lengthScale;
    });
    return gaps;
}

}  // namespace looplab
