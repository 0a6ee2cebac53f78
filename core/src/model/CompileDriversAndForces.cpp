// The drivers and forces of a document compiled into the Model (DocumentCompiler.h).

#include "model/DocumentCompiler.h"

#include <cmath>
#include <cstdlib>
#include <sstream>

namespace looplab {

bool DocumentCompiler::checkLaw(const TimeLaw& law, const std::string& where) {
    bool ok = std::isfinite(law.initial) && std::isfinite(law.rate) &&
              std::isfinite(law.offset) && std::isfinite(law.amplitude) &&
              std::isfinite(law.frequency) && std::isfinite(law.phase) &&
              std::isfinite(law.t0) && std::isfinite(law.t1) && std::isfinite(law.h0) &&
              std::isfinite(law.h1);
    for (double c : law.coefficients) ok = ok && std::isfinite(c);
    if (!ok) {
        error(where, "time law has a non-finite parameter");
        return false;
    }
    if (law.kind == TimeLaw::Kind::SmoothStep && !(law.t1 > law.t0)) {
        error(where, "smooth step needs t1 > t0");
        return false;
    }
    if (law.kind == TimeLaw::Kind::Polynomial && law.coefficients.empty()) {
        error(where, "polynomial law needs at least one coefficient");
        return false;
    }
    return true;
}

void DocumentCompiler::buildDrivers(Model& m) {
    for (size_t i = 0; i < doc_.drivers.size(); ++i) {
        const DriverDoc& dd = doc_.drivers[i];
        checkName(dd.name, at("drivers", i, "name"), ownerNames_, "driver");
        auto it = jointIndex_.find(dd.joint);
        if (it == jointIndex_.end()) {
            // A joint that is declared but was rejected has its own diagnostic.
            if (!declaredJoint(dd.joint))
                error(at("drivers", i, "joint"), "unknown joint '" + dd.joint + "'");
            continue;
        }
        const Joint& j = m.joint(it->second);
        const bool beam1 = m.body(j.frame1.body).attachedFrame() == AttachedFrame::PointAndSlope;
        const bool beam2 = m.body(j.frame2.body).attachedFrame() == AttachedFrame::PointAndSlope;
        if (beam1 && beam2 && j.type == JointType::Revolute) {
            error(at("drivers", i, "joint"), "joint '" + dd.joint + "' joins two beam nodes: it is a pin with no axis and no "
                                             "angle to drive (drive a hinge between a rigid body or the ground and a node)");
            continue;
        }
        if ((beam1 || beam2) && j.type != JointType::Revolute) {
            error(at("drivers", i, "joint"), "joint '" + dd.joint + "' holds a beam node: drivers act on revolute joints "
                                             "(hinges) there");
            continue;
        }
        Driver d;
        d.name = dd.name;
        d.joint = it->second;
        if (j.type == JointType::Revolute || j.type == JointType::Screw) {
            d.rotational = true;
        } else if (j.type == JointType::Prismatic) {
            d.rotational = false;
        } else {
            error(at("drivers", i, "joint"), "joint '" + dd.joint + "' is a " +
                                                 jointTypeName(j.type) +
                                                 " joint; drivers act on revolute, prismatic "
                                                 "or screw joints");
            continue;
        }
        if (!checkLaw(dd.law, at("drivers", i, "law"))) continue;
        d.law = dd.law;
        d.equation = m.equationCount();
        m.equations.push_back({d.name, "driver", d.rotational});
        m.drivers.push_back(d);
    }
}

void DocumentCompiler::buildForces(Model& m) {
    std::set<std::string> seen;
    for (size_t i = 0; i < doc_.forces.size(); ++i) {
        const ForceDoc& fd = doc_.forces[i];
        checkName(fd.name, at("forces", i, "name"), seen, "force");
        ForceElement f;
        f.name = fd.name;
        f.type = fd.type;
        f.stiffness = fd.stiffness;
        f.damping = fd.damping;
        f.preload = fd.preload;
        if (!std::isfinite(fd.stiffness) || fd.stiffness < 0.0)
            error(at("forces", i, "stiffness"), "stiffness must be zero or positive");
        if (!std::isfinite(fd.damping) || fd.damping < 0.0)
            error(at("forces", i, "damping"), "damping must be zero or positive");
        switch (fd.type) {
        case ForceType::SpringDamper: {
            bool ok = frameFromGlobal(fd.body1, at("forces", i, "body1"), fd.point1,
                                      at("forces", i, "point1"), Mat3::Identity(), f.point1);
            ok = frameFromGlobal(fd.body2, at("forces", i, "body2"), fd.point2,
                                 at("forces", i, "point2"), Mat3::Identity(), f.point2) &&
                 ok;
            if (!ok) continue;
            if (m.body(f.point1.body).nodeSize() > 0 || m.body(f.point2.body).nodeSize() > 0) {
                error(at("forces", i), "spring-dampers attach to rigid bodies or the ground, not to beam or solid nodes");
                continue;
            }
            if (f.point1.body == f.point2.body) {
                error(at("forces", i), "spring-damper '" + fd.name + "' connects a body to itself");
                continue;
            }
            f.freeLength = fd.freeLength ? *fd.freeLength : distance(fd.point1, fd.point2);
            if (!std::isfinite(f.freeLength) || f.freeLength < 0.0)
                error(at("forces", i, "free_length"), "free length must be zero or positive");
            if (distance(fd.point1, fd.point2) < 1e-12)
                error(at("forces", i, "point2"),
                      "spring-damper end points coincide: its direction is undefined");
            break;
        }
        case ForceType::RotationalSpringDamper: {
            auto it = jointIndex_.find(fd.joint);
            if (it == jointIndex_.end()) {
                if (!declaredJoint(fd.joint))
                    error(at("forces", i, "joint"), "unknown joint '" + fd.joint + "'");
                continue;
            }
            if (m.joint(it->second).type != JointType::Revolute &&
                m.joint(it->second).type != JointType::Cylindrical) {
                error(at("forces", i, "joint"),
                      "a rotational spring-damper needs a revolute or cylindrical joint");
                continue;
            }
            const Joint& held = m.joint(it->second);
            if (m.body(held.frame1.body).attachedFrame() == AttachedFrame::PointAndSlope &&
                m.body(held.frame2.body).attachedFrame() == AttachedFrame::PointAndSlope) {
                error(at("forces", i, "joint"), "joint '" + fd.joint + "' joins two beam nodes: it is a pin with no axis "
                                                "and no angle for a rotational spring-damper");
                continue;
            }
            f.joint = it->second;
            f.freeAngle = fd.freeAngle;
            break;
        }
        case ForceType::DcMotor:
        case ForceType::TableMotor:
            if (!buildMotor(m, fd, i, f)) continue;
            break;
        case ForceType::BodyForce:
        case ForceType::BodyTorque: {
            if (const NodeSet* set = findNodeSet(fd.body)) {  // a resultant spread over a face
                if (fd.type == ForceType::BodyTorque) {
                    error(at("forces", i, "body"), "a solid's nodes carry no torque: apply forces to nodes or node sets");
                    continue;
                }
                if (!finite(fd.vector)) {
                    error(at("forces", i, "vector"), "force vector is not finite");
                    continue;
                }
                if (fd.law && !checkLaw(*fd.law, at("forces", i, "law"))) continue;
                for (size_t n = 0; n < set->nodes.size(); ++n) {
                    ForceElement part = f;
                    part.name = fd.name + ":" + set->names[n];
                    part.body = set->bodies[n];
                    part.node = set->nodes[n];
                    part.vector = set->weights[n] * fd.vector;
                    part.law = fd.law;
                    part.forceLaw = makeForceLaw(part);
                    m.forces.push_back(part);
                }
                continue;
            }
            if (const NodeRef* node = findNode(fd.body)) {  // a nodal force on r_k
                if (fd.type == ForceType::BodyTorque) {
                    error(at("forces", i, "body"), m.body(node->body).attachedFrame() == AttachedFrame::PointOnly
                                                       ? "a solid's nodes carry no torque: apply forces to nodes"
                                                       : "a cable element's node carries no torque: apply forces to nodes");
                    continue;
                }
                if (!finite(fd.vector)) {
                    error(at("forces", i, "vector"), "force vector is not finite");
                    continue;
                }
                f.body = node->body;
                f.node = node->node;
                f.vector = fd.vector;
                if (fd.law) {
                    if (!checkLaw(*fd.law, at("forces", i, "law"))) continue;
                    f.law = fd.law;
                }
                break;
            }
            auto it = bodyIndex_.find(fd.body);
            if (it == bodyIndex_.end() && declaredNodeSetBefore(fd.body, doc_.nodeSets.size())) continue;
            if (it == bodyIndex_.end() || it->second.value() == 0) {
                error(at("forces", i, "body"),
                      fd.body == kGroundName ? "a force on the ground does nothing"
                                             : "unknown body '" + fd.body + "'");
                continue;
            }
            if (!finite(fd.vector) || !finite(fd.localPoint)) {
                error(at("forces", i, "vector"), "force vector is not finite");
                continue;
            }
            f.body = it->second;
            f.localPoint = fd.localPoint;
            f.vector = fd.vector;
            if (fd.law) {
                if (!checkLaw(*fd.law, at("forces", i, "law"))) continue;
                f.law = fd.law;
            }
            break;
        }
        }
        f.forceLaw = makeForceLaw(f);
        m.forces.push_back(f);
    }
}

namespace {

// A number of a motor's field as the user wrote it: the shortest form that reads back the
// same (strtod, which does not throw on an underflow).
std::string motorNumberText(double x) {
    for (int digits = 1; digits <= 17; ++digits) {
        std::ostringstream out;
        out.precision(digits);
        out << x;
        if (std::strtod(out.str().c_str(), nullptr) == x || digits == 17) return out.str();
    }
    return {};
}

}  // namespace

bool DocumentCompiler::buildMotor(const Model& m, const ForceDoc& fd, size_t i, ForceElement& f) {
    auto it = jointIndex_.find(fd.joint);
    if (it == jointIndex_.end()) {
        if (!declaredJoint(fd.joint)) error(at("forces", i, "joint"), "unknown joint '" + fd.joint + "'");
        return false;
    }
    const Joint& j = m.joint(it->second);
    if (j.type == JointType::Revolute || j.type == JointType::Cylindrical) {
        f.rotational = true;
    } else if (j.type == JointType::Prismatic) {
        f.rotational = false;
    } else {
        error(at("forces", i, "joint"), "joint '" + fd.joint + "' is a " + jointTypeName(j.type) +
                                            " joint; a motor turns a revolute or cylindrical joint or slides a "
                                            "prismatic one");
        return false;
    }
    if (m.body(j.frame1.body).attachedFrame() != AttachedFrame::Full ||
        m.body(j.frame2.body).attachedFrame() != AttachedFrame::Full) {
        error(at("forces", i, "joint"), "joint '" + fd.joint + "' holds a beam or solid node; motors act on joints "
                                        "between rigid bodies or a rigid body and the ground");
        return false;
    }
    f.joint = it->second;
    const MotorDoc& d = fd.motor;
    bool ok = true;
    auto number = [&](const char* field, const std::string& what) {
        ok = false;
        error(at("forces", i, field), what);
    };
    if (!std::isfinite(d.gearRatio) || d.gearRatio == 0.0) number("gear_ratio", "gear ratio must be a non-zero number");
    if (!std::isfinite(d.efficiency) || !(d.efficiency > 0.0) || d.efficiency > 1.0)
        number("efficiency", "efficiency must lie in (0, 1]");
    if (fd.type == ForceType::DcMotor) {
        if (!std::isfinite(d.torqueConstant) || !(d.torqueConstant > 0.0))
            number("torque_constant", "torque constant must be positive (N·m/A, also the back-emf constant in V·s/rad)");
        if (!std::isfinite(d.resistance) || !(d.resistance > 0.0))
            number("resistance", "armature resistance must be positive (Ω); it is " + motorNumberText(d.resistance));
        if (!checkLaw(d.voltage, at("forces", i, "voltage"))) ok = false;
    } else {
        if (d.table.size() < 2) number("table", "a torque-speed table needs two points or more");
        for (size_t k = 0; k < d.table.size(); ++k) {
            const std::string where = at("forces", i, "table") + "/" + std::to_string(k);
            if (!std::isfinite(d.table[k].first) || !std::isfinite(d.table[k].second)) {
                ok = false;
                error(where, "torque-speed point is not finite");
            } else if (k > 0 && std::isfinite(d.table[k - 1].first) && !(d.table[k].first > d.table[k - 1].first)) {
                ok = false;
                error(where, "the torque-speed table is not sorted in speed: point " + std::to_string(k) + " (" +
                                 motorNumberText(d.table[k].first) + " rad/s) is not above the one before (" +
                                 motorNumberText(d.table[k - 1].first) + " rad/s)");
            }
        }
    }
    f.motor = d;
    return ok;
}

}  // namespace looplab
