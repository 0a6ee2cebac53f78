#include "looplab/posing/MechanismAdvice.h"

#include "looplab/kinematics/Constraints.h"
#include "looplab/linalg/ConstraintSpaces.h"
#include "looplab/kinematics/Assembly.h"
#include "looplab/posing/PosingModel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace looplab {
namespace {

constexpr int kNearbyRankCoordinates = 600;

std::string joinedNames(const std::vector<std::string>& names) {
    std::string out;
    for (size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
    return out;
}

bool sameFrame(const BodyFrame& a, const BodyFrame& b, bool wholeAxes, double tolerance) {
    if (a.body != b.body || a.node != b.node || (a.origin - b.origin).norm() > tolerance) return false;
    if (wholeAxes) return (a.axes - b.axes).norm() <= 1e-9;
    return a.axes.col(2).cross(b.axes.col(2)).norm() <= 1e-9 && a.axes.col(2).dot(b.axes.col(2)) > 0.0;
}

// Whether joint b repeats every equation of joint a: the same type between the same two
// frames (a joint pasted twice, or added again from the other body). Joints whose two
// frames play the same part match either way round.
bool repeats(const Joint& a, const Joint& b, double tolerance) {
    if (a.type != b.type || std::abs(a.length - b.length) > tolerance) return false;
    const bool wholeAxes = a.type == JointType::Fixed || a.type == JointType::Planar || a.type == JointType::Universal;
    if (sameFrame(a.frame1, b.frame1, wholeAxes, tolerance) && sameFrame(a.frame2, b.frame2, wholeAxes, tolerance))
        return true;
    const bool symmetric = a.type == JointType::Revolute || a.type == JointType::Spherical ||
                           a.type == JointType::Cylindrical || a.type == JointType::Prismatic ||
                           a.type == JointType::Fixed || a.type == JointType::Distance;
    return symmetric && sameFrame(a.frame1, b.frame2, wholeAxes, tolerance) &&
           sameFrame(a.frame2, b.frame1, wholeAxes, tolerance);
}

std::string typeWords(JointType type) {
    std::string words = jointTypeName(type);
    std::replace(words.begin(), words.end(), '_', ' ');
    return words;
}

}  // namespace

std::vector<DuplicatedJoint> duplicatedJoints(const Model& m) {
    std::vector<DuplicatedJoint> out;
    const double tolerance = 1e-9 * m.lengthScale;
    std::vector<bool> counted(m.joints.size(), false);
    for (size_t i = 0; i < m.joints.size(); ++i) {
        if (counted[i]) continue;
        for (size_t k = i + 1; k < m.joints.size(); ++k) {
            if (counted[k] || !repeats(m.joints[i], m.joints[k], tolerance)) continue;
            counted[k] = true;
            const Joint& a = m.joints[i];
            const Joint& b = m.joints[k];
            DuplicatedJoint d;
            d.joint = b.name;
            d.original = a.name;
            d.equations = b.equationCount;
            d.sentence = "joint " + b.name + " repeats joint " + a.name + " (the same " + typeWords(a.type) +
                         " between " + m.body(a.frame1.body).name + " and " + m.body(a.frame2.body).name +
                         " at the same place): delete one of them";
            out.push_back(d);
        }
    }
    return out;
}

std::optional<RedundancyAdvice> redundancyAdvice(const Model& m, const MobilityReport& r) {
    if (r.redundant.empty()) return std::nullopt;
    RedundancyAdvice a;
    std::vector<std::string> drivers;
    for (const RedundantEquation& e : r.redundant) {
        const EquationLabel& label = m.equations[static_cast<size_t>(e.row)];
        if (std::find(a.joints.begin(), a.joints.end(), e.joint) == a.joints.end()) a.joints.push_back(e.joint);
        if (label.component == "driver") drivers.push_back(e.joint);
        else if (label.angular) ++a.rotations;
        else ++a.translations;
    }
    // A joint given twice is the cause to name first, with its fix; the other redundant
    // equations, if any, are the loop's own.
    const std::vector<DuplicatedJoint> duplicates = duplicatedJoints(m);
    int repeated = 0;
    std::string s;
    for (const DuplicatedJoint& d : duplicates) {
        s += d.sentence + ". ";
        repeated += d.equations;
    }
    for (const std::string& c : r.repeatingCouplers) {
        s += "coupler " + c + " repeats a ratio that the linkage already imposes (its equation depends on the "
             "joints'): delete it, or free the loop that imposes the same motion. ";
        ++repeated;
    }
    s += std::to_string(r.redundant.size()) + " redundant equation" + (r.redundant.size() > 1 ? "s" : "") +
         " in joint" + (a.joints.size() > 1 ? "s " : " ") + joinedNames(a.joints);
    const int loopEquations = std::max(0, a.rotations + a.translations - repeated);
    if ((!duplicates.empty() || !r.repeatingCouplers.empty()) && loopEquations == 0 && drivers.empty()) {
        a.sentence = s;
        return a;
    }
    s += ": the loop is over-constrained, so its joint reactions are not unique and a slight misalignment "
         "would not assemble. The usual fix" +
         std::string((duplicates.empty() && r.repeatingCouplers.empty()) || loopEquations == 0
                         ? ""
                         : " for the other " + std::to_string(loopEquations)) +
         ": ";
    // Which rows of a dependent set the factorisation calls redundant is arbitrary (a
    // planar loop's out-of-plane translation and rotations depend on each other), so the
    // advice counts them all: freeing that many rotations removes the dependence.
    std::vector<std::string> fixes;
    switch (loopEquations) {
    case 0: break;
    case 1: fixes.push_back("change one revolute of the loop to a universal joint"); break;
    case 2: fixes.push_back("change one revolute of the loop to a spherical joint"); break;
    case 3: fixes.push_back("change one revolute of the loop to a spherical joint and another to a universal joint"); break;
    default:
        fixes.push_back("change revolutes to spherical (frees 2 rotations) or universal (frees 1) joints, and "
                        "where a loop is over-determined along an axis a revolute to a cylindrical one (frees the "
                        "slide), until " + std::to_string(loopEquations) + " equations are freed");
    }
    if (!drivers.empty())
        fixes.push_back("remove the driver" + std::string(drivers.size() > 1 ? "s " : " ") + joinedNames(drivers) +
                        " or the joint motion it repeats");
    for (size_t i = 0; i < fixes.size(); ++i) s += (i ? "; " : "") + fixes[i];
    a.sentence = s;
    return a;
}

std::optional<SingularLineUp> singularLineUp(const Model& m, const State& s, double threshold) {
    const VecX rowScales = equationScales(m), colScales = coordinateScales(m);
    ConstraintValues cv;
    evaluateConstraints(m, s, cv, kJacobian);
    ConstraintSpaces spaces;
    spaces.factorize(cv.jacobian, rowScales, colScales, kDefaultRankTolerance, LinearAlgebra::Automatic);
    const double sigma = spaces.smallestSingularValue();
    // A rank lost at this configuration only shows against the rank nearby: a planar
    // loop's permanent redundancy looks the same as a dead centre's at one pose. Nearby
    // means a small move along the mechanism's own freedom (drivers released), which keeps
    // every joint closed, so the permanent redundancy stays while a dead centre is left.
    int nominalRank = spaces.rank();
    VecX w = spaces.singularDirection();
    // The tangent basis is dense (n × dof): past a few hundred coordinates only the
    // singular value decides.
    const BuildResult free = m.velocitySize() <= kNearbyRankCoordinates ? buildPosingModel(m) : BuildResult{};
    if (free.ok()) {
        const Model& fm = *free.model;
        ConstraintValues fcv;
        evaluateConstraints(fm, s, fcv, kJacobian);
        ConstraintSpaces fs;
        fs.factorize(fcv.jacobian, equationScales(fm), coordinateScales(fm), kDefaultRankTolerance,
                     LinearAlgebra::Automatic);
        const MatX T = fs.tangentBasis();
        if (T.cols() > 0) {
            State near = s;
            retract(fm, near.q, colScales.asDiagonal() * (T * VecX::Constant(T.cols(), 1e-4 * m.lengthScale)));
            assemble(fm, near);
            ConstraintValues ncv;
            evaluateConstraints(m, near, ncv, kJacobian);
            ConstraintSpaces ns;
            ns.factorize(ncv.jacobian, rowScales, colScales, kDefaultRankTolerance, LinearAlgebra::Automatic);
            if (ns.rank() > spaces.rank()) {
                nominalRank = ns.rank();
                w = ns.singularDirection();  // the direction about to be lost
            }
        }
    }
    if (!(sigma < threshold) && spaces.rank() >= nominalRank) return std::nullopt;
    std::vector<double> weight(m.joints.size(), 0.0);
    double wmax = 0.0;
    for (size_t ji = 0; ji < m.joints.size(); ++ji) {
        const Joint& j = m.joints[ji];
        for (int r = j.firstEquation; r < j.firstEquation + j.equationCount; ++r)
            weight[ji] = std::max(weight[ji], std::abs(w.size() > r ? w[r] : 0.0));
        wmax = std::max(wmax, weight[ji]);
    }
    for (const Driver& d : m.drivers)
        if (w.size() > d.equation) {
            weight[static_cast<size_t>(d.joint.value())] =
                std::max(weight[static_cast<size_t>(d.joint.value())], std::abs(w[d.equation]));
            wmax = std::max(wmax, std::abs(w[d.equation]));
        }
    // Every pivot of each body, global.
    std::vector<std::vector<std::pair<int, Vec3>>> pivots(static_cast<size_t>(m.bodyCount()));
    for (size_t ji = 0; ji < m.joints.size(); ++ji) {
        const Joint& j = m.joints[ji];
        for (const BodyFrame* f : {&j.frame1, &j.frame2})
            if (m.body(f->body).formulation->hasBodyFrame())
                pivots[static_cast<size_t>(f->body.value())].emplace_back(
                    static_cast<int>(ji), pointPosition(m, s, f->body, f->origin));
    }
    std::optional<SingularLineUp> best;
    double bestSine = 0.05;  // within about 3° of a line
    for (size_t ji = 0; ji < m.joints.size(); ++ji) {
        if (weight[ji] < 0.1 * wmax) continue;
        const Joint& j = m.joints[ji];
        const Vec3 p = pointPosition(m, s, j.frame1.body, j.frame1.origin);
        const auto& piv1 = pivots[static_cast<size_t>(j.frame1.body.value())];
        const auto& piv2 = pivots[static_cast<size_t>(j.frame2.body.value())];
        for (const auto& [j1, p1] : piv1) {
            if (j1 == static_cast<int>(ji)) continue;
            for (const auto& [j2, p2] : piv2) {
                if (j2 == static_cast<int>(ji)) continue;
                const Vec3 u = p1 - p, v = p2 - p;
                if (u.norm() < 1e-9 * m.lengthScale || v.norm() < 1e-9 * m.lengthScale) continue;
                const double sine = u.normalized().cross(v.normalized()).norm();
                if (sine >= bestSine) continue;
                bestSine = sine;
                SingularLineUp l;
                l.link1 = m.body(j.frame1.body).name;
                l.link2 = m.body(j.frame2.body).name;
                l.joint = j.name;
                l.point = p;
                l.direction = (u.norm() > v.norm() ? u : v).normalized();
                l.smallestSingularValue = spaces.rank() < nominalRank ? 0.0 : sigma;
                best = l;
            }
        }
    }
    if (best) {
        char buf[320];
        std::snprintf(buf, sizeof buf,
                      "singular configuration: %s and %s line up through joint %s, which cannot move "
                      "along that line (direction %.3g, %.3g, %.3g); the mechanism locks or may switch "
                      "branch here",
                      best->link1.c_str(), best->link2.c_str(), best->joint.c_str(), best->direction.x(),
                      best->direction.y(), best->direction.z());
        best->sentence = buf;
    }
    return best;
}

}  // namespace looplab
