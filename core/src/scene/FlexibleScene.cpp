#include "looplab/scene/FlexibleScene.h"

#include "looplab/bodies/beam/AncfCableElement.h"
#include "looplab/bodies/solid/HexahedronElement.h"
#include "looplab/bodies/solid/HexahedronStress.h"
#include "looplab/model/Model.h"
#include "looplab/model/State.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

namespace looplab {

namespace {

Vec3 combine(const double w[4], const double* e) {
    // e: r_1, r_x1, r_2, r_x2 (3 numbers each)
    Vec3 r = Vec3::Zero();
    for (int i = 0; i < 4; ++i) r += w[i] * Eigen::Map<const Vec3>(e + 3 * i);
    return r;
}

// The six faces of a hexahedron as node positions in the element's order (cornerOf),
// each counter-clockwise seen from outside.
constexpr int kFaces[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4},
                              {3, 7, 6, 2}, {0, 4, 7, 3}, {1, 2, 6, 5}};

}  // namespace

SceneBeam sceneBeam(const Model& model, const State& state, BodyIndex b, int samplesPerElement) {
    const Body& body = model.body(b);
    const BeamMesh& mesh = *body.beam();
    const int n = std::max(samplesPerElement, 1);
    SceneBeam beam;
    beam.name = body.name;
    beam.body = b;
    // The builder gives a beam the shape of its section (ModelBuilder.cpp, buildBeams).
    if (body.shape.kind == VisualShape::Kind::Box)
        beam.section = {SceneSection::Kind::Rectangle, 0.0, body.shape.size.z(), body.shape.size.y()};
    else
        beam.section = {SceneSection::Kind::Circle, body.shape.radius, 0.0, 0.0};
    beam.color = body.shape.color;
    beam.samplesPerElement = n;
    const size_t count = size_t(mesh.elementCount() * n + 1);
    beam.points.reserve(count);
    beam.slopes.reserve(count);
    beam.referencePoints.reserve(count);
    beam.referenceSlopes.reserve(count);
    beam.axialStrain.reserve(count);
    beam.bendingStrain.reserve(count);
    const double* q = state.q.data() + body.slice.positionOffset;
    const double* q0 = mesh.initialNodalCoordinates().data();
    std::vector<Vec3>& curvatures = beam.curvatures;
    curvatures.reserve(count);
    for (int e = 0; e < mesh.elementCount(); ++e) {
        const double L = mesh.element(e).length;
        const int offset = ancf::kNodeSize * e;
        // The last element also gives its end node; the others leave it to the next.
        for (int i = 0; i <= n; ++i) {
            if (i == n && e + 1 < mesh.elementCount()) break;
            const ancf::HermiteWeights w = ancf::hermiteWeights(double(i) / n, L);
            const Vec3 rx = combine(w.sx, q + offset);
            beam.points.push_back(combine(w.s, q + offset));
            beam.slopes.push_back(rx);
            beam.referencePoints.push_back(combine(w.s, q0 + offset));
            beam.referenceSlopes.push_back(combine(w.sx, q0 + offset));
            beam.axialStrain.push_back(0.5 * (rx.squaredNorm() - 1.0));
            curvatures.push_back(curvatureVector(rx, combine(w.sxx, q + offset)));
        }
    }
    beam.normals = sweepNormals(beam);
    for (size_t i = 0; i < curvatures.size(); ++i)
        beam.bendingStrain.push_back(curvatures[i].norm() * fibreDistance(beam, i, curvatures[i]));
    return beam;
}

Vec3 curvatureVector(const Vec3& rx, const Vec3& rxx) {
    const double n = rx.norm();
    return n > 0.0 ? Vec3(rx.cross(rxx) / (n * n * n)) : Vec3::Zero();
}

double fibreDistance(const SceneBeam& beam, size_t sample, const Vec3& curvature) {
    if (beam.section.kind == SceneSection::Kind::Circle) return beam.section.radius;
    if (sample >= beam.normals.size() || sample >= beam.slopes.size()) return 0.0;
    // The curvature vector is the axis of bending: the fibres farthest from it are those
    // at the section's corners, across the plane the beam bends in.
    const double k = curvature.norm();
    if (!(k > 0.0)) return 0.5 * std::max(beam.section.height, beam.section.width);
    const Vec3 t = beam.slopes[sample].normalized(), normal = beam.normals[sample], binormal = t.cross(normal);
    const Vec3 bend = curvature.cross(t) / k;  // the direction the centreline turns towards
    return 0.5 * (beam.section.height * std::abs(bend.dot(normal)) + beam.section.width * std::abs(bend.dot(binormal)));
}

