#include "document/DocumentOperations.h"

#include "looplab/model/UnitVector.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <system_error>

namespace looplab::ui {

namespace {

bool isBodyKind(ItemKind kind) { return describe(kind).nameScope == NameScope::Bodies; }

// Whether an item of the kind other than item `except` is called `name`.
bool kindHasName(const ModelDocument& doc, const ItemKindDescriptor& kind, const std::string& name, int except = -1)
{
    const int count = kind.count(doc);
    for (int i = 0; i < count; ++i)
        if (i != except && kind.name(doc, static_cast<size_t>(i)) == name)
            return true;
    return false;
}

// Whether an item of the scope other than `except` is called `name`.
bool nameInScope(const ModelDocument& doc, NameScope scope, const std::string& name, ItemRef except = {})
{
    for (const ItemKindDescriptor& kind : itemKindDescriptors())
        if (kind.nameScope == scope && kindHasName(doc, kind, name, kind.kind == except.kind ? except.index : -1))
            return true;
    return false;
}

bool isMeshName(const ModelDocument& doc, const std::string& name)
{
    for (const ItemKindDescriptor& kind : itemKindDescriptors())
        if (kind.namedMembers && kindHasName(doc, kind, name))
            return true;
    return false;
}

// "beam.tip", "box.xmin", "box.node1_0_2": the names of a mesh's nodes and faces.
bool isMeshMemberName(const ModelDocument& doc, const std::string& name)
{
    const size_t dot = name.find('.');
    return dot != std::string::npos && isMeshName(doc, name.substr(0, dot));
}

bool nameTaken(const ModelDocument& doc, ItemKind kind, const std::string& name, int except = -1)
{
    const NameScope scope = describe(kind).nameScope;
    if (nameInScope(doc, scope, name, {kind, except}))
        return true;
    // The builder refuses node sets named as a body, a node or a face, and "ground" names
    // the fixed body.
    if (scope == NameScope::Bodies)
        return name == kGroundName || nameInScope(doc, NameScope::NodeSets, name);
    if (scope == NameScope::NodeSets)
        return name == kGroundName || nameInScope(doc, NameScope::Bodies, name) || isMeshMemberName(doc, name);
    return false;
}

// Joints and forces name a beam's or solid's nodes and faces ("beam.tip", "box.xmin"),
// never the mesh itself; a rigid body is named as it is.
bool refersTo(const std::string& ref, ItemKind kind, const std::string& name)
{
    if (ref == name)
        return true;
    if (!describe(kind).namedMembers)
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

int itemCount(const ModelDocument& doc, ItemKind kind) { return describe(kind).count(doc); }

std::string itemName(const ModelDocument& doc, ItemRef item)
{
    if (item.index < 0 || item.index >= itemCount(doc, item.kind))
        return {};
    return describe(item.kind).name(doc, static_cast<size_t>(item.index));
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

ItemRef addItem(ModelDocument& doc, ItemKind kind, const LoadedModel* loaded)
{
    const ItemKindDescriptor& d = describe(kind);
    if (!d.append(doc, uniqueName(doc, kind, d.baseName), loaded))
        return {};
    return {kind, itemCount(doc, kind) - 1};
}

ItemRef duplicateItem(ModelDocument& doc, ItemRef item)
{
    const std::string base = itemName(doc, item);
    if (base.empty())
        return {};
    describe(item.kind).duplicate(doc, static_cast<size_t>(item.index), uniqueName(doc, item.kind, base + "_copy"));
    return {item.kind, itemCount(doc, item.kind) - 1};
}

bool renameItem(ModelDocument& doc, ItemRef item, const std::string& newName)
{
    const std::string old = itemName(doc, item);
    if (old.empty() || newName.empty() || nameTaken(doc, item.kind, newName, item.index))
        return false;
    const ItemKindDescriptor& d = describe(item.kind);
    const ItemKind k = item.kind;
    if (d.referredAs == ReferredAs::Body) {
        // A node set is held by its name where a body would be; a mesh by its nodes' and
        // faces' names.
        for (JointDoc& j : doc.joints) {
            replaceName(j.body1, k, old, newName);
            replaceName(j.body2, k, old, newName);
        }
        for (ForceDoc& f : doc.forces) {
            replaceName(f.body1, k, old, newName);
            replaceName(f.body2, k, old, newName);
            replaceName(f.body, k, old, newName);
        }
        for (StopDoc& st : doc.stops) {
            replaceName(st.body1, k, old, newName);
            replaceName(st.body2, k, old, newName);
        }
    }
    if (isBodyKind(k)) {
        for (MarkerDoc& m : doc.markers)
            replaceName(m.body, k, old, newName);
        for (TraceDoc& t : doc.traces)
            replaceName(t.body, k, old, newName);
        for (NodeSetDoc& n : doc.nodeSets)
            for (std::string& node : n.nodes)
                replaceName(node, k, old, newName);
    }
    if (d.referredAs == ReferredAs::Joint) {
        for (DriverDoc& driver : doc.drivers)
            replaceName(driver.joint, old, newName);
        for (ForceDoc& f : doc.forces)
            replaceName(f.joint, old, newName);
        for (CouplerDoc& c : doc.couplers)
            for (std::string& joint : c.joints)
                replaceName(joint, old, newName);
    }
    d.setName(doc, static_cast<size_t>(item.index), newName);
    return true;
}

Dependants dependantsOf(const ModelDocument& doc, ItemRef item)
{
    Dependants out;
    const std::string name = itemName(doc, item);
    if (name.empty())
        return out;
    const ReferredAs referredAs = describe(item.kind).referredAs;
    std::set<std::string> joints;
    if (referredAs == ReferredAs::Body) {
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
    } else if (referredAs == ReferredAs::Joint) {
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
    describe(item.kind).erase(doc, static_cast<size_t>(item.index));
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
