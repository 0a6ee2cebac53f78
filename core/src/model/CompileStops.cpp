// Joint limits and distance stops compiled into the Model's stops (DocumentCompiler.h).

#include "model/DocumentCompiler.h"

#include <cmath>

namespace looplab {

namespace {

bool validRestitution(double e) { return e >= 0.0 && e <= 1.0; }

}  // namespace

void DocumentCompiler::buildStops(Model& m) {
    for (size_t i = 0; i < doc_.joints.size(); ++i) {
        const JointDoc& jd = doc_.joints[i];
        if (jd.restitution && !validRestitution(*jd.restitution))
            error(at("joints", i, "restitution"), "joint '" + jd.name + "': the coefficient of restitution " +
                                                       shortNumber(*jd.restitution) + " is outside [0, 1]");
        if (!jd.limits) continue;
        const auto [lower, upper] = *jd.limits;
        if (!(lower <= upper) || std::isnan(lower) || std::isnan(upper)) {
            error(at("joints", i, "limits"), "joint '" + jd.name + "': limits are [lower, upper] with lower not above upper");
            continue;
        }
        const bool slide = jd.type == JointType::Prismatic || jd.type == JointType::Cylindrical;
        if (jd.type != JointType::Revolute && !slide) continue;  // data for export alone
        const auto it = jointIndex_.find(jd.name);
        if (it == jointIndex_.end()) continue;  // the joint has its own diagnostic
        const Joint& joint = m.joint(it->second);
        if (m.body(joint.frame1.body).nodeSize() > 0 || m.body(joint.frame2.body).nodeSize() > 0) {
            error(at("joints", i, "limits"), "joint '" + jd.name +
                                                 "' holds a beam or solid node: limits are enforced on joints "
                                                 "between rigid bodies and the ground only");
            continue;
        }
        // An angle is known within a turn (atan2): a range of a whole turn or more never binds.
        if (!slide && !(upper - lower < 2.0 * M_PI)) continue;
        Stop s;
        s.name = jd.name;
        s.kind = Stop::Kind::JointLimit;
        s.joint = it->second;
        s.angular = !slide;
        s.lower = lower;
        s.upper = upper;
        s.restitution = jd.restitution && validRestitution(*jd.restitution) ? *jd.restitution : kDefaultRestitution;
        m.stops.push_back(s);
    }
    for (size_t i = 0; i < doc_.stops.size(); ++i) {
        const StopDoc& sd = doc_.stops[i];
        checkName(sd.name, at("stops", i, "name"), ownerNames_, "stop");
        Stop s;
        s.name = sd.name;
        s.kind = Stop::Kind::Distance;
        bool ok = frameFromGlobal(sd.body1, at("stops", i, "body1"), sd.point1, at("stops", i, "point1"),
                                  Mat3::Identity(), s.point1);
        ok = frameFromGlobal(sd.body2, at("stops", i, "body2"), sd.point2, at("stops", i, "point2"), Mat3::Identity(),
                             s.point2) &&
             ok;
        if (!ok) continue;
        if (m.body(s.point1.body).nodeSize() > 0 || m.body(s.point2.body).nodeSize() > 0) {
            error(at("stops", i), "stop '" + sd.name + "': stops join rigid bodies or the ground, not beam or solid nodes");
            continue;
        }
        if (s.point1.body == s.point2.body) {
            error(at("stops", i, "body2"), "stop '" + sd.name + "' joins a body to itself");
            continue;
        }
        if (!sd.min && !sd.max) {
            error(at("stops", i), "stop '" + sd.name + "' has neither 'min' nor 'max'");
            continue;
        }
        for (const auto& [bound, key] : {std::pair{sd.min, "min"}, std::pair{sd.max, "max"}})
            if (bound && !(std::isfinite(*bound) && *bound >= 0.0)) {
                error(at("stops", i, key), "stop '" + sd.name + "': the " + key + " distance " + shortNumber(*bound) +
                                               " m is not a length (zero or more)");
                ok = false;
            }
        if (ok && sd.min && sd.max && !(*sd.min <= *sd.max)) {
            error(at("stops", i, "max"), "stop '" + sd.name + "': max distance below min distance");
            ok = false;
        }
        // The gap's gradient is along the line between the points: it needs them apart.
        if (ok && sd.min && !(*sd.min > 0.0)) {
            error(at("stops", i, "min"), "stop '" + sd.name +
                                             "': a min distance of 0 holds nothing (the points may always meet)");
            ok = false;
        }
        if (sd.restitution && !validRestitution(*sd.restitution)) {
            error(at("stops", i, "restitution"), "stop '" + sd.name + "': the coefficient of restitution " +
                                                      shortNumber(*sd.restitution) + " is outside [0, 1]");
            ok = false;
        }
        if (!ok) continue;
        const double d = distance(sd.point1, sd.point2);
        if (sd.min) s.lower = *sd.min;
        if (sd.max) s.upper = *sd.max;
        if (!(d > 0.0) && sd.max) {
            error(at("stops", i, "point2"), "stop '" + sd.name + "': the two points coincide, so the rope has no direction");
            continue;
        }
        s.restitution = sd.restitution ? *sd.restitution : kDefaultRestitution;
        m.stops.push_back(s);
    }
}

}  // namespace looplab