SceneSurface sceneSurface(const Model& model, const State& state, BodyIndex b) {
    const Body& body = model.body(b);
    const SolidMesh& mesh = *body.solid();
    SceneSurface surface;
    surface.name = body.name;
    surface.body = b;
    surface.color = body.shape.color;

    // A face is on the boundary when no other element has it (keyed by its sorted nodes).
    std::map<std::array<int, 4>, std::pair<int, std::array<int, 4>>> faces;
    for (int e = 0; e < mesh.elementCount(); ++e) {
        const auto& nodes = mesh.elementNodes(e);
        for (const auto& f : kFaces) {
            std::array<int, 4> quad{nodes[size_t(f[0])], nodes[size_t(f[1])], nodes[size_t(f[2])], nodes[size_t(f[3])]};
            std::array<int, 4> key = quad;
            std::sort(key.begin(), key.end());
            auto [it, inserted] = faces.try_emplace(key, 1, quad);
            if (!inserted) ++it->second.first;
        }
    }
    std::vector<int> vertexOf(size_t(mesh.nodeCount()), -1);
    const double* q = state.q.data() + body.slice.positionOffset;
    for (const auto& [key, face] : faces) {
        if (face.first != 1) continue;
        std::array<int, 4> quad{};
        for (int c = 0; c < 4; ++c) {
            const int node = face.second[size_t(c)];
            int& v = vertexOf[size_t(node)];
            if (v < 0) {
                v = int(surface.nodes.size());
                surface.nodes.push_back(node);
                surface.points.push_back(Eigen::Map<const Vec3>(q + hex::kNodeSize * node));
                surface.referencePoints.push_back(mesh.initialNodePosition(node));
            }
            quad[size_t(c)] = v;
        }
        surface.quads.push_back(quad);
    }

    // Von Mises stress at each surface node: the mean of its value at the corner of each
    // element holding the node (stress is discontinuous between trilinear elements).
    std::vector<double> sum(surface.nodes.size(), 0.0);
    std::vector<int> shares(surface.nodes.size(), 0);
    forEachSurfaceCorner(model, state, surface, [&](size_t v, const Mat3& F) {
        sum[v] += hex::vonMisesStress(hex::cauchyStress(mesh.material(), F));
        ++shares[v];
    });
    surface.vonMises.resize(surface.nodes.size());
    for (size_t v = 0; v < sum.size(); ++v) surface.vonMises[v] = sum[v] / std::max(shares[v], 1);
    return surface;
}

void forEachSurfaceCorner(const Model& model, const State& state, const SceneSurface& surface,
                          const std::function<void(size_t vertex, const Mat3& F)>& visit) {
    const Body& body = model.body(surface.body);
    const SolidMesh& mesh = *body.solid();
    std::vector<int> vertexOf(size_t(mesh.nodeCount()), -1);
    for (size_t v = 0; v < surface.nodes.size(); ++v) vertexOf[size_t(surface.nodes[v])] = int(v);
    const double* q = state.q.data() + body.slice.positionOffset;
    for (int e = 0; e < mesh.elementCount(); ++e) {
        const auto& nodes = mesh.elementNodes(e);
        bool touches = false;
        for (int node : nodes) touches = touches || vertexOf[size_t(node)] >= 0;
        if (!touches) continue;
        Eigen::Matrix<double, 3, hex::kNodes> X;
        hex::ElementVector x;
        for (int a = 0; a < hex::kNodes; ++a) {
            X.col(a) = mesh.initialNodePosition(nodes[size_t(a)]);
            x.segment<3>(hex::kNodeSize * a) = Eigen::Map<const Vec3>(q + hex::kNodeSize * nodes[size_t(a)]);
        }
        const hex::Geometry g = hex::geometry(X);
        for (int a = 0; a < hex::kNodes; ++a) {
            const int v = vertexOf[size_t(nodes[size_t(a)])];
            if (v >= 0) visit(size_t(v), hex::deformationGradientAt(g, hex::cornerOf(a), x));
        }
    }
}

namespace {

void exaggerate(std::vector<Vec3>& current, const std::vector<Vec3>& reference, double k) {
    for (size_t i = 0; i < current.size() && i < reference.size(); ++i)
        current[i] = reference[i] + k * (current[i] - reference[i]);
}

void exaggerate(SceneBeam& beam, double k) {
    exaggerate(beam.points, beam.referencePoints, k);
    exaggerate(beam.slopes, beam.referenceSlopes, k);
    beam.normals = sweepNormals(beam);
}

}  // namespace

Scene withExaggeratedDeformation(Scene scene, double k) {
    if (k == 1.0) return scene;
    for (SceneBeam& beam : scene.beams) exaggerate(beam, k);
    for (SceneBeam& beam : scene.ghostBeams) exaggerate(beam, k);
    for (SceneSurface& s : scene.surfaces) exaggerate(s.points, s.referencePoints, k);
    for (SceneSurface& s : scene.ghostSurfaces) exaggerate(s.points, s.referencePoints, k);
    return scene;
}

std::vector<Vec3> sweepNormals(const SceneBeam& beam) {
    std::vector<Vec3> normals;
    if (beam.slopes.empty()) return normals;
    normals.reserve(beam.slopes.size());
    const Vec3 axis = beam.referenceSlopes.empty() ? beam.slopes.front() : beam.referenceSlopes.front();
    const Vec3 a = axis.normalized();
    const Vec3 up = std::abs(a.y()) > std::cos(25.0 * M_PI / 180.0) ? Vec3::UnitZ() : Vec3::UnitY();
    Vec3 normal = (up - up.dot(a) * a).normalized();
    Vec3 previous = a;
    for (const Vec3& slope : beam.slopes) {
        // A slope of zero length (a fully compressed sample) keeps the last direction.
        const Vec3 t = slope.norm() > 0.0 ? Vec3(slope.normalized()) : previous;
        normal = Eigen::Quaterniond::FromTwoVectors(previous, t) * normal;
        normal = (normal - normal.dot(t) * t).normalized();
        normals.push_back(normal);
        previous = t;
    }
    return normals;
}

std::optional<Vec3> sceneNodePosition(const Scene& scene, BodyIndex b, int node) {
    if (node < 0)
        return std::nullopt;
    for (const SceneBeam& beam : scene.beams)
        if (beam.body == b) {
            const size_t sample = size_t(node) * size_t(std::max(beam.samplesPerElement, 1));
            if (sample >= beam.points.size())
                return std::nullopt;
            return beam.points[sample];
        }
    for (const SceneSurface& surface : scene.surfaces)
        if (surface.body == b) {
            for (size_t v = 0; v < surface.nodes.size() && v < surface.points.size(); ++v)
                if (surface.nodes[v] == node)
                    return surface.points[v];
            return std::nullopt;
        }
    return std::nullopt;
}

}  // namespace looplab
