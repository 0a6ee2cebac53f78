#include "plotting/PlotPanel.h"

#include "export/PngFile.h"
#include "plotting/DisplayUnits.h"
#include "plotting/PlotAxisRange.h"

#include "plotting/SeriesDecimation.h"

#include "plotting/ZoomableChartView.h"

#include "looplab/dynamics/Reactions.h"
#include "looplab/model/Model.h"

#include <QChart>
#include <QComboBox>
#include <QFile>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>

#include <QMenu>
#include <QPixmap>
#include <QPushButton>
#include <QSaveFile>
#include <QTextStream>
#include <QToolButton>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace looplab::ui {

namespace {

// A log axis cannot show zero; an exactly satisfied constraint is drawn at this floor.
constexpr double kViolationFloor = 1e-18;
// Points per series on screen: two per pixel column of a chart in the dock (see
// SeriesDecimation.h); the full data stays for export.
constexpr int kMaxPlottedPoints = 800;

void showPoints(QLineSeries* series, const QList<QPointF>& points)
{
    series->replace(decimatedForDisplay(points, kMaxPlottedPoints));
}

QLineSeries* makeSeries(const QString& name, const QColor& colour)
{
    auto* s = new QLineSeries;
    s->setName(name);
    QPen pen(colour);
    pen.setWidthF(1.5);
    s->setPen(pen);
    s->setUseOpenGL(false);
    return s;
}

// The comparison is drawn like the series it stands for, dashed and a little thinner,
// so that colour still says which quantity and the dash which run.
QLineSeries* makeOverlay(const QLineSeries* like)
{
    auto* s = new QLineSeries;
    QPen pen = like->pen();
    pen.setStyle(Qt::DashLine);
    pen.setWidthF(1.2);
    s->setPen(pen);
    s->setUseOpenGL(false);
    return s;
}

QChart* makeChart(const QString& title)
{
    auto* chart = new QChart;
    chart->setTitle(title);
    chart->legend()->setAlignment(Qt::AlignBottom);
    // A name the legend has to shorten on a small screen is whole in its tooltip.
    chart->legend()->setShowToolTips(true);
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    return chart;
}

void attach(QChart* chart, QLineSeries* s, QAbstractAxis* x, QAbstractAxis* y)
{
    chart->addSeries(s);
    s->attachAxis(x);
    s->attachAxis(y);
}

void hideLegendEntry(QChart* chart, QLineSeries* s)
{
    const auto legendMarkers = chart->legend()->markers(s);
    for (auto* m : legendMarkers)
        m->setVisible(false);
}

double violationPoint(double v) { return PlotPanel::plottedViolation(v); }

}  // namespace

