// File and display names of the enumerations in the model document.
#include "looplab/model/ModelDocument.h"
#include "looplab/model/VisualShape.h"

#include <utility>
#include <vector>

namespace looplab {
namespace {

template <typename E, size_t N>
const char* nameOf(const std::pair<E, const char*> (&table)[N], E value) {
    for (const auto& e : table)
        if (e.first == value) return e.second;
    return "";
}

template <typename E, size_t N>
bool valueOf(const std::pair<E, const char*> (&table)[N], const std::string& name, E& value) {
    for (const auto& e : table)
        if (name == e.second) {
            value = e.first;
            return true;
        }
    return false;
}

const std::pair<JointType, const char*> kJointNames[] = {
    {JointType::Revolute, "revolute"},       {JointType::Prismatic, "prismatic"},
    {JointType::Spherical, "spherical"},     {JointType::Cylindrical, "cylindrical"},
    {JointType::Universal, "universal"},     {JointType::Fixed, "fixed"},
    {JointType::Planar, "planar"},           {JointType::Distance, "distance"},
    {JointType::PointOnLine, "point_on_line"}, {JointType::PointOnPlane, "point_on_plane"},
    {JointType::Screw, "screw"}};

const std::pair<ForceType, const char*> kForceNames[] = {
    {ForceType::SpringDamper, "spring_damper"},
    {ForceType::RotationalSpringDamper, "rotational_spring_damper"},
    {ForceType::BodyForce, "body_force"},
    {ForceType::BodyTorque, "body_torque"},
    {ForceType::DcMotor, "dc_motor"},
    {ForceType::TableMotor, "table_motor"}};

const std::pair<CouplerType, const char*> kCouplerNames[] = {
    {CouplerType::Gear, "gear"},
    {CouplerType::RackAndPinion, "rack_and_pinion"},
    {CouplerType::Belt, "belt"},
    {CouplerType::Linear, "linear"},
    {CouplerType::Cam, "cam"}};

const std::pair<CamFollower, const char*> kCamFollowerNames[] = {
    {CamFollower::KnifeEdge, "knife_edge"},
    {CamFollower::Roller, "roller"},
    {CamFollower::FlatFace, "flat_face"}};

const std::pair<CamMotion, const char*> kCamMotionNames[] = {
    {CamMotion::Dwell, "dwell"},
    {CamMotion::Cycloidal, "cycloidal"},
    {CamMotion::Harmonic, "harmonic"},
    {CamMotion::Polynomial345, "polynomial345"}};

const std::pair<VisualShape::Kind, const char*> kShapeNames[] = {
    {VisualShape::Kind::None, "none"},
    {VisualShape::Kind::Box, "box"},
    {VisualShape::Kind::Cylinder, "cylinder"},
    {VisualShape::Kind::Sphere, "sphere"},
    {VisualShape::Kind::Mesh, "mesh"}};

}  // namespace

const char* jointTypeName(JointType type) { return nameOf(kJointNames, type); }
std::vector<JointType> jointTypes() {
    std::vector<JointType> out;
    for (const auto& e : kJointNames) out.push_back(e.first);
    return out;
}
bool jointTypeFromName(const std::string& name, JointType& type) {
    return valueOf(kJointNames, name, type);
}
const char* forceTypeName(ForceType type) { return nameOf(kForceNames, type); }
bool forceTypeFromName(const std::string& name, ForceType& type) {
    return valueOf(kForceNames, name, type);
}
const char* couplerTypeName(CouplerType type) { return nameOf(kCouplerNames, type); }
bool couplerTypeFromName(const std::string& name, CouplerType& type) {
    return valueOf(kCouplerNames, name, type);
}
const char* camFollowerName(CamFollower follower) { return nameOf(kCamFollowerNames, follower); }
bool camFollowerFromName(const std::string& name, CamFollower& follower) {
    return valueOf(kCamFollowerNames, name, follower);
}
const char* camMotionName(CamMotion motion) { return nameOf(kCamMotionNames, motion); }
bool camMotionFromName(const std::string& name, CamMotion& motion) { return valueOf(kCamMotionNames, name, motion); }
const char* visualShapeKindName(VisualShape::Kind kind) { return nameOf(kShapeNames, kind); }
bool visualShapeKindFromName(const std::string& name, VisualShape::Kind& kind) {
    return valueOf(kShapeNames, name, kind);
}

}  // namespace looplab
