#include "comparison/ComparisonPanel.h"

#include "looplab/integrate/MethodRegistry.h"

#include <QChart>
#include <QChartView>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QLogValueAxis>
#include <QPushButton>
#include <QTableWidget>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace looplab::ui {

namespace {

const char* const kCurveTitles[] = {"position violation [m] (log)", "energy [J]", "largest joint reaction [N]",
                                    "cost: steps taken"};

}  // namespace

ComparisonPanel::ComparisonPanel(QWidget* parent)
    : QWidget(parent), runner_(new MethodComparisonRunner(this)) {
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    pairs_ = new QListWidget;
    pairs_->setObjectName("comparisonPairs");
    for (const ConstraintMethodInfo& m : constraintMethods())
        for (const IntegratorInfo& i : integrators())
            if (isSupportedPair(m.name, i.name)) {
                auto* item = new QListWidgetItem(QString::fromStdString(m.name + "/" + i.name), pairs_);
                item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
                item->setCheckState(Qt::Unchecked);
            }
    pairs_->setMaximumWidth(260);
    top->addWidget(pairs_);
    auto* buttons = new QVBoxLayout;
    compare_ = new QPushButton(tr("Compare"));
    cancel_ = new QPushButton(tr("Cancel"));
    cancel_->setEnabled(false);
    status_ = new QLabel;
    status_->setWordWrap(true);
    buttons->addWidget(compare_);
    buttons->addWidget(cancel_);
    buttons->addWidget(status_);
    buttons->addStretch();
    top->addLayout(buttons);
    table_ = new QTableWidget(0, ColumnCount);
    table_->setHorizontalHeaderLabels({tr("method/integrator"), tr("status"), tr("wall time [s]"), tr("steps"),
                                       tr("max |Φ| [m]"), tr("max |Φ̇|"), tr("max |Φ̈|")});
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    top->addWidget(table_, 1);
    layout->addLayout(top);
    auto* grid = new QGridLayout;
    for (int k = 0; k < 4; ++k) {
        auto* chart = new QChart;
        chart->setTitle(tr(kCurveTitles[k]));
        chart->legend()->setVisible(k == 0);
        auto* view = new QChartView(chart);
        // One row of charts: the dock shares the window's height with the 3D view, and two
        // rows would force the whole bottom dock area taller than the view itself.
        view->setMinimumHeight(120);
        grid->addWidget(view, 0, k);
        charts_.push_back(chart);
    }
    layout->addLayout(grid, 1);

    connect(compare_, &QPushButton::clicked, this, &ComparisonPanel::compareRequested);
    connect(cancel_, &QPushButton::clicked, runner_, &MethodComparisonRunner::cancel);
    connect(runner_, &MethodComparisonRunner::progress, this, [this](int index, double t) {
        if (index < table_->rowCount()) table_->item(index, StatusColumn)->setText(tr("running, t = %1 s").arg(t));
    });
    connect(runner_, &MethodComparisonRunner::pairFinished, this, &ComparisonPanel::showResult);
    connect(runner_, &MethodComparisonRunner::allFinished, this, [this] {
        compare_->setEnabled(true);
        cancel_->setEnabled(false);
        status_->setText(tr("done"));
    });
}

std::vector<ComparisonPair> ComparisonPanel::checkedPairs() const {
    std::vector<ComparisonPair> out;
    for (int k = 0; k < pairs_->count(); ++k) {
        if (pairs_->item(k)->checkState() != Qt::Checked) continue;
        const std::string label = pairs_->item(k)->text().toStdString();
        const size_t slash = label.find('/');
        out.push_back({label.substr(0, slash), label.substr(slash + 1)});
    }
    return out;
}

void ComparisonPanel::setCheckedPairs(const std::vector<ComparisonPair>& pairs) {
    for (int k = 0; k < pairs_->count(); ++k) {
        const QString text = pairs_->item(k)->text();
        const bool on = std::any_of(pairs.begin(), pairs.end(), [&](const ComparisonPair& p) { return p.label() == text; });
        pairs_->item(k)->setCheckState(on ? Qt::Checked : Qt::Unchecked);
    }
}

