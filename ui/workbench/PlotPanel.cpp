#include "workbench/PlotPanel.h"

#include <QChart>
#include <QChartView>
#include <QFile>
#include <QGraphicsLayout>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QSaveFile>
#include <QTextStream>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace looplab::ui {

namespace {

// A log axis cannot show zero; an exactly satisfied constraint is drawn at this floor.
constexpr double kViolationFloor = 1e-18;

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

QChart* makeChart(const QString& title)
{
    auto* chart = new QChart;
    chart->setTitle(title);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    return chart;
}

}  // namespace

PlotPanel::PlotPanel(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    violationChart_ = makeChart(tr("Constraint violation"));
    position_ = makeSeries(tr("position [m]"), QColor(200, 60, 40));
    velocity_ = makeSeries(tr("velocity [m/s]"), QColor(40, 110, 200));
    acceleration_ = makeSeries(tr("acceleration [m/s²]"), QColor(60, 160, 80));
    violationTime_ = new QValueAxis;
    violationTime_->setTitleText(tr("t [s]"));
    violationAxis_ = new QLogValueAxis;
    violationAxis_->setLabelFormat("%.0e");
    violationAxis_->setMinorTickCount(0);
    violationAxis_->setBase(10.0);
    violationChart_->addAxis(violationTime_, Qt::AlignBottom);
    violationChart_->addAxis(violationAxis_, Qt::AlignLeft);
    for (QLineSeries* s : {position_, velocity_, acceleration_}) {
        violationChart_->addSeries(s);
        s->attachAxis(violationTime_);
        s->attachAxis(violationAxis_);
    }

    energyChart_ = makeChart(tr("Energy"));
    energy_ = makeSeries(tr("total [J]"), QColor(120, 60, 160));
    kinetic_ = makeSeries(tr("kinetic [J]"), QColor(90, 170, 200));
    potential_ = makeSeries(tr("potential [J]"), QColor(150, 150, 150));
    drift_ = makeSeries(tr("drift E − E₀ [J]"), QColor(220, 140, 20));
    // Drawn thin and dashed: its shape equals the total's, only its axis differs.
    QPen driftPen = drift_->pen();
    driftPen.setStyle(Qt::DashLine);
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
    for (QLineSeries* s : {energy_, kinetic_, potential_}) {
        energyChart_->addSeries(s);
        s->attachAxis(energyTime_);
        s->attachAxis(energyAxis_);
    }
    energyChart_->addSeries(drift_);
    drift_->attachAxis(energyTime_);
    drift_->attachAxis(driftAxis_);

    QPen cursorPen(Qt::black);
    cursorPen.setWidthF(1.0);
    violationCursor_ = addVerticalLine(violationChart_, cursorPen);
    energyCursor_ = addVerticalLine(energyChart_, cursorPen);

    violationView_ = new QChartView(violationChart_);
    violationView_->setRenderHint(QPainter::Antialiasing);
    energyView_ = new QChartView(energyChart_);
    energyView_->setRenderHint(QPainter::Antialiasing);
    layout->addWidget(violationView_);
    layout->addWidget(energyView_);
    clear();
}

QLineSeries* PlotPanel::addVerticalLine(QChart* chart, const QPen& pen)
{
    auto* line = new QLineSeries;
    line->setPen(pen);
    chart->addSeries(line);
    for (QAbstractAxis* axis : chart->axes(Qt::Horizontal))
        line->attachAxis(axis);
    // Markers belong to the left axis of either chart.
    line->attachAxis(chart == violationChart_ ? static_cast<QAbstractAxis*>(violationAxis_) : energyAxis_);
    // Legend entries for cursor and markers would crowd out the data series.
    const auto legendMarkers = chart->legend()->markers(line);
    for (auto* m : legendMarkers)
        m->setVisible(false);
    return line;
}

void PlotPanel::clear()
{
    for (QLineSeries* s : {position_, velocity_, acceleration_, energy_, kinetic_, potential_, drift_, violationCursor_,
                           energyCursor_})
        s->clear();
    for (QLineSeries* m : markers_) {
        violationChart_->removeSeries(m);
        delete m;
    }
    markers_.clear();
    markerTimes_.clear();
    t_.clear();
    pos_.clear();
    vel_.clear();
    acc_.clear();
    e_.clear();
    cursor_ = -1.0;
    minViolation_ = maxViolation_ = 0.0;
    minEnergy_ = maxEnergy_ = minDrift_ = maxDrift_ = 0.0;
    updateRanges();
}

