#include "looplab/dynamics/ForceDerivatives.h"

#include <vector>

namespace looplab {

void forceDerivatives(const Model& m, const State& s, ForceDerivatives& out) {
    const int n = m.velocitySize();
    MatrixEntries K, C;
    for (const Body& body : m.bodies)
        body.formulation->addForceDerivatives(s.q.data() + body.slice.positionOffset,
                                              s.v.data() + body.slice.velocityOffset, body.slice.velocityOffset, K, C);
    for (const ForceElement& e : m.forces) e.forceLaw->addDerivatives(m, s, K, C);
    out.stiffness.resize(n, n);
    out.stiffness.setFromTriplets(K.begin(), K.end());
    out.damping.resize(n, n);
    out.damping.setFromTriplets(C.begin(), C.end());
}

}  // namespace looplab
