#include "KinematicRecord.h"
#include "ReportJson.h"

#include <algorithm>

namespace looplab::reports {

KinematicRecord::KinematicRecord(const Model& model) : model_(model), tracker_(model) {
    columns_.push_back("t");
    for (int b = 1; b < model.bodyCount(); ++b) {
        const std::string& n = model.bodies[size_t(b)].name;
        for (const char* c : {"x", "y", "z", "qw", "qx", "qy", "qz"}) columns_.push_back(n + "." + c);
    }
    for (const auto& c : tracker_.coordinates()) columns_.push_back(c.name);
    for (const char* c : {"position_violation", "velocity_violation", "acceleration_violation"}) columns_.push_back(c);
}

void KinematicRecord::add(const KinematicSample& s) {
    maxPos_ = std::max(maxPos_, s.positionViolation);
    maxVel_ = std::max(maxVel_, s.velocityViolation);
    maxAcc_ = std::max(maxAcc_, s.accelerationViolation);
    coordinates_ = tracker_.update(s.state);
    last_ = s;
    row_.clear();
    row_.push_back(s.state.t);
    for (int b = 1; b < model_.bodyCount(); ++b) {
        const Vec3 p = bodyPosition(model_, s.state, BodyIndex(b));
        const Quat q = bodyOrientation(model_, s.state, BodyIndex(b));
        row_.insert(row_.end(), {p.x(), p.y(), p.z(), q.w(), q.x(), q.y(), q.z()});
    }
    row_.insert(row_.end(), coordinates_.begin(), coordinates_.end());
    row_.insert(row_.end(), {s.positionViolation, s.velocityViolation, s.accelerationViolation});
}

nlohmann::json KinematicRecord::summary(const KinematicResult& res, double wallTime) const {
    nlohmann::json j;
    j["steps"] = res.steps;
    j["wall_time_s"] = wallTime;
    j["max_violation"] = {{"position", maxPos_}, {"velocity", maxVel_}, {"acceleration", maxAcc_}};
    if (!last_) {
        j["final"] = nullptr;
        return j;
    }
    nlohmann::json joints = nlohmann::json::object();
    const auto& coords = tracker_.coordinates();
    for (size_t k = 0; k < coords.size() && k < coordinates_.size(); ++k)
        joints[model_.joint(coords[k].joint).name][coords[k].angular ? "angle" : "displacement"] = coordinates_[k];
    j["final"] = {{"t", last_->state.t}, {"bodies", bodiesJson(model_, last_->state, false)}, {"joints", joints}};
    return j;
}

}  // namespace looplab::reports
