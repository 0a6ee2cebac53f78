#include "looplab/model/ModelBuilder.h"
#include "model/CouplerBuilder.h"
#include "model/DocumentCompiler.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

namespace looplab {

std::vector<EquationLabel> jointEquationLabels(JointType type) {
    const EquationLabel px{"", "point x", false}, py{"", "point y", false},
        pz{"", "point z", false};
    const EquationLabel z1x2{"", "axis z1.x2", true}, z1y2{"", "axis z1.y2", true},
        z1z2{"", "axis z1.z2", true}, x1y2{"", "axis x1.y2", true};
    const EquationLabel x1d{"", "offset x1.d", false}, y1d{"", "offset y1.d", false},
        z1d{"", "offset z1.d", false};
    switch (type) {
    case JointType::Revolute: return {px, py, pz, z1x2, z1y2};
    case JointType::Spherical: return {px, py, pz};
    case JointType::Universal: return {px, py, pz, z1z2};
    case JointType::Fixed: return {px, py, pz, z1x2, z1y2, x1y2};
    case JointType::Cylindrical: return {z1x2, z1y2, x1d, y1d};
    case JointType::Prismatic: return {z1x2, z1y2, x1d, y1d, x1y2};
    case JointType::Planar: return {z1x2, z1y2, z1d};
    case JointType::Distance: return {{"", "distance", false}};
    case JointType::PointOnLine: return {x1d, y1d};
    case JointType::PointOnPlane: return {z1d};
    case JointType::Screw: return {z1x2, z1y2, x1d, y1d, {"", "screw", false}};
    }
    return {};
}

namespace {

bool allDigits(const std::string& s, size_t from, size_t to) {
    if (from >= to) return false;
    for (size_t i = from; i < to; ++i)
        if (s[i] < '0' || s[i] > '9') return false;
    return true;
}

}  // namespace

// Whether `name` has the shape of a name the builder gives a mesh's node or face
// ("<beam>.root", "<beam>.tip", "<beam>.node<k>", "<solid>.node<i>_<j>_<k>",
// "<solid>.xmin" … "<solid>.zmax"), whatever the meshes of the model: a body or node set
// of that name would make references ambiguous as soon as a mesh takes the prefix.
bool DocumentCompiler::hasGeneratedNodeShape(const std::string& name) {
    const size_t dot = name.rfind('.');
    if (dot == std::string::npos || dot == 0) return false;
    const std::string suffix = name.substr(dot + 1);
    if (suffix == "root" || suffix == "tip") return true;
    for (const char* face : SolidMesh::faceNames())
        if (suffix == face) return true;
    if (suffix.rfind("node", 0) != 0) return false;
    // node<k> or node<i>_<j>_<k>
    size_t start = 4;
    int parts = 0;
    for (;;) {
        const size_t end = std::min(suffix.find('_', start), suffix.size());
        if (!allDigits(suffix, start, end)) return false;
        ++parts;
        if (end == suffix.size()) break;
        start = end + 1;
    }
    return parts == 1 || parts == 3;
}

std::string DocumentCompiler::shortNumber(double x) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", x);
    return buffer;
}

// q scaled by a power of two (exactly, whenever its components are normal numbers) so that
// its largest component lies in [0.5, 1): the same rotation, but its squared length can
// be formed without overflow or underflow by code that normalises it directly.
Quat DocumentCompiler::wellScaled(const Quat& q) {
    const double largest = q.coeffs().cwiseAbs().maxCoeff();
    if (!std::isfinite(largest) || largest == 0.0 || (largest > 1e-100 && largest < 1e100))
        return q;
    int exponent = 0;
    std::frexp(largest, &exponent);
    // Component by component: 2^-exponent itself overflows for subnormal quaternions.
    Quat r;
    for (int i = 0; i < 4; ++i) r.coeffs()[i] = std::ldexp(q.coeffs()[i], -exponent);
    return r;
}

BuildResult DocumentCompiler::run() {
    auto model = std::make_shared<Model>();
    model->name = doc_.name;
    model->description = doc_.description;
    model->sourceFile = file_;
    model->document = doc_;
    // The document keeps each orientation as its body was compiled from it.
    for (BodyDoc& b : model->document.bodies) b.orientation = wellScaled(b.orientation);
    model->expected = doc_.expected;
    model->gravity = doc_.gravity;
    if (!finite(doc_.gravity)) error("/gravity", "gravity must be three finite numbers");
    buildBodies(*model);
    model->layOutCoordinates();
    buildMarkers(*model);
    checkTraces();
    buildJoints(*model);
    buildDrivers(*model);
    CouplerBuildContext couplers;
    couplers.joints = &jointIndex_;
    couplers.couplers = &doc_.couplers;
    couplers.declaredJoint = [this](const std::string& name) { return declaredJoint(name); };
    couplers.error = [this](const std::string& where, const std::string& what) { error(where, what); };
    couplers.checkName = [this](const std::string& name, const std::string& where) {
        checkName(name, where, ownerNames_, "coupler");
    };
    buildCouplers(*model, couplers);
    buildForces(*model);
    buildStops(*model);
    model->lengthScale = lengthScale();
    checkScale();
    BuildResult r;
    r.diagnostics = diags_;
    if (diags_.empty()) r.model = model;
    return r;
}

void DocumentCompiler::error(const std::string& where, const std::string& what) {
    Diagnostic d;
    d.file = file_;
    d.location = where;
    d.message = what;
    diags_.push_back(d);
}

