#include "looplab/model/TriangleMesh.h"

#include "looplab/model/InputFile.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <sstream>

namespace looplab {

namespace {

std::string lowerExtension(const std::string& path) {
    const size_t dot = path.find_last_of('.');
    if (dot == std::string::npos) return "";
    std::string e = path.substr(dot + 1);
    std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return e;
}

// STL repeats each vertex in every triangle that uses it; equal points become one vertex.
struct VertexMerger {
    TriangleMesh& mesh;
    std::map<std::array<double, 3>, int> index;
    int operator()(const Vec3& p) {
        const std::array<double, 3> key{p.x(), p.y(), p.z()};
        const auto [it, added] = index.emplace(key, int(mesh.vertices.size()));
        if (added) mesh.vertices.push_back(p);
        return it->second;
    }
};

bool readBinaryStl(const std::string& text, TriangleMesh& mesh, std::string* why) {
    uint32_t count = 0;
    std::memcpy(&count, text.data() + 80, 4);
    if (text.size() != 84 + size_t(count) * 50) {
        *why = "a binary STL of " + std::to_string(count) + " triangles has " + std::to_string(84 + size_t(count) * 50) +
               " bytes, this file " + std::to_string(text.size());
        return false;
    }
    VertexMerger merge{mesh, {}};
    for (uint32_t t = 0; t < count; ++t) {
        const char* record = text.data() + 84 + size_t(t) * 50 + 12;  // after the normal
        std::array<int, 3> tri{};
        for (int k = 0; k < 3; ++k) {
            float xyz[3];
            std::memcpy(xyz, record + 12 * k, 12);
            const Vec3 p(xyz[0], xyz[1], xyz[2]);
            if (!p.allFinite()) {
                *why = "triangle " + std::to_string(t) + " has a vertex that is not a finite number";
                return false;
            }
            tri[size_t(k)] = merge(p);
        }
        mesh.triangles.push_back(tri);
    }
    return true;
}

bool readAsciiStl(const std::string& text, TriangleMesh& mesh, std::string* why) {
    std::istringstream in(text);
    std::string line;
    int lineNumber = 0;
    VertexMerger merge{mesh, {}};
    std::vector<int> corners;
    while (std::getline(in, line)) {
        ++lineNumber;
        std::istringstream words(line);
        std::string word;
        if (!(words >> word)) continue;
        if (word == "vertex") {
            double x, y, z;
            if (!(words >> x >> y >> z) || !std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z)) {
                *why = "line " + std::to_string(lineNumber) + ": a vertex needs three finite numbers";
                return false;
            }
            corners.push_back(merge(Vec3(x, y, z)));
        } else if (word == "endfacet") {
            if (corners.size() != 3) {
                *why = "line " + std::to_string(lineNumber) + ": a facet needs three vertices (found " +
                       std::to_string(corners.size()) + ")";
                return false;
            }
            mesh.triangles.push_back({corners[0], corners[1], corners[2]});
            corners.clear();
        }
    }
    return true;
}

bool readObj(const std::string& text, TriangleMesh& mesh, std::string* why) {
    std::istringstream in(text);
    std::string line;
    int lineNumber = 0;
    while (std::getline(in, line)) {
        ++lineNumber;
        std::istringstream words(line);
        std::string word;
        if (!(words >> word)) continue;
        const std::string at = "line " + std::to_string(lineNumber) + ": ";
        if (word == "v") {
            double x, y, z;
            if (!(words >> x >> y >> z) || !std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z)) {
                *why = at + "a vertex needs three finite numbers";
                return false;
            }
            mesh.vertices.emplace_back(x, y, z);
        } else if (word == "f") {
            std::vector<int> corners;
            std::string corner;
            while (words >> corner) {
                // "7", "7/1", "7//3", "7/1/3"; negative counts back from the last vertex.
                char* end = nullptr;
                const long k = std::strtol(corner.c_str(), &end, 10);
                const long n = long(mesh.vertices.size());
                const long index = k > 0 ? k - 1 : n + k;
                if (end == corner.c_str() || k == 0 || index < 0 || index >= n) {
                    *why = at + "face corner '" + corner + "' names no vertex defined before it";
                    return false;
                }
                corners.push_back(int(index));
            }
            if (corners.size() < 3) {
                *why = at + "a face needs at least three corners";
                return false;
            }
            for (size_t k = 1; k + 1 < corners.size(); ++k) mesh.triangles.push_back({corners[0], corners[k], corners[k + 1]});
        }
    }
    return true;
}

}  // namespace

