#pragma once
// Live plots of a run (Qt Charts): constraint violations (position, velocity,
// acceleration) on a logarithmic scale (the series hold log10 of each norm, labelled as
// powers of ten); the total energy with its drift from the
// initial value, with its kinetic and potential parts; and one joint quantity chosen
// by the user (a coordinate, a reaction component or magnitude, a driver effort). A
// vertical cursor marks the playback time; dashed vertical lines mark singular
// configurations.
//
// A finished run can be kept for comparison: its violations, energy and joint quantity
// stay on the charts as dashed lines labelled with its method and integrator while the
// next run is drawn over them. The charts zoom with the mouse wheel and a dragged
// rectangle; the data can be exported as CSV and each chart as a PNG image.

#include "recording/RecordedFrame.h"
#include "recording/SimulationRecording.h"

#include "looplab/simulation/InputPower.h"

#include <QList>
#include <QPointF>
#include <QWidget>

#include <array>
#include <vector>

class QChart;
class QChartView;
class QComboBox;
class QLineSeries;
class QPen;
class QPushButton;
class QAbstractAxis;
class QValueAxis;

namespace looplab::ui {

class ZoomableChartView;

class PlotPanel : public QWidget {
    Q_OBJECT

public:
    enum class Chart { Violation, Energy, JointQuantity };
    static constexpr int kChartCount = 3;

    explicit PlotPanel(QWidget* parent = nullptr);

    /// The run whose frames appendFrames() receives: it names the joint quantities and
    /// is what keepForComparison() freezes. It must outlive the panel.
    void setRecording(const SimulationRecording* recording);

    /// Clears the current run's series and markers (the comparison stays) and takes the
    /// list of joint quantities from the recording, keeping the choice if it still exists.
    void clear();
    /// Appends frames of the current run (in time order).
    void appendFrames(const std::vector<RecordedFrame>& frames);
    /// Adds a vertical marker at a singular configuration.
    void addSingularMarker(double t);
    /// Moves the playback cursor; a negative time hides it.
    void setCursorTime(double t);

    /// Shows the joint quantity called `key` (JointQuantity::key); false if there is none.
    bool setJointQuantity(const QString& key);
    /// Key of the quantity shown, empty if none.
    QString jointQuantity() const;

    /// Freezes the recording's series as the comparison; false if it has no frames.
    bool keepForComparison();
    void clearComparison();
    bool hasComparison() const { return !comparison_.isEmpty(); }
    QString comparisonLabel() const { return comparison_.label(); }

    /// Gives the axes back to the data on every chart.
    void resetZoom();
    bool isZoomed(Chart chart) const { return zoomed_[static_cast<size_t>(chart)]; }

    /// Writes time, the three violations, energy, drift and the joint quantity shown as
    /// CSV. Returns false and sets `error` if the file cannot be written.
    bool exportCsv(const QString& path, QString* error = nullptr) const;
    /// Saves `chart` as shown, at its on-screen size, as a PNG image, replacing an existing
    /// file only once the new one is complete. Returns false and sets `error` if the file
    /// cannot be written.
    bool exportPng(Chart chart, const QString& path, QString* error = nullptr) const;
    static QString chartName(Chart chart);
    /// The y value the violation chart plots for a norm: log10 of it, with norms below
    /// 1e-18 (exact zeros among them) drawn at −18.
    static double plottedViolation(double norm);

