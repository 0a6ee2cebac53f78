#include "model/BevelGear.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace looplab {

std::optional<BevelMesh> bevelMesh(const Vec3& point1, const Vec3& axis1, const Vec3& wheel1, const Vec3& point2,
                                   const Vec3& axis2, const Vec3& wheel2, double n1, double n2, std::string& why) {
    const Vec3 normal = axis1.cross(axis2);
    const double sine = normal.norm();
    const Vec3 d = point2 - point1;
    const double scale = std::max({d.norm(), (wheel1 - point1).norm(), (wheel2 - point2).norm(), 1e-12});
    // The axes' closest points; they must coincide.
    const double gap = std::abs(d.dot(normal)) / sine;
    if (!(gap <= 1e-6 * scale)) {
        char text[64];
        std::snprintf(text, sizeof text, "%.6g", gap);
        why = std::string("do not meet (they pass ") + text +
              " m apart): worm and hypoid gears are not modelled; a bevel pair's axes meet at the apex of its "
              "pitch cones";
        return std::nullopt;
    }
    BevelMesh m;
    m.apex = point1 + (d.cross(axis2).dot(normal) / (sine * sine)) * axis1;
    const double along1 = (wheel1 - m.apex).dot(axis1), along2 = (wheel2 - m.apex).dot(axis2);
    if (!(std::abs(along1) > 1e-9 * scale) || !(std::abs(along2) > 1e-9 * scale)) {
        why = "meet where a wheel's body is: a bevel wheel sits on its axis away from the apex of the pitch cones";
        return std::nullopt;
    }
    m.toWheel1 = along1 > 0.0 ? axis1 : Vec3(-axis1);
    m.toWheel2 = along2 > 0.0 ? axis2 : Vec3(-axis2);
    // Shaft angle Σ between the two, and the cones: tan γ₁ = sin Σ / (n₂/n₁ + cos Σ).
    const double shaft = std::atan2(m.toWheel1.cross(m.toWheel2).norm(), m.toWheel1.dot(m.toWheel2));
    m.cone1 = std::atan2(std::sin(shaft), n2 / n1 + std::cos(shaft));
    m.cone2 = shaft - m.cone1;
    const Vec3 across = (m.toWheel2 - m.toWheel2.dot(m.toWheel1) * m.toWheel1).normalized();
    m.contact = std::cos(m.cone1) * m.toWheel1 + std::sin(m.cone1) * across;
    return m;
}

}  // namespace looplab