bool readTriangleMesh(const std::string& path, TriangleMesh& mesh, std::string* why) {
    mesh = TriangleMesh{};
    const std::string e = lowerExtension(path);
    if (e != "stl" && e != "obj") {
        *why = "a mesh file is .stl or .obj";
        return false;
    }
    std::string text, reason;
    if (!readInputFile(path, "mesh file", text, reason)) {
        *why = reason;
        return false;
    }
    bool ok = false;
    if (e == "obj") {
        ok = readObj(text, mesh, why);
    } else {
        // Binary unless it reads as ASCII ("solid" then facets); a binary header may also
        // begin with "solid", so the size decides where it fits.
        const bool binarySize = text.size() >= 84 && [&] {
            uint32_t count = 0;
            std::memcpy(&count, text.data() + 80, 4);
            return text.size() == 84 + size_t(count) * 50;
        }();
        if (binarySize)
            ok = readBinaryStl(text, mesh, why);
        else if (text.rfind("solid", 0) == 0)
            ok = readAsciiStl(text, mesh, why);
        else
            *why = "neither an ASCII STL (which begins with 'solid') nor a binary one (84 bytes and 50 a triangle)";
    }
    if (ok && mesh.triangles.empty()) {
        *why = "no triangles";
        ok = false;
    }
    return ok;
}

MeshVolume meshVolume(const TriangleMesh& mesh, const Vec3& scale) {
    MeshVolume r;
    // Closed and consistently turned: every directed edge once, its reverse once.
    std::map<std::pair<int, int>, int> edges;
    for (const auto& t : mesh.triangles)
        for (int k = 0; k < 3; ++k) ++edges[{t[size_t(k)], t[size_t((k + 1) % 3)]}];
    for (const auto& [edge, count] : edges) {
        const auto reverse = edges.find({edge.second, edge.first});
        if (count != 1 || reverse == edges.end() || reverse->second != 1) {
            r.message = "the mesh is not closed (or its triangles are not turned alike): an edge is not shared by "
                        "exactly two triangles, so it bounds no solid";
            return r;
        }
    }
    // Each triangle with a point makes a signed tetrahedron (divergence theorem):
    // V = a·(b×c)/6, ∫r dV = V (a+b+c)/4, ∫r rᵀ dV = V/20 (a aᵀ + b bᵀ + c cᵀ + s sᵀ), s = a+b+c.
    double volume = 0.0;
    Vec3 first = Vec3::Zero();
    Mat3 second = Mat3::Zero();
    r.lower = Vec3::Constant(INFINITY);
    r.upper = Vec3::Constant(-INFINITY);
    for (const Vec3& v : mesh.vertices) {
        r.lower = r.lower.cwiseMin(v.cwiseProduct(scale));
        r.upper = r.upper.cwiseMax(v.cwiseProduct(scale));
    }
    // Tetrahedra from a point inside the bounding box rather than the file's origin: a part
    // drawn far from its origin would otherwise lose digits to cancellation.
    const Vec3 apex = 0.5 * (r.lower + r.upper);
    for (const auto& t : mesh.triangles) {
        const Vec3 a = mesh.vertices[size_t(t[0])].cwiseProduct(scale) - apex;
        const Vec3 b = mesh.vertices[size_t(t[1])].cwiseProduct(scale) - apex;
        const Vec3 c = mesh.vertices[size_t(t[2])].cwiseProduct(scale) - apex;
        const double v = a.dot(b.cross(c)) / 6.0;
        const Vec3 s = a + b + c;
        volume += v;
        first += v * s / 4.0;
        second += v / 20.0 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
    }
    // A mirroring scale, or triangles turned inwards, give the volume with its sign turned.
    if (volume < 0.0) {
        volume = -volume;
        first = -first;
        second = -second;
    }
    if (!(volume > 0.0) || !std::isfinite(volume)) {
        r.message = "the mesh encloses no volume";
        return r;
    }
    r.volume = volume;
    const Vec3 fromApex = first / volume;
    r.centroid = apex + fromApex;
    const Mat3 aboutCentroid = second - volume * fromApex * fromApex.transpose();
    r.unitInertia = aboutCentroid.trace() * Mat3::Identity() - aboutCentroid;
    r.unitInertia = 0.5 * (r.unitInertia + r.unitInertia.transpose()).eval();
    r.ok = true;
    return r;
}

bool meshBounds(const std::string& path, const Vec3& scale, Vec3& lower, Vec3& upper) {
    // Camera fits and posing ask for the same files again and again.
    struct Entry {
        std::filesystem::file_time_type written;
        Vec3 lower, upper;
    };
    static std::mutex mutex;
    static std::map<std::string, Entry> cache;
    std::error_code ec;
    const auto written = std::filesystem::last_write_time(path, ec);
    if (ec) return false;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(path);
    if (it == cache.end() || it->second.written != written) {
        TriangleMesh mesh;
        std::string why;
        if (!readTriangleMesh(path, mesh, &why)) return false;
        Entry e{written, Vec3::Constant(INFINITY), Vec3::Constant(-INFINITY)};
        for (const Vec3& v : mesh.vertices) {
            e.lower = e.lower.cwiseMin(v);
            e.upper = e.upper.cwiseMax(v);
        }
        it = cache.insert_or_assign(path, e).first;
    }
    const Vec3 a = it->second.lower.cwiseProduct(scale), b = it->second.upper.cwiseProduct(scale);
    lower = a.cwiseMin(b);
    upper = a.cwiseMax(b);
    return true;
}

}  // namespace looplab
