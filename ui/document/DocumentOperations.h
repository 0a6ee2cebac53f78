#pragma once
// Structural edits of a ModelDocument that keep its name references consistent: bodies
// and joints are referred to by name, so renaming or deleting one must also update or
// remove whatever refers to it. Also the conversions between the property editor's
// user-facing values (axis–angle, lists of numbers as text) and the document's fields.
// Pure functions on plain data, shared by the tree's context menu, the property editor
// and the tests. What differs between the kinds of items is in their descriptors
// (ItemKinds.h).

#include "looplab/model/Diagnostic.h"
#include "looplab/model/ModelDocument.h"
#include "looplab/files/ModelFile.h"

#include "document/ItemKinds.h"

#include <string>
#include <vector>

namespace looplab::ui {

/// Number of items of a kind.
int itemCount(const ModelDocument& doc, ItemKind kind);
/// Name of an item; empty if the reference is out of range.
std::string itemName(const ModelDocument& doc, ItemRef item);
/// A name of the form "<base>", "<base>_2", ... that no item of the kind uses (and never
/// "ground" for bodies).
std::string uniqueName(const ModelDocument& doc, ItemKind kind, const std::string& base);

/// Appends a new item with sensible defaults (a joint is unconnected, its two body names
/// empty; a driver turns the first revolute or slides the first prismatic joint at 1 rad/s
/// or 1 m/s from where `loaded`, the document's model as it is, has that joint, so that
/// adding it leaves the mechanism where it was; a beam is 1 m of steel along x in 8
/// elements; a solid is an aluminium cube of 0.1 m in 2 × 2 × 2 elements; a node set
/// holds the first beam's tip, or the first solid's last node); returns its reference.
/// A node set needs a beam or solid: without one nothing is added and the reference is
/// invalid.
ItemRef addItem(ModelDocument& doc, ItemKind kind, const LoadedModel* loaded = nullptr);
/// Appends a copy of the item under a new unique name; returns the copy's reference.
ItemRef duplicateItem(ModelDocument& doc, ItemRef item);
/// Renames an item and every reference to it (for a beam or solid also the names of its
/// nodes and faces, "<name>.tip" ..., in joints, forces and node sets). Returns false (and
/// changes nothing) if the name is empty, reserved or already used by another item of the
/// kind (rigid bodies, beams and solids share one set of names, which node sets may not
/// take either; a node set's name may not be a node's or a face's, "<mesh>.…").
bool renameItem(ModelDocument& doc, ItemRef item, const std::string& newName);

/// What removing an item also removes.
struct Dependants {
    std::vector<std::string> joints, drivers, couplers, forces, markers, nodeSets;
    bool empty() const
    {
        return joints.empty() && drivers.empty() && couplers.empty() && forces.empty() && markers.empty() &&
               nodeSets.empty();
    }
};
/// Items that refer to `item` directly, through one of its nodes or faces (a beam or
/// solid; node sets that list one of its nodes go with it), through a removed node set,
/// or through a removed joint or marker.
Dependants dependantsOf(const ModelDocument& doc, ItemRef item);
/// Removes the item and its dependants.
void removeItem(ModelDocument& doc, ItemRef item);

/// Node names typed in a list: separated by commas and/or white space (node names have
/// neither).
std::vector<std::string> parseNodeNames(const std::string& text);
/// The names joined by ", "; parseNodeNames() reads them back.
std::string formatNodeNames(const std::vector<std::string>& names);

/// Index of the marker called `name`, or -1. Markers are not tree items: joints refer to
/// them by name, so they are found (and edited) through the joints that use them.
int markerIndex(const ModelDocument& doc, const std::string& name);
/// Names of the joints defined by the marker `name`.
std::vector<std::string> jointsUsingMarker(const ModelDocument& doc, const std::string& name);

/// A rotation as the property editor shows it: a unit axis and an angle in degrees.
struct AxisAngle {
    Vec3 axis = Vec3::UnitZ();
    double degrees = 0.0;
};
/// The unit quaternion of a rotation by `degrees` about `axis` (of any non-zero length).
/// Returns false and leaves `out` as it was if the axis has zero length or a value is not
/// finite.
bool quaternionFromAxisAngle(const Vec3& axis, double degrees, Quat& out);
/// The rotation a stored quaternion describes (it need not be of unit length), with the
/// angle in [0°, 180°]. No rotation, and a quaternion of zero length, give 0° about z.
AxisAngle axisAngleOf(const Quat& q);
/// Whether two quaternions describe the same rotation (q and −q do) within `tolerance`
/// radians; false if either has zero length.
bool sameRotation(const Quat& a, const Quat& b, double tolerance = 1e-9);

/// Reads a polynomial's coefficients c0, c1, c2, ... (s = c0 + c1·t + c2·t² + ...) from
/// numbers separated by commas and/or white space. On failure returns false, leaves `out`
/// as it was and sets `problem` in the loader's words, its location relative to the list
/// ("/1" for the second entry, "" for the list as a whole). An empty list is refused,
/// as the builder refuses a polynomial without coefficients.
bool parseCoefficients(const std::string& text, std::vector<double>& out, Diagnostic& problem);
/// Each number in its shortest form that reads back to the same value, joined by
/// `separator`; parseCoefficients() reads the ", "-joined form back exactly.
std::string formatNumberList(const std::vector<double>& values, const std::string& separator = ", ");

/// Changes a law's kind. A polynomial without coefficients does not build, so switching
/// to one starts from the constant polynomial at the old law's value at t = 0.
void setTimeLawKind(TimeLaw& law, TimeLaw::Kind kind);

}  // namespace looplab::ui