PlotPanel::PlotPanel(QWidget* parent) : QWidget(parent)
{
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(2);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 0);
    quantityBox_ = new QComboBox;
    quantityBox_->setObjectName("jointQuantity");
    quantityBox_->setPlaceholderText(tr("(run a simulation)"));
    quantityBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    quantityBox_->setMinimumWidth(160);
    keepButton_ = new QPushButton(tr("Keep for Comparison"));
    keepButton_->setObjectName("keepForComparison");
    keepButton_->setToolTip(tr("Keep this run's curves, dashed, under the next runs"));
    clearComparisonButton_ = new QPushButton(tr("Clear Comparison"));
    clearComparisonButton_->setObjectName("clearComparison");
    auto* resetZoom = new QPushButton(tr("Reset Zoom"));
    resetZoom->setObjectName("resetZoom");
    resetZoom->setToolTip(tr("Zoom: mouse wheel, or drag a rectangle; right click steps back"));
    auto* saveImage = new QToolButton;
    saveImage->setObjectName("savePlotImage");
    saveImage->setText(tr("Save Image"));
    saveImage->setPopupMode(QToolButton::InstantPopup);
    auto* imageMenu = new QMenu(saveImage);
    for (Chart c : {Chart::Violation, Chart::Energy, Chart::JointQuantity})
        imageMenu->addAction(tr("%1…").arg(chartName(c)), this, [this, c] { emit imageExportRequested(c); });
    saveImage->setMenu(imageMenu);
    bar->addWidget(new QLabel(tr("Joint quantity:")));
    bar->addWidget(quantityBox_);
    bar->addStretch(1);
    bar->addWidget(keepButton_);
    bar->addWidget(clearComparisonButton_);
    bar->addWidget(resetZoom);
    bar->addWidget(saveImage);
    outer->addLayout(bar);

    violationChart_ = makeChart(chartName(Chart::Violation));
    position_ = makeSeries(tr("position [m]"), QColor(200, 60, 40));
    velocity_ = makeSeries(tr("velocity [m/s]"), QColor(40, 110, 200));
    acceleration_ = makeSeries(tr("acceleration [m/s²]"), QColor(60, 160, 80));
    violationTime_ = new QValueAxis;
    violationTime_->setTitleText(tr("t [s]"));
    // Qt's logarithmic axis labels some ranges wrongly and is slow to update; the chart
    // plots log10 of each norm on a linear axis whose labels are written as powers.
    violationAxis_ = new QValueAxis;
    violationAxis_->setTickType(QValueAxis::TicksDynamic);
    violationAxis_->setTickAnchor(0.0);
    violationAxis_->setMinorTickCount(0);
    connect(violationAxis_, &QValueAxis::rangeChanged, this, &PlotPanel::labelViolationAxis);
    // How many labels fit depends on the chart's height: a resize may change the stride.
    connect(violationChart_, &QChart::plotAreaChanged, this, [this](const QRectF& area) {
        if (std::abs(area.height() - violationPlotHeight_) < 1.0)
            return;
        violationPlotHeight_ = area.height();
        updateRanges();
        labelViolationAxis();
    });
    violationChart_->addAxis(violationTime_, Qt::AlignBottom);
    violationChart_->addAxis(violationAxis_, Qt::AlignLeft);
    for (QLineSeries* s : {position_, velocity_, acceleration_})
        attach(violationChart_, s, violationTime_, violationAxis_);

    energyChart_ = makeChart(chartName(Chart::Energy));
    // The unit is on the axes: without it in every name the six fit the legend unshortened.
    energy_ = makeSeries(tr("total"), QColor(120, 60, 160));
    kinetic_ = makeSeries(tr("kinetic"), QColor(90, 170, 200));
    potential_ = makeSeries(tr("potential"), QColor(150, 150, 150));
    drift_ = makeSeries(tr("drift E − E₀"), QColor(220, 140, 20));
    // Drawn thin and dotted: its shape equals the total's, only its axis differs (dashes
    // mark a kept comparison run).
    QPen driftPen = drift_->pen();
    driftPen.setStyle(Qt::DotLine);
    driftPen.setWidthF(1.0);
    drift_->setPen(driftPen);
    energyTime_ = new QValueAxis;
    energyTime_->setTitleText(tr("t [s]"));
    energyAxis_ = new QValueAxis;
    energyAxis_->setTitleText(tr("E [J]"));
    driftAxis_ = new QValueAxis;
    driftAxis_->setTitleText(tr("drift [J]"));
    driftAxis_->setLabelFormat("%.1e");
    energyChart_->addAxis(energyTime_, Qt::AlignBottom);
    energyChart_->addAxis(energyAxis_, Qt::AlignLeft);
    energyChart_->addAxis(driftAxis_, Qt::AlignRight);
    for (QLineSeries* s : {energy_, kinetic_, potential_})
        attach(energyChart_, s, energyTime_, energyAxis_);
    attach(energyChart_, drift_, energyTime_, driftAxis_);
    // A driven or loaded model: the work put in and the balance E − E₀ − W, on the drift
    // axis beside E − E₀ which W should equal.
    work_ = makeSeries(tr("work W"), QColor(40, 150, 60));
    balance_ = makeSeries(tr("balance E − E₀ − W"), QColor(200, 40, 40));
    for (QLineSeries* s : {work_, balance_}) {
        attach(energyChart_, s, energyTime_, driftAxis_);
        s->setVisible(false);
    }

    quantityChart_ = makeChart(chartName(Chart::JointQuantity));
    quantity_ = makeSeries({}, QColor(30, 130, 130));
    quantityTime_ = new QValueAxis;
    quantityTime_->setTitleText(tr("t [s]"));
    quantityAxis_ = new QValueAxis;
    quantityChart_->addAxis(quantityTime_, Qt::AlignBottom);
    quantityChart_->addAxis(quantityAxis_, Qt::AlignLeft);
    attach(quantityChart_, quantity_, quantityTime_, quantityAxis_);

    cmpPosition_ = makeOverlay(position_);
    cmpVelocity_ = makeOverlay(velocity_);
    cmpAcceleration_ = makeOverlay(acceleration_);
    for (QLineSeries* s : {cmpPosition_, cmpVelocity_, cmpAcceleration_})
        attach(violationChart_, s, violationTime_, violationAxis_);
    cmpEnergy_ = makeOverlay(energy_);
    attach(energyChart_, cmpEnergy_, energyTime_, energyAxis_);
    cmpQuantity_ = makeOverlay(quantity_);
    attach(quantityChart_, cmpQuantity_, quantityTime_, quantityAxis_);

    QPen cursorPen(Qt::black);
    cursorPen.setWidthF(1.0);
    violationCursor_ = addVerticalLine(violationChart_, violationAxis_, cursorPen);
    energyCursor_ = addVerticalLine(energyChart_, energyAxis_, cursorPen);
    quantityCursor_ = addVerticalLine(quantityChart_, quantityAxis_, cursorPen);

    auto* charts = new QHBoxLayout;
    charts->setContentsMargins(0, 0, 0, 0);
    const std::array<QChart*, kChartCount> chartList{violationChart_, energyChart_, quantityChart_};
    for (size_t i = 0; i < chartList.size(); ++i) {
        auto* view = new ZoomableChartView(chartList[i]);
        view->setObjectName(std::array<const char*, kChartCount>{"violationChart", "energyChart", "quantityChart"}[i]);
        view->setRenderHint(QPainter::Antialiasing);
        // Until reset, live updates must not move axes the user has zoomed.
        connect(view, &ZoomableChartView::userZoomed, this, [this, i] { zoomed_[i] = true; });
        views_[i] = view;
        charts->addWidget(view);
    }
    outer->addLayout(charts, 1);

    connect(quantityBox_, &QComboBox::currentIndexChanged, this, [this] { showSelectedQuantity(); });
    connect(&DisplayUnits::instance(), &DisplayUnits::changed, this, [this] { showSelectedQuantity(); });
    connect(keepButton_, &QPushButton::clicked, this, [this] { keepForComparison(); });
    connect(clearComparisonButton_, &QPushButton::clicked, this, &PlotPanel::clearComparison);
    connect(resetZoom, &QPushButton::clicked, this, &PlotPanel::resetZoom);
    showComparison();
    clear();
}

