#pragma once
// Live plots of a run (Qt Charts): constraint violations (position, velocity,
// acceleration) on a logarithmic axis, and the total energy with its drift from the
// initial value, with its kinetic and potential parts. A vertical cursor marks the playback time; dashed vertical lines mark
// singular configurations. The plotted data can be exported as CSV.

#include "workbench/RecordedFrame.h"

#include <QWidget>

#include <vector>

class QChart;
class QChartView;
class QLineSeries;
class QPen;
class QLogValueAxis;
class QValueAxis;

namespace looplab::ui {

class PlotPanel : public QWidget {
    Q_OBJECT

public:
    explicit PlotPanel(QWidget* parent = nullptr);

    /// Clears every series and marker.
    void clear();
    /// Appends frames of the current run (in time order).
    void appendFrames(const std::vector<RecordedFrame>& frames);
    /// Adds a vertical marker at a singular configuration.
    void addSingularMarker(double t);
    /// Moves the playback cursor; a negative time hides it.
    void setCursorTime(double t);

    /// Writes time, the three violations, energy and drift as CSV. Returns false and
    /// sets `error` if the file cannot be written.
    bool exportCsv(const QString& path, QString* error = nullptr) const;

    int pointCount() const { return static_cast<int>(t_.size()); }
    QLineSeries* positionViolationSeries() const { return position_; }
    QLineSeries* velocityViolationSeries() const { return velocity_; }
    QLineSeries* accelerationViolationSeries() const { return acceleration_; }
    QLineSeries* energySeries() const { return energy_; }
    int singularMarkerCount() const { return static_cast<int>(markerTimes_.size()); }

private:
    void updateRanges();
    QLineSeries* addVerticalLine(QChart* chart, const QPen& pen);

    QChartView *violationView_, *energyView_;
    QChart *violationChart_, *energyChart_;
    QLineSeries *position_, *velocity_, *acceleration_, *energy_, *kinetic_, *potential_, *drift_;
    QLineSeries *violationCursor_, *energyCursor_;
    std::vector<QLineSeries*> markers_;
    std::vector<double> markerTimes_;
    QValueAxis *violationTime_, *energyTime_, *energyAxis_, *driftAxis_;
    QLogValueAxis* violationAxis_;
    std::vector<double> t_, pos_, vel_, acc_, e_;
    double minViolation_ = 0.0, maxViolation_ = 0.0;
    double minEnergy_ = 0.0, maxEnergy_ = 0.0, minDrift_ = 0.0, maxDrift_ = 0.0;
    double cursor_ = -1.0;
};

}  // namespace looplab::ui
