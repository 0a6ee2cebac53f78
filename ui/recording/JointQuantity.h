#pragma once
// One scalar a joint-quantity plot can show: a joint coordinate, a component or the
// magnitude of a joint's reaction force or torque (global axes), a driver's effort, or
// the conditioning of the constraints (rank and smallest singular value of the Jacobian).
// The list for a model is fixed when a run starts, so a quantity is an index into the
// compact vectors of a RecordedFrame plus the words to show it.

#include "recording/RecordedFrame.h"

#include <QString>

#include <vector>

namespace looplab {
struct Model;
}

namespace looplab::ui {

struct JointQuantity {
    enum class Source { Coordinate, Reaction, DriverEffort, Conditioning, CouplerEffort };
    /// Conditioning quantities (index).
    enum Conditioning { SmallestSingularValue, Rank };
    /// Reaction components, in the order a RecordedFrame stores them per joint; the two
    /// magnitudes are computed, not stored.
    enum Component { ForceX, ForceY, ForceZ, TorqueX, TorqueY, TorqueZ, ForceMagnitude, TorqueMagnitude };

    Source source = Source::Coordinate;
    int index = 0;      ///< coordinate, joint or driver index; Conditioning value
    int component = 0;  ///< Reaction; CouplerEffort: 0 the effort, 1 the force at the pitch circle
    QString key;        ///< stable name: "O.angle", "O.force.x", "O.torque.magnitude", "motor",
                        ///< "constraints.sigma_min", "constraints.rank"
    QString label;      ///< for a menu or a legend: "O force x [N]"
    QString unit;       ///< "rad", "m", "N", "N·m", or empty (a pure number)

    /// The value in `frame`; NaN if the frame does not carry it.
    double valueIn(const RecordedFrame& frame) const;
};

/// Every quantity of `model`: joint coordinates (JointCoordinateTracker's order), then
/// the reactions of each joint, then the driver efforts, then the couplers' efforts, then
/// the conditioning.
std::vector<JointQuantity> jointQuantities(const Model& model);

/// Index of the quantity called `key`, or −1.
int findQuantity(const std::vector<JointQuantity>& quantities, const QString& key);

}  // namespace looplab::ui