QString PlotPanel::chartName(Chart chart)
{
    switch (chart) {
    case Chart::Violation:
        return tr("Constraint violation");
    case Chart::Energy:
        return tr("Energy");
    case Chart::JointQuantity:
        return tr("Joint quantity");
    }
    return {};
}

QChartView* PlotPanel::chartView(Chart chart) const { return views_[static_cast<size_t>(chart)]; }

QLineSeries* PlotPanel::addVerticalLine(QChart* chart, QAbstractAxis* yAxis, const QPen& pen)
{
    auto* line = new QLineSeries;
    line->setPen(pen);
    chart->addSeries(line);
    for (QAbstractAxis* axis : chart->axes(Qt::Horizontal))
        line->attachAxis(axis);
    line->attachAxis(yAxis);
    // Legend entries for cursor and markers would crowd out the data series.
    hideLegendEntry(chart, line);
    return line;
}

void PlotPanel::setRecording(const SimulationRecording* recording)
{
    recording_ = recording;
    clear();
}

const std::vector<JointQuantity>& PlotPanel::quantities() const
{
    // Between runs (after Reset) the kept run still names what can be compared.
    if (recording_ && !recording_->quantities().empty())
        return recording_->quantities();
    return comparison_.quantities();
}

void PlotPanel::refreshQuantityList()
{
    const QString previous = jointQuantity();
    const auto& list = quantities();
    {
        const QSignalBlocker block(quantityBox_);
        quantityBox_->clear();
        for (const JointQuantity& q : list)
            quantityBox_->addItem(q.label, q.key);
        int index = findQuantity(list, previous);
        if (index < 0 && !list.empty())
            index = 0;
        quantityBox_->setCurrentIndex(index);
    }
    showSelectedQuantity();
}

