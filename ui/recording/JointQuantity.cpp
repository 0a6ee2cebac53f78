#include "recording/JointQuantity.h"

#include "looplab/kinematics/JointCoordinates.h"
#include "looplab/model/Model.h"

#include <QCoreApplication>

#include <cmath>
#include <limits>

namespace looplab::ui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("JointQuantity", text); }

}  // namespace

double JointQuantity::valueIn(const RecordedFrame& frame) const
{
    constexpr double none = std::numeric_limits<double>::quiet_NaN();
    const auto i = static_cast<size_t>(index);
    switch (source) {
    case Source::Coordinate:
        return i < frame.jointValues.size() ? frame.jointValues[i] : none;
    case Source::DriverEffort:
        return i < frame.driverEfforts.size() ? frame.driverEfforts[i] : none;
    case Source::CouplerEffort: {
        const size_t at = 4 * i + static_cast<size_t>(component);
        return at < frame.couplerEfforts.size() ? frame.couplerEfforts[at] : none;
    }
    case Source::Conditioning:
        return index == SmallestSingularValue ? frame.smallestSingularValue : static_cast<double>(frame.rank);
    case Source::Reaction: {
        const size_t base = 6 * i;
        if (base + 6 > frame.reactions.size())
            return none;
        const double* r = frame.reactions.data() + base;
        if (component == ForceMagnitude)
            return std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
        if (component == TorqueMagnitude)
            return std::sqrt(r[3] * r[3] + r[4] * r[4] + r[5] * r[5]);
        return r[component];
    }
    }
    return none;
}

std::vector<JointQuantity> jointQuantities(const Model& model)
{
    std::vector<JointQuantity> out;
    const JointCoordinateTracker tracker(model);
    const auto& coordinates = tracker.coordinates();
    for (size_t i = 0; i < coordinates.size(); ++i) {
        JointQuantity q;
        q.source = JointQuantity::Source::Coordinate;
        q.index = static_cast<int>(i);
        q.key = QString::fromStdString(coordinates[i].name);
        q.unit = coordinates[i].angular ? "rad" : "m";
        q.label = QString("%1 [%2]").arg(q.key, q.unit);
        out.push_back(q);
    }

    struct Part {
        int component;
        const char* key;
        const char* words;
        const char* unit;
    };
    static const Part parts[] = {
        {JointQuantity::ForceX, "force.x", "force x", "N"},
        {JointQuantity::ForceY, "force.y", "force y", "N"},
        {JointQuantity::ForceZ, "force.z", "force z", "N"},
        {JointQuantity::ForceMagnitude, "force.magnitude", "force |F|", "N"},
        {JointQuantity::TorqueX, "torque.x", "torque x", "N·m"},
        {JointQuantity::TorqueY, "torque.y", "torque y", "N·m"},
        {JointQuantity::TorqueZ, "torque.z", "torque z", "N·m"},
        {JointQuantity::TorqueMagnitude, "torque.magnitude", "torque |T|", "N·m"},
    };
    for (size_t j = 0; j < model.joints.size(); ++j) {
        const QString joint = QString::fromStdString(model.joints[j].name);
        for (const Part& p : parts) {
            JointQuantity q;
            q.source = JointQuantity::Source::Reaction;
            q.index = static_cast<int>(j);
            q.component = p.component;
            q.key = joint + "." + p.key;
            q.unit = p.unit;
            q.label = QString("%1 %2 [%3]").arg(joint, tr(p.words), q.unit);
            out.push_back(q);
        }
    }

    for (size_t d = 0; d < model.drivers.size(); ++d) {
        const Driver& driver = model.drivers[d];
        JointQuantity q;
        q.source = JointQuantity::Source::DriverEffort;
        q.index = static_cast<int>(d);
        q.key = QString::fromStdString(driver.name);
        // A rotational driver applies a torque about its joint's axis, a linear one a force.
        q.unit = driver.rotational ? "N·m" : "N";
        q.label = QString("%1 %2 [%3]").arg(q.key, tr("effort"), q.unit);
        out.push_back(q);
    }

    for (size_t c = 0; c < model.couplers.size(); ++c) {
        const Coupler& coupler = model.couplers[c];
        JointQuantity q;
        q.source = JointQuantity::Source::CouplerEffort;
        q.index = static_cast<int>(c);
        q.key = QString::fromStdString(coupler.name) + ".effort";
        q.unit = coupler.terms.front().angular ? "N·m" : "N";
        q.label = QString("%1 %2 [%3]").arg(QString::fromStdString(coupler.name), tr("effort on its first joint"), q.unit);
        out.push_back(q);
        if (coupler.type == CouplerType::Linear)
            continue;
        const QString name = QString::fromStdString(coupler.name);
        q.unit = "N";
        if (coupler.cam) {
            // Negative: the cam holds the follower, which in a real machine would leave it.
            q.component = 2;
            q.key = name + ".contact_force";
            q.label = QString("%1 %2 [%3]").arg(name, tr("contact force (below zero the follower would lift off)"), q.unit);
            out.push_back(q);
            q.component = 3;
            q.key = name + ".pressure_angle";
            q.unit = "rad";
            q.label = QString("%1 %2 [%3]").arg(name, tr("pressure angle"), q.unit);
            out.push_back(q);
            continue;
        }
        q.component = 1;
        q.key = name + ".pitch_force";
        q.label = QString("%1 %2 [%3]").arg(name, tr("force at the pitch circle"), q.unit);
        out.push_back(q);
        if (coupler.type == CouplerType::Belt)
            continue;
        q.component = 2;
        q.key = name + ".tooth_force";
        q.label = QString("%1 %2 [%3]").arg(name, tr("tooth force along the line of action"), q.unit);
        out.push_back(q);
    }
    // The distance to a singular configuration, in the units the singular-configuration
    // threshold uses, and the rank whose drops the rank-change events report.
    JointQuantity sigma;
    sigma.source = JointQuantity::Source::Conditioning;
    sigma.index = JointQuantity::SmallestSingularValue;
    sigma.key = "constraints.sigma_min";
    sigma.label = tr("smallest singular value of the constraint Jacobian (scaled)");
    out.push_back(sigma);
    JointQuantity rank = sigma;
    rank.index = JointQuantity::Rank;
    rank.key = "constraints.rank";
    rank.label = tr("rank of the constraint Jacobian");
    out.push_back(rank);
    return out;
}

int findQuantity(const std::vector<JointQuantity>& quantities, const QString& key)
{
    for (size_t i = 0; i < quantities.size(); ++i)
        if (quantities[i].key == key)
            return static_cast<int>(i);
    return -1;
}

}  // namespace looplab::ui