    int pointCount() const { return static_cast<int>(t_.size()); }
    QChartView* chartView(Chart chart) const;
    QComboBox* jointQuantityBox() const { return quantityBox_; }
    /// The violation axis: linear in log10 of the norms, its labels written as powers of ten.
    QValueAxis* violationAxis() const { return violationAxis_; }
    // The series hold every frame up to 800 frames, and the extremes of groups of
    // frames beyond (SeriesDecimation.h); exportCsv() writes every frame.
    QLineSeries* positionViolationSeries() const { return position_; }
    QLineSeries* velocityViolationSeries() const { return velocity_; }
    QLineSeries* accelerationViolationSeries() const { return acceleration_; }
    QLineSeries* energySeries() const { return energy_; }
    /// E − E₀, on the right-hand axis of the energy chart.
    QLineSeries* driftSeries() const { return drift_; }
    /// Work of the drivers and loads, and E − E₀ − W: shown for a driven model only.
    QLineSeries* workSeries() const { return work_; }
    QLineSeries* balanceSeries() const { return balance_; }
    QLineSeries* jointQuantitySeries() const { return quantity_; }
    QLineSeries* comparisonPositionSeries() const { return cmpPosition_; }
    QLineSeries* comparisonEnergySeries() const { return cmpEnergy_; }
    QLineSeries* comparisonJointQuantitySeries() const { return cmpQuantity_; }
    int singularMarkerCount() const { return static_cast<int>(markerTimes_.size()); }

signals:
    /// The user asked to save `chart` as an image (the caller picks the file).
    void imageExportRequested(looplab::ui::PlotPanel::Chart chart);

private:
    void updateRanges();
    void labelViolationAxis();
    /// Decades between labels so that at most maxLabels labels cover `decades`.
    static int violationLabelStride(double decades, int maxLabels);
    /// How many labels the violation axis can show at the chart's present height
    /// without Qt Charts eliding them to "...".
    int violationLabelsThatFit() const;
    QLineSeries* addVerticalLine(QChart* chart, QAbstractAxis* yAxis, const QPen& pen);
    const std::vector<JointQuantity>& quantities() const;
    void refreshQuantityList();
    void showSelectedQuantity();
    void showComparison();
    void updateButtons();

    QComboBox* quantityBox_;
    QPushButton *keepButton_, *clearComparisonButton_;
    std::array<ZoomableChartView*, kChartCount> views_{};
    std::array<bool, kChartCount> zoomed_{};
    QChart *violationChart_, *energyChart_, *quantityChart_;
    QLineSeries *position_, *velocity_, *acceleration_, *energy_, *kinetic_, *potential_, *drift_, *quantity_;
    QLineSeries *work_, *balance_;
    QList<QPointF> workPoints_, balancePoints_;
    bool driven_ = false;
    QLineSeries *cmpPosition_, *cmpVelocity_, *cmpAcceleration_, *cmpEnergy_, *cmpQuantity_;
    QLineSeries *violationCursor_, *energyCursor_, *quantityCursor_;
    std::vector<QLineSeries*> markers_;
    std::vector<double> markerTimes_;
    QValueAxis *violationTime_, *energyTime_, *energyAxis_, *driftAxis_, *quantityTime_, *quantityAxis_;
    QValueAxis* violationAxis_;

    const SimulationRecording* recording_ = nullptr;
    SimulationRecording comparison_;
    /// The quantity shown (index into quantities()), or −1.
    int selected_ = -1;

    std::vector<double> t_, pos_, vel_, acc_, e_, q_;
    // Every point of the current run; the series hold a decimated copy.
    QList<QPointF> positionPoints_, velocityPoints_, accelerationPoints_, energyPoints_, kineticPoints_,
        potentialPoints_, driftPoints_, quantityPoints_;
    double minViolation_ = 0.0, maxViolation_ = 0.0;
    double minEnergy_ = 0.0, maxEnergy_ = 0.0, minDrift_ = 0.0, maxDrift_ = 0.0;
    double minQuantity_ = 0.0, maxQuantity_ = 0.0;
    bool haveQuantityRange_ = false;
    /// Ranges of the comparison's series, merged into the axes.
    double cmpMinViolation_ = 0.0, cmpMaxViolation_ = 0.0, cmpMinEnergy_ = 0.0, cmpMaxEnergy_ = 0.0;
    double cursor_ = -1.0;
    double violationPlotHeight_ = 0.0;
};

}  // namespace looplab::ui

Q_DECLARE_METATYPE(looplab::ui::PlotPanel::Chart)
