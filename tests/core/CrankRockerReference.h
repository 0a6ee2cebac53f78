#pragma once
// The crank-rocker of resources/examples/crank-rocker-coupler-curve.json as the
// closed-form planar four-bar (looplab/kinematics/PlanarFourBar.h) sees it, read from the file alone
// (joint points and the coupler point at the file's configuration, never the solver's
// state), and the distance of a trace from its coupler curve. Shared by the core and GUI
// trace tests.

#include "looplab/model/ModelDocument.h"
#include "looplab/kinematics/PlanarFourBar.h"
#include "looplab/kinematics/PointTrace.h"

#include <QtGlobal>

#include <algorithm>
#include <cmath>
#include <optional>

namespace looplab::test {

inline Eigen::Vector2d xy(const Vec3& v) { return {v.x(), v.y()}; }

inline const JointDoc& jointNamed(const ModelDocument& doc, const std::string& name) {
    for (const JointDoc& j : doc.joints)
        if (j.name == name) return j;
    qFatal("no joint %s", name.c_str());
}

inline const BodyDoc& bodyNamed(const ModelDocument& doc, const std::string& name) {
    for (const BodyDoc& b : doc.bodies)
        if (b.name == name) return b;
    qFatal("no body %s", name.c_str());
}

// The crank-rocker of crank-rocker-coupler-curve.json read from its file alone (joint
// points and the coupler point at the file's configuration), never from the solver.
struct CrankRocker {
    PlanarFourBar linkage;
    FourBarBranch branch;
    double crankAngle0 = 0.0;  // rad, at t = 0
    double along = 0.0, across = 0.0;  // coupler point from B along and left of BC [m]
};

inline CrankRocker crankRockerFromFile(const ModelDocument& doc) {
    const Eigen::Vector2d A = xy(jointNamed(doc, "A").point), B = xy(jointNamed(doc, "B").point),
                          C = xy(jointNamed(doc, "C").point), D = xy(jointNamed(doc, "D").point);
    CrankRocker cr;
    cr.linkage.crankPivot = A;
    cr.linkage.rockerPivot = D;
    cr.linkage.crank = (B - A).norm();
    cr.linkage.coupler = (C - B).norm();
    cr.linkage.rocker = (C - D).norm();
    cr.branch = fourBarBranch(cr.linkage, B, C);
    cr.crankAngle0 = std::atan2(B.y() - A.y(), B.x() - A.x());
    const std::optional<TracedPoint> p = markerPoint(doc, "coupler-point");
    const BodyDoc& coupler = bodyNamed(doc, p->body);
    const Eigen::Vector2d P = xy(coupler.position + coupler.orientation * p->localPoint);
    const Eigen::Vector2d u = (C - B).normalized(), n(-u.y(), u.x());
    cr.along = (P - B).dot(u);
    cr.across = (P - B).dot(n);
    return cr;
}

inline double crankRate(const ModelDocument& doc) { return doc.drivers.at(0).law.rate; }

// Largest distance of the trace from the closed-form coupler curve at the driven crank
// angle θ0 + ω t.
inline double traceError(const PointTrace& trace, const CrankRocker& cr, double rate) {
    double worst = 0.0;
    for (size_t i = 0; i < trace.times.size(); ++i) {
        const std::optional<FourBarPose> pose =
            solvePlanarFourBar(cr.linkage, cr.crankAngle0 + rate * trace.times[i], cr.branch);
        if (!pose) return HUGE_VAL;
        const Eigen::Vector2d expected = couplerPoint(*pose, cr.along, cr.across);
        worst = std::max(worst, (xy(trace.positions[i]) - expected).norm());
        worst = std::max(worst, std::abs(trace.positions[i].z()));
    }
    return worst;
}

}  // namespace looplab::test
