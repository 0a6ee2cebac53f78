#pragma once
// Random orientations, vectors and joints for the suites that check derivatives anywhere
// (they hold at every pose, so the poses need not be assembled): the same draws from the
// same seed on every machine.

#include "looplab/common/Types.h"
#include "looplab/model/ModelDocument.h"

#include <random>
#include <string>

namespace looplab::test {

/// A unit quaternion uniform over the rotations (a normalised Gaussian 4-vector).
inline Quat randomQuat(std::mt19937& g) {
    std::normal_distribution<double> n;
    return Quat(n(g), n(g), n(g), n(g)).normalized();
}

/// A vector with components uniform in [−s, s].
inline Vec3 randomVec(std::mt19937& g, double s = 1.0) {
    std::uniform_real_distribution<double> u(-s, s);
    return Vec3(u(g), u(g), u(g));
}

/// A joint of the given type between two random markers on the named bodies (a distance
/// joint 0.7 m long, a screw of lead 0.3 m).
inline void addRandomJoint(ModelDocument& doc, std::mt19937& g, JointType type, const std::string& name,
                           const std::string& body1, const std::string& body2) {
    MarkerDoc m1{name + "_m1", body1, randomVec(g, 0.5), randomQuat(g)};
    MarkerDoc m2{name + "_m2", body2, randomVec(g, 0.5), randomQuat(g)};
    doc.markers.push_back(m1);
    doc.markers.push_back(m2);
    JointDoc j;
    j.name = name;
    j.type = type;
    j.byMarkers = true;
    j.marker1 = m1.name;
    j.marker2 = m2.name;
    if (type == JointType::Distance) j.length = 0.7;
    if (type == JointType::Screw) j.lead = 0.3;
    doc.joints.push_back(j);
}

}  // namespace looplab::test
