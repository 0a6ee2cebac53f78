#pragma once
// One plot window: any recorded quantity (PlotQuantity.h) against time or against any
// other quantity (an x–y plot, e.g. a coupler point's y against its x draws the coupler
// curve). The workbench opens as many as the user wants (PlotWindows.h). Values are
// shown in the chosen display units (DisplayUnits.h); an axis never magnifies rounding
// noise (PlotAxisRange.h): a flat quantity is drawn flat with its value in the title.

#include "plotting/PlotQuantity.h"

#include <QPointF>
#include <QWidget>

#include <vector>

class QChart;
class QComboBox;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace looplab::ui {

class SimulationRecording;
class ZoomableChartView;

class PlotWindow : public QWidget {
    Q_OBJECT

public:
    /// `recording` must outlive the window.
    explicit PlotWindow(const SimulationRecording* recording, QWidget* parent = nullptr);

    /// Takes the quantity list from the recording's model (keeping the choices that still
    /// exist) and redraws from every frame.
    void refresh();

    /// Chooses the quantities by key (PlotQuantity::key); false if there is none.
    bool setXQuantity(const QString& key);
    bool setYQuantity(const QString& key);
    QString xQuantity() const;
    QString yQuantity() const;
    /// Marks the recording's frame `frame` (the one playback shows) with a dot; −1 hides it.
    void setCursorFrame(int frame);
    /// The dot, in shown units; empty when hidden.
    QScatterSeries* cursor() const { return cursor_; }

    QComboBox* xBox() const { return xBox_; }
    QComboBox* yBox() const { return yBox_; }
    QLineSeries* series() const { return series_; }
    QValueAxis* xAxis() const { return xAxis_; }
    QValueAxis* yAxis() const { return yAxis_; }
    ZoomableChartView* chartView() const { return view_; }
    const std::vector<PlotQuantity>& quantities() const { return quantities_; }

private:
    void fillBoxes();
    void redraw();
    QString axisTitle(const PlotQuantity& q, double lo, double hi, QValueAxis* axis) const;

    const SimulationRecording* recording_;
    std::vector<PlotQuantity> quantities_;
    const void* listModel_ = nullptr;  ///< the model the list was made for
    QComboBox *xBox_, *yBox_;
    QChart* chart_;
    ZoomableChartView* view_;
    QLineSeries* series_;
    QValueAxis *xAxis_, *yAxis_;
    QScatterSeries* cursor_;
    std::vector<QPointF> framePoints_;  ///< per recorded frame, shown units (NaN: none)
    int cursorFrame_ = -1;
    bool userZoomed_ = false;
};

}  // namespace looplab::ui