void PlotPanel::appendFrames(const std::vector<RecordedFrame>& frames)
{
    if (frames.empty())
        return;
    QList<QPointF> p, v, a, e, k, u, d;
    for (const RecordedFrame& f : frames) {
        t_.push_back(f.t);
        pos_.push_back(f.violation.position);
        vel_.push_back(f.violation.velocity);
        acc_.push_back(f.violation.acceleration);
        e_.push_back(f.energy);
        const double drift = f.energy - e_.front();
        const double vp = std::max(f.violation.position, kViolationFloor);
        const double vv = std::max(f.violation.velocity, kViolationFloor);
        const double va = std::max(f.violation.acceleration, kViolationFloor);
        p << QPointF(f.t, vp);
        v << QPointF(f.t, vv);
        a << QPointF(f.t, va);
        e << QPointF(f.t, f.energy);
        k << QPointF(f.t, f.kinetic);
        u << QPointF(f.t, f.energy - f.kinetic);
        d << QPointF(f.t, drift);
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
    }
    position_->append(p);
    velocity_->append(v);
    acceleration_->append(a);
    energy_->append(e);
    kinetic_->append(k);
    potential_->append(u);
    drift_->append(d);
    updateRanges();
}

void PlotPanel::addSingularMarker(double t)
{
    QPen pen(QColor(230, 120, 0));
    pen.setStyle(Qt::DashLine);
    pen.setWidthF(1.5);
    QLineSeries* line = addVerticalLine(violationChart_, pen);
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

void PlotPanel::updateRanges()
{
    const double t0 = t_.empty() ? 0.0 : t_.front();
    double t1 = t_.empty() ? 1.0 : t_.back();
    if (t1 <= t0)
        t1 = t0 + 1e-3;
    violationTime_->setRange(t0, t1);
    energyTime_->setRange(t0, t1);

    // Labels sit at powers of the axis base; with many decades in a short chart they
    // would not fit, so the base grows to keep about five labels, and the range is
    // aligned to its powers.
    int decadeLo = -16, decadeHi = -8;
    if (!t_.empty()) {
        decadeLo = static_cast<int>(std::floor(std::log10(minViolation_)));
        decadeHi = static_cast<int>(std::ceil(std::log10(maxViolation_)));
    }
    const int stride = std::max(1, (decadeHi - decadeLo + 4) / 5);
    decadeLo = stride * static_cast<int>(std::floor(static_cast<double>(decadeLo) / stride));
    decadeHi = stride * static_cast<int>(std::ceil(static_cast<double>(decadeHi) / stride));
    if (decadeHi <= decadeLo)
        decadeHi = decadeLo + stride;
    const double lo = std::pow(10.0, decadeLo), hi = std::pow(10.0, decadeHi);
    violationAxis_->setBase(std::pow(10.0, stride));
    violationAxis_->setRange(lo, hi);

    auto padded = [](double a, double b, QValueAxis* axis) {
        double pad = 0.05 * (b - a);
        if (pad <= 0.0)
            pad = std::max(1e-12, 1e-6 * std::abs(a));
        axis->setRange(a - pad, b + pad);
    };
    padded(minEnergy_, maxEnergy_, energyAxis_);
    padded(minDrift_, maxDrift_, driftAxis_);

    auto vertical = [](QLineSeries* s, double t, double y0, double y1) {
        s->replace(QList<QPointF>{QPointF(t, y0), QPointF(t, y1)});
    };
    for (size_t i = 0; i < markers_.size(); ++i)
        vertical(markers_[i], markerTimes_[i], lo, hi);
    if (cursor_ >= 0.0 && !t_.empty()) {
        vertical(violationCursor_, cursor_, lo, hi);
        vertical(energyCursor_, cursor_, energyAxis_->min(), energyAxis_->max());
    } else {
        violationCursor_->clear();
        energyCursor_->clear();
    }
}

bool PlotPanel::exportCsv(const QString& path, QString* error) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
        if (error)
            *error = file.errorString();
        return false;
    }
    QTextStream out(&file);
    out << "t,violation_position,violation_velocity,violation_acceleration,energy,energy_drift\n";
    for (size_t i = 0; i < t_.size(); ++i)
        out << QString::number(t_[i], 'g', 17) << ',' << QString::number(pos_[i], 'g', 17) << ','
            << QString::number(vel_[i], 'g', 17) << ',' << QString::number(acc_[i], 'g', 17) << ','
            << QString::number(e_[i], 'g', 17) << ',' << QString::number(e_[i] - e_.front(), 'g', 17) << '\n';
    out.flush();
    if (!file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

}  // namespace looplab::ui
