#pragma once
// Simulation settings and run controls: constraint method, integrator, the parameters the
// pair reads (one row each, made from the registry's list: Baumgarte α, penalty factor,
// HHT α, Newmark β and γ, largest step, ...), how flexible members start, end time,
// tolerances, step, output step; Run, Pause, Resume, Stop, Reset; progress with the
// simulated time and the real-time factor.
//
// The start is the model's (its run block's `start`): it decides the initial state the
// model is built with, so choosing another one is an edit of the model
// (ModelPresentation makes it), not a setting of the next run only.

#include "looplab/integrate/MethodParameter.h"
#include "looplab/kinematics/StartMotion.h"
#include "looplab/simulation/Simulation.h"

#include <QWidget>

#include <utility>
#include <vector>

class QAbstractSpinBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QProgressBar;
class QPushButton;

namespace looplab::ui {

class RunPanel : public QWidget {
    Q_OBJECT

public:
    explicit RunPanel(QWidget* parent = nullptr);

    /// Settings as currently entered.
    SimulationSettings settings() const;
    /// Fills the fields (unknown method or integrator names are ignored).
    void setSettings(const SimulationSettings& settings);
    /// Chooses a method with its defaults (MethodRegistry.h): its default integrator and
    /// tolerances; the other fields stay.
    void setMethodWithDefaults(const std::string& method);
    /// Upper limit of simulated seconds per wall-clock second for the next run; 0 means
    /// as fast as the solver goes. A value not in the list is added to it.
    double pace() const;
    void setPace(double pace);
    /// How flexible members start (StartMotion.h), as shown; setStart does not emit
    /// startChosen.
    StartMotion start() const;
    void setStart(StartMotion start);

    /// Which buttons make sense: a model that builds, a run in progress, paused, and
    /// whether a recording exists.
    void setState(bool canRun, bool running, bool paused, bool hasRecording);
    /// Progress of the current run: simulated time t of tEnd, simulated seconds per
    /// wall-clock second.
    void setProgress(double t, double tEnd, double realTimeFactor);
    /// Shows how the last run ended.
    void setMessage(const QString& text);
    QString message() const;

    QPushButton* runButton() const { return run_; }
    QPushButton* pauseButton() const { return pause_; }
    QPushButton* resumeButton() const { return resume_; }
    QPushButton* stopButton() const { return stop_; }
    QPushButton* resetButton() const { return reset_; }

signals:
    void runRequested();
    void pauseRequested();
    void resumeRequested();
    void stopRequested();
    void resetRequested();
    /// The user chose another start in the list.
    void startChosen(looplab::StartMotion start);

private:
    void updateStepEnabled();
    bool fixedStep() const;  // the chosen integrator keeps the user's step

    bool running_ = false;
    QComboBox* method_;
    QComboBox* integrator_;
    QComboBox* start_;
    QFormLayout* form_;
    /// A field per registered method parameter (ParameterInfo), named by its key in
    /// camel case ("hhtAlpha", "penaltyFactor"); shown while the chosen pair reads it.
    std::vector<std::pair<const ParameterInfo*, QAbstractSpinBox*>> parameterFields_;
    QDoubleSpinBox* tEnd_;
    QDoubleSpinBox* rtol_;
    QDoubleSpinBox* atol_;
    QDoubleSpinBox* step_;
    QDoubleSpinBox* outputStep_;
    QComboBox* pace_;
    QComboBox* linearAlgebra_;
    QPushButton *run_, *pause_, *resume_, *stop_, *reset_;
    QProgressBar* progress_;
    QLabel* status_;
};

}  // namespace looplab::ui
