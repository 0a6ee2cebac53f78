#pragma once
// The makers of the laws, one per file in this folder; makeForceLaw() (ForceLawRegistry.cpp)
// chooses among them by the element's type.

#include "looplab/model/ForceLaw.h"
#include "looplab/model/Model.h"

#include <memory>

namespace looplab::forces {

std::shared_ptr<const ForceLaw> makeSpringDamper(const ForceElement& e);
std::shared_ptr<const ForceLaw> makeRotationalSpringDamper(const ForceElement& e);
std::shared_ptr<const ForceLaw> makeBodyForce(const ForceElement& e);
std::shared_ptr<const ForceLaw> makeBodyTorque(const ForceElement& e);
std::shared_ptr<const ForceLaw> makeDcMotor(const ForceElement& e);
std::shared_ptr<const ForceLaw> makeTableMotor(const ForceElement& e);

}  // namespace looplab::forces
