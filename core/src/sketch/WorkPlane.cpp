#include "looplab/sketch/WorkPlane.h"

#include <cmath>

namespace looplab {

Vec3 WorkPlane::u() const {
    switch (kind) {
    case Kind::XY: return Vec3::UnitX();
    case Kind::YZ: return Vec3::UnitY();
    case Kind::ZX: return Vec3::UnitZ();
    }
    return Vec3::UnitX();
}

Vec3 WorkPlane::v() const {
    switch (kind) {
    case Kind::XY: return Vec3::UnitY();
    case Kind::YZ: return Vec3::UnitZ();
    case Kind::ZX: return Vec3::UnitX();
    }
    return Vec3::UnitY();
}

Vec3 WorkPlane::normal() const { return u().cross(v()); }

Vec3 WorkPlane::project(const Vec3& p) const { return p - normal() * normal().dot(p); }

bool WorkPlane::intersect(const Vec3& origin, const Vec3& direction, Vec3& out) const {
    const double d = normal().dot(direction);
    if (!(std::abs(d) > 1e-12 * direction.norm())) return false;
    out = project(origin - direction * (normal().dot(origin) / d));
    return out.allFinite();
}

const char* workPlaneName(WorkPlane::Kind kind) {
    switch (kind) {
    case WorkPlane::Kind::XY: return "XY";
    case WorkPlane::Kind::YZ: return "YZ";
    case WorkPlane::Kind::ZX: return "ZX";
    }
    return "XY";
}

}  // namespace looplab
