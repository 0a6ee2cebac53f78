// Mesh shapes (VisualShape::Kind::Mesh, TriangleMesh.h): STL and OBJ files read into closed
// triangle meshes, the mass properties of the solid they bound against a box's closed form,
// and the model file's fields and errors.
#include "looplab/files/ModelFile.h"
#include "looplab/model/ShapeMassProperties.h"
#include "looplab/model/TriangleMesh.h"

#include <QtTest>

#include <cstdint>
#include <cstring>
#include <fstream>

using namespace looplab;

namespace {

// The eight corners of a box a × b × c with one corner at `from`, and its twelve triangles
// turned outwards.
std::vector<Vec3> boxCorners(const Vec3& from, double a, double b, double c) {
    std::vector<Vec3> v;
    for (int k = 0; k < 8; ++k) v.push_back(from + Vec3(k & 1 ? a : 0, k & 2 ? b : 0, k & 4 ? c : 0));
    return v;
}
const int kBoxTriangles[12][3] = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                                  {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};

void writeAsciiStl(const std::string& path, const std::vector<Vec3>& v, int skip = -1) {
    std::ofstream out(path);
    out.precision(17);
    out << "solid box\n";
    for (int t = 0; t < 12; ++t) {
        if (t == skip) continue;
        out << "facet normal 0 0 0\nouter loop\n";
        for (int k : kBoxTriangles[t]) out << "vertex " << v[size_t(k)].x() << " " << v[size_t(k)].y() << " " << v[size_t(k)].z() << "\n";
        out << "endloop\nendfacet\n";
    }
    out << "endsolid box\n";
}

void writeBinaryStl(const std::string& path, const std::vector<Vec3>& v) {
    std::ofstream out(path, std::ios::binary);
    char header[80] = "solid written as binary";  // a binary header may begin with "solid"
    out.write(header, 80);
    const uint32_t count = 12;
    out.write(reinterpret_cast<const char*>(&count), 4);
    for (const auto& t : kBoxTriangles) {
        const float normal[3] = {0, 0, 0};
        out.write(reinterpret_cast<const char*>(normal), 12);
        for (int k : t) {
            const float p[3] = {float(v[size_t(k)].x()), float(v[size_t(k)].y()), float(v[size_t(k)].z())};
            out.write(reinterpret_cast<const char*>(p), 12);
        }
        const uint16_t attribute = 0;
        out.write(reinterpret_cast<const char*>(&attribute), 2);
    }
}

// OBJ with quadrilateral faces, 1-based, some corners with texture and normal indices.
void writeObj(const std::string& path, const std::vector<Vec3>& v) {
    std::ofstream out(path);
    out.precision(17);
    out << "# a box\n";
    for (const Vec3& p : v) out << "v " << p.x() << " " << p.y() << " " << p.z() << "\n";
    out << "vt 0 0\nvn 0 0 1\n";
    out << "f 1/1/1 3/1/1 4/1/1 2/1/1\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1//1 5//1 7//1 3//1\nf 2 4 8 6\n";
}

Mat3 boxInertia(double m, double a, double b, double c) {
    return Vec3(m * (b * b + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + b * b) / 12).asDiagonal();
}

std::string modelWithMesh(const std::string& shape, const std::string& massFields) {
    return R"({"format": "looplab-model", "version": 1, "bodies": [{"name": "part", )" + massFields +
           R"(, "shape": )" + shape + "}]}";
}

}  // namespace

