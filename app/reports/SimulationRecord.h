#pragma once
// What a forward-dynamics run reports: one row of numbers per output frame under named
// columns (the command line's CSV, Python's arrays) and a summary at the end (the command
// line's --json, Python's result). One layout, written once: whoever runs the simulation
// hands every frame to add() and reads the row it made.
#include "looplab/analysis/TransmissionAngle.h"
#include "looplab/kinematics/NodalOutputs.h"
#include "looplab/simulation/ModelRunSettings.h"
#include "looplab/simulation/Simulation.h"
#include "SimulationRequest.h"

#include <nlohmann/json.hpp>

#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace looplab::reports {

class SimulationRecord {
public:
    /// `nodes`: beam and solid nodes by their names in the model format (BEAM.node<k>,
    /// SOLID.node<i>_<j>_<k>, ...) whose positions get columns and a place in the final
    /// state. Check them first with checkNodes().
    SimulationRecord(const Model& model, const std::vector<std::string>& nodes = {});

    /// Empty if every name is a node of the model's beams or solids, else why the first
    /// unknown one is not, naming the setting as the caller spells it (--node or nodes).
    static std::string checkNodes(const Model& model, const std::vector<std::string>& nodes, OptionStyle style);

    /// t, each body's position and orientation (a mesh's centre of mass and named points),
    /// the nodes asked for, joint coordinates, violations, energy, joint reactions, driver
    /// and coupler efforts, rank, σ_min, step size and the stepper's counts.
    const std::vector<std::string>& columns() const { return columns_; }

    /// Takes a frame into the summary and makes its row.
    void add(const SimulationFrame& frame);
    /// The row of the last frame added, one value per column.
    const std::vector<double>& row() const { return row_; }
    bool empty() const { return !last_; }

    /// The summary of a run that ended with `result` under `settings`: statistics, largest
    /// violations, energy and the work of drivers and loads, a four-bar's transmission
    /// angle range, each cam's contact, the final state, events.
    nlohmann::json summary(const SimulationResult& result, const ResolvedRunSettings& settings,
                           const std::vector<std::string>& warnings) const;
    /// Each cam's smallest contact force and largest pressure angle, a line each.
    std::string camsText() const;

private:
    struct CamContact {
        double smallest = std::numeric_limits<double>::infinity(), at = 0.0;
        double leaves = NAN, largestPressureAngle = 0.0;
    };
    const Model& model_;
    std::vector<std::string> nodeNames_;      // as asked, each once
    std::vector<std::string> nodeColumns_;    // those not already written as a root or tip
    std::vector<MeshNode> columnNodes_;
    std::vector<std::string> columns_;
    std::vector<double> row_;
    std::optional<SimulationFrame> last_;
    std::optional<double> initialEnergy_;
    double maxBalance_ = 0.0;
    std::optional<FourBarTransmission> fourBar_;
    double muMin_ = 0.0, muMax_ = 0.0;
    bool haveMu_ = false;
    std::map<std::string, CamContact> cams_;
};

}  // namespace looplab::reports
