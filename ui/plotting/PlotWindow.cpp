#include "plotting/PlotWindow.h"

#include "plotting/DisplayUnits.h"
#include "plotting/PlotAxisRange.h"
#include "recording/SimulationRecording.h"
#include "plotting/ZoomableChartView.h"

#include "looplab/model/Model.h"

#include <QChart>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QScatterSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include <cmath>

namespace looplab::ui {

PlotWindow::PlotWindow(const SimulationRecording* recording, QWidget* parent)
    : QWidget(parent), recording_(recording)
{
    xBox_ = new QComboBox;
    xBox_->setObjectName("plotX");
    xBox_->setToolTip(tr("Quantity on the horizontal axis: time, or any other for an x–y plot"));
    yBox_ = new QComboBox;
    yBox_->setObjectName("plotY");
    yBox_->setToolTip(tr("Quantity on the vertical axis"));
    for (QComboBox* box : {xBox_, yBox_}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(18);
    }
    auto* reset = new QPushButton(tr("Reset Zoom"));
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("y")));
    top->addWidget(yBox_, 1);
    top->addWidget(new QLabel(tr("against")));
    top->addWidget(xBox_, 1);
    top->addWidget(reset);

    chart_ = new QChart;
    chart_->legend()->hide();
    series_ = new QLineSeries;
    series_->setColor(QColor(30, 110, 190));
    chart_->addSeries(series_);
    xAxis_ = new QValueAxis;
    yAxis_ = new QValueAxis;
    chart_->addAxis(xAxis_, Qt::AlignBottom);
    chart_->addAxis(yAxis_, Qt::AlignLeft);
    series_->attachAxis(xAxis_);
    series_->attachAxis(yAxis_);
    cursor_ = new QScatterSeries;
    cursor_->setMarkerSize(9.0);
    cursor_->setColor(QColor(220, 60, 30));
    cursor_->setBorderColor(QColor(220, 60, 30));
    chart_->addSeries(cursor_);
    cursor_->attachAxis(xAxis_);
    cursor_->attachAxis(yAxis_);
    view_ = new ZoomableChartView(chart_);
    view_->setObjectName("plotWindowChart");
    view_->setMinimumSize(360, 240);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(view_, 1);

    connect(view_, &ZoomableChartView::userZoomed, this, [this] { userZoomed_ = true; });
    connect(reset, &QPushButton::clicked, this, [this] {
        userZoomed_ = false;
        chart_->zoomReset();
        redraw();
    });
    for (QComboBox* box : {xBox_, yBox_})
        connect(box, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
            userZoomed_ = false;
            redraw();
        });
    connect(&DisplayUnits::instance(), &DisplayUnits::changed, this, &PlotWindow::redraw);
    refresh();
}

void PlotWindow::fillBoxes()
{
    const QString x = xQuantity(), y = yQuantity();
    const std::shared_ptr<const Model> model = recording_->frameModel();
    quantities_ = model ? plotQuantities(*model, markerPoints(*model)) : std::vector<PlotQuantity>{};
    listModel_ = model.get();
    const QSignalBlocker bx(xBox_), by(yBox_);
    xBox_->clear();
    yBox_->clear();
    for (const PlotQuantity& q : quantities_) {
        xBox_->addItem(q.label, q.key);
        yBox_->addItem(q.label, q.key);
    }
    const int xi = xBox_->findData(x), yi = yBox_->findData(y);
    xBox_->setCurrentIndex(xi >= 0 ? xi : 0);
    // By default the first joint coordinate (or whatever follows time) against time.
    int defaultY = std::min(1, yBox_->count() - 1);
    for (size_t i = 0; i < quantities_.size(); ++i)
        if (quantities_[i].source == PlotQuantity::Source::Joint) {
            defaultY = static_cast<int>(i);
            break;
        }
    yBox_->setCurrentIndex(yi >= 0 ? yi : defaultY);
}

void PlotWindow::refresh()
{
    if (recording_->frameModel().get() != listModel_ || quantities_.empty())
        fillBoxes();
    redraw();
}

bool PlotWindow::setXQuantity(const QString& key)
{
    const int i = xBox_->findData(key);
    if (i < 0)
        return false;
    xBox_->setCurrentIndex(i);
    return true;
}

bool PlotWindow::setYQuantity(const QString& key)
{
    const int i = yBox_->findData(key);
    if (i < 0)
        return false;
    yBox_->setCurrentIndex(i);
    return true;
}

QString PlotWindow::xQuantity() const { return xBox_->currentData().toString(); }
QString PlotWindow::yQuantity() const { return yBox_->currentData().toString(); }

QString PlotWindow::axisTitle(const PlotQuantity& q, double lo, double hi, QValueAxis* axis) const
{
    const UnitChoice& units = DisplayUnits::instance().choice();
    const QString unit = units.unit(q.unit);
    const PlotAxisRange r = plotAxisRange(lo, hi);
    if (!userZoomed_)
        axis->setRange(r.min, r.max);
    QString title = unit.isEmpty() ? q.label : QString("%1 [%2]").arg(q.label, unit);
    if (r.flat)
        title += tr(", constant %1").arg(r.value, 0, 'g', 10);
    return title;
}

void PlotWindow::redraw()
{
    const int xi = xBox_->currentIndex(), yi = yBox_->currentIndex();
    framePoints_.clear();
    if (xi < 0 || yi < 0 || xi >= static_cast<int>(quantities_.size()) || yi >= static_cast<int>(quantities_.size())) {
        series_->clear();
        setCursorFrame(cursorFrame_);
        return;
    }
    const PlotQuantity &qx = quantities_[static_cast<size_t>(xi)], &qy = quantities_[static_cast<size_t>(yi)];
    const std::vector<double> xs = plotSeries(qx, *recording_), ys = plotSeries(qy, *recording_);
    const UnitChoice& units = DisplayUnits::instance().choice();
    const double fx = units.factor(qx.unit), fy = units.factor(qy.unit);
    QList<QPointF> points;
    points.reserve(static_cast<qsizetype>(xs.size()));
    double xlo = 0, xhi = 0, ylo = 0, yhi = 0;
    for (size_t i = 0; i < xs.size() && i < ys.size(); ++i) {
        const double x = fx * xs[i], y = fy * ys[i];
        framePoints_.emplace_back(x, y);
        if (!std::isfinite(x) || !std::isfinite(y))
            continue;
        if (points.isEmpty()) {
            xlo = xhi = x;
            ylo = yhi = y;
        }
        xlo = std::min(xlo, x);
        xhi = std::max(xhi, x);
        ylo = std::min(ylo, y);
        yhi = std::max(yhi, y);
        points << QPointF(x, y);
    }
    series_->replace(points);
    xAxis_->setTitleText(axisTitle(qx, xlo, xhi, xAxis_));
    yAxis_->setTitleText(axisTitle(qy, ylo, yhi, yAxis_));
    setWindowTitle(tr("%1 against %2").arg(qy.label, qx.label));
    setCursorFrame(cursorFrame_);
}

void PlotWindow::setCursorFrame(int frame)
{
    cursorFrame_ = frame;
    const bool shown = frame >= 0 && frame < static_cast<int>(framePoints_.size()) &&
                       std::isfinite(framePoints_[static_cast<size_t>(frame)].x()) &&
                       std::isfinite(framePoints_[static_cast<size_t>(frame)].y());
    if (shown)
        cursor_->replace(QList<QPointF>{framePoints_[static_cast<size_t>(frame)]});
    else
        cursor_->clear();
}

}  // namespace looplab::ui