class TestMeshShapes : public QObject {
    Q_OBJECT
private slots:
    // A box a × b × c off the origin, as ASCII STL, binary STL and OBJ quads: the same
    // solid, and its mass properties those of the box (m = ρabc, I = m/12 diag(b²+c², ...)).
    void boxMeshHasTheBoxsMassProperties() {
        QTemporaryDir dir;
        const double a = 0.3, b = 0.2, c = 0.1, rho = 2700.0;
        const Vec3 from(0.5, -0.25, 1.0);
        const auto v = boxCorners(from, a, b, c);
        const std::string stl = dir.filePath("box.stl").toStdString(), bin = dir.filePath("binary.stl").toStdString(),
                          obj = dir.filePath("box.obj").toStdString();
        writeAsciiStl(stl, v);
        writeBinaryStl(bin, v);
        writeObj(obj, v);
        for (const std::string& path : {stl, bin, obj}) {
            TriangleMesh mesh;
            std::string why;
            QVERIFY2(readTriangleMesh(path, mesh, &why), why.c_str());
            QCOMPARE(mesh.vertices.size(), size_t(8));
            QCOMPARE(mesh.triangles.size(), size_t(12));
            const MeshVolume vol = meshVolume(mesh);
            QVERIFY2(vol.ok, vol.message.c_str());
            // Binary STL stores floats: its corners are the box's to 6e-8 of their distance
            // from the origin (about 1 m), 7e-7 of the 0.1 m edge.
            const double tol = path == bin ? 2e-6 : 1e-13;
            QVERIFY2(std::abs(vol.volume - a * b * c) < tol * a * b * c,
                     qPrintable(QString("%1: %2").arg(QString::fromStdString(path)).arg(vol.volume / (a * b * c) - 1)));
            QVERIFY((vol.centroid - (from + Vec3(a, b, c) / 2)).norm() < tol);
            VisualShape shape;
            shape.kind = VisualShape::Kind::Mesh;
            shape.file = path;
            shape.offset = -(from + Vec3(a, b, c) / 2);  // the file's origin placed so that the centroid is the body frame
            const ShapeMassProperties mp = massPropertiesOfShape(shape, rho);
            QVERIFY2(mp.ok, mp.message.c_str());
            const double m = rho * a * b * c;
            QVERIFY(std::abs(mp.mass - m) < tol * m);
            QVERIFY2((mp.inertia - boxInertia(m, a, b, c)).norm() < tol * boxInertia(m, a, b, c).norm(),
                     qPrintable(QString::number((mp.inertia - boxInertia(m, a, b, c)).norm())));
            QVERIFY(mp.centreOfMass.norm() < tol);
        }
    }

