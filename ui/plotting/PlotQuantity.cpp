#include "plotting/PlotQuantity.h"

#include "recording/SimulationRecording.h"

#include "looplab/simulation/InputPower.h"
#include "looplab/analysis/PointMotion.h"
#include "looplab/analysis/TransmissionAngle.h"
#include "looplab/dynamics/Reactions.h"
#include "looplab/kinematics/JointCoordinates.h"
#include "looplab/model/Model.h"
#include "looplab/kinematics/FourBarAnalysis.h"

#include <QCoreApplication>

#include <cmath>
#include <limits>

namespace looplab::ui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("PlotQuantity", text); }

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
const char* kComponents[4] = {"x", "y", "z", "magnitude"};

PlotQuantity make(PlotQuantity::Source source, const QString& key, const QString& label, const QString& unit) {
    PlotQuantity q;
    q.source = source;
    q.key = key;
    q.label = label;
    q.unit = unit;
    return q;
}

void addVector(std::vector<PlotQuantity>& out, PlotQuantity::Source source, const TracedPoint& point,
               const char* what, const QString& unit) {
    const QString name = QString::fromStdString(traceLabel(point));
    for (int c = 0; c < 4; ++c) {
        PlotQuantity q = make(source, QString("%1.%2.%3").arg(name, what, kComponents[c]),
                              QString("%1 %2 %3").arg(name, what, kComponents[c]), unit);
        q.point = point;
        q.component = c;
        out.push_back(q);
    }
}

double component(const Vec3& v, int c) { return c == 3 ? v.norm() : v[c]; }

}  // namespace

std::vector<TracedPoint> markerPoints(const Model& model) {
    std::vector<TracedPoint> out;
    for (const Marker& m : model.markers)
        if (m.frame.body != kGround) out.push_back({model.body(m.frame.body).name, m.frame.origin, m.name});
    return out;
}

std::vector<PlotQuantity> plotQuantities(const Model& model, const std::vector<TracedPoint>& points) {
    using S = PlotQuantity::Source;
    std::vector<PlotQuantity> out;
    out.push_back(make(S::Time, "t", tr("time"), "s"));
    std::vector<TracedPoint> all;
    for (int b = 1; b < model.bodyCount(); ++b)
        if (model.body(BodyIndex(b)).movesAsOneFrame())
            all.push_back({model.body(BodyIndex(b)).name, Vec3::Zero(), model.body(BodyIndex(b)).name});
    const size_t bodies = all.size();
    all.insert(all.end(), points.begin(), points.end());
    for (size_t i = 0; i < all.size(); ++i) {
        addVector(out, S::PointPosition, all[i], "position", "m");
        addVector(out, S::PointVelocity, all[i], "velocity", "m/s");
        addVector(out, S::PointAcceleration, all[i], "acceleration", "m/s²");
        if (i < bodies) addVector(out, S::AngularVelocity, all[i], "angular velocity", "rad/s");
    }
    const std::vector<JointQuantity> joints = jointQuantities(model);
    const JointCoordinateTracker tracker(model);
    for (size_t i = 0; i < tracker.coordinates().size(); ++i) {
        const JointCoordinate& c = tracker.coordinates()[i];
        PlotQuantity q = make(S::JointRate, QString::fromStdString(c.name) + ".rate",
                              QString::fromStdString(c.name) + " rate", c.angular ? "rad/s" : "m/s");
        q.index = static_cast<int>(i);
        out.push_back(q);
    }
    for (const JointQuantity& j : joints) {
        PlotQuantity q = make(S::Joint, j.key, j.key, j.unit);
        q.joint = j;
        out.push_back(q);
    }
    out.push_back(make(S::EnergyTotal, "energy.total", tr("energy E"), "J"));
    out.push_back(make(S::EnergyKinetic, "energy.kinetic", tr("kinetic energy"), "J"));
    out.push_back(make(S::EnergyPotential, "energy.potential", tr("potential energy"), "J"));
    out.push_back(make(S::Work, "energy.work", tr("work of drivers and loads W"), "J"));
    out.push_back(make(S::EnergyBalance, "energy.balance", tr("balance E − E₀ − W"), "J"));
    if (findPlanarFourBar(model))
        out.push_back(make(S::TransmissionAngle, "four-bar.transmission_angle", tr("transmission angle"), "rad"));
    return out;
}

int findPlotQuantity(const std::vector<PlotQuantity>& quantities, const QString& key) {
    for (size_t i = 0; i < quantities.size(); ++i)
        if (quantities[i].key == key) return static_cast<int>(i);
    return -1;
}

std::vector<double> plotSeries(const PlotQuantity& quantity, const SimulationRecording& recording) {
    using S = PlotQuantity::Source;
    std::vector<double> out;
    const std::shared_ptr<const Model> model = recording.frameModel();
    if (!model) return out;
    const int n = recording.frameCount();
    out.reserve(static_cast<size_t>(n));
    std::optional<BodyIndex> body;
    if (quantity.source >= S::PointPosition && quantity.source <= S::AngularVelocity)
        body = model->findBody(quantity.point.body);
    std::vector<JointCoordinate> coordinates;
    if (quantity.source == S::JointRate) coordinates = JointCoordinateTracker(*model).coordinates();
    const std::optional<FourBarTransmission> fourBar =
        quantity.source == S::TransmissionAngle ? FourBarTransmission::find(*model) : std::nullopt;
    for (int i = 0; i < n; ++i) {
        const RecordedFrame& f = recording.frame(i);
        double value = kNone;
        switch (quantity.source) {
        case S::Time: value = f.t; break;
        case S::PointPosition:
        case S::PointVelocity:
        case S::PointAcceleration:
        case S::AngularVelocity: {
            if (!body) break;
            const bool needsAcceleration = quantity.source == S::PointAcceleration;
            if (needsAcceleration && f.acceleration.size() != model->velocitySize()) break;
            PointMotion m;
            if (!pointMotion(*model, recording.frameState(i), needsAcceleration ? f.acceleration : VecX(), *body,
                             quantity.point.localPoint, &m)
                     .ok)
                break;
            const Vec3& v = quantity.source == S::PointPosition   ? m.position
                            : quantity.source == S::PointVelocity ? m.velocity
                            : needsAcceleration                    ? m.acceleration
                                                                   : m.angularVelocity;
            value = component(v, quantity.component);
            break;
        }
        case S::JointRate: {
            if (quantity.index < 0 || quantity.index >= static_cast<int>(coordinates.size())) break;
            const JointCoordinate& c = coordinates[static_cast<size_t>(quantity.index)];
            const State s = recording.frameState(i);
            value = c.angular ? jointAngleRate(*model, s, c.joint) : jointDisplacementRate(*model, s, c.joint);
            break;
        }
        case S::Joint: value = quantity.joint.valueIn(f); break;
        case S::EnergyTotal: value = f.energy; break;
        case S::EnergyKinetic: value = f.kinetic; break;
        case S::EnergyPotential: value = f.energy - f.kinetic; break;
        case S::Work:
        case S::EnergyBalance: {
            value = quantity.source == S::Work ? f.work : f.energy - recording.frame(0).energy - f.work;
            break;
        }
        case S::TransmissionAngle: {
            if (fourBar) value = fourBar->angle(*model, recording.frameState(i));
            break;
        }
        }
        out.push_back(value);
    }
    return out;
}

}  // namespace looplab::ui
