#include "document/ItemKinds.h"

#include "looplab/model/ShapeMassProperties.h"
#include "looplab/model/State.h"

#include <cassert>
#include <utility>

namespace looplab::ui {

namespace {

// What every kind does the same way to its own vector of the document.
template <auto List>
struct KindItems {
    static int count(const ModelDocument& doc) { return static_cast<int>((doc.*List).size()); }
    static const std::string& name(const ModelDocument& doc, size_t i) { return (doc.*List)[i].name; }
    static void setName(ModelDocument& doc, size_t i, const std::string& name) { (doc.*List)[i].name = name; }
    static void duplicate(ModelDocument& doc, size_t i, const std::string& name)
    {
        auto copy = (doc.*List)[i];
        copy.name = name;
        (doc.*List).push_back(std::move(copy));
    }
    static void erase(ModelDocument& doc, size_t i) { (doc.*List).erase((doc.*List).begin() + static_cast<long>(i)); }
};

struct KindTexts {
    const char* singular;
    const char* title;
    const char* groupTitle;
    const char* baseName;
    const char* fileList;
};

template <auto List>
constexpr ItemKindDescriptor kindEntry(ItemKind kind, KindTexts texts, NameScope scope, ReferredAs referredAs,
                                       bool namedMembers,
                                       bool (*append)(ModelDocument&, const std::string&, const LoadedModel*),
                                       const char* cannotAdd = nullptr)
{
    using Items = KindItems<List>;
    return {kind,
            texts.singular,
            texts.title,
            texts.groupTitle,
            texts.baseName,
            texts.fileList,
            cannotAdd,
            scope,
            referredAs,
            namedMembers,
            &Items::count,
            &Items::name,
            &Items::setName,
            &Items::duplicate,
            &Items::erase,
            append};
}

bool appendBody(ModelDocument& doc, const std::string& name, const LoadedModel*)
{
    BodyDoc body;
    body.name = name;
    body.shape.kind = VisualShape::Kind::Box;
    body.shape.size = Vec3(0.1, 0.02, 0.02);
    // Aluminium: mass and inertia follow from the shape until the user types them.
    body.density = 2700.0;
    applyShapeMassProperties(body);
    doc.bodies.push_back(body);
    return true;
}

bool appendJoint(ModelDocument& doc, const std::string& name, const LoadedModel*)
{
    // Unconnected: any default pair of bodies may repeat a joint the model has (ground to
    // the first body is usually the crank's pivot) and add redundant equations silently.
    // The builder reports the missing bodies until they are chosen.
    JointDoc joint;
    joint.name = name;
    doc.joints.push_back(joint);
    return true;
}

bool appendDriver(ModelDocument& doc, const std::string& name, const LoadedModel* loaded)
{
    DriverDoc driver;
    driver.name = name;
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
    return true;
}

bool appendForce(ModelDocument& doc, const std::string& name, const LoadedModel*)
{
    ForceDoc force;
    force.name = name;
    force.body1 = kGroundName;
    force.body2 = doc.bodies.empty() ? std::string() : doc.bodies.front().name;
    force.stiffness = 100.0;
    doc.forces.push_back(force);
    return true;
}

bool appendBeam(ModelDocument& doc, const std::string& name, const LoadedModel*)
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
    doc.beams.push_back(beam);
    return true;
}

bool appendSolid(ModelDocument& doc, const std::string& name, const LoadedModel*)
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
    doc.solids.push_back(solid);
    return true;
}

bool appendNodeSet(ModelDocument& doc, const std::string& name, const LoadedModel*)
{
    // A set without nodes does not build: it starts with one node, which the user then
    // replaces or adds to.
    NodeSetDoc set;
    if (!doc.beams.empty()) {
        set.nodes.push_back(doc.beams.front().name + ".tip");
    } else if (!doc.solids.empty()) {
        const SolidDoc& s = doc.solids.front();
        set.nodes.push_back(s.name + ".node" + std::to_string(s.elements[0]) + "_" + std::to_string(s.elements[1]) +
                            "_" + std::to_string(s.elements[2]));
    } else {
        return false;
    }
    set.name = name;
    doc.nodeSets.push_back(set);
    return true;
}

// A gear pair of 20 and 40 teeth on the first two revolute joints that share a body (the
// frame that carries both axes), or on none: the builder names what is missing until
// the joints are chosen.
bool appendCoupler(ModelDocument& doc, const std::string& name, const LoadedModel*)
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
    doc.couplers.push_back(c);
    return true;
}

// In ItemKind's order, which is the tree's. Couplers share the joints' and drivers' names:
// all three are the builder's equation owners.
constexpr std::array<ItemKindDescriptor, kItemKindCount> kDescriptors{{
    kindEntry<&ModelDocument::bodies>(ItemKind::Body, {"body", "Body", "Bodies", "body", "bodies"}, NameScope::Bodies,
                                      ReferredAs::Body, false, appendBody),
    kindEntry<&ModelDocument::joints>(ItemKind::Joint, {"joint", "Joint", "Joints", "joint", "joints"},
                                      NameScope::EquationOwners, ReferredAs::Joint, false, appendJoint),
    kindEntry<&ModelDocument::drivers>(ItemKind::Driver, {"driver", "Driver", "Drivers", "driver", "drivers"},
                                       NameScope::EquationOwners, ReferredAs::Nothing, false, appendDriver),
    kindEntry<&ModelDocument::forces>(ItemKind::Force, {"force", "Force", "Forces", "spring", "forces"},
                                      NameScope::Forces, ReferredAs::Nothing, false, appendForce),
    kindEntry<&ModelDocument::beams>(ItemKind::Beam, {"beam", "Beam", "Beams", "beam", "beams"}, NameScope::Bodies,
                                     ReferredAs::Body, true, appendBeam),
    kindEntry<&ModelDocument::solids>(ItemKind::Solid, {"solid", "Solid", "Solids", "solid", "solids"},
                                      NameScope::Bodies, ReferredAs::Body, true, appendSolid),
    kindEntry<&ModelDocument::nodeSets>(ItemKind::NodeSet, {"node set", "Node set", "Node sets", "nodes", "node_sets"},
                                        NameScope::NodeSets, ReferredAs::Body, false, appendNodeSet,
                                        "A node set lists nodes of beams and solids: add a beam or solid first"),
    kindEntry<&ModelDocument::couplers>(ItemKind::Coupler,
                                        {"coupler", "Coupler", "Gears and couplers", "gears", "couplers"},
                                        NameScope::EquationOwners, ReferredAs::Nothing, false, appendCoupler),
}};

constexpr bool descriptorsComplete(const std::array<ItemKindDescriptor, kItemKindCount>& table)
{
    for (const ItemKindDescriptor& d : table)
        if (!d.singular || !d.title || !d.groupTitle || !d.baseName || !d.fileList) return false;
    return true;
}

static_assert(coversItemKinds(kDescriptors), "one descriptor per ItemKind, in the enum's order");
static_assert(descriptorsComplete(kDescriptors), "every descriptor names its texts (kindEntry gives the functions)");

}  // namespace

const ItemKindDescriptor& describe(ItemKind kind)
{
    const auto k = static_cast<size_t>(kind);
    assert(k < kDescriptors.size());
    return kDescriptors[k];
}

const std::array<ItemKindDescriptor, kItemKindCount>& itemKindDescriptors() { return kDescriptors; }

}  // namespace looplab::ui