    // Scale and orientation: a box drawn in millimetres (scale 0.001) and turned 90° about z.
    void scaledAndTurnedMesh() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("mm.stl").toStdString();
        writeAsciiStl(path, boxCorners(Vec3(-150, -100, -50), 300, 200, 100));
        VisualShape shape;
        shape.kind = VisualShape::Kind::Mesh;
        shape.file = path;
        shape.scale = Vec3::Constant(0.001);
        shape.orientation = Quat(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitZ()));
        const ShapeMassProperties mp = massPropertiesOfShape(shape, 1000.0);
        QVERIFY2(mp.ok, mp.message.c_str());
        const double m = 1000.0 * 0.3 * 0.2 * 0.1;
        QVERIFY(std::abs(mp.mass - m) < 1e-12 * m);
        // Turned about z, the box's x and y moments trade places.
        const Mat3 expected = boxInertia(m, 0.2, 0.3, 0.1);
        QVERIFY((mp.inertia - expected).norm() < 1e-12 * expected.norm());
        Vec3 lower, upper;
        QVERIFY(meshBounds(path, shape.scale, lower, upper));
        QVERIFY((lower - Vec3(-0.15, -0.1, -0.05)).norm() < 1e-15 && (upper - Vec3(0.15, 0.1, 0.05)).norm() < 1e-15);
    }

    // An open mesh bounds no solid; a bad file says where.
    void openMeshesAndBadFilesAreRefused() {
        QTemporaryDir dir;
        const std::string open = dir.filePath("open.stl").toStdString();
        writeAsciiStl(open, boxCorners(Vec3::Zero(), 1, 1, 1), 3);
        TriangleMesh mesh;
        std::string why;
        QVERIFY(readTriangleMesh(open, mesh, &why));
        const MeshVolume v = meshVolume(mesh);
        QVERIFY(!v.ok);
        QVERIFY(v.message.find("not closed") != std::string::npos);
        const std::string bad = dir.filePath("bad.obj").toStdString();
        std::ofstream(bad) << "v 0 0 0\nv 1 0 0\nf 1 2 9\n";
        QVERIFY(!readTriangleMesh(bad, mesh, &why));
        QCOMPARE(why, std::string("line 3: face corner '9' names no vertex defined before it"));
        QVERIFY(!readTriangleMesh(dir.filePath("none.stl").toStdString(), mesh, &why));
        QVERIFY(!readTriangleMesh(dir.filePath("mesh.ply").toStdString(), mesh, &why));
        QCOMPARE(why, std::string("a mesh file is .stl or .obj"));
    }

    // In a model file: the file relative to the model's folder, scale, offset; saved as read;
    // a density body's frame must be at the mesh's centre of mass, and the error says where
    // to put the offset; a missing file names the place.
    void meshShapesInModelFiles() {
        QTemporaryDir dir;
        writeAsciiStl(dir.filePath("part.stl").toStdString(), boxCorners(Vec3(0, 0, 0), 0.2, 0.1, 0.1));
        const std::string model = dir.filePath("part.json").toStdString();
        std::ofstream(model) << modelWithMesh(
            R"({"type": "mesh", "file": "part.stl", "scale": [1, 1, 1], "offset": [-0.1, -0.05, -0.05]})",
            R"("density": 1000)");
        LoadedModel lm = loadModel(model);
        QVERIFY2(lm.ok(), formatDiagnostics(lm.diagnostics).c_str());
        QVERIFY(std::abs(lm.model->bodies[1].rigid()->mass() - 1000 * 0.2 * 0.1 * 0.1) < 1e-12);
        QCOMPARE(lm.model->bodies[1].shape.file, dir.filePath("part.stl").toStdString());
        DocumentResult doc = readModelDocument(model);
        QVERIFY(doc.document);
        QCOMPARE(doc.document->bodies[0].shape.file, std::string("part.stl"));
        const DocumentResult again = parseModelDocument(serializeModelDocument(*doc.document));
        QVERIFY(again.document);
        QCOMPARE(again.document->bodies[0].shape.file, std::string("part.stl"));
        QCOMPARE(again.document->bodies[0].shape.kind, VisualShape::Kind::Mesh);

        std::ofstream(model) << modelWithMesh(R"({"type": "mesh", "file": "part.stl"})", R"("density": 1000)");
        lm = loadModel(model);
        QVERIFY(!lm.ok());
        QCOMPARE(lm.diagnostics[0].location, std::string("/bodies/0/shape/offset"));
        QVERIFY2(lm.diagnostics[0].message.find("set the offset to [-0.1, -0.05, -0.05]") != std::string::npos,
                 lm.diagnostics[0].message.c_str());

        std::ofstream(model) << modelWithMesh(R"({"type": "mesh", "file": "gone.stl"})",
                                              R"("mass": 1, "inertia": [1, 1, 1])");
        lm = loadModel(model);
        QVERIFY(!lm.ok());
        QCOMPARE(lm.diagnostics[0].location, std::string("/bodies/0/shape/file"));
        QVERIFY(lm.diagnostics[0].message.find("gone.stl") != std::string::npos);

        std::ofstream(model) << modelWithMesh(R"({"type": "mesh", "file": "part.stl", "scale": [1, 0, 1]})",
                                              R"("mass": 1, "inertia": [1, 1, 1])");
        lm = loadModel(model);
        QVERIFY(!lm.ok());
        QCOMPARE(lm.diagnostics[0].location, std::string("/bodies/0/shape/scale"));
    }
};

QTEST_GUILESS_MAIN(TestMeshShapes)
#include "tst_meshshapes.moc"
