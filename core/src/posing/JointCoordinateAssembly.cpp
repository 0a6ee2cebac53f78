#include "looplab/posing/JointCoordinateAssembly.h"

#include "looplab/kinematics/Constraints.h"
#include "looplab/model/ModelBuilder.h"

#include <cmath>
#include <sstream>

namespace looplab {
namespace {

// Largest change of the coordinate between two assemblies: small enough that a
// Gauss–Newton start from the previous pose lands on the same branch.
constexpr double kAngleIncrement = 5.0 * M_PI / 180.0;
constexpr double kLengthIncrement = 0.05;  // in units of the model's length scale


}  // namespace

JointCoordinateResult setJointCoordinate(const Model& model, State& state, JointIndex joint,
                                         double value, const AssemblyOptions& options) {
    const JointCoordinateKind kind = model.joint(joint).type == JointType::Revolute
                                         ? JointCoordinateKind::Angle
                                         : JointCoordinateKind::Slide;
    return setJointCoordinate(model, state, joint, kind, value, options);
}

JointCoordinateResult setJointCoordinate(const Model& model, State& state, JointIndex joint,
                                         JointCoordinateKind kind, double value,
                                         const AssemblyOptions& options) {
    JointCoordinateResult result;
    const Joint& j = model.joint(joint);
    const bool angular = kind == JointCoordinateKind::Angle;
    const JointType own = angular ? JointType::Revolute : JointType::Prismatic;
    if (j.type != own && j.type != JointType::Cylindrical) {
        result.status = Status::failure("joint '" + j.name + "' is a " + jointTypeName(j.type) +
                                            (angular ? " joint and has no angle to set; revolute "
                                                       "and cylindrical joints have one"
                                                     : " joint and has no slide to set; prismatic "
                                                       "and cylindrical joints have one"),
                                        {j.name});
        return result;
    }
    if (!std::isfinite(value)) {
        result.status = Status::failure("the value for joint '" + j.name + "' is not a number", {j.name});
        return result;
    }
    // The same mechanism with one driver, s(τ) = start + τ·(value − start), τ ∈ [0, 1],
    // run as a pseudo-time from the present pose to the requested one.
    const double start = angular ? jointAngle(model, state, joint) : jointDisplacement(model, state, joint);
    double delta = value - start;
    if (angular) delta = std::remainder(delta, 2.0 * M_PI);
    ModelDocument doc = model.document;
    doc.drivers.clear();
    const BuildResult built = buildModel(doc, model.sourceFile);
    if (!built.ok()) {
        result.status = Status::failure(formatDiagnostics(built.diagnostics), {j.name});
        return result;
    }
    // The driver is added to the built model rather than to the document: a model file's
    // drivers act on revolute and prismatic joints only, while this one may move either
    // coordinate of a cylindrical joint.
    Model setter = *built.model;
    Driver d;
    d.name = "set " + j.name;
    d.joint = joint;
    d.rotational = angular;
    d.law.kind = TimeLaw::Kind::ConstantVelocity;
    d.law.initial = start;
    d.law.rate = delta;
    d.equation = setter.equationCount();
    setter.equations.push_back({d.name, "driver", angular});
    setter.drivers.push_back(d);
    const int steps = std::max(
        1, static_cast<int>(std::ceil(std::abs(delta) /
                                      (angular ? kAngleIncrement : kLengthIncrement * model.lengthScale))));
    State s = state;
    for (int k = 1; k <= steps; ++k) {
        State trial = s;
        trial.t = static_cast<double>(k) / steps;
        const AssemblyResult a = assemble(setter, trial, options);
        if (!a.ok) {
            std::ostringstream msg;
            msg.precision(4);
            const double at = start + delta * (k - 1) / steps;  // the last value that closed
            msg << "joint '" << j.name << "' cannot go beyond "
                << (angular ? at * 180.0 / M_PI : at) << (angular ? "°" : " m")
                << ": the other joints do not close there";
            std::vector<std::string> open;
            for (const auto& [owner, r] : a.openJoints)
                if (owner != d.name) open.push_back(owner);
            if (!open.empty()) {
                msg << " (";
                for (size_t i = 0; i < open.size(); ++i) msg << (i ? ", " : "") << open[i];
                msg << ")";
            }
            result.status = Status::failure(msg.str(), open);
            break;
        }
        s.q = trial.q;
    }
    s.t = state.t;
    state.q = s.q;
    result.reached = angular ? jointAngle(model, state, joint) : jointDisplacement(model, state, joint);
    result.closure = largestConstraintResidual(model, state);
    return result;
}

}  // namespace looplab