bool ComparisonPanel::compare(std::shared_ptr<const Model> model, const State& start, const SimulationSettings& base) {
    const std::vector<ComparisonPair> pairs = checkedPairs();
    if (!model) {
        status_->setText(tr("the model does not build"));
        return false;
    }
    if (pairs.empty()) {
        status_->setText(tr("tick at least one method/integrator pair"));
        return false;
    }
    table_->setRowCount(int(pairs.size()));
    for (int r = 0; r < int(pairs.size()); ++r) {
        for (int c = 0; c < ColumnCount; ++c) table_->setItem(r, c, new QTableWidgetItem);
        table_->item(r, PairColumn)->setText(pairs[size_t(r)].label());
        table_->item(r, StatusColumn)->setText(tr("running"));
    }
    for (QChart* chart : charts_) chart->removeAllSeries();
    if (!runner_->start(std::move(model), start, base, pairs)) return false;
    compare_->setEnabled(false);
    cancel_->setEnabled(true);
    status_->setText(tr("running %n pair(s) in parallel", "", int(pairs.size())));
    return true;
}

void ComparisonPanel::showResult(int index) {
    const ComparisonResult& r = runner_->results()[size_t(index)];
    if (index >= table_->rowCount()) return;
    table_->item(index, StatusColumn)->setText(r.ok ? tr("ok") : r.message);
    table_->item(index, StatusColumn)->setToolTip(r.message);
    table_->item(index, WallTimeColumn)->setText(QString::number(r.wallTime, 'g', 4));
    table_->item(index, StepsColumn)->setText(QString::number(r.stepCount));
    table_->item(index, PositionColumn)->setText(QString::number(r.maxViolation.position, 'g', 3));
    table_->item(index, VelocityColumn)->setText(QString::number(r.maxViolation.velocity, 'g', 3));
    table_->item(index, AccelerationColumn)->setText(QString::number(r.maxViolation.acceleration, 'g', 3));
    redrawCurves();
}

void ComparisonPanel::redrawCurves() {
    for (size_t c = 0; c < charts_.size(); ++c) {
        QChart* chart = charts_[c];
        chart->removeAllSeries();
        for (QAbstractAxis* axis : chart->axes()) {
            chart->removeAxis(axis);
            delete axis;
        }
        auto* x = new QValueAxis;
        x->setTitleText(tr("t [s]"));
        QAbstractAxis* y = nullptr;
        if (c == 0) {
            auto* log = new QLogValueAxis;
            log->setLabelFormat("%.0e");
            y = log;
        } else {
            y = new QValueAxis;
        }
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        double lo = 1e300, hi = -1e300, t0 = 1e300, t1 = -1e300;
        for (const ComparisonResult& r : runner_->results()) {
            if (!r.finished || r.t.empty()) continue;
            const std::vector<double>& v = c == 0 ? r.violation : c == 1 ? r.energy : c == 2 ? r.reaction : r.steps;
            auto* s = new QLineSeries;
            s->setName(r.pair.label());
            for (size_t k = 0; k < r.t.size(); ++k) {
                // A log axis cannot show zero: the rounding floor stands in for it.
                const double value = c == 0 ? std::max(v[k], 1e-18) : v[k];
                s->append(r.t[k], value);
                lo = std::min(lo, value), hi = std::max(hi, value);
            }
            t0 = std::min(t0, r.t.front()), t1 = std::max(t1, r.t.back());
            chart->addSeries(s);
            s->attachAxis(x);
            s->attachAxis(y);
        }
        if (lo <= hi) {
            x->setRange(t0, t1 > t0 ? t1 : t0 + 1.0);
            if (c == 0)
                y->setRange(std::pow(10.0, std::floor(std::log10(lo))), std::pow(10.0, std::ceil(std::log10(hi)) + 1e-9));
            else
                y->setRange(lo, hi > lo ? hi : lo + 1.0);
        }
    }
}

}  // namespace looplab::ui