QString PlotPanel::jointQuantity() const
{
    return quantityBox_->currentIndex() >= 0 ? quantityBox_->currentData().toString() : QString();
}

bool PlotPanel::setJointQuantity(const QString& key)
{
    const int index = quantityBox_->findData(key);
    if (index < 0)
        return false;
    quantityBox_->setCurrentIndex(index);
    return true;
}

void PlotPanel::showSelectedQuantity()
{
    const auto& list = quantities();
    selected_ = findQuantity(list, jointQuantity());
    const JointQuantity* q = selected_ >= 0 ? &list[static_cast<size_t>(selected_)] : nullptr;
    quantity_->setName(q ? q->label : QString());
    // The legend names the quantity; the axis has room for its unit only.
    quantityAxis_->setTitleText(q ? DisplayUnits::instance().choice().unit(q->unit) : QString());
    // Drawn in the chosen display units; q_ (and the CSV export) stay in SI.
    const double shown = q ? DisplayUnits::instance().choice().factor(q->unit) : 1.0;

    // The current run's values come from its recording: the choice may change after
    // the frames arrived.
    q_.clear();
    haveQuantityRange_ = false;
    QList<QPointF> points;
    if (q && recording_) {
        for (const RecordedFrame& f : recording_->frames()) {
            const double si = q->valueIn(f);
            q_.push_back(si);
            const double v = shown * si;
            if (!std::isfinite(v))
                continue;
            points << QPointF(f.t, v);
            minQuantity_ = haveQuantityRange_ ? std::min(minQuantity_, v) : v;
            maxQuantity_ = haveQuantityRange_ ? std::max(maxQuantity_, v) : v;
            haveQuantityRange_ = true;
        }
    }
    quantityPoints_ = points;
    showPoints(quantity_, quantityPoints_);

    // The kept run shows the same quantity if it has one of that name.
    QList<QPointF> kept;
    const int k = q ? findQuantity(comparison_.quantities(), q->key) : -1;
    if (k >= 0) {
        const JointQuantity& c = comparison_.quantities()[static_cast<size_t>(k)];
        for (const RecordedFrame& f : comparison_.frames()) {
            const double v = shown * c.valueIn(f);
            if (!std::isfinite(v))
                continue;
            kept << QPointF(f.t, v);
            minQuantity_ = haveQuantityRange_ ? std::min(minQuantity_, v) : v;
            maxQuantity_ = haveQuantityRange_ ? std::max(maxQuantity_, v) : v;
            haveQuantityRange_ = true;
        }
    }
    showPoints(cmpQuantity_, kept);
    cmpQuantity_->setVisible(!kept.isEmpty());
    updateRanges();
}

