#include "looplab/kinematics/FourBarAnalysis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace looplab {
namespace {

std::string metres(double x) {
    char buf[48];
    // Two decimals as a drawing gives them ("0.80 m"); small links keep three digits.
    if (x >= 0.1 && x < 1000.0) std::snprintf(buf, sizeof buf, "%.2f m", x);
    else std::snprintf(buf, sizeof buf, "%.3g m", x);
    return buf;
}

// Axis (frame z) of joint j on body b, in b's frame.
Vec3 axisOn(const Joint& j, BodyIndex b) {
    return (j.frame1.body == b ? j.frame1.axes.col(2) : j.frame2.axes.col(2)).normalized();
}
Vec3 pointOn(const Joint& j, BodyIndex b) {
    return j.frame1.body == b ? j.frame1.origin : j.frame2.origin;
}
BodyIndex otherBody(const Joint& j, BodyIndex b) {
    return j.frame1.body == b ? j.frame2.body : j.frame1.body;
}

std::string linkPhrase(const FourBarLink& l) {
    return l.name == kGroundName ? std::string("the ground link") : l.name;
}

}  // namespace

bool FourBarLinkage::tooLong() const {
    double sum = 0.0, longest = 0.0;
    for (const FourBarLink& l : links) {
        sum += l.length;
        longest = std::max(longest, l.length);
    }
    return longest > sum - longest;
}

bool FourBarLinkage::grashof() const {
    std::vector<double> len;
    for (const FourBarLink& l : links) len.push_back(l.length);
    std::sort(len.begin(), len.end());
    return len[0] + len[3] <= len[1] + len[2] * (1.0 + 1e-12);
}

std::string FourBarLinkage::reachSentence() const {
    const auto longest = std::max_element(links.begin(), links.end(),
                                          [](const FourBarLink& a, const FourBarLink& b) { return a.length < b.length; });
    double others = 0.0;
    for (const FourBarLink& l : links)
        if (&l != &*longest) others += l.length;
    // The cause, then the fix: by how much the lengths must change for the loop to close.
    const std::string excess = metres(longest->length - others);
    if (longest->length > others * (1.0 + 1e-9)) {
        if (longest->name == kGroundName)
            return "the ground pivots " + metres(longest->length) + " apart are farther than the " +
                   metres(others) + " the other links can span: move them closer than " + metres(others) +
                   ", or lengthen the links by more than " + excess + " together";
        return longest->name + " " + metres(longest->length) + " is longer than the " + metres(others) +
               " the other links can span: shorten " + longest->name + " below " + metres(others) +
               ", or lengthen the other links by more than " + excess + " together";
    }
    if (longest->length >= others * (1.0 - 1e-9))
        return linkPhrase(*longest) + " " + metres(longest->length) +
               " is exactly as long as the other links together: the loop closes only stretched out in a line; "
               "shorten " + linkPhrase(*longest) + " or lengthen another link";
    return "";
}

std::string FourBarLinkage::grashofSentence() const {
    std::vector<const FourBarLink*> sorted;
    for (const FourBarLink& l : links) sorted.push_back(&l);
    std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->length < b->length; });
    const FourBarLink& s = *sorted[0];
    const FourBarLink& l = *sorted[3];
    const double sl = s.length + l.length, pq = sorted[1]->length + sorted[2]->length;
    std::string out = std::string(grashof() ? "Grashof" : "non-Grashof") + " four-bar: shortest + longest (" +
                      s.name + " + " + l.name + " = " + metres(sl) + ") " + (grashof() ? "≤" : ">") +
                      " the other two (" + metres(pq) + "): ";
    if (!grashof()) return out + "no link turns fully; the grounded links rock between limits";
    if (s.name == kGroundName) return out + "double crank, both grounded links turn fully";
    if (s.grounded) return out + "crank-rocker, " + s.name + " turns fully";
    return out + "double rocker, the coupler " + s.name + " turns fully relative to the others";
}

