#include "ForceLaws.h"

namespace looplab {

std::shared_ptr<const ForceLaw> makeForceLaw(const ForceElement& e) {
    switch (e.type) {
    case ForceType::SpringDamper: return forces::makeSpringDamper(e);
    case ForceType::RotationalSpringDamper: return forces::makeRotationalSpringDamper(e);
    case ForceType::BodyForce: return forces::makeBodyForce(e);
    case ForceType::BodyTorque: return forces::makeBodyTorque(e);
    case ForceType::DcMotor: return forces::makeDcMotor(e);
    case ForceType::TableMotor: return forces::makeTableMotor(e);
    }
    return nullptr;
}

std::vector<ForceType> forceLawTypes() {
    // Every type with a file name (Names.cpp): a type the reader knows is a type to check.
    std::vector<ForceType> types;
    for (int t = 0; *forceTypeName(static_cast<ForceType>(t)) != '\0'; ++t) types.push_back(static_cast<ForceType>(t));
    return types;
}

}  // namespace looplab
