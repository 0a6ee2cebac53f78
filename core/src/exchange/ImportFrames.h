#pragma once
// Pieces the importers share: the XML text's root element, rigid transforms, rotations from
// the formats' angle conventions, numbers parsed from attribute text, mass properties that
// add, and the model-format JSON of vectors, quaternions and inertias.
#include "looplab/exchange/ModelImport.h"
#include "looplab/common/Types.h"

#include <tinyxml2.h>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

namespace looplab::exchange {

/// The longest chain of MJCF bodies nested one in another that the XML reader takes:
/// tinyxml2 refuses elements nested TINYXML2_MAX_ELEMENT_DEPTH (100) deep, and the last
/// body's own elements (a geom) sit below <mujoco>, <worldbody> and the chain.
inline constexpr int kMaxNestedMjcfBodies = 96;

/// The root element of `text` if it is well-formed XML whose root is <rootName>; else null,
/// with a diagnostic (the line of the XML error, elements nested deeper than the reader
/// goes, or what the root is) in out.
const tinyxml2::XMLElement* xmlRoot(tinyxml2::XMLDocument& xml, const std::string& text, const std::string& file,
                                    const char* rootName, const char* format, ImportResult& out);

struct Transform {
    Vec3 p = Vec3::Zero();
    Quat q = Quat::Identity();
    Transform operator*(const Transform& b) const { return {p + q * b.p, (q * b.q).normalized()}; }
    Vec3 operator*(const Vec3& x) const { return p + q * x; }
    Transform inverse() const {
        const Quat qi = q.conjugate();
        return {-(qi * p), qi};
    }
};

/// Whitespace-separated numbers, or nothing if the text is not exactly that.
std::optional<std::vector<double>> parseNumbers(const char* text);

/// Roll, pitch, yaw about fixed x, y, z (URDF's rpy): R = Rz(yaw) Ry(pitch) Rx(roll).
Quat fromRollPitchYaw(double roll, double pitch, double yaw);

/// [w, x, y, z].
nlohmann::json quatJson(const Quat& q);
nlohmann::json vecJson(const Vec3& v);

/// A body's inertia tensor in the 6-number form [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] (tensor
/// entries), symmetrised.
nlohmann::json inertiaJson(const Mat3& I);

/// Mass properties that add: mass, centre of mass and inertia about it, all in one frame.
struct MassProperties {
    double mass = 0.0;
    Vec3 centre = Vec3::Zero();
    Mat3 inertia = Mat3::Zero();  ///< about `centre`
    /// Adds a part whose inertia about its own centre is `I` in the frame `axes` (rows:
    /// the part's axes in this frame) at `centre`.
    void add(double m, const Vec3& c, const Mat3& I, const Mat3& axes = Mat3::Identity());
};

/// The path of a mesh file named in `from` (relative names are taken from its folder) if it
/// is an STL or OBJ file that exists; else empty (package:// URIs, other formats).
std::string meshPath(const std::string& name, const std::string& from);

/// A name that is not yet in `taken` (the name itself, or name_2, name_3, ...), taken.
std::string uniqueName(const std::string& wanted, std::unordered_set<std::string>& taken);

}  // namespace looplab::exchange