void PlotPanel::clear()
{
    for (QLineSeries* s : {position_, velocity_, acceleration_, energy_, kinetic_, potential_, drift_, quantity_,
                           violationCursor_, energyCursor_, quantityCursor_, work_, balance_})
        s->clear();
    workPoints_.clear();
    balancePoints_.clear();
    const std::shared_ptr<const Model> model = recording_ ? recording_->frameModel() : nullptr;
    // Drivers and applied loads put work in: E − E₀ is then that work, not a drift.
    driven_ = model && hasWorkInput(*model);
    for (QLineSeries* s : {work_, balance_})
        s->setVisible(driven_);
    drift_->setName(driven_ ? tr("E − E₀") : tr("drift E − E₀"));
    driftAxis_->setTitleText(driven_ ? tr("E − E₀, W [J]") : tr("drift [J]"));
    for (QLineSeries* m : markers_) {
        violationChart_->removeSeries(m);
        delete m;
    }
    markers_.clear();
    markerTimes_.clear();
    t_.clear();
    for (QList<QPointF>* points : {&positionPoints_, &velocityPoints_, &accelerationPoints_, &energyPoints_,
                                   &kineticPoints_, &potentialPoints_, &driftPoints_, &quantityPoints_})
        points->clear();
    pos_.clear();
    vel_.clear();
    acc_.clear();
    e_.clear();
    q_.clear();
    cursor_ = -1.0;
    minViolation_ = maxViolation_ = 0.0;
    minEnergy_ = maxEnergy_ = minDrift_ = maxDrift_ = 0.0;
    for (ZoomableChartView* view : views_)
        view->chart()->zoomReset();
    zoomed_.fill(false);
    // Also recomputes the joint quantity (from the now empty or new recording) and the ranges.
    refreshQuantityList();
    updateButtons();
}

void PlotPanel::appendFrames(const std::vector<RecordedFrame>& frames)
{
    if (frames.empty())
        return;
    const JointQuantity* q = selected_ >= 0 ? &quantities()[static_cast<size_t>(selected_)] : nullptr;
    QList<QPointF> p, v, a, e, k, u, d, j;
    const double shownFactor = q ? DisplayUnits::instance().choice().factor(q->unit) : 1.0;
    for (const RecordedFrame& f : frames) {
        t_.push_back(f.t);
        pos_.push_back(f.violation.position);
        vel_.push_back(f.violation.velocity);
        acc_.push_back(f.violation.acceleration);
        e_.push_back(f.energy);
        const double drift = f.energy - e_.front();
        const double vp = violationPoint(f.violation.position);
        const double vv = violationPoint(f.violation.velocity);
        const double va = violationPoint(f.violation.acceleration);
        p << QPointF(f.t, vp);
        v << QPointF(f.t, vv);
        a << QPointF(f.t, va);
        e << QPointF(f.t, f.energy);
        k << QPointF(f.t, f.kinetic);
        u << QPointF(f.t, f.energy - f.kinetic);
        d << QPointF(f.t, drift);
        if (driven_) {
            // The work as the run counted it over its steps (WorkCounter.h).
            const double balance = drift - f.work;
            workPoints_ << QPointF(f.t, f.work);
            balancePoints_ << QPointF(f.t, balance);
            minDrift_ = std::min({minDrift_, f.work, balance});
            maxDrift_ = std::max({maxDrift_, f.work, balance});
        }
        const bool first = t_.size() == 1;
        const double lo = std::min({vp, vv, va}), hi = std::max({vp, vv, va});
        minViolation_ = first ? lo : std::min(minViolation_, lo);
        maxViolation_ = first ? hi : std::max(maxViolation_, hi);
        const double elo = std::min({f.energy, f.kinetic, f.energy - f.kinetic});
        const double ehi = std::max({f.energy, f.kinetic, f.energy - f.kinetic});
        minEnergy_ = first ? elo : std::min(minEnergy_, elo);
        maxEnergy_ = first ? ehi : std::max(maxEnergy_, ehi);
        minDrift_ = first ? drift : std::min(minDrift_, drift);
        maxDrift_ = first ? drift : std::max(maxDrift_, drift);
        const double si = q ? q->valueIn(f) : std::nan("");
        q_.push_back(si);
        const double value = shownFactor * si;
        if (std::isfinite(value)) {
            j << QPointF(f.t, value);
            minQuantity_ = haveQuantityRange_ ? std::min(minQuantity_, value) : value;
            maxQuantity_ = haveQuantityRange_ ? std::max(maxQuantity_, value) : value;
            haveQuantityRange_ = true;
        }
    }
    const std::array<std::pair<QLineSeries*, QList<QPointF>*>, 8> live{
        {{position_, &positionPoints_},
         {velocity_, &velocityPoints_},
         {acceleration_, &accelerationPoints_},
         {energy_, &energyPoints_},
         {kinetic_, &kineticPoints_},
         {potential_, &potentialPoints_},
         {drift_, &driftPoints_},
         {quantity_, &quantityPoints_}}};
    const std::array<const QList<QPointF>*, 8> added{&p, &v, &a, &e, &k, &u, &d, &j};
    for (size_t i = 0; i < live.size(); ++i) {
        *live[i].second += *added[i];
        showPoints(live[i].first, *live[i].second);
    }
    if (driven_) {
        showPoints(work_, workPoints_);
        showPoints(balance_, balancePoints_);
    }
    updateRanges();
    updateButtons();
}

