#pragma once
// Analytic derivatives of the generalised forces Q = generalizedForces() (Dynamics.h):
// gravity, the gyroscopic term −ω' × J'ω' of each rigid body and the elastic forces of
// beams and solids (their tangent stiffness, BeamMesh.h, SolidMesh.h), and every applied
// force element's, each from its law (ForceLaw.h: spring-dampers, rotational
// spring-dampers, body forces and torques, motors). Derivatives with respect to q are taken
// along the retraction (column k: d/dε at retract(q, ε e_k), v and t fixed); those with
// respect to v at q and t fixed. Both are n × n (n velocity coordinates).

#include "looplab/kinematics/Constraints.h"
#include "looplab/model/Model.h"
#include "looplab/model/State.h"

namespace looplab {

struct ForceDerivatives {
    SparseColMatrix stiffness;  ///< −∂Q/∂q [N/m, N, N·m/rad ...: force rows, displacement columns]
    SparseColMatrix damping;    ///< −∂Q/∂v [N·s/m, N·m·s/rad ...]
};

/// −∂Q/∂q and −∂Q/∂v at state s.
void forceDerivatives(const Model& model, const State& s, ForceDerivatives& out);

}  // namespace looplab
