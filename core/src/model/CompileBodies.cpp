// The rigid bodies, beams, solids and node sets of a document compiled into the Model's
// bodies and named mesh nodes (DocumentCompiler.h).

#include "model/DocumentCompiler.h"
#include "looplab/bodies/rigid/GroundBody.h"
#include "looplab/model/ShapeMassProperties.h"
#include "looplab/model/TriangleMesh.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>

namespace looplab {

void DocumentCompiler::buildBodies(Model& m) {
    Body ground;
    ground.name = kGroundName;
    ground.formulation = std::make_shared<const GroundBody>();
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
        RigidBodyStart start;
        start.position = b.position;
        start.orientation = wellScaled(b.orientation).normalized();
        start.velocity = b.velocity;
        start.angularVelocity = b.angularVelocity;
        const auto rigid = std::make_shared<const RigidBody>(mass, inertia, start);
        body.formulation = rigid;
        if (inertiaOk && !rigid->inertiaInverse().allFinite())
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
void DocumentCompiler::buildNodeSets(const std::set<std::string>& bodyNames) {
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
bool DocumentCompiler::declaredNodeSetBefore(const std::string& name, size_t i) const {
    for (size_t k = 0; k < i; ++k)
        if (doc_.nodeSets[k].name == name) return true;
    return false;
}

// A beam's or a solid's material; `fail(field, message)` reports at its item.
template <typename Fail>
void DocumentCompiler::checkMaterial(const MaterialDoc& mat, Fail& fail) {
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

// One body of kind Beam per beam, after the rigid bodies; its nodes are named
// "<beam>.node<k>", "<beam>.root" and "<beam>.tip".
void DocumentCompiler::buildBeams(Model& m, std::set<std::string>& seen) {
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
        // An element's mass matrix holds its length cubed and its stiffness the inverse:
        // both must be positive, finite numbers (elements of 1e-110 m underflow the first;
        // ends 1e-199 m apart also underflow the length's own square).
        if (ok && b.elements >= 1) {
            const double le = distance(b.from, b.to) / b.elements;
            if (!(le * le * le > 1e-300 && std::isfinite(le * le * le)))
                fail("to", "the beam's elements are too short or too long: each is " + shortNumber(le) + " m");
        }
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
        const auto beam = std::make_shared<const BeamMesh>(b.from, b.to, b.elements, props);
        body.formulation = beam;
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
        const BodyIndex index(m.bodyCount());
        m.bodies.push_back(body);
        const Vec3 slope = (b.to - b.from) / distance(b.from, b.to);
        for (int k = 0; k <= b.elements; ++k) {
            const NodeRef ref{index, k, beam->initialNodePosition(k), slope};
            nodes_[b.name + ".node" + std::to_string(k)] = ref;
            if (k == 0) nodes_[b.name + ".root"] = ref;
            if (k == b.elements) nodes_[b.name + ".tip"] = ref;
        }
    }
}

// One body of kind Solid per box, after the beams; its nodes are named
// "<solid>.node<i>_<j>_<k>", its faces "<solid>.xmin" ... are node sets.
void DocumentCompiler::buildSolids(Model& m, std::set<std::string>& seen) {
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
        const auto solid =
            std::make_shared<const SolidMesh>(b.origin, b.size, b.elements[0], b.elements[1], b.elements[2], material);
        body.formulation = solid;
        const BodyIndex index(m.bodyCount());
        m.bodies.push_back(body);
        const SolidMesh& mesh = *solid;
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

std::string DocumentCompiler::solidNodeName(const std::string& solid, int i, int j, int k) {
    return solid + ".node" + std::to_string(i) + "_" + std::to_string(j) + "_" + std::to_string(k);
}

std::string DocumentCompiler::solidNodeName(const std::string& solid, const SolidMesh& mesh, int n) {
    const int nx = mesh.elementsAlong(0) + 1, ny = mesh.elementsAlong(1) + 1;
    return solidNodeName(solid, n % nx, (n / nx) % ny, n / (nx * ny));
}

const DocumentCompiler::NodeSet* DocumentCompiler::findNodeSet(const std::string& name) const {
    auto it = nodeSets_.find(name);
    return it == nodeSets_.end() ? nullptr : &it->second;
}

bool DocumentCompiler::isSolid(const std::string& name) const {
    for (const SolidDoc& s : doc_.solids)
        if (s.name == name) return true;
    return false;
}


const DocumentCompiler::NodeRef* DocumentCompiler::findNode(const std::string& name) const {
    auto it = nodes_.find(name);
    return it == nodes_.end() ? nullptr : &it->second;
}


bool DocumentCompiler::checkQuaternion(const Quat& q, const std::string& where, Quat& unit) {
    switch (unitQuaternion(q, unit)) {
    case Length::NonZero: return true;
    case Length::Zero: error(where, "orientation quaternion has zero length"); return false;
    case Length::NotFinite: error(where, "orientation quaternion is not finite"); return false;
    }
    return false;
}

bool DocumentCompiler::checkInertia(const Mat3& I, const std::string& where) {
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

}  // namespace looplab