void PlotPanel::addSingularMarker(double t)
{
    QPen pen(QColor(230, 120, 0));
    pen.setStyle(Qt::DashLine);
    pen.setWidthF(1.5);
    QLineSeries* line = addVerticalLine(violationChart_, violationAxis_, pen);
    line->setName(tr("singular"));
    markers_.push_back(line);
    markerTimes_.push_back(t);
    updateRanges();
}

void PlotPanel::setCursorTime(double t)
{
    cursor_ = t;
    updateRanges();
}

// --- Comparison ---------------------------------------------------------------------------

bool PlotPanel::keepForComparison()
{
    if (!recording_ || recording_->isEmpty())
        return false;
    comparison_ = *recording_;
    showComparison();
    return true;
}

void PlotPanel::clearComparison()
{
    if (!hasComparison())
        return;
    comparison_.reset();
    showComparison();
}

void PlotPanel::showComparison()
{
    QList<QPointF> p, v, a, e;
    bool first = true;
    for (const RecordedFrame& f : comparison_.frames()) {
        const double vp = violationPoint(f.violation.position);
        const double vv = violationPoint(f.violation.velocity);
        const double va = violationPoint(f.violation.acceleration);
        p << QPointF(f.t, vp);
        v << QPointF(f.t, vv);
        a << QPointF(f.t, va);
        e << QPointF(f.t, f.energy);
        const double lo = std::min({vp, vv, va}), hi = std::max({vp, vv, va});
        cmpMinViolation_ = first ? lo : std::min(cmpMinViolation_, lo);
        cmpMaxViolation_ = first ? hi : std::max(cmpMaxViolation_, hi);
        cmpMinEnergy_ = first ? f.energy : std::min(cmpMinEnergy_, f.energy);
        cmpMaxEnergy_ = first ? f.energy : std::max(cmpMaxEnergy_, f.energy);
        first = false;
    }
    showPoints(cmpPosition_, p);
    showPoints(cmpVelocity_, v);
    showPoints(cmpAcceleration_, a);
    showPoints(cmpEnergy_, e);

    const bool shown = hasComparison();
    const QString label = comparison_.label().isEmpty() ? tr("kept run") : comparison_.label();
    // One legend entry per chart names the kept run; the dashes of the other two
    // violations share it.
    cmpPosition_->setName(tr("%1 (dashed)").arg(label));
    cmpEnergy_->setName(tr("%1 total (dashed)").arg(label));
    cmpQuantity_->setName(tr("%1 (dashed)").arg(label));
    for (QLineSeries* s : {cmpPosition_, cmpVelocity_, cmpAcceleration_, cmpEnergy_})
        s->setVisible(shown);
    hideLegendEntry(violationChart_, cmpVelocity_);
    hideLegendEntry(violationChart_, cmpAcceleration_);
    // The joint quantity overlay depends on the choice; this also updates the ranges.
    refreshQuantityList();
    updateButtons();
}

void PlotPanel::updateButtons()
{
    keepButton_->setEnabled(recording_ && !recording_->isEmpty());
    clearComparisonButton_->setEnabled(hasComparison());
}

// --- Axes -----------------------------------------------------------------------------------

