// The markers, traces and joints of a document compiled into the Model's frames and
// joint equations (DocumentCompiler.h).

#include "model/DocumentCompiler.h"
#include "looplab/bodies/Rotation.h"
#include "looplab/model/State.h"

#include <algorithm>
#include <cmath>

namespace looplab {

// Pose of a body in the document's initial configuration.
bool DocumentCompiler::initialPose(const std::string& body, Mat3& A, Vec3& r) const {
    if (body == kGroundName) {
        A.setIdentity();
        r.setZero();
        return true;
    }
    // By name, not by a search of the bodies for each joint: that took an imported chain
    // of 50 000 links longer to build than everything else.
    if (rigidBodyDocs_.empty())
        for (const BodyDoc& b : doc_.bodies) rigidBodyDocs_.emplace(b.name, &b);
    const auto it = rigidBodyDocs_.find(body);
    if (it == rigidBodyDocs_.end()) return false;
    const BodyDoc& b = *it->second;
    Quat unit;
    A = unitQuaternion(b.orientation, unit) == Length::NonZero ? unit.toRotationMatrix() : Mat3::Identity();
    r = b.position;
    return true;
}

void DocumentCompiler::buildMarkers(Model& m) {
    std::set<std::string> seen;
    for (size_t i = 0; i < doc_.markers.size(); ++i) {
        const MarkerDoc& mk = doc_.markers[i];
        checkName(mk.name, at("markers", i, "name"), seen, "marker");
        auto it = bodyIndex_.find(mk.body);
        if (it == bodyIndex_.end()) {
            error(at("markers", i, "body"), "unknown body '" + mk.body + "'");
            continue;
        }
        if (!finite(mk.position)) error(at("markers", i, "position"), "position is not finite");
        Quat unit;
        if (!checkQuaternion(mk.orientation, at("markers", i, "orientation"), unit)) continue;
        BodyFrame f;
        f.body = it->second;
        f.origin = mk.position;
        f.axes = unit.toRotationMatrix();
        markers_[mk.name] = f;
        m.markers.push_back({mk.name, f});
    }
}

// Traces are drawn by the workbench, not simulated, but a file must not name a body or
// marker it lacks there any more than in a joint.
void DocumentCompiler::checkTraces() {
    for (size_t i = 0; i < doc_.traces.size(); ++i) {
        const TraceDoc& t = doc_.traces[i];
        if (!t.marker.empty()) {
            if (!declaredMarker(t.marker)) error(at("traces", i, "marker"), "unknown marker '" + t.marker + "'");
        } else if (bodyIndex_.find(t.body) == bodyIndex_.end()) {
            error(at("traces", i, "body"), t.body.empty() ? "missing body name" : "unknown body '" + t.body + "'");
        } else if (!finite(t.point)) {
            error(at("traces", i, "point"), "point is not finite");
        }
    }
}

// `where` locates the body's name, `pointWhere` the point.
bool DocumentCompiler::frameFromGlobal(const std::string& body, const std::string& where, const Vec3& point,
                                       const std::string& pointWhere, const Mat3& axesGlobal, BodyFrame& f) {
    if (const NodeRef* node = findNode(body)) {  // the node's own position and slope
        f.body = node->body;
        f.node = node->node;
        return true;
    }
    if (isSolid(body)) {
        error(where, "'" + body + "' is a solid: name one of its nodes ('" + body + ".node<i>_<j>_<k>') or faces ('" +
                         body + ".xmin', '" + body + ".xmax', ...)");
        return false;
    }
    if (findNodeSet(body)) {
        error(where, "'" + body + "' is a node set: only spherical and fixed joints and body forces take node sets");
        return false;
    }
    if (nodesOfBeam(body)) {
        error(where, "'" + body + "' is a beam: name one of its nodes ('" + body + ".root', '" + body +
                         ".tip' or '" + body + ".node<k>')");
        return false;
    }
    auto it = bodyIndex_.find(body);
    if (it == bodyIndex_.end()) {
        // A node set that is declared but was rejected has its own diagnostic.
        if (!declaredNodeSetBefore(body, doc_.nodeSets.size()))
            error(where, body.empty() ? "missing body name" : "unknown body '" + body + "'");
        return false;
    }
    Mat3 A;
    Vec3 r;
    initialPose(body, A, r);
    f.body = it->second;
    f.origin = A.transpose() * (point - r);
    f.axes = A.transpose() * axesGlobal;
    if (!f.origin.allFinite()) {
        // A body whose position is not finite has a diagnostic of its own.
        if (!finite(point))
            error(pointWhere, "point is not finite");
        else if (finite(r))
            error(pointWhere, "point is too far from the centre of mass of '" + body +
                                  "' (their distance overflows)");
        return false;
    }
    return true;
}

bool DocumentCompiler::unitAxis(const Vec3& a, const std::string& where, Vec3& out) {
    switch (unitVector(a, out)) {
    case Length::NonZero: return true;
    case Length::Zero: error(where, "axis has zero length"); return false;
    case Length::NotFinite: error(where, "axis is not finite"); return false;
    }
    return false;
}

bool DocumentCompiler::nodeAtJointPoint(const JointDoc& jd, size_t i) {
    for (const std::string* name : {&jd.body1, &jd.body2}) {
        const NodeRef* node = findNode(*name);
        if (!node || node->slope == Vec3::Zero()) continue;  // not a beam's node
        const std::string beam = name->substr(0, name->rfind('.'));
        double element = 0.0;
        for (const BeamDoc& b : doc_.beams)
            if (b.name == beam && b.elements > 0) element = (b.to - b.from).norm() / b.elements;
        const double gap = (jd.point - node->position).norm();
        if (!(gap <= 1e-3 * element)) {
            error(at("joints", i, "point"),
                  "joint '" + jd.name + "': its point is " + shortNumber(gap) + " m from the beam node '" + *name +
                      "' it holds, which is at (" + shortNumber(node->position.x()) + ", " +
                      shortNumber(node->position.y()) + ", " + shortNumber(node->position.z()) +
                      "): a joint holds a beam node where the node is, so its point must be there (assembly would "
                      "otherwise bend the beam to bring them together)");
            return false;
        }
    }
    return true;
}

// A spherical or fixed joint between a node set and a rigid body or the ground: one pin
// per node, holding each node where it is in the undeformed mesh (the joint's point is
// not used). Returns false if neither body is a node set.
bool DocumentCompiler::buildNodeSetJoint(Model& m, size_t i) {
    const JointDoc& jd = doc_.joints[i];
    if (jd.byMarkers) return false;
    const NodeSet* set1 = findNodeSet(jd.body1);
    const NodeSet* set2 = findNodeSet(jd.body2);
    if (!set1 && !set2) return false;
    if (set1 && set2) {
        error(at("joints", i), "a joint holds one node set to a rigid body or the ground, not two node sets");
        return true;
    }
    if (jd.type != JointType::Spherical && jd.type != JointType::Fixed) {
        error(at("joints", i, "type"), std::string("a ") + jointTypeName(jd.type) +
                                           " joint cannot hold a node set: node sets take spherical and fixed joints "
                                           "(each node pinned where it is)");
        return true;
    }
    const NodeSet& set = set1 ? *set1 : *set2;
    const std::string& other = set1 ? jd.body2 : jd.body1;
    const std::string otherWhere = at("joints", i, set1 ? "body2" : "body1");
    if (findNode(other)) {
        error(otherWhere, "a node set is held to a rigid body or the ground, not to a node");
        return true;
    }
    for (size_t n = 0; n < set.nodes.size(); ++n) {
        Joint j;
        j.name = jd.name + ":" + set.names[n];
        j.type = JointType::Spherical;
        BodyFrame onSet;
        onSet.body = set.bodies[n];
        onSet.node = set.nodes[n];
        BodyFrame onOther;
        const Vec3 p = nodes_.at(set.names[n]).position;
        if (!frameFromGlobal(other, otherWhere, p, at("joints", i, "point"), Mat3::Identity(), onOther)) return true;
        j.frame1 = set1 ? onSet : onOther;
        j.frame2 = set1 ? onOther : onSet;
        addJoint(m, j, jointEquationLabels(JointType::Spherical));
    }
    return true;
}

void DocumentCompiler::addJoint(Model& m, Joint& j, const std::vector<EquationLabel>& labels) {
    j.firstEquation = m.equationCount();
    for (EquationLabel l : labels) {
        l.owner = j.name;
        m.equations.push_back(l);
    }
    j.equationCount = m.equationCount() - j.firstEquation;
    jointIndex_[j.name] = JointIndex(static_cast<int>(m.joints.size()));
    m.joints.push_back(j);
}

void DocumentCompiler::buildJoints(Model& m) {
    for (size_t i = 0; i < doc_.joints.size(); ++i) {
        const JointDoc& jd = doc_.joints[i];
        checkName(jd.name, at("joints", i, "name"), ownerNames_, "joint");
        if (buildNodeSetJoint(m, i)) continue;
        Joint j;
        j.name = jd.name;
        j.limits = jd.limits;
        j.type = jd.type;
        bool ok = true;
        if (jd.byMarkers) {
            auto m1 = markers_.find(jd.marker1), m2 = markers_.find(jd.marker2);
            // A marker that is declared but was rejected has its own diagnostic.
            if (m1 == markers_.end()) {
                if (!declaredMarker(jd.marker1))
                    error(at("joints", i, "marker1"), "unknown marker '" + jd.marker1 + "'");
                ok = false;
            }
            if (m2 == markers_.end()) {
                if (!declaredMarker(jd.marker2))
                    error(at("joints", i, "marker2"), "unknown marker '" + jd.marker2 + "'");
                ok = false;
            }
            if (!ok) continue;
            j.frame1 = m1->second;
            j.frame2 = m2->second;
        } else {
            // A joint just added in the workbench is unconnected: say which one, not only where.
            const std::string unconnected = "missing body name: joint '" + jd.name + "' is not connected";
            if (jd.body1.empty()) error(at("joints", i, "body1"), unconnected);
            if (jd.body2.empty()) error(at("joints", i, "body2"), unconnected);
            if (jd.body1.empty() || jd.body2.empty()) continue;
            if (!finite(jd.point)) {
                error(at("joints", i, "point"), "point is not finite");
                continue;
            }
            Vec3 z;
            if (!unitAxis(jd.axis, at("joints", i, "axis"), z)) continue;
            const Mat3 G1 = frameFromZAxis(z);
            Mat3 G2 = G1;
            Vec3 p2 = jd.point;
            if (jd.type == JointType::Universal) {
                // A zero axis2 (exactly) means "any perpendicular"; tiny ones are axes.
                Vec3 z2 = jd.axis2 != Vec3::Zero() ? Vec3(jd.axis2) : anyPerpendicular(z);
                if (!unitAxis(z2, at("joints", i, "axis2"), z2)) continue;
                if (std::abs(z2.dot(z)) > 1e-9) {
                    error(at("joints", i, "axis2"),
                          "a universal joint's two axes must be perpendicular");
                    continue;
                }
                G2 = frameFromZAxis(z2);
            }
            if (jd.type == JointType::Distance) {
                if (!finite(jd.point2)) {
                    error(at("joints", i, "point2"), "point2 is not finite");
                    continue;
                }
                p2 = jd.point2;
            }
            ok = frameFromGlobal(jd.body1, at("joints", i, "body1"), jd.point,
                                 at("joints", i, "point"), G1, j.frame1);
            ok = frameFromGlobal(jd.body2, at("joints", i, "body2"), p2,
                                 at("joints", i, jd.type == JointType::Distance ? "point2"
                                                                                : "point"),
                                 G2, j.frame2) &&
                 ok;
            if (!ok) continue;
        }
        if (j.frame1.body == j.frame2.body && j.frame1.node == j.frame2.node) {
            error(at("joints", i), "joint '" + jd.name + "' connects a body to itself");
            continue;
        }
        // --- beams: a pin (spherical) on nodes on either side; a hinge (revolute) or a
        // clamp (fixed) between a rigid body or the ground and a node, named in either
        // order, which holds the node's position and the direction of its slope (the
        // rigid side's x axis along the slope's initial direction, so the hinge angle is
        // 0 at the start); a revolute between two nodes, which is a pin (NodeJoints.h) ---
        const bool node1 = m.body(j.frame1.body).attachedFrame() == AttachedFrame::PointAndSlope;
        const bool node2 = m.body(j.frame2.body).attachedFrame() == AttachedFrame::PointAndSlope;
        const bool point1 = m.body(j.frame1.body).attachedFrame() == AttachedFrame::PointOnly;
        const bool point2 = m.body(j.frame2.body).attachedFrame() == AttachedFrame::PointOnly;
        if ((node1 && point2) || (node2 && point1)) {
            if (jd.type != JointType::Spherical) {
                error(at("joints", i, "type"), "a beam node and a solid node are joined by a spherical joint (a pin)");
                continue;
            }
        }
        const bool oneNode = node1 != node2;
        const bool clamp = oneNode && jd.type == JointType::Fixed;
        const bool hinge = oneNode && jd.type == JointType::Revolute;
        const bool nodePair = node1 && node2 && jd.type == JointType::Revolute;
        if ((node1 || node2) && jd.type != JointType::Spherical && !clamp && !hinge && !nodePair) {
            error(at("joints", i, "type"),
                  jd.type == JointType::Fixed
                      ? std::string("a clamp (fixed joint on a beam node) holds a node to a rigid body or the ground, "
                                    "not to another node (pin the two nodes, or clamp each to a rigid body)")
                      : std::string("a ") + jointTypeName(jd.type) +
                            " joint cannot hold a beam node: nodes take spherical (pin), revolute (hinge) and fixed (clamp) joints");
            continue;
        }
        if (hinge || clamp || nodePair) {
            const char* what = clamp ? "a clamp on a beam node is given by body1, body2 and point, not by markers"
                                     : "a revolute joint on a beam node is given by body1, body2, point and axis, not by markers";
            if (jd.byMarkers) {
                error(at("joints", i), what);
                continue;
            }
        }
        if (hinge || nodePair) {
            // The axis lies across the beam at each node it holds (the beam turns about it).
            Vec3 z;
            unitVector(jd.axis, z);  // checked above
            bool across = true;
            for (const std::string* name : {&jd.body1, &jd.body2}) {
                const NodeRef* node = findNode(*name);
                if (!node || std::abs(z.dot(node->slope)) <= 1e-9) continue;
                error(at("joints", i, "axis"), "a revolute joint on a beam node needs an axis perpendicular to the beam at the node "
                                               "(the beam turns about the axis; the axis makes " +
                                                   shortNumber(std::acos(std::clamp(z.dot(node->slope), -1.0, 1.0)) * 180.0 / M_PI) +
                                                   "° with '" + *name + "')");
                across = false;
                break;
            }
            if (!across) continue;
            if (nodePair) {
                // Both frames keep the joint's global frame, for drawing and writing back.
                j.frame1.axes = j.frame2.axes = frameFromZAxis(z);
            }
        }
        if (hinge || clamp) {
            const NodeRef* node = findNode(node2 ? jd.body2 : jd.body1);
            BodyFrame& rigidFrame = node2 ? j.frame1 : j.frame2;
            BodyFrame& nodeFrame = node2 ? j.frame2 : j.frame1;
            Mat3 A;
            Vec3 r;
            initialPose(bodyName(rigidFrame.body), A, r);
            Mat3 axes;
            if (hinge) {
                // z the axis, x along the node's initial slope; the node's frame is its
                // slope (Constraints.cpp).
                Vec3 z;
                unitVector(jd.axis, z);
                axes << node->slope, z.cross(node->slope), z;
            } else {
                const Mat3 G = frameFromZAxis(node->slope);
                axes << G.col(2), G.col(0), G.col(1);  // x along the slope, right-handed
            }
            rigidFrame.axes = A.transpose() * axes;
            // The node carries its slope alone; its frame's axes say where the joint was
            // at the start (markers in the scene, reactions' components, a pose written back).
            nodeFrame.axes = axes;
        }
        // A joint on a beam node holds the node itself (its point is not where the node's
        // frame is): a point away from the node would have assembly bend the beam until
        // the node reaches the other side, folding it. The point must be at the node,
        // to a thousandth of an element (checked after the joint's type and axis, which
        // say more about a joint that is wrong in both).
        if (!jd.byMarkers && !nodeAtJointPoint(jd, i)) continue;
        // --- end beams ---
        // --- solids: a node is a point; a fixed joint on it holds its position alone
        // (a pin), a solid is clamped by holding a set of its nodes ---
        if (point1 || point2) {
            if (jd.type != JointType::Spherical && jd.type != JointType::Fixed) {
                error(at("joints", i, "type"), std::string("a ") + jointTypeName(jd.type) +
                                                   " joint cannot hold a solid node: solid nodes take spherical and fixed "
                                                   "joints (both hold the node's position)");
                continue;
            }
            j.type = JointType::Spherical;
        }
        // --- end solids ---
        if (jd.type == JointType::Distance) {
            double L = 0.0;
            if (jd.length) {
                L = *jd.length;
            } else {
                Mat3 A1, A2;
                Vec3 r1, r2;
                initialPose(bodyName(j.frame1.body), A1, r1);
                initialPose(bodyName(j.frame2.body), A2, r2);
                L = distance(r1 + A1 * j.frame1.origin, r2 + A2 * j.frame2.origin);
            }
            if (!std::isfinite(L) || L <= 0.0) {
                error(at("joints", i, "length"), "a distance joint needs a positive length");
                continue;
            }
            j.length = L;
        }
        if (jd.type == JointType::Screw) {
            if (!jd.lead || !std::isfinite(*jd.lead) || *jd.lead == 0.0 ||
                std::abs(*jd.lead) > 1e6 * std::max(1.0, lengthScale())) {
                error(at("joints", i, "lead"), "a screw joint needs its lead, the advance per turn in metres: a "
                                               "finite number other than zero (negative for a left-hand thread)");
                continue;
            }
            j.lead = *jd.lead;
        }
        const bool onBeamNode = (node1 || node2) && !(node1 && node2);
        const EquationLabel px{"", "point x", false}, py{"", "point y", false}, pz{"", "point z", false};
        // With the node as body1 the rigid side's axes are frame 2's.
        const std::string y = node2 ? "y1.x2" : "y2.x1", z = node2 ? "z1.x2" : "z2.x1";
        if (onBeamNode && j.type == JointType::Fixed)
            addJoint(m, j, {px, py, pz, {"", "slope " + y, true}, {"", "slope " + z, true}});
        else if (onBeamNode && j.type == JointType::Revolute)
            addJoint(m, j, {px, py, pz, {"", "slope " + z, true}});
        else if (nodePair)
            addJoint(m, j, {px, py, pz});
        else
            addJoint(m, j, jointEquationLabels(j.type));
        if (j.type == JointType::Screw) {
            // The thread passes through the initial pose.
            Joint& screw = m.joints.back();
            const State s0 = initialState(m);
            const JointIndex index(static_cast<int>(m.joints.size()) - 1);
            screw.screwPhase = std::remainder(jointAngle(m, s0, index) -
                                                  2.0 * M_PI * jointDisplacement(m, s0, index) / screw.lead,
                                              2.0 * M_PI);
        }
    }
}

// Whether the document declares a marker or joint of this name (it may have been
// rejected with a diagnostic of its own).
bool DocumentCompiler::declaredMarker(const std::string& name) const {
    for (const MarkerDoc& m : doc_.markers)
        if (m.name == name) return true;
    return false;
}

bool DocumentCompiler::declaredJoint(const std::string& name) const {
    for (const JointDoc& j : doc_.joints)
        if (j.name == name) return true;
    return false;
}

std::string DocumentCompiler::bodyName(BodyIndex b) const {
    if (b.value() == 0) return kGroundName;
    const size_t i = static_cast<size_t>(b.value() - 1);
    if (i < doc_.bodies.size()) return doc_.bodies[i].name;
    if (i < doc_.bodies.size() + doc_.beams.size()) return doc_.beams[i - doc_.bodies.size()].name;
    return doc_.solids[i - doc_.bodies.size() - doc_.beams.size()].name;
}

bool DocumentCompiler::nodesOfBeam(const std::string& name) const {
    for (const BeamDoc& b : doc_.beams)
        if (b.name == name) return true;
    return false;
}

}  // namespace looplab
