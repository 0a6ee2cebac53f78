#include "looplab/bodies/rigid/GroundBody.h"

namespace looplab {

// Fixed in the global frame: the local vector is the global one and nothing moves it.
void GroundBody::attach(const JetSlots& slots, int /*slot*/, const Vec3& local, bool /*isPoint*/, VectorJet& x) const {
    x.value = local;
    if (!x.full) return;
    x.J.setZero(3, slots.columns());
    x.rate.setZero();
    x.bias.setZero();
    x.lever[0].setZero();
    x.lever[1].setZero();
}

}  // namespace looplab