void PlotPanel::resetZoom()
{
    for (ZoomableChartView* view : views_)
        view->chart()->zoomReset();
    zoomed_.fill(false);
    updateRanges();
}

void PlotPanel::updateRanges()
{
    const bool kept = hasComparison();
    double t0 = t_.empty() ? 0.0 : t_.front();
    double t1 = t_.empty() ? 1.0 : t_.back();
    if (kept) {
        t0 = t_.empty() ? comparison_.startTime() : std::min(t0, comparison_.startTime());
        t1 = t_.empty() ? comparison_.endTime() : std::max(t1, comparison_.endTime());
    }
    if (t1 <= t0)
        t1 = t0 + 1e-3;
    const bool violationFree = !isZoomed(Chart::Violation), energyFree = !isZoomed(Chart::Energy),
               quantityFree = !isZoomed(Chart::JointQuantity);
    if (violationFree)
        violationTime_->setRange(t0, t1);
    if (energyFree)
        energyTime_->setRange(t0, t1);
    if (quantityFree)
        quantityTime_->setRange(t0, t1);

    // Whole decades, widened to a multiple of the label stride so labels sit at the ends.
    int decadeLo = -16, decadeHi = -8;
    if (!t_.empty() || kept) {
        double vlo = t_.empty() ? cmpMinViolation_ : minViolation_;
        double vhi = t_.empty() ? cmpMaxViolation_ : maxViolation_;
        if (kept) {
            vlo = std::min(vlo, cmpMinViolation_);
            vhi = std::max(vhi, cmpMaxViolation_);
        }
        decadeLo = static_cast<int>(std::floor(vlo));
        decadeHi = static_cast<int>(std::ceil(vhi));
    }
    const int stride = violationLabelStride(decadeHi - decadeLo, violationLabelsThatFit());
    decadeLo = stride * static_cast<int>(std::floor(static_cast<double>(decadeLo) / stride));
    decadeHi = stride * static_cast<int>(std::ceil(static_cast<double>(decadeHi) / stride));
    if (decadeHi <= decadeLo)
        decadeHi = decadeLo + stride;
    const double lo = decadeLo, hi = decadeHi;
    if (violationFree)
        violationAxis_->setRange(lo, hi);

    if (energyFree) {
        double elo = minEnergy_, ehi = maxEnergy_;
        if (kept) {
            elo = t_.empty() ? cmpMinEnergy_ : std::min(elo, cmpMinEnergy_);
            ehi = t_.empty() ? cmpMaxEnergy_ : std::max(ehi, cmpMaxEnergy_);
        }
        const PlotAxisRange er = plotAxisRange(elo, ehi);
        const bool haveEnergy = !t_.empty() || kept;
        energyAxis_->setRange(er.min, er.max);
        energyAxis_->setTitleText(er.flat && haveEnergy ? tr("E [J], constant %1").arg(er.value, 0, 'g', 10)
                                                        : tr("E [J]"));
        // E − E₀ of a conservative model at rest is rounding noise: the same flat-axis rule.
        const PlotAxisRange dr = plotAxisRange(minDrift_, maxDrift_);
        const QString driftTitle = driven_ ? tr("E − E₀, W [J]") : tr("drift [J]");
        driftAxis_->setRange(dr.min, dr.max);
        driftAxis_->setTitleText(dr.flat && haveEnergy ? tr("%1, constant %2").arg(driftTitle).arg(dr.value, 0, 'g', 10)
                                                       : driftTitle);
    }
    if (quantityFree) {
        const auto& list = quantities();
        const QString unit = selected_ >= 0 && selected_ < static_cast<int>(list.size())
                                 ? DisplayUnits::instance().choice().unit(list[static_cast<size_t>(selected_)].unit)
                                 : QString();
        if (haveQuantityRange_) {
            // Rounding noise on a constant stays a flat line, labelled with its value.
            const PlotAxisRange r = plotAxisRange(minQuantity_, maxQuantity_);
            quantityAxis_->setRange(r.min, r.max);
            quantityAxis_->setTitleText(r.flat ? tr("%1, constant %2").arg(unit).arg(r.value, 0, 'g', 10) : unit);
        } else {
            quantityAxis_->setRange(-1.0, 1.0);
            quantityAxis_->setTitleText(unit);
        }
    }

    auto vertical = [](QLineSeries* s, double t, double y0, double y1) {
        s->replace(QList<QPointF>{QPointF(t, y0), QPointF(t, y1)});
    };
    for (size_t i = 0; i < markers_.size(); ++i)
        vertical(markers_[i], markerTimes_[i], lo, hi);
    if (cursor_ >= 0.0 && !t_.empty()) {
        vertical(violationCursor_, cursor_, lo, hi);
        vertical(energyCursor_, cursor_, energyAxis_->min(), energyAxis_->max());
        vertical(quantityCursor_, cursor_, quantityAxis_->min(), quantityAxis_->max());
    } else {
        violationCursor_->clear();
        energyCursor_->clear();
        quantityCursor_->clear();
    }
}

