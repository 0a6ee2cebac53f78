#pragma once
// What an applied force law provides, so that the equations of motion, their derivatives,
// the energy balance and the outputs treat every law alike (the force elements of a Model,
// ForceElement in Model.h, each carry one). A law gives, at a state (q, v, t):
//   - its generalised force Q(q, v, t), added to the model's (generalizedForces(), Dynamics.h);
//   - −∂Q/∂q along the retraction and −∂Q/∂v (ForceDerivatives.h), which the implicit
//     integrators, the linearisation and statics use;
//   - its energy accounts: the potential energy it stores (a spring's, counted in E), the
//     power it puts in from outside (a load's or a motor's, counted in the work W), and the
//     power it dissipates unaccounted (a damper's, which makes E − E₀ − W fall); so that
//     Qᵀv = inputPower − dissipatedPower − dV/dt;
//   - named outputs (a motor's torque, speed, power, current) for the CLI and Python.
// Each law is one class in core/src/forces/ (the area `forces`, above `kinematics`: laws
// read the compiled model, the state and the joints' angles), made by makeForceLaw() from
// the compiled element, declared here and defined with the laws so that the builder makes
// them without including them; forceLawTypes() lists every type, and the conformance suite (tst_forcelaws)
// checks each against differences of its own force. Friction on joints and contact will
// be laws of the same kind.
//
// A law has no states of its own: Q depends on (q, v, t) alone. A law with states (a PID
// controller's integral and derivative filter, a motor's armature current when its
// inductance counts) would need the interface to grow: a state size, initial values, the
// rates ż = g(q, v, z, t) integrated beside the mechanism's, and Q(q, v, z, t) with ∂Q/∂z
// and the derivatives of g for the implicit integrators; State would carry z.
//
// Why a base class: as for body kinds (BodyFormulation.h), each call is per element and
// per evaluation, so a virtual call costs nothing measurable, and a new law is one class.

#include "looplab/common/Types.h"
#include "looplab/model/ModelDocument.h"

#include <Eigen/SparseCore>

#include <memory>
#include <string>
#include <vector>

namespace looplab {

struct Model;
struct State;
struct ForceElement;

/// One named output of a law at a state: "torque", "speed", "power", "current" ...
struct ForceOutput {
    std::string name;  ///< the column is "<element>.<name>"
    double value = 0.0;
};

class ForceLaw {
public:
    virtual ~ForceLaw() = default;

    virtual ForceType type() const = 0;
    /// Adds Q(q, v, t) to f (the model's velocity coordinates).
    virtual void addForces(const Model& model, const State& s, VecX& f) const = 0;
    /// Adds −∂Q/∂q (along the retraction, v and t fixed) to K and −∂Q/∂v to C.
    virtual void addDerivatives(const Model& model, const State& s, std::vector<Eigen::Triplet<double>>& K,
                                std::vector<Eigen::Triplet<double>>& C) const = 0;
    /// Potential energy stored by the law [J] (in the mechanical energy E).
    virtual double potentialEnergy(const Model&, const State&) const { return 0.0; }
    /// Power the law puts into the mechanism from outside [W] (integrated into the work W).
    virtual double inputPower(const Model&, const State&) const { return 0.0; }
    /// Power the law takes out of the mechanism and nobody counts [W, ≥ 0] (a damper's).
    virtual double dissipatedPower(const Model&, const State&) const { return 0.0; }
    /// Whether inputPower() can be non-zero (the run then counts the work W).
    virtual bool putsInWork() const { return false; }
    /// Whether dissipatedPower() can be non-zero (E − E₀ − W is then no check of accuracy).
    virtual bool dissipates() const { return false; }
    /// An energy the law typically stores or exchanges [J], for the scale of the energy
    /// check (a spring's at a stretch of the model's length or at 1 rad).
    virtual double energyScale(double /*lengthScale*/) const { return 0.0; }
    /// The names of outputs(), the same at every state (none for most laws).
    virtual std::vector<std::string> outputNames() const { return {}; }
    /// Named outputs at s, in the order of outputNames().
    virtual std::vector<ForceOutput> outputs(const Model&, const State&) const { return {}; }
};

/// The law of a compiled element (its type and parameters are the element's).
std::shared_ptr<const ForceLaw> makeForceLaw(const ForceElement& element);

/// Every force type, in file order: what the conformance suite must have a row for.
std::vector<ForceType> forceLawTypes();

}  // namespace looplab
