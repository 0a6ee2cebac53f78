#include "document/DocumentOperations.h"

#include "looplab/model/State.h"
#include "looplab/model/ShapeMassProperties.h"
#include "looplab/model/UnitVector.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <system_error>

namespace looplab::ui {

namespace {

template <typename T>
bool hasName(const std::vector<T>& items, const std::string& name, int except = -1)
{
    for (size_t i = 0; i < items.size(); ++i)
        if (static_cast<int>(i) != except && items[i].name == name)
            return true;
    return false;
}

bool isBodyKind(ItemKind kind) { return kind == ItemKind::Body || kind == ItemKind::Beam || kind == ItemKind::Solid; }

bool isMeshName(const ModelDocument& doc, const std::string& name)
{
    return hasName(doc.beams, name) || hasName(doc.solids, name);
}

// "beam.tip", "box.xmin", "box.node1_0_2": the names of a mesh's nodes and faces.
bool isMeshMemberName(const ModelDocument& doc, const std::string& name)
{
    const size_t dot = name.find('.');
    return dot != std::string::npos && isMeshName(doc, name.substr(0, dot));
}

bool nameTaken(const ModelDocument& doc, ItemKind kind, const std::string& name, int except = -1)
{
    // The builder resolves rigid bodies, beams and solids from one set of body names, and
    // refuses node sets named as a body, a node or a face.
    if (isBodyKind(kind))
        return name == kGroundName || hasName(doc.bodies, name, kind == ItemKind::Body ? except : -1) ||
               hasName(doc.beams, name, kind == ItemKind::Beam ? except : -1) ||
               hasName(doc.solids, name, kind == ItemKind::Solid ? except : -1) || hasName(doc.nodeSets, name);
    switch (kind) {
    // Couplers share the joints' and drivers' names (the tree does not list them yet).
    // Joints, drivers and couplers share one set of names (the builder's equation owners).
    case ItemKind::Joint:
        return hasName(doc.joints, name, except) || hasName(doc.drivers, name) || hasName(doc.couplers, name);
    case ItemKind::Driver:
        return hasName(doc.drivers, name, except) || hasName(doc.joints, name) || hasName(doc.couplers, name);
    case ItemKind::Coupler:
        return hasName(doc.couplers, name, except) || hasName(doc.joints, name) || hasName(doc.drivers, name);
    case ItemKind::Force: return hasName(doc.forces, name, except);
    case ItemKind::NodeSet:
        return hasName(doc.nodeSets, name, except) || name == kGroundName || hasName(doc.bodies, name) ||
               isMeshName(doc, name) || isMeshMemberName(doc, name);
    default: return true;
    }
}

// Joints and forces name a beam's or solid's nodes and faces ("beam.tip", "box.xmin"),
// never the mesh itself; a rigid body is named as it is.
bool refersTo(const std::string& ref, ItemKind kind, const std::string& name)
{
    if (ref == name)
        return true;
    if (kind != ItemKind::Beam && kind != ItemKind::Solid)
        return false;
    return ref.size() > name.size() + 1 && ref.compare(0, name.size(), name) == 0 && ref[name.size()] == '.';
}

void replaceName(std::string& ref, ItemKind kind, const std::string& from, const std::string& to)
{
    if (refersTo(ref, kind, from))
        ref = to + ref.substr(from.size());
}

void replaceName(std::string& ref, const std::string& from, const std::string& to)
{
    if (ref == from)
        ref = to;
}

BeamDoc defaultBeam(const std::string& name)
{
    BeamDoc beam;
    beam.name = name;
    beam.from = Vec3::Zero();
    beam.to = Vec3::UnitX();
    beam.elements = 8;
    // Steel, 20 mm square: the cantilever of the examples.
    beam.material.youngModulus = 210e9;
    beam.material.poissonRatio = 0.3;
    beam.material.density = 7850.0;
    beam.section.shape = SectionDoc::Shape::Rectangle;
    beam.section.width = 0.02;
    beam.section.height = 0.02;
    return beam;
}

SolidDoc defaultSolid(const std::string& name)
{
    SolidDoc solid;
    solid.name = name;
    solid.origin = Vec3::Zero();
    solid.size = Vec3::Constant(0.1);
    solid.elements[0] = solid.elements[1] = solid.elements[2] = 2;
    // Aluminium, as a new rigid body's density.
    solid.material.youngModulus = 70e9;
    solid.material.poissonRatio = 0.33;
    solid.material.density = 2700.0;
    return solid;
}

template <typename T, typename Pred>
void eraseIf(std::vector<T>& items, Pred pred)
{
    items.erase(std::remove_if(items.begin(), items.end(), pred), items.end());
}

constexpr double kPi = 3.14159265358979323846;

enum class NumberParse { Ok, NotANumber, NotFinite };

// std::from_chars, unlike strtod, ignores the locale the application set, so "1.5" reads
// the same everywhere, as in the model files.
NumberParse parseNumber(const std::string& token, double& value)
{
    const char* first = token.data();
    const char* last = first + token.size();
    // from_chars refuses an explicit plus sign, which users type.
    if (first != last && *first == '+') {
        ++first;
        if (first == last || *first == '+' || *first == '-')
            return NumberParse::NotANumber;
    }
    const auto [end, ec] = std::from_chars(first, last, value);
    if (end != last || (ec != std::errc() && ec != std::errc::result_out_of_range))
        return NumberParse::NotANumber;
    if (ec == std::errc::result_out_of_range || !std::isfinite(value))
        return NumberParse::NotFinite;
    return NumberParse::Ok;
}

std::vector<std::string> splitWhiteSpace(const std::string& text)
{
    std::vector<std::string> words;
    const char* space = " \t\r\n\f\v";
    size_t start = text.find_first_not_of(space);
    while (start != std::string::npos) {
        const size_t end = text.find_first_of(space, start);
        words.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
        start = text.find_first_not_of(space, end == std::string::npos ? text.size() : end);
    }
    return words;
}

}  // namespace

int itemCount(const ModelDocument& doc, ItemKind kind)
{
    switch (kind) {
    case ItemKind::Body: return static_cast<int>(doc.bodies.size());
    case ItemKind::Joint: return static_cast<int>(doc.joints.size());
    case ItemKind::Driver: return static_cast<int>(doc.drivers.size());
    case ItemKind::Force: return static_cast<int>(doc.forces.size());
    case ItemKind::Beam: return static_cast<int>(doc.beams.size());
    case ItemKind::Solid: return static_cast<int>(doc.solids.size());
    case ItemKind::NodeSet: return static_cast<int>(doc.nodeSets.size());
    case ItemKind::Coupler: return static_cast<int>(doc.couplers.size());
    }
    return 0;
}

std::string itemName(const ModelDocument& doc, ItemRef item)
{
    if (item.index < 0 || item.index >= itemCount(doc, item.kind))
        return {};
    const auto i = static_cast<size_t>(item.index);
    switch (item.kind) {
    case ItemKind::Body: return doc.bodies[i].name;
    case ItemKind::Joint: return doc.joints[i].name;
    case ItemKind::Driver: return doc.drivers[i].name;
    case ItemKind::Force: return doc.forces[i].name;
    case ItemKind::Beam: return doc.beams[i].name;
    case ItemKind::Solid: return doc.solids[i].name;
    case ItemKind::NodeSet: return doc.nodeSets[i].name;
    case ItemKind::Coupler: return doc.couplers[i].name;
    }
    return {};
}

std::string uniqueName(const ModelDocument& doc, ItemKind kind, const std::string& base)
{
    if (!nameTaken(doc, kind, base))
        return base;
    for (int n = 2;; ++n) {
        const std::string candidate = base + "_" + std::to_string(n);
        if (!nameTaken(doc, kind, candidate))
            return candidate;
    }
}

// A gear pair of 20 and 40 teeth on the first two revolute joints that share a body (the
// frame that carries both axes), or on none: the builder names what is missing until
// the joints are chosen.
CouplerDoc defaultCoupler(const ModelDocument& doc, const std::string& name)
{
    CouplerDoc c;
    c.name = name;
    c.type = CouplerType::Gear;
    c.teeth1 = 20;
    c.teeth2 = 40;
    for (size_t a = 0; a < doc.joints.size() && c.joints.empty(); ++a)
        for (size_t b = a + 1; b < doc.joints.size(); ++b) {
            const JointDoc &ja = doc.joints[a], &jb = doc.joints[b];
            if (ja.type != JointType::Revolute || jb.type != JointType::Revolute || ja.byMarkers || jb.byMarkers)
                continue;
            const int shared = (ja.body1 == jb.body1) + (ja.body1 == jb.body2) + (ja.body2 == jb.body1) +
                               (ja.body2 == jb.body2);
            if (shared == 1) {
                c.joints = {ja.name, jb.name};
                break;
            }
        }
    return c;
}

ItemRef addItem(ModelDocument& doc, ItemKind kind, const LoadedModel* loaded)
{
    switch (kind) {
    case ItemKind::Body: {
        BodyDoc body;
        body.name = uniqueName(doc, kind, "body");
        body.shape.kind = VisualShape::Kind::Box;
        body.shape.size = Vec3(0.1, 0.02, 0.02);
        // Aluminium: mass and inertia follow from the shape until the user types them.
        body.density = 2700.0;
        applyShapeMassProperties(body);
        doc.bodies.push_back(body);
        break;
    }
    case ItemKind::Joint: {
        // Unconnected: any default pair of bodies may repeat a joint the model has
        // (ground to the first body is usually the crank's pivot) and add redundant
        // equations silently. The builder reports the missing bodies until they are chosen.
        JointDoc joint;
        joint.name = uniqueName(doc, kind, "joint");
        doc.joints.push_back(joint);
        break;
    }
    case ItemKind::Driver: {
        DriverDoc driver;
        driver.name = uniqueName(doc, kind, "driver");
        for (const JointDoc& j : doc.joints)
            if (j.type == JointType::Revolute || j.type == JointType::Prismatic) {
                driver.joint = j.name;
                break;
            }
        driver.law.kind = TimeLaw::Kind::ConstantVelocity;
        driver.law.rate = 1.0;
        // Joint coordinates count from the initial pose for joints given by points, but a
        // joint given by markers (every sketched one) has its angle wherever the sketch put
        // its links: a driver starting at 0 would not let the mechanism assemble.
        if (loaded && loaded->ok() && !driver.joint.empty())
            if (const auto j = loaded->model->findJoint(driver.joint)) {
                const Joint& joint = loaded->model->joint(*j);
                driver.law.initial = joint.type == JointType::Prismatic
                                         ? jointDisplacement(*loaded->model, loaded->initial, *j)
                                         : jointAngle(*loaded->model, loaded->initial, *j);
                driver.law.initial -= driver.law.rate * loaded->initial.t;
            }
        doc.drivers.push_back(driver);
        break;
    }
    case ItemKind::Force: {
        ForceDoc force;
        force.name = uniqueName(doc, kind, "spring");
        force.body1 = kGroundName;
        force.body2 = doc.bodies.empty() ? std::string() : doc.bodies.front().name;
        force.stiffness = 100.0;
        doc.forces.push_back(force);
        break;
    }
    case ItemKind::Coupler: doc.couplers.push_back(defaultCoupler(doc, uniqueName(doc, kind, "gears"))); break;
    case ItemKind::Beam: doc.beams.push_back(defaultBeam(uniqueName(doc, kind, "beam"))); break;
    case ItemKind::Solid: doc.solids.push_back(defaultSolid(uniqueName(doc, kind, "solid"))); break;
    case ItemKind::NodeSet: {
        // A set without nodes does not build: it starts with one node, which the user
        // then replaces or adds to.
        NodeSetDoc set;
        if (!doc.beams.empty()) {
            set.nodes.push_back(doc.beams.front().name + ".tip");
        } else if (!doc.solids.empty()) {
            const SolidDoc& s = doc.solids.front();
            set.nodes.push_back(s.name + ".node" + std::to_string(s.elements[0]) + "_" + std::to_string(s.elements[1]) +
                                "_" + std::to_string(s.elements[2]));
        } else {
            return {};
        }
        set.name = uniqueName(doc, kind, "nodes");
        doc.nodeSets.push_back(set);
        break;
    }
    }
    return {kind, itemCount(doc, kind) - 1};
}

ItemRef duplicateItem(ModelDocument& doc, ItemRef item)
{
    const std::string base = itemName(doc, item);
    if (base.empty())
        return {};
    const std::string name = uniqueName(doc, item.kind, base + "_copy");
    const auto i = static_cast<size_t>(item.index);
    switch (item.kind) {
    case ItemKind::Body: doc.bodies.push_back(doc.bodies[i]); doc.bodies.back().name = name; break;
    case ItemKind::Joint: doc.joints.push_back(doc.joints[i]); doc.joints.back().name = name; break;
    case ItemKind::Driver: doc.drivers.push_back(doc.drivers[i]); doc.drivers.back().name = name; break;
    case ItemKind::Force: doc.forces.push_back(doc.forces[i]); doc.forces.back().name = name; break;
    case ItemKind::Beam: doc.beams.push_back(doc.beams[i]); doc.beams.back().name = name; break;
    case ItemKind::Solid: doc.solids.push_back(doc.solids[i]); doc.solids.back().name = name; break;
    case ItemKind::NodeSet: doc.nodeSets.push_back(doc.nodeSets[i]); doc.nodeSets.back().name = name; break;
    case ItemKind::Coupler: doc.couplers.push_back(doc.couplers[i]); doc.couplers.back().name = name; break;
    }
    return {item.kind, itemCount(doc, item.kind) - 1};
}

bool renameItem(ModelDocument& doc, ItemRef item, const std::string& newName)
{
    const std::string old = itemName(doc, item);
    if (old.empty() || newName.empty() || nameTaken(doc, item.kind, newName, item.index))
        return false;
    const auto i = static_cast<size_t>(item.index);
    if (isBodyKind(item.kind)) {
        const ItemKind k = item.kind;
        for (MarkerDoc& m : doc.markers)
            replaceName(m.body, k, old, newName);
        for (JointDoc& j : doc.joints) {
            replaceName(j.body1, k, old, newName);
            replaceName(j.body2, k, old, newName);
        }
        for (ForceDoc& f : doc.forces) {
            replaceName(f.body1, k, old, newName);
            replaceName(f.body2, k, old, newName);
            replaceName(f.body, k, old, newName);
        }
        for (TraceDoc& t : doc.traces)
            replaceName(t.body, k, old, newName);
        for (NodeSetDoc& n : doc.nodeSets)
            for (std::string& node : n.nodes)
                replaceName(node, k, old, newName);
    }
    switch (item.kind) {
    case ItemKind::Body: doc.bodies[i].name = newName; break;
    case ItemKind::Beam: doc.beams[i].name = newName; break;
    case ItemKind::Solid: doc.solids[i].name = newName; break;
    case ItemKind::Joint:
        doc.joints[i].name = newName;
        for (DriverDoc& d : doc.drivers)
            replaceName(d.joint, old, newName);
        for (ForceDoc& f : doc.forces)
            replaceName(f.joint, old, newName);
        for (CouplerDoc& c : doc.couplers)
            for (std::string& joint : c.joints)
                replaceName(joint, old, newName);
        break;
    case ItemKind::Driver: doc.drivers[i].name = newName; break;
    case ItemKind::Coupler: doc.couplers[i].name = newName; break;
    case ItemKind::Force: doc.forces[i].name = newName; break;
    case ItemKind::NodeSet:
        // Joints and forces hold a node set by its name, where they would name a body.
        doc.nodeSets[i].name = newName;
        for (JointDoc& j : doc.joints) {
            replaceName(j.body1, old, newName);
            replaceName(j.body2, old, newName);
        }
        for (ForceDoc& f : doc.forces) {
            replaceName(f.body1, old, newName);
            replaceName(f.body2, old, newName);
            replaceName(f.body, old, newName);
        }
        break;
    }
    return true;
}

Dependants dependantsOf(const ModelDocument& doc, ItemRef item)
{
    Dependants out;
    const std::string name = itemName(doc, item);
    if (name.empty())
        return out;
    std::set<std::string> joints;
    if (isBodyKind(item.kind) || item.kind == ItemKind::NodeSet) {
        // A node set that lists a node of a removed mesh would name a node that no longer
        // exists: it goes too, and so does what holds it.
        std::set<std::string> sets;
        if (item.kind == ItemKind::NodeSet) {
            sets.insert(name);
        } else {
            for (const NodeSetDoc& n : doc.nodeSets)
                if (std::any_of(n.nodes.begin(), n.nodes.end(),
                                [&](const std::string& node) { return refersTo(node, item.kind, name); })) {
                    sets.insert(n.name);
                    out.nodeSets.push_back(n.name);
                }
        }
        auto holds = [&](const std::string& ref) {
            return sets.count(ref) || (item.kind != ItemKind::NodeSet && refersTo(ref, item.kind, name));
        };
        std::set<std::string> markers;
        for (const MarkerDoc& m : doc.markers)
            if (holds(m.body)) {
                markers.insert(m.name);
                out.markers.push_back(m.name);
            }
        for (const JointDoc& j : doc.joints) {
            const bool uses = j.byMarkers ? (markers.count(j.marker1) || markers.count(j.marker2))
                                          : (holds(j.body1) || holds(j.body2));
            if (uses) {
                joints.insert(j.name);
                out.joints.push_back(j.name);
            }
        }
        for (const ForceDoc& f : doc.forces)
            if (holds(f.body1) || holds(f.body2) || holds(f.body) || joints.count(f.joint))
                out.forces.push_back(f.name);
    } else if (item.kind == ItemKind::Joint) {
        joints.insert(name);
        for (const ForceDoc& f : doc.forces)
            if (f.joint == name)
                out.forces.push_back(f.name);
    }
    for (const DriverDoc& d : doc.drivers)
        if (joints.count(d.joint))
            out.drivers.push_back(d.name);
    // A coupler without one of its joints has nothing to tie.
    for (const CouplerDoc& c : doc.couplers)
        if (std::any_of(c.joints.begin(), c.joints.end(), [&](const std::string& j) { return joints.count(j) > 0; }))
            out.couplers.push_back(c.name);
    return out;
}

void removeItem(ModelDocument& doc, ItemRef item)
{
    const std::string name = itemName(doc, item);
    if (name.empty())
        return;
    const Dependants deps = dependantsOf(doc, item);
    auto listed = [](const std::vector<std::string>& names) {
        return [&names](const auto& x) { return std::find(names.begin(), names.end(), x.name) != names.end(); };
    };
    const auto i = static_cast<size_t>(item.index);
    switch (item.kind) {
    case ItemKind::Body: doc.bodies.erase(doc.bodies.begin() + static_cast<long>(i)); break;
    case ItemKind::Joint: doc.joints.erase(doc.joints.begin() + static_cast<long>(i)); break;
    case ItemKind::Driver: doc.drivers.erase(doc.drivers.begin() + static_cast<long>(i)); break;
    case ItemKind::Coupler: doc.couplers.erase(doc.couplers.begin() + static_cast<long>(i)); break;
    case ItemKind::Force: doc.forces.erase(doc.forces.begin() + static_cast<long>(i)); break;
    case ItemKind::Beam: doc.beams.erase(doc.beams.begin() + static_cast<long>(i)); break;
    case ItemKind::Solid: doc.solids.erase(doc.solids.begin() + static_cast<long>(i)); break;
    case ItemKind::NodeSet: doc.nodeSets.erase(doc.nodeSets.begin() + static_cast<long>(i)); break;
    }
    // A trace of a removed body or marker has nothing left to follow.
    if (isBodyKind(item.kind)) {
        const std::vector<std::string>& markers = deps.markers;
        eraseIf(doc.traces, [&](const TraceDoc& t) {
            return t.marker.empty() ? refersTo(t.body, item.kind, name)
                                    : std::find(markers.begin(), markers.end(), t.marker) != markers.end();
        });
    }
    eraseIf(doc.nodeSets, listed(deps.nodeSets));
    eraseIf(doc.markers, listed(deps.markers));
    eraseIf(doc.joints, listed(deps.joints));
    eraseIf(doc.drivers, listed(deps.drivers));
    eraseIf(doc.couplers, listed(deps.couplers));
    eraseIf(doc.forces, listed(deps.forces));
}

std::vector<std::string> parseNodeNames(const std::string& text)
{
    std::string spaced = text;
    std::replace(spaced.begin(), spaced.end(), ',', ' ');
    return splitWhiteSpace(spaced);
}

std::string formatNodeNames(const std::vector<std::string>& names)
{
    std::string text;
    for (size_t k = 0; k < names.size(); ++k)
        text += (k > 0 ? ", " : "") + names[k];
    return text;
}

int markerIndex(const ModelDocument& doc, const std::string& name)
{
    for (size_t i = 0; i < doc.markers.size(); ++i)
        if (doc.markers[i].name == name)
            return static_cast<int>(i);
    return -1;
}

std::vector<std::string> jointsUsingMarker(const ModelDocument& doc, const std::string& name)
{
    std::vector<std::string> joints;
    for (const JointDoc& j : doc.joints)
        if (j.byMarkers && (j.marker1 == name || j.marker2 == name))
            joints.push_back(j.name);
    return joints;
}

// Axes and quaternions are decided as the model builder decides them (UnitVector.h): any
// finite non-zero length is a direction, so the editor neither refuses [1e-200, 0, 0] nor
// overflows on [1e200, 0, 1e200].
bool quaternionFromAxisAngle(const Vec3& axis, double degrees, Quat& out)
{
    Vec3 unit;
    if (!std::isfinite(degrees) || unitVector(axis, unit) != VectorLength::NonZero)
        return false;
    out = Quat(Eigen::AngleAxisd(degrees * kPi / 180.0, unit));
    return true;
}

AxisAngle axisAngleOf(const Quat& q)
{
    AxisAngle out;
    Quat unit;
    if (unitQuaternion(q, unit) != VectorLength::NonZero)
        return out;
    const Eigen::AngleAxisd rotation(unit);
    // Without a rotation Eigen reports the x axis; z is the axis of planar mechanisms.
    if (rotation.angle() == 0.0)
        return out;
    out.axis = rotation.axis();
    out.degrees = rotation.angle() * 180.0 / kPi;
    return out;
}

bool sameRotation(const Quat& a, const Quat& b, double tolerance)
{
    Quat ua, ub;
    if (unitQuaternion(a, ua) != VectorLength::NonZero || unitQuaternion(b, ub) != VectorLength::NonZero)
        return false;
    return ua.angularDistance(ub) <= tolerance;
}

bool parseCoefficients(const std::string& text, std::vector<double>& out, Diagnostic& problem)
{
    auto refuse = [&problem](std::string location, std::string message) {
        problem = Diagnostic{};
        problem.location = std::move(location);
        problem.message = std::move(message);
        return false;
    };
    if (splitWhiteSpace(text).empty())
        return refuse("", "polynomial law needs at least one coefficient");
    std::vector<double> values;
    size_t start = 0;
    for (;;) {
        const size_t comma = text.find(',', start);
        const std::vector<std::string> words =
            splitWhiteSpace(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (words.empty())
            return refuse("/" + std::to_string(values.size()), "expected a number, found nothing between commas");
        for (const std::string& word : words) {
            double value = 0.0;
            switch (parseNumber(word, value)) {
            case NumberParse::Ok: break;
            case NumberParse::NotANumber:
                return refuse("/" + std::to_string(values.size()), "expected a number, found '" + word + "'");
            case NumberParse::NotFinite:
                return refuse("/" + std::to_string(values.size()), "expected a finite number, found '" + word + "'");
            }
            values.push_back(value);
        }
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    out = std::move(values);
    return true;
}

std::string formatNumberList(const std::vector<double>& values, const std::string& separator)
{
    std::string text;
    for (size_t k = 0; k < values.size(); ++k) {
        if (k > 0)
            text += separator;
        char buffer[32];
        const auto result = std::to_chars(buffer, buffer + sizeof buffer, values[k]);
        text.append(buffer, result.ptr);
    }
    return text;
}

void setTimeLawKind(TimeLaw& law, TimeLaw::Kind kind)
{
    if (kind == TimeLaw::Kind::Polynomial && law.kind != kind && law.coefficients.empty())
        law.coefficients = {law.evaluate(0.0).value};
    law.kind = kind;
}

}  // namespace looplab::ui
