#pragma once
// Everything a plot window can put on an axis: time; position, velocity and acceleration
// of each body's centre of mass and of each marker (components and magnitude); the
// bodies' angular velocities; joint coordinates and their rates; joint reactions and
// driver efforts (JointQuantity); the energy terms, the work of the drivers and applied
// loads and the balance E − E₀ − W; the transmission angle of a four-bar. The numbers
// come from the core (PointMotion.h, WorkCounter.h, TransmissionAngle.h) at each
// recorded frame, in SI units; DisplayUnits converts them when shown.

#include "recording/JointQuantity.h"

#include "looplab/kinematics/PointTrace.h"

#include <QString>

#include <vector>

namespace looplab::ui {

class SimulationRecording;

struct PlotQuantity {
    enum class Source {
        Time,
        PointPosition,
        PointVelocity,
        PointAcceleration,
        AngularVelocity,
        JointRate,
        Joint,  ///< a JointQuantity: coordinate, reaction, driver effort, conditioning
        EnergyTotal,
        EnergyKinetic,
        EnergyPotential,
        Work,
        EnergyBalance,
        TransmissionAngle
    };
    Source source = Source::Time;
    TracedPoint point;          ///< the Point* sources; AngularVelocity: point.body
    int component = 0;          ///< 0, 1, 2: x, y, z; 3: magnitude
    int index = 0;              ///< JointRate: coordinate index (JointCoordinateTracker order)
    JointQuantity joint;        ///< Joint
    QString key;                ///< stable name: "t", "coupler.velocity.x", "coupler-point.position.y", ...
    QString label;              ///< without unit: "coupler-point position y"
    QString unit;               ///< SI: "s", "m", "m/s", "rad", "rad/s", "J", "N", ...
};

/// Every quantity of `model` with the points `points` (markers, traced points): time
/// first, then bodies, points, joints, energy, and the transmission angle if the model is
/// a planar four-bar.
std::vector<PlotQuantity> plotQuantities(const Model& model, const std::vector<TracedPoint>& points);

/// The markers of the model's document as points.
std::vector<TracedPoint> markerPoints(const Model& model);

/// Index of the quantity called `key`, or −1.
int findPlotQuantity(const std::vector<PlotQuantity>& quantities, const QString& key);

/// The quantity at every frame of `recording`, SI units; NaN where a frame lacks it (a
/// flexible body's point, a frame without accelerations). Work is the run's, counted over
/// its steps (WorkCounter.h); the balance is E − E₀ − W from the first frame.
std::vector<double> plotSeries(const PlotQuantity& quantity, const SimulationRecording& recording);

}  // namespace looplab::ui