std::string DocumentCompiler::at(const char* list, size_t i, const char* field) {
    std::string s = std::string("/") + list + "/" + std::to_string(i);
    if (field) s += std::string("/") + field;
    return s;
}

void DocumentCompiler::checkName(const std::string& name, const std::string& where,
                                 std::set<std::string>& seen, const char* kind) {
    if (name.empty()) {
        error(where, std::string(kind) + " has an empty name");
    } else if (!std::strcmp(kind, "body") && hasGeneratedNodeShape(name)) {
        error(where, "body name '" + name + "' is reserved: " + kGeneratedNodeNames +
                         ", so joints and forces naming it would be ambiguous");
    } else if (reservedNodePartName(name, kind)) {
        error(where, std::string(kind) + " name '" + name + "' is reserved: a joint or force on a node set "
                         "becomes one per node, named '<name>:<node>', and " + kGeneratedNodeNames);
    } else if (!seen.insert(name).second) {
        error(where, "duplicate " + std::string(kind) + " name '" + name + "'");
    }
}

// A mesh file named relative to the model file is opened from the model file's folder.
VisualShape DocumentCompiler::resolved(const VisualShape& s) const {
    VisualShape out = s;
    if (s.kind == VisualShape::Kind::Mesh && !s.file.empty()) {
        const std::filesystem::path p(s.file);
        if (p.is_relative() && !file_.empty()) out.file = (std::filesystem::path(file_).parent_path() / p).string();
    }
    return out;
}

// A joint or force on a node set becomes one per node, "<name>:<node name>": a name
// of that shape would collide with one of them.
bool DocumentCompiler::reservedNodePartName(const std::string& name, const char* kind) {
    if (std::strcmp(kind, "joint") && std::strcmp(kind, "force")) return false;
    const size_t colon = name.find(':');
    return colon != std::string::npos && hasGeneratedNodeShape(name.substr(colon + 1));
}

// Tolerances act on the coordinates, and a rigid body's coordinates are those of its
// centre of mass; rank decisions weigh rotations by the model's length scale. A body
// whose centre of mass lies far outside the linkage (a typing slip in its position:
// a rod "a million metres away" from its joints) makes both meaningless at the
// linkage's size: at a ratio r the joints are resolved r times worse than the
// tolerances ask (0.3 m of violation on a 0.1 m crank at r = 3e6), and beyond about
// 1e9 a rank decision loses a degree of freedom or invents one. Refuse it, naming the
// body, from a ratio of 1e4 (four of the sixteen digits spent on the offset).
void DocumentCompiler::checkScale() {
    Eigen::AlignedBox3d joints;
    std::map<std::string, std::vector<Vec3>> pointsOf;
    for (const JointDoc& j : doc_.joints) {
        if (j.byMarkers || !finite(j.point)) continue;
        joints.extend(j.point);
        pointsOf[j.body1].push_back(j.point);
        pointsOf[j.body2].push_back(j.point);
    }
    if (joints.isEmpty()) return;
    double size = joints.diagonal().norm();
    for (const BodyDoc& b : doc_.bodies)
        size = std::max({size, b.shape.size.norm(), b.shape.length, 2.0 * b.shape.radius});
    if (!(size > 0.0)) return;
    constexpr double kLargestOffset = 1e4;
    for (size_t i = 0; i < doc_.bodies.size(); ++i) {
        const BodyDoc& b = doc_.bodies[i];
        const auto it = pointsOf.find(b.name);
        if (it == pointsOf.end() || !finite(b.position)) continue;
        double nearest = INFINITY;
        for (const Vec3& p : it->second) nearest = std::min(nearest, (p - b.position).norm());
        if (nearest > kLargestOffset * size) {
            char buf[400];
            std::snprintf(buf, sizeof buf,
                          "the centre of mass of '%s' is %.3g m from its nearest joint, %.3g times the size of "
                          "the linkage (%.3g m): tolerances and rank decisions would be meaningless at the "
                          "linkage's size (check the body's position; at most %g times is accepted)",
                          b.name.c_str(), nearest, nearest / size, size, kLargestOffset);
            error("/bodies/" + std::to_string(i) + "/position", buf);
        }
    }
}

double DocumentCompiler::lengthScale() const {
    Eigen::AlignedBox3d box;
    for (const BodyDoc& b : doc_.bodies)
        if (finite(b.position)) box.extend(b.position);
    for (const JointDoc& j : doc_.joints)
        if (!j.byMarkers && finite(j.point)) box.extend(j.point);
    for (const BeamDoc& b : doc_.beams)
        if (finite(b.from) && finite(b.to)) box.extend(b.from), box.extend(b.to);
    for (const SolidDoc& b : doc_.solids)
        if (finite(b.origin) && finite(b.size)) box.extend(b.origin), box.extend(Vec3(b.origin + b.size));
    double L = box.isEmpty() ? 0.0 : box.diagonal().norm();
    for (const BodyDoc& b : doc_.bodies) {
        L = std::max(L, b.shape.size.norm());
        L = std::max(L, b.shape.length);
        L = std::max(L, 2.0 * b.shape.radius);
    }
    return (std::isfinite(L) && L > 1e-9) ? L : 1.0;
}

BuildResult buildModel(const ModelDocument& doc, const std::string& file) {
    try {
        return DocumentCompiler(doc, file).run();
    } catch (const std::exception& e) {
        BuildResult r;
        r.diagnostics.push_back({file, "", std::string(kInternalErrorPrefix) + e.what(), 0, 0});
        return r;
    }
}

}  // namespace looplab
