#include "looplab/model/ModelBuilder.h"
#include "looplab/model/ShapeMassProperties.h"
#include "looplab/model/TriangleMesh.h"
#include "looplab/model/UnitVector.h"

#include "looplab/bodies/Rotation.h"
#include "looplab/bodies/State.h"
#include "model/CouplerBuilder.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <cstdio>
#include <cstring>
#include <limits>
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

bool finite(const Vec3& v) { return v.allFinite(); }

using Length = VectorLength;

// q scaled by a power of two (exactly, whenever its components are normal numbers) so that
// its largest component lies in [0.5, 1): the same rotation, but its squared length can
// be formed without overflow or underflow by code that normalises it directly.
Quat wellScaled(const Quat& q) {
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

bool allDigits(const std::string& s, size_t from, size_t to) {
    if (from >= to) return false;
    for (size_t i = from; i < to; ++i)
        if (s[i] < '0' || s[i] > '9') return false;
    return true;
}

// Whether `name` has the shape of a name the builder gives a mesh's node or face
// ("<beam>.root", "<beam>.tip", "<beam>.node<k>", "<solid>.node<i>_<j>_<k>",
// "<solid>.xmin" … "<solid>.zmax"), whatever the meshes of the model: a body or node set
// of that name would make references ambiguous as soon as a mesh takes the prefix.
bool hasGeneratedNodeShape(const std::string& name) {
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

const char* const kGeneratedNodeNames =
    "names ending in '.root', '.tip', '.node<k>', '.node<i>_<j>_<k>' or a face ('.xmin' ... '.zmax') are "
    "those the builder gives the nodes and faces of beams and solids";

// A number in few characters, for messages ("5e-324", "0.25").
std::string shortNumber(double x) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", x);
    return buffer;
}

// Length of a difference of points, without overflow for large coordinates.
double distance(const Vec3& a, const Vec3& b) { return (b - a).stableNorm(); }

class Builder {
public:
    Builder(const ModelDocument& doc, std::string file) : doc_(doc), file_(std::move(file)) {}

    BuildResult run() {
        auto model = std::make_shared<Model>();
        model->name = doc_.name;
        model->description = doc_.description;
        model->sourceFile = file_;
        model->document = doc_;
        // initialState() normalises the document's orientations as they are.
        for (BodyDoc& b : model->document.bodies) b.orientation = wellScaled(b.orientation);
        model->expected = doc_.expected;
        model->gravity = doc_.gravity;
        if (!finite(doc_.gravity)) error("/gravity", "gravity must be three finite numbers");
        buildBodies(*model);
        model->layOutCoordinates();
        buildMarkers();
        checkTraces();
        buildJoints(*model);
        buildDrivers(*model);
        CouplerBuildContext couplers;
        couplers.joints = &jointIndex_;
        couplers.declaredJoint = [this](const std::string& name) { return declaredJoint(name); };
        couplers.error = [this](const std::string& where, const std::string& what) { error(where, what); };
        couplers.checkName = [this](const std::string& name, const std::string& where) {
            checkName(name, where, ownerNames_, "coupler");
        };
        buildCouplers(*model, couplers);
        buildForces(*model);
        model->lengthScale = lengthScale();
        checkScale();
        BuildResult r;
        r.diagnostics = diags_;
        if (diags_.empty()) r.model = model;
        return r;
    }

private:
    void error(const std::string& where, const std::string& what) {
        Diagnostic d;
        d.file = file_;
        d.location = where;
        d.message = what;
        diags_.push_back(d);
    }

    static std::string at(const char* list, size_t i, const char* field = nullptr) {
        std::string s = std::string("/") + list + "/" + std::to_string(i);
        if (field) s += std::string("/") + field;
        return s;
    }

    void checkName(const std::string& name, const std::string& where, std::set<std::string>& seen,
                   const char* kind) {
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

    // A joint or force on a node set becomes one per node, "<name>:<node name>": a name
    // of that shape would collide with one of them.
    // A mesh file named relative to the model file is opened from the model file's folder.
    VisualShape resolved(const VisualShape& s) const {
        VisualShape out = s;
        if (s.kind == VisualShape::Kind::Mesh && !s.file.empty()) {
            const std::filesystem::path p(s.file);
            if (p.is_relative() && !file_.empty()) out.file = (std::filesystem::path(file_).parent_path() / p).string();
        }
        return out;
    }

    static bool reservedNodePartName(const std::string& name, const char* kind) {
        if (std::strcmp(kind, "joint") && std::strcmp(kind, "force")) return false;
        const size_t colon = name.find(':');
        return colon != std::string::npos && hasGeneratedNodeShape(name.substr(colon + 1));
    }

    void buildBodies(Model& m) {
        Body ground;
        ground.name = kGroundName;
        m.bodies.push_back(ground);
        std::set<std::string> seen{kGroundName};
        for (size_t i = 0; i < doc_.bodies.size(); ++i) {
            const BodyDoc& b = doc_.bodies[i];
            if (b.name == kGroundName)
                error(at("bodies", i, "name"), "the name 'ground' is reserved for the fixed ground");
            else
                checkName(b.name, at("bodies", i, "name"), seen, "body");
            // A density makes the shape the source of mass and inertia; without one the
            // typed numbers are the user's.
            double mass = b.mass;
            Mat3 inertia = b.inertia;
            bool inertiaOk = true;
            const VisualShape shape = resolved(b.shape);
            if (b.density) {
                if (!std::isfinite(*b.density) || *b.density <= 0.0) {
                    error(at("bodies", i, "density"), "density must be positive (got " + shortNumber(*b.density) + ")");
                    inertiaOk = false;
                } else if (shape.kind == VisualShape::Kind::Mesh) {
                    // The frame is the mesh's centre of mass: its offset places the file's origin there.
                    const ShapeMassProperties mp = massPropertiesOfShape(shape, *b.density);
                    if (!mp.ok) {
                        error(at("bodies", i, "shape"), "mass from density: " + mp.message);
                        inertiaOk = false;
                    } else if (mp.centreOfMass.norm() > 1e-9 * std::max(1.0, shape.offset.norm())) {
                        const Vec3 needed = shape.offset - mp.centreOfMass;
                        error(at("bodies", i, "shape") + "/offset",
                              "a body whose mass comes from its mesh has its frame at the mesh's centre of mass, " +
                                  shortNumber(mp.centreOfMass.norm()) + " m from where the offset puts it: set the "
                                  "offset to [" + shortNumber(needed.x()) + ", " + shortNumber(needed.y()) + ", " +
                                  shortNumber(needed.z()) + "]");
                        inertiaOk = false;
                    } else {
                        mass = mp.mass;
                        inertia = mp.inertia;
                    }
                } else if (b.shape.offset.norm() > 0.0) {
                    error(at("bodies", i, "shape") + "/offset",
                          "a body whose mass comes from its shape has its frame at the shape's centre: the "
                          "offset must be zero");
                    inertiaOk = false;
                } else {
                    const ShapeMassProperties mp = massPropertiesOfShape(b.shape, *b.density);
                    if (!mp.ok) {
                        error(at("bodies", i, "shape"), "mass from density: " + mp.message);
                        inertiaOk = false;
                    } else {
                        mass = mp.mass;
                        inertia = mp.inertia;
                    }
                }
            }
            if (!std::isfinite(mass) || mass <= 0.0)
                error(at("bodies", i, "mass"),
                      "mass must be positive (got " + std::to_string(mass) + ")");
            else if (!std::isfinite(1.0 / mass))
                error(at("bodies", i, "mass"),
                      "mass " + shortNumber(mass) + " is too small: its inverse overflows");
            if (inertiaOk) inertiaOk = checkInertia(inertia, at("bodies", i, "inertia"));
            if (!finite(b.position)) error(at("bodies", i, "position"), "position is not finite");
            if (!finite(b.velocity)) error(at("bodies", i, "velocity"), "velocity is not finite");
            if (!finite(b.angularVelocity))
                error(at("bodies", i, "angular_velocity"), "angular velocity is not finite");
            // It is turned into body coordinates, whose components can be as large as its
            // length: that length must not overflow.
            else if (!(b.angularVelocity.stableNorm() <= 0.5 * std::numeric_limits<double>::max()))
                error(at("bodies", i, "angular_velocity"),
                      "angular velocity is too large (its length must be below 8.9e307 rad/s)");
            Quat unit;
            checkQuaternion(b.orientation, at("bodies", i, "orientation"), unit);
            Body body;
            body.name = b.name;
            body.mass = mass;
            body.inertia = inertia;
            body.inertiaInverse = inertia.fullPivLu().isInvertible() ? Mat3(inertia.inverse())
                                                                     : Mat3(Mat3::Zero());
            if (inertiaOk && !body.inertiaInverse.allFinite())
                error(at("bodies", i, "inertia"), "inertia is too small: its inverse overflows");
            if (shape.kind == VisualShape::Kind::Mesh && !b.density) {
                Vec3 lower, upper;
                TriangleMesh mesh;
                std::string why;
                if (!meshBounds(shape.file, shape.scale, lower, upper) && !readTriangleMesh(shape.file, mesh, &why))
                    error(at("bodies", i, "shape") + "/file", "mesh file " + shape.file + ": " + why);
            }
            body.shape = shape;
            m.bodies.push_back(body);
            bodyIndex_[b.name] = BodyIndex(static_cast<int>(i) + 1);
        }
        bodyIndex_[kGroundName] = kGround;
        buildBeams(m, seen);
        buildSolids(m, seen);
        buildNodeSets(seen);
    }

    // Node sets declared in the file, after the meshes' own (the faces), whose names they
    // must not take, nor those of bodies and nodes.
    void buildNodeSets(const std::set<std::string>& bodyNames) {
        for (size_t i = 0; i < doc_.nodeSets.size(); ++i) {
            const NodeSetDoc& d = doc_.nodeSets[i];
            const std::string where = at("node_sets", i);
            bool ok = true;
            if (d.name.empty()) {
                error(where + "/name", "node set has an empty name");
                ok = false;
            } else if (declaredNodeSetBefore(d.name, i)) {
                error(where + "/name", "duplicate node set name '" + d.name + "'");
                ok = false;
            } else if (hasGeneratedNodeShape(d.name) && !findNodeSet(d.name) && !findNode(d.name)) {
                error(where + "/name", "node set name '" + d.name + "' is reserved: " + kGeneratedNodeNames);
                ok = false;
            } else if (findNodeSet(d.name)) {
                error(where + "/name", "duplicate node set name '" + d.name + "': a face of a solid has this name");
                ok = false;
            } else if (findNode(d.name)) {
                error(where + "/name", "node set name '" + d.name + "' is the name of a node");
                ok = false;
            } else if (bodyNames.count(d.name)) {
                error(where + "/name", "node set name '" + d.name + "' is the name of a body");
                ok = false;
            }
            if (d.nodes.empty()) {
                error(where + "/nodes", "node set '" + d.name + "' has no nodes: list at least one");
                ok = false;
            }
            NodeSet set;
            std::set<std::pair<int, int>> held;  // (body, node): a node under any of its names
            for (size_t k = 0; k < d.nodes.size(); ++k) {
                const std::string nodeWhere = where + "/nodes/" + std::to_string(k);
                const NodeRef* node = findNode(d.nodes[k]);
                if (!node) {
                    error(nodeWhere, findNodeSet(d.nodes[k])
                                         ? "'" + d.nodes[k] + "' is a node set: list its nodes"
                                         : "unknown node '" + d.nodes[k] + "' (nodes are named <beam>.node<k>, "
                                                                           "<beam>.root, <beam>.tip or <solid>.node<i>_<j>_<k>)");
                    ok = false;
                    continue;
                }
                if (!held.insert({node->body.value(), node->node}).second) {
                    error(nodeWhere, "node '" + d.nodes[k] + "' is listed twice in node set '" + d.name + "'");
                    ok = false;
                    continue;
                }
                set.bodies.push_back(node->body);
                set.nodes.push_back(node->node);
                set.names.push_back(d.nodes[k]);
            }
            if (!ok) continue;
            set.weights.assign(set.nodes.size(), 1.0 / double(set.nodes.size()));
            nodeSets_[d.name] = set;
        }
    }

    // Whether one of the first i declared node sets has this name (it may have been
    // rejected with a diagnostic of its own).
    bool declaredNodeSetBefore(const std::string& name, size_t i) const {
        for (size_t k = 0; k < i; ++k)
            if (doc_.nodeSets[k].name == name) return true;
        return false;
    }

    // --- beams: one body of kind Beam per beam, after the rigid bodies; its nodes are
    // named "<beam>.node<k>", "<beam>.root" and "<beam>.tip" ---
    struct NodeRef {
        BodyIndex body;
        int node = 0;
        Vec3 position, slope;  // undeformed, global
    };

    // A beam's or a solid's material; `fail(field, message)` reports at its item.
    template <typename Fail>
    static void checkMaterial(const MaterialDoc& mat, Fail& fail) {
        if (!std::isfinite(mat.youngModulus) || mat.youngModulus <= 0.0)
            fail("material/young_modulus", "Young's modulus must be positive (got " + shortNumber(mat.youngModulus) + ")");
        if (!std::isfinite(mat.density) || mat.density <= 0.0)
            fail("material/density", "density must be positive (got " + shortNumber(mat.density) + ")");
        if (!std::isfinite(mat.poissonRatio) || mat.poissonRatio <= -1.0 || mat.poissonRatio >= 0.5)
            fail("material/poisson_ratio", "Poisson's ratio must lie in (−1, 0.5) (got " + shortNumber(mat.poissonRatio) + ")");
        if (!std::isfinite(mat.stiffnessDamping) || mat.stiffnessDamping < 0.0)
            fail("material/stiffness_damping",
                 "the stiffness damping must be zero or positive (got " + shortNumber(mat.stiffnessDamping) + " s)");
    }

    void buildBeams(Model& m, std::set<std::string>& seen) {
        for (size_t i = 0; i < doc_.beams.size(); ++i) {
            const BeamDoc& b = doc_.beams[i];
            if (b.name == kGroundName)
                error(at("beams", i, "name"), "the name 'ground' is reserved for the fixed ground");
            else
                checkName(b.name, at("beams", i, "name"), seen, "body");
            bool ok = true;
            auto fail = [&](const char* field, const std::string& what) {
                error(at("beams", i, field), what);
                ok = false;
            };
            if (!finite(b.from)) fail("from", "end point is not finite");
            if (!finite(b.to)) fail("to", "end point is not finite");
            if (ok && !(distance(b.from, b.to) > 0.0)) fail("to", "the beam's two end points coincide");
            if (b.elements < 1 || b.elements > kMaxBeamElements)
                fail("elements", "a beam has from 1 to " + std::to_string(kMaxBeamElements) + " elements (got " +
                                     std::to_string(b.elements) + ")");
            const MaterialDoc& mat = b.material;
            checkMaterial(mat, fail);
            const SectionDoc& sec = b.section;
            double A = 0.0, I = 0.0;
            switch (sec.shape) {
            case SectionDoc::Shape::Rectangle:
                if (!std::isfinite(sec.width) || !std::isfinite(sec.height) || sec.width <= 0.0 || sec.height <= 0.0)
                    fail("section/width", "a rectangular section needs a positive width and height");
                A = sec.width * sec.height;
                I = sec.width * sec.height * sec.height * sec.height / 12.0;
                break;
            case SectionDoc::Shape::Circle:
                if (!std::isfinite(sec.radius) || sec.radius <= 0.0) fail("section/radius", "a circular section needs a positive radius");
                A = M_PI * sec.radius * sec.radius;
                I = M_PI * std::pow(sec.radius, 4) / 4.0;
                break;
            case SectionDoc::Shape::Direct:
                if (!std::isfinite(sec.area) || sec.area <= 0.0) fail("section/area", "the section's area must be positive");
                if (!std::isfinite(sec.inertia) || sec.inertia <= 0.0)
                    fail("section/inertia", "the section's second moment of area must be positive");
                A = sec.area;
                I = sec.inertia;
                break;
            }
            if (!std::isfinite(b.preload)) fail("preload", "preload is not finite");
            if (!ok) continue;
            ancf::CableProperties props;
            props.axialStiffness = mat.youngModulus * A;
            props.bendingStiffness = mat.youngModulus * I;
            props.massPerLength = mat.density * A;
            props.preload = b.preload;
            props.stiffnessDamping = mat.stiffnessDamping;
            if (!std::isfinite(props.axialStiffness) || !std::isfinite(props.bendingStiffness) ||
                !std::isfinite(props.massPerLength) || !(props.bendingStiffness > 0.0) || !(props.massPerLength > 0.0)) {
                fail("section", "EA, EI or ρA of this section and material is not a positive finite number");
                continue;
            }
            Body body;
            body.name = b.name;
            body.kind = BodyKind::Beam;
            body.beam = std::make_shared<const BeamMesh>(b.from, b.to, b.elements, props);
            // A beam's shape is the section swept along its centreline (FlexibleScene.h):
            // a cylinder of the section's radius, or a box whose y and z sizes are the
            // section's height and width; a section given by A and I is drawn as the
            // circle of that area.
            body.shape = VisualShape{};
            if (sec.shape == SectionDoc::Shape::Rectangle) {
                body.shape.kind = VisualShape::Kind::Box;
                body.shape.size = Vec3(0.0, sec.height, sec.width);
            } else {
                body.shape.kind = VisualShape::Kind::Cylinder;
                body.shape.radius = sec.shape == SectionDoc::Shape::Circle ? sec.radius : std::sqrt(A / M_PI);
            }
            body.mass = props.massPerLength * distance(b.from, b.to);
            const BodyIndex index(m.bodyCount());
            m.bodies.push_back(body);
            const Vec3 slope = (b.to - b.from) / distance(b.from, b.to);
            for (int k = 0; k <= b.elements; ++k) {
                const NodeRef ref{index, k, body.beam->initialNodePosition(k), slope};
                nodes_[b.name + ".node" + std::to_string(k)] = ref;
                if (k == 0) nodes_[b.name + ".root"] = ref;
                if (k == b.elements) nodes_[b.name + ".tip"] = ref;
            }
        }
    }

    // --- solids: one body of kind Solid per box, after the beams; its nodes are named
    // "<solid>.node<i>_<j>_<k>", its faces "<solid>.xmin" ... are node sets ---
    struct NodeSet {
        std::vector<BodyIndex> bodies;  // per node: a declared set may span meshes
        std::vector<int> nodes;
        std::vector<double> weights;  // shares of a resultant force (a face: consistent traction; declared: equal)
        std::vector<std::string> names;
    };

    void buildSolids(Model& m, std::set<std::string>& seen) {
        for (size_t i = 0; i < doc_.solids.size(); ++i) {
            const SolidDoc& b = doc_.solids[i];
            if (b.name == kGroundName)
                error(at("solids", i, "name"), "the name 'ground' is reserved for the fixed ground");
            else
                checkName(b.name, at("solids", i, "name"), seen, "body");
            bool ok = true;
            auto fail = [&](const char* field, const std::string& what) {
                error(at("solids", i, field), what);
                ok = false;
            };
            if (!finite(b.origin)) fail("origin", "the box's corner is not finite");
            if (!finite(b.size) || !(b.size.minCoeff() > 0.0))
                fail("size", "the box's three edge lengths must be positive and finite (a box given by two corners "
                             "needs corners that differ in every coordinate)");
            long long total = 1;
            for (int a = 0; a < 3; ++a) {
                if (b.elements[a] < 1) fail("elements", "a box has at least one element along each axis");
                total *= std::max(1, b.elements[a]);
            }
            if (total > kMaxSolidElements)
                fail("elements", "a box has at most " + std::to_string(kMaxSolidElements) + " elements (got " +
                                     std::to_string(total) + ")");
            // An element's volume (the Jacobian determinant of its Gauss points) must be a
            // positive, finite number: edges of 1e-120 m underflow it, of 1e120 m overflow it.
            if (ok && !(std::isfinite(b.size.prod()) && b.size.prod() / double(total) > 1e-300))
                fail("size", "the box's elements are too small or too large: their volume " +
                                 shortNumber(b.size.prod() / double(total)) + " m³ is not a positive finite number");
            const MaterialDoc& mat = b.material;
            checkMaterial(mat, fail);
            if (!ok) continue;
            hex::Material material{mat.youngModulus, mat.poissonRatio, mat.density, mat.stiffnessDamping};
            if (!std::isfinite(material.lambda()) || !std::isfinite(material.mu()) || !std::isfinite(b.size.prod() * mat.density)) {
                fail("material", "the Lamé constants or the mass of this box overflow");
                continue;
            }
            Body body;
            body.name = b.name;
            body.kind = BodyKind::Solid;
            body.solid = std::make_shared<const SolidMesh>(b.origin, b.size, b.elements[0], b.elements[1], b.elements[2], material);
            body.mass = body.solid->totalMass();
            const BodyIndex index(m.bodyCount());
            m.bodies.push_back(body);
            const SolidMesh& mesh = *body.solid;
            for (int k = 0; k <= b.elements[2]; ++k)
                for (int j = 0; j <= b.elements[1]; ++j)
                    for (int ii = 0; ii <= b.elements[0]; ++ii) {
                        const int n = mesh.gridNode(ii, j, k);
                        nodes_[solidNodeName(b.name, ii, j, k)] = NodeRef{index, n, mesh.initialNodePosition(n), Vec3::Zero()};
                    }
            for (int f = 0; f < 6; ++f) {
                NodeSet set;
                set.nodes = mesh.faceNodes(f);
                set.bodies.assign(set.nodes.size(), index);
                set.weights = mesh.faceWeights(f);
                for (int n : set.nodes) set.names.push_back(solidNodeName(b.name, mesh, n));
                nodeSets_[b.name + "." + SolidMesh::faceNames()[size_t(f)]] = set;
            }
        }
    }

    static std::string solidNodeName(const std::string& solid, int i, int j, int k) {
        return solid + ".node" + std::to_string(i) + "_" + std::to_string(j) + "_" + std::to_string(k);
    }
    static std::string solidNodeName(const std::string& solid, const SolidMesh& mesh, int n) {
        const int nx = mesh.elementsAlong(0) + 1, ny = mesh.elementsAlong(1) + 1;
        return solidNodeName(solid, n % nx, (n / nx) % ny, n / (nx * ny));
    }

    const NodeSet* findNodeSet(const std::string& name) const {
        auto it = nodeSets_.find(name);
        return it == nodeSets_.end() ? nullptr : &it->second;
    }

    bool isSolid(const std::string& name) const {
        for (const SolidDoc& s : doc_.solids)
            if (s.name == name) return true;
        return false;
    }
    // --- end solids ---

    const NodeRef* findNode(const std::string& name) const {
        auto it = nodes_.find(name);
        return it == nodes_.end() ? nullptr : &it->second;
    }
    // --- end beams ---

    bool checkQuaternion(const Quat& q, const std::string& where, Quat& unit) {
        switch (unitQuaternion(q, unit)) {
        case Length::NonZero: return true;
        case Length::Zero: error(where, "orientation quaternion has zero length"); return false;
        case Length::NotFinite: error(where, "orientation quaternion is not finite"); return false;
        }
        return false;
    }

    bool checkInertia(const Mat3& I, const std::string& where) {
        if (!I.allFinite()) {
            error(where, "inertia has non-finite entries");
            return false;
        }
        const double scale = I.cwiseAbs().maxCoeff();
        if ((I - I.transpose()).cwiseAbs().maxCoeff() > 1e-9 * std::max(scale, 1e-300)) {
            error(where, "inertia tensor is not symmetric");
            return false;
        }
        Eigen::SelfAdjointEigenSolver<Mat3> es(I);
        const Vec3 p = es.eigenvalues();
        if (p.minCoeff() <= 0.0) {
            error(where, "inertia tensor is not positive definite (principal moments " +
                             std::to_string(p[0]) + ", " + std::to_string(p[1]) + ", " +
                             std::to_string(p[2]) + ")");
            return false;
        }
        // A real mass distribution has I1 + I2 ≥ I3 for its principal moments.
        if (p[0] + p[1] < p[2] * (1.0 - 1e-9)) {
            error(where, "inertia violates the triangle inequality (I1 + I2 < I3): no real body "
                         "has these principal moments");
            return false;
        }
        return true;
    }

    // Pose of a body in the document's initial configuration.
    bool initialPose(const std::string& body, Mat3& A, Vec3& r) const {
        if (body == kGroundName) {
            A.setIdentity();
            r.setZero();
            return true;
        }
        for (const BodyDoc& b : doc_.bodies)
            if (b.name == body) {
                Quat unit;
                A = unitQuaternion(b.orientation, unit) == Length::NonZero
                        ? unit.toRotationMatrix()
                        : Mat3::Identity();
                r = b.position;
                return true;
            }
        return false;
    }

    void buildMarkers() {
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
        }
    }

    // Traces are drawn by the workbench, not simulated, but a file must not name a body or
    // marker it lacks there any more than in a joint.
    void checkTraces() {
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
    bool frameFromGlobal(const std::string& body, const std::string& where, const Vec3& point,
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

    bool unitAxis(const Vec3& a, const std::string& where, Vec3& out) {
        switch (unitVector(a, out)) {
        case Length::NonZero: return true;
        case Length::Zero: error(where, "axis has zero length"); return false;
        case Length::NotFinite: error(where, "axis is not finite"); return false;
        }
        return false;
    }

    // A spherical or fixed joint between a node set and a rigid body or the ground: one pin
    // per node, holding each node where it is in the undeformed mesh (the joint's point is
    // not used). Returns false if neither body is a node set.
    bool buildNodeSetJoint(Model& m, size_t i) {
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

    void addJoint(Model& m, Joint& j, const std::vector<EquationLabel>& labels) {
        j.firstEquation = m.equationCount();
        for (EquationLabel l : labels) {
            l.owner = j.name;
            m.equations.push_back(l);
        }
        j.equationCount = m.equationCount() - j.firstEquation;
        jointIndex_[j.name] = JointIndex(static_cast<int>(m.joints.size()));
        m.joints.push_back(j);
    }

    void buildJoints(Model& m) {
        for (size_t i = 0; i < doc_.joints.size(); ++i) {
            const JointDoc& jd = doc_.joints[i];
            checkName(jd.name, at("joints", i, "name"), ownerNames_, "joint");
            if (buildNodeSetJoint(m, i)) continue;
            Joint j;
            j.name = jd.name;
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
            const bool node1 = m.body(j.frame1.body).kind == BodyKind::Beam;
            const bool node2 = m.body(j.frame2.body).kind == BodyKind::Beam;
            if ((node1 && m.body(j.frame2.body).kind == BodyKind::Solid) || (node2 && m.body(j.frame1.body).kind == BodyKind::Solid)) {
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
            // --- end beams ---
            // --- solids: a node is a point; a fixed joint on it holds its position alone
            // (a pin), a solid is clamped by holding a set of its nodes ---
            const bool solid1 = m.body(j.frame1.body).kind == BodyKind::Solid;
            const bool solid2 = m.body(j.frame2.body).kind == BodyKind::Solid;
            if (solid1 || solid2) {
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
    bool declaredMarker(const std::string& name) const {
        for (const MarkerDoc& m : doc_.markers)
            if (m.name == name) return true;
        return false;
    }
    bool declaredJoint(const std::string& name) const {
        for (const JointDoc& j : doc_.joints)
            if (j.name == name) return true;
        return false;
    }

    std::string bodyName(BodyIndex b) const {
        if (b.value() == 0) return kGroundName;
        const size_t i = static_cast<size_t>(b.value() - 1);
        if (i < doc_.bodies.size()) return doc_.bodies[i].name;
        if (i < doc_.bodies.size() + doc_.beams.size()) return doc_.beams[i - doc_.bodies.size()].name;
        return doc_.solids[i - doc_.bodies.size() - doc_.beams.size()].name;
    }

    bool nodesOfBeam(const std::string& name) const {
        for (const BeamDoc& b : doc_.beams)
            if (b.name == name) return true;
        return false;
    }

    bool checkLaw(const TimeLaw& law, const std::string& where) {
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

    void buildDrivers(Model& m) {
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
            const bool beam1 = m.body(j.frame1.body).kind == BodyKind::Beam, beam2 = m.body(j.frame2.body).kind == BodyKind::Beam;
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

    void buildForces(Model& m) {
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
                if (m.body(held.frame1.body).kind == BodyKind::Beam && m.body(held.frame2.body).kind == BodyKind::Beam) {
                    error(at("forces", i, "joint"), "joint '" + fd.joint + "' joins two beam nodes: it is a pin with no axis "
                                                    "and no angle for a rotational spring-damper");
                    continue;
                }
                f.joint = it->second;
                f.freeAngle = fd.freeAngle;
                break;
            }
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
                        m.forces.push_back(part);
                    }
                    continue;
                }
                if (const NodeRef* node = findNode(fd.body)) {  // a nodal force on r_k
                    if (fd.type == ForceType::BodyTorque) {
                        error(at("forces", i, "body"), m.body(node->body).kind == BodyKind::Solid
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
            m.forces.push_back(f);
        }
    }

    // Tolerances act on the coordinates, and a rigid body's coordinates are those of its
    // centre of mass; rank decisions weigh rotations by the model's length scale. A body
    // whose centre of mass lies far outside the linkage (a typing slip in its position:
    // a rod "a million metres away" from its joints) makes both meaningless at the
    // linkage's size: at a ratio r the joints are resolved r times worse than the
    // tolerances ask (0.3 m of violation on a 0.1 m crank at r = 3e6), and beyond about
    // 1e9 a rank decision loses a degree of freedom or invents one. Refuse it, naming the
    // body, from a ratio of 1e4 (four of the sixteen digits spent on the offset).
    void checkScale() {
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

    double lengthScale() const {
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

    const ModelDocument& doc_;
    std::string file_;
    Diagnostics diags_;
    std::map<std::string, BodyIndex> bodyIndex_;
    std::map<std::string, BodyFrame> markers_;
    std::map<std::string, JointIndex> jointIndex_;
    std::map<std::string, NodeRef> nodes_;
    std::map<std::string, NodeSet> nodeSets_;
    std::set<std::string> ownerNames_;
};

}  // namespace

BuildResult buildModel(const ModelDocument& doc, const std::string& file) {
    try {
        return Builder(doc, file).run();
    } catch (const std::exception& e) {
        BuildResult r;
        r.diagnostics.push_back({file, "", std::string(kInternalErrorPrefix) + e.what(), 0, 0});
        return r;
    }
}

}  // namespace looplab