int PlotPanel::violationLabelStride(double decades, int maxLabels)
{
    return std::max(1, static_cast<int>(std::ceil(decades / std::max(1, maxLabels - 1) - 1e-9)));
}

int PlotPanel::violationLabelsThatFit() const
{
    // Qt Charts elides a label that would come closer than about its own height to the
    // next one; keep 1.8 label heights between ticks. Before the first layout, six.
    const double height = violationChart_->plotArea().height();
    const double label = QFontMetricsF(violationAxis_->labelsFont()).height();
    if (!(height > 0.0) || !(label > 0.0))
        return 6;
    return std::clamp(1 + static_cast<int>(height / (1.8 * label)), 2, 8);
}

double PlotPanel::plottedViolation(double norm) { return std::log10(std::max(norm, kViolationFloor)); }

void PlotPanel::labelViolationAxis()
{
    // A label "1e-12" is the printf format "1e%.0f" applied to the plotted −12. Zoomed in
    // to less than two decades, ticks every 0.1, 0.2 or 0.5 decade (as many as fit) read
    // "1e-11.8" and so on.
    const double span = violationAxis_->max() - violationAxis_->min();
    const bool fine = span < 2.0;
    const int fit = violationLabelsThatFit();
    double interval = violationLabelStride(span, fit);
    if (fine) {
        for (double candidate : {0.1, 0.2, 0.5, 1.0}) {
            interval = candidate;
            if (span / candidate <= fit - 1 + 1e-9)
                break;
        }
    }
    violationAxis_->setTickInterval(interval);
    violationAxis_->setLabelFormat(fine ? "1e%.1f" : "1e%.0f");
}

// --- Export ---------------------------------------------------------------------------------

bool PlotPanel::exportCsv(const QString& path, QString* error) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
        if (error)
            *error = file.errorString();
        return false;
    }
    const QString quantity = jointQuantity();
    const bool withQuantity = !quantity.isEmpty() && q_.size() == t_.size();
    QTextStream out(&file);
    out << "t,violation_position,violation_velocity,violation_acceleration,energy,energy_drift";
    if (withQuantity)
        out << ',' << quantity;
    out << '\n';
    for (size_t i = 0; i < t_.size(); ++i) {
        out << QString::number(t_[i], 'g', 17) << ',' << QString::number(pos_[i], 'g', 17) << ','
            << QString::number(vel_[i], 'g', 17) << ',' << QString::number(acc_[i], 'g', 17) << ','
            << QString::number(e_[i], 'g', 17) << ',' << QString::number(e_[i] - e_.front(), 'g', 17);
        if (withQuantity)
            out << ',' << QString::number(q_[i], 'g', 17);
        out << '\n';
    }
    out.flush();
    if (!file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

bool PlotPanel::exportPng(Chart chart, const QString& path, QString* error) const
{
    const QPixmap image = chartView(chart)->grab();
    if (image.isNull()) {
        if (error)
            *error = tr("The chart has no size to draw.");
        return false;
    }
    return writePngFile(image.toImage(), path, error);
}

}  // namespace looplab::ui