bool FourBarLinkage::firstGroundedLinkTurnsFully() const {
    if (!grashof()) return false;
    const double shortest = std::min({links[0].length, links[1].length, links[2].length, links[3].length});
    // In a Grashof linkage a grounded link turns fully where it, or the ground, is shortest.
    return links[1].length <= shortest * (1.0 + 1e-12) || links[0].length <= shortest * (1.0 + 1e-12);
}

std::string drivenLinkLimitSentence(const Model& m) {
    const std::optional<FourBarLinkage> fb = findPlanarFourBar(m);
    if (!fb || fb->tooLong() || fb->firstGroundedLinkTurnsFully()) return "";
    // The walk starts at the driven joint when there is one: links[1] is then the driven link.
    bool driven = false;
    for (const Driver& d : m.drivers)
        driven = driven || m.joint(d.joint).name == fb->joints[0];
    if (!driven) return "";
    const FourBarLink& link = fb->links[1];
    const FourBarLink* shortest = &fb->links[0];
    for (const FourBarLink& l : fb->links)
        if (l.length < shortest->length) shortest = &l;
    const std::string out = "The driven link " + link.name + " cannot turn fully: " + fb->grashofSentence() + "; ";
    // Not the driven link nor the ground is the shortest: in a crank-rocker the other
    // grounded link is, and it turns fully.
    if (fb->grashof() && shortest->grounded)
        return out + "drive " + shortest->name + " instead, give " + link.name +
               " a law that stays between its limits, or change a length";
    return out + "give " + link.name + " a law that stays between its limits (it stops where " + fb->links[2].name +
           " and " + fb->links[3].name + " line up), or change a length so that " + link.name +
           " is the shortest link and shortest + longest ≤ the other two";
}

namespace {

// Ground, two grounded links on revolutes with parallel axes, and a distance joint between
// them standing for the coupler (a massless rod): the coupler is the joint, not a body.
std::optional<FourBarLinkage> findRodCoupledFourBar(const Model& m) {
    if (m.bodyCount() != 3 || m.joints.size() != 3) return std::nullopt;
    for (const Body& b : m.bodies)
        if (!b.formulation->hasBodyFrame()) return std::nullopt;
    const Joint* rod = nullptr;
    std::vector<const Joint*> pins;
    for (const Joint& j : m.joints) {
        if (j.type == JointType::Distance && j.frame1.body.value() != 0 && j.frame2.body.value() != 0 &&
            j.frame1.body != j.frame2.body)
            rod = &j;
        else if (j.type == JointType::Revolute && (j.frame1.body.value() == 0) != (j.frame2.body.value() == 0))
            pins.push_back(&j);
    }
    if (!rod || pins.size() != 2) return std::nullopt;
    // The driven pin first, as the walk of the four-revolute form does.
    for (const Driver& d : m.drivers)
        if (&m.joint(d.joint) == pins[1]) std::swap(pins[0], pins[1]);
    const BodyIndex first = otherBody(*pins[0], BodyIndex(0)), second = otherBody(*pins[1], BodyIndex(0));
    if (first == second || (rod->frame1.body != first && rod->frame2.body != first) ||
        (rod->frame1.body != second && rod->frame2.body != second))
        return std::nullopt;
    const Vec3 a = axisOn(*pins[0], BodyIndex(0));
    if (a.cross(axisOn(*pins[1], BodyIndex(0))).norm() > 1e-6) return std::nullopt;
    // Each link from its ground pivot to the rod's end on it: the length across the axis,
    // and how far along the axis the end lies (kept by any turn about the axis).
    double along[2] = {0.0, 0.0};
    FourBarLinkage fb;
    fb.joints = {pins[0]->name, rod->name, pins[1]->name};
    const Vec3 d = pointOn(*pins[1], BodyIndex(0)) - pointOn(*pins[0], BodyIndex(0));
    fb.links.push_back(FourBarLink{kGroundName, (d - d.dot(a) * a).norm(), true});
    for (int k = 0; k < 2; ++k) {
        const Joint& pin = *pins[static_cast<size_t>(k)];
        const BodyIndex link = k == 0 ? first : second;
        const Vec3 axis = axisOn(pin, link);
        const Vec3 e = pointOn(*rod, link) - pointOn(pin, link);
        // A revolute keeps its two frames' z axes together: the link's runs along the ground's.
        along[k] = pointOn(pin, BodyIndex(0)).dot(a) + e.dot(axis) * axisOn(pin, BodyIndex(0)).dot(a);
        fb.links.push_back(FourBarLink{m.body(link).name, (e - e.dot(axis) * axis).norm(), true});
    }
    // The rod's length seen in the plane of motion.
    const double offset = along[1] - along[0];
    if (std::abs(offset) >= rod->length) return std::nullopt;
    fb.links.insert(fb.links.begin() + 2,
                    FourBarLink{rod->name, std::sqrt(rod->length * rod->length - offset * offset), false});
    return fb;
}

}  // namespace

