#pragma once
// What buildModel() (ModelBuilder.h) compiles a document with: one object holds what the
// sections of the document share (the diagnostics, the names taken, bodies, markers, joints
// and mesh nodes by name), and each section is compiled in a file of its own, in the order
// run() calls them: rigid bodies, beams, solids and node sets (CompileBodies.cpp), markers,
// traces and joints (CompileJoints.cpp), drivers and forces (CompileDriversAndForces.cpp);
// couplers and cams in CouplerBuilder.h. ModelBuilder.cpp holds run(), the checks of
// names and the length scale.

#include "looplab/model/ModelBuilder.h"
#include "looplab/model/UnitVector.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace looplab {

class DocumentCompiler {
public:
    DocumentCompiler(const ModelDocument& doc, std::string file) : doc_(doc), file_(std::move(file)) {}

    BuildResult run();

private:
    // Shared by the sections.
    using Length = VectorLength;
    static bool finite(const Vec3& v) { return v.allFinite(); }
    // Length of a difference of points, without overflow for large coordinates.
    static double distance(const Vec3& a, const Vec3& b) { return (b - a).stableNorm(); }
    // The same rotation scaled so that normalising it neither overflows nor underflows.
    static Quat wellScaled(const Quat& q);
    // A number in few characters, for messages ("5e-324", "0.25").
    static std::string shortNumber(double x);
    static bool hasGeneratedNodeShape(const std::string& name);
    static constexpr const char* kGeneratedNodeNames =
        "names ending in '.root', '.tip', '.node<k>', '.node<i>_<j>_<k>' or a face ('.xmin' ... '.zmax') are "
        "those the builder gives the nodes and faces of beams and solids";

    // A mesh node by the name the builder gives it: "<beam>.node<k>", "<beam>.root",
    // "<beam>.tip", "<solid>.node<i>_<j>_<k>".
    struct NodeRef {
        BodyIndex body;
        int node = 0;
        Vec3 position, slope;  // undeformed, global
    };

    // Nodes by the name of their set: a solid's faces ("<solid>.xmin" ...) and the sets the
    // file declares.
    struct NodeSet {
        std::vector<BodyIndex> bodies;  // per node: a declared set may span meshes
        std::vector<int> nodes;
        std::vector<double> weights;  // shares of a resultant force (a face: consistent traction; declared: equal)
        std::vector<std::string> names;
    };

    // the order of the sections, names and diagnostics, the length scale (ModelBuilder.cpp)
    void error(const std::string& where, const std::string& what);
    static std::string at(const char* list, size_t i, const char* field = nullptr);
    void checkName(const std::string& name, const std::string& where, std::set<std::string>& seen,
                   const char* kind);
    VisualShape resolved(const VisualShape& s) const;
    static bool reservedNodePartName(const std::string& name, const char* kind);
    void checkScale();
    double lengthScale() const;

    // rigid bodies, beams, solids and node sets (CompileBodies.cpp)
    void buildBodies(Model& m);
    void buildNodeSets(const std::set<std::string>& bodyNames);
    bool declaredNodeSetBefore(const std::string& name, size_t i) const;
    template <typename Fail>
    static void checkMaterial(const MaterialDoc& mat, Fail& fail);
    void buildBeams(Model& m, std::set<std::string>& seen);
    void buildSolids(Model& m, std::set<std::string>& seen);
    static std::string solidNodeName(const std::string& solid, int i, int j, int k);
    static std::string solidNodeName(const std::string& solid, const SolidMesh& mesh, int n);
    const NodeSet* findNodeSet(const std::string& name) const;
    bool isSolid(const std::string& name) const;
    const NodeRef* findNode(const std::string& name) const;
    bool checkQuaternion(const Quat& q, const std::string& where, Quat& unit);
    bool checkInertia(const Mat3& I, const std::string& where);

    // markers, traces and joints (CompileJoints.cpp)
    bool initialPose(const std::string& body, Mat3& A, Vec3& r) const;
    void buildMarkers(Model& m);
    void checkTraces();
    bool frameFromGlobal(const std::string& body, const std::string& where, const Vec3& point,
                         const std::string& pointWhere, const Mat3& axesGlobal, BodyFrame& f);
    bool unitAxis(const Vec3& a, const std::string& where, Vec3& out);
    bool buildNodeSetJoint(Model& m, size_t i);
    bool nodeAtJointPoint(const JointDoc& jd, size_t i);
    void addJoint(Model& m, Joint& j, const std::vector<EquationLabel>& labels);
    void buildJoints(Model& m);
    bool declaredMarker(const std::string& name) const;
    bool declaredJoint(const std::string& name) const;
    std::string bodyName(BodyIndex b) const;
    bool nodesOfBeam(const std::string& name) const;

    // drivers and forces (CompileDriversAndForces.cpp)
    bool checkLaw(const TimeLaw& law, const std::string& where);
    void buildDrivers(Model& m);
    void buildForces(Model& m);
    bool buildMotor(const Model& m, const ForceDoc& fd, size_t i, ForceElement& f);

    // joint limits and distance stops (CompileStops.cpp)
    void buildStops(Model& m);

    const ModelDocument& doc_;
    std::string file_;
    Diagnostics diags_;
    std::map<std::string, BodyIndex> bodyIndex_;
    std::map<std::string, BodyFrame> markers_;
    std::map<std::string, JointIndex> jointIndex_;
    std::map<std::string, NodeRef> nodes_;
    std::map<std::string, NodeSet> nodeSets_;
    std::set<std::string> ownerNames_;
    // The rigid bodies of the document by name, made at the first look-up (initialPose).
    mutable std::map<std::string, const BodyDoc*> rigidBodyDocs_;
};

}  // namespace looplab