std::optional<FourBarLinkage> findPlanarFourBar(const Model& m) {
    if (std::optional<FourBarLinkage> rodForm = findRodCoupledFourBar(m)) return rodForm;
    if (m.bodyCount() != 4 || m.joints.size() != 4) return std::nullopt;
    for (const Body& b : m.bodies)
        if (!b.formulation->hasBodyFrame()) return std::nullopt;
    for (const Joint& j : m.joints)
        if (j.type != JointType::Revolute || j.frame1.body == j.frame2.body) return std::nullopt;
    // Each body carries exactly two of the joints.
    std::vector<std::vector<int>> jointsOf(4);
    for (int i = 0; i < 4; ++i) {
        jointsOf[static_cast<size_t>(m.joints[static_cast<size_t>(i)].frame1.body.value())].push_back(i);
        jointsOf[static_cast<size_t>(m.joints[static_cast<size_t>(i)].frame2.body.value())].push_back(i);
    }
    for (const auto& js : jointsOf)
        if (js.size() != 2) return std::nullopt;
    // Walk the loop from the ground, through the driven joint first if a driver is there.
    int first = jointsOf[0][0];
    for (const Driver& d : m.drivers)
        if (d.joint.value() == jointsOf[0][1]) first = jointsOf[0][1];
    FourBarLinkage fb;
    BodyIndex body(0);
    int joint = first;
    for (int k = 0; k < 4; ++k) {
        const Joint& jin = m.joint(JointIndex(joint));
        const BodyIndex next = otherBody(jin, body);
        fb.joints.push_back(jin.name);
        const auto& js = jointsOf[static_cast<size_t>(next.value())];
        const int out = js[0] == joint ? js[1] : js[0];
        const Joint& jout = m.joint(JointIndex(out));
        if (next.value() != 0) {
            // Parallel axes on the link, and the pivot distance normal to them.
            const Vec3 a = axisOn(jin, next), b = axisOn(jout, next);
            if (a.cross(b).norm() > 1e-6) return std::nullopt;
            const Vec3 d = pointOn(jout, next) - pointOn(jin, next);
            FourBarLink link{m.body(next).name, (d - d.dot(a) * a).norm(), k == 0 || k == 2};
            fb.links.push_back(link);
        }
        body = next;
        joint = out;
    }
    if (body.value() != 0 || fb.links.size() != 3) return std::nullopt;
    // The ground link: the two ground pivots.
    const Joint& g1 = m.joint(JointIndex(jointsOf[0][0]));
    const Joint& g2 = m.joint(JointIndex(jointsOf[0][1]));
    const Vec3 a = axisOn(g1, BodyIndex(0)), b = axisOn(g2, BodyIndex(0));
    if (a.cross(b).norm() > 1e-6) return std::nullopt;
    const Vec3 d = pointOn(g2, BodyIndex(0)) - pointOn(g1, BodyIndex(0));
    fb.links.insert(fb.links.begin(), FourBarLink{kGroundName, (d - d.dot(a) * a).norm(), true});
    // Loop order ground, grounded, coupler, grounded: the middle walked link is the coupler.
    fb.links[2].grounded = false;
    fb.links[1].grounded = fb.links[3].grounded = true;
    return fb;
}

}  // namespace looplab
