#include "study/StudyResultsView.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace looplab::ui {

namespace {

QString cell(double v) { return std::isnan(v) ? QString() : QString::number(v, 'g', 10); }

// Axis range with a margin, and a unit span about a single value.
std::pair<double, double> padded(double lo, double hi) {
    if (!(hi > lo)) {
        const double d = lo != 0 ? 0.05 * std::abs(lo) : 0.5;
        return {lo - d, hi + d};
    }
    const double m = 0.05 * (hi - lo);
    return {lo - m, hi + m};
}

}  // namespace

StudyResultsView::StudyResultsView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    tabs_ = new QTabWidget;
    layout->addWidget(tabs_);

    table_ = new QTableWidget;
    table_->setObjectName("studyResults");
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->setVisible(false);
    table_->setToolTip(tr("Double-click a case to open that variant of the model"));
    tabs_->addTab(table_, tr("Table"));
    connect(table_, &QTableWidget::cellActivated, this, [this](int r, int) {
        if (const QTableWidgetItem* item = table_->item(r, 0)) emit caseActivated(item->text().toLong());
    });

    auto* plotPage = new QWidget;
    auto* plotLayout = new QVBoxLayout(plotPage);
    auto* axes = new QHBoxLayout;
    xAxis_ = new QComboBox;
    xAxis_->setObjectName("studyPlotX");
    yAxis_ = new QComboBox;
    yAxis_->setObjectName("studyPlotY");
    axes->addWidget(new QLabel(tr("Plot")));
    axes->addWidget(yAxis_, 1);
    axes->addWidget(new QLabel(tr("against")));
    axes->addWidget(xAxis_, 1);
    plotLayout->addLayout(axes);
    plot_ = new QChartView(new QChart);
    plot_->setRenderHint(QPainter::Antialiasing);
    plot_->chart()->legend()->hide();
    plot_->setToolTip(tr("Click a point to open that case"));
    plotLayout->addWidget(plot_, 1);
    tabs_->addTab(plotPage, tr("Plot"));
    connect(xAxis_, &QComboBox::currentIndexChanged, this, [this] { redrawPlot(); });
    connect(yAxis_, &QComboBox::currentIndexChanged, this, [this] { redrawPlot(); });

    auto* histPage = new QWidget;
    auto* histLayout = new QVBoxLayout(histPage);
    auto* histTop = new QHBoxLayout;
    histogramOf_ = new QComboBox;
    histogramOf_->setObjectName("studyHistogramOf");
    histTop->addWidget(new QLabel(tr("Histogram of")));
    histTop->addWidget(histogramOf_, 1);
    histLayout->addLayout(histTop);
    histogram_ = new QChartView(new QChart);
    histogram_->chart()->legend()->hide();
    histLayout->addWidget(histogram_, 1);
    tabs_->addTab(histPage, tr("Histogram"));
    connect(histogramOf_, &QComboBox::currentIndexChanged, this, [this] { redrawHistogram(); });
}

void StudyResultsView::reset(const StudyDescription& study) {
    study_ = study;
    valueColumns_ = studyValueColumns(study);
    rows_.clear();
    QStringList header{tr("case")};
    for (const StudyParameter& p : study.parameters) header << QString::fromStdString(p.name);
    header << "ok" << "assembled";
    for (const std::string& c : valueColumns_) header << QString::fromStdString(c);
    header << tr("reason");
    table_->clear();
    table_->setRowCount(0);
    table_->setColumnCount(header.size());
    table_->setHorizontalHeaderLabels(header);
    for (QComboBox* box : {xAxis_, yAxis_, histogramOf_}) {
        box->blockSignals(true);
        box->clear();
    }
    for (const StudyParameter& p : study.parameters) xAxis_->addItem(QString::fromStdString(p.name));
    for (const std::string& c : valueColumns_) {
        yAxis_->addItem(QString::fromStdString(c));
        histogramOf_->addItem(QString::fromStdString(c));
    }
    // The first output rather than an event count of a simulation.
    const int firstOutput = study.analysis.type == StudyAnalysisType::Simulate ? 2 : 0;
    if (yAxis_->count() > firstOutput) {
        yAxis_->setCurrentIndex(firstOutput);
        histogramOf_->setCurrentIndex(firstOutput);
    }
    for (QComboBox* box : {xAxis_, yAxis_, histogramOf_}) box->blockSignals(false);
    tabs_->setTabEnabled(2, study.design == StudyDesign::MonteCarlo);
    refresh();
}

void StudyResultsView::addRow(const StudyRow& row) {
    const bool replace = rows_.count(row.index) > 0;
    auto it = rows_.insert_or_assign(row.index, row).first;
    const int r = int(std::distance(rows_.begin(), it));
    if (!replace) table_->insertRow(r);
    int c = 0;
    // A failed case says why wherever the pointer rests on its row: the reason column is
    // often too narrow for the sentence.
    const QString reason = QString::fromStdString(row.reason);
    const auto set = [&](const QString& text) {
        auto* item = new QTableWidgetItem(text);
        if (!row.ok) {
            item->setForeground(QColor(170, 30, 30));
            item->setToolTip(reason);
        }
        table_->setItem(r, c++, item);
    };
    set(QString::number(row.index));
    for (double p : row.parameters) set(cell(p));
    set(row.ok ? "1" : "0");
    set(row.assembled ? "1" : "0");
    for (double v : row.values) set(cell(v));
    set(reason);
    if (!redrawPending_) {
        redrawPending_ = true;
        // Rows come many per second: the charts follow a few times a second.
        QTimer::singleShot(200, this, [this] {
            if (redrawPending_) refresh();
        });
    }
}

std::vector<StudyRow> StudyResultsView::rows() const {
    std::vector<StudyRow> r;
    for (const auto& [k, row] : rows_) r.push_back(row);
    return r;
}

const StudyRow* StudyResultsView::row(long caseIndex) const {
    const auto it = rows_.find(caseIndex);
    return it == rows_.end() ? nullptr : &it->second;
}

void StudyResultsView::setPlotAxes(int parameter, int value) {
    xAxis_->setCurrentIndex(parameter);
    yAxis_->setCurrentIndex(value);
    histogramOf_->setCurrentIndex(value);
    refresh();
}

void StudyResultsView::refresh() {
    redrawPending_ = false;
    redrawPlot();
    redrawHistogram();
}

double StudyResultsView::value(const StudyRow& row, int column) const {
    return column >= 0 && size_t(column) < row.values.size() ? row.values[size_t(column)] : NAN;
}

std::vector<std::tuple<double, double, long>> StudyResultsView::plotPoints() const {
    std::vector<std::tuple<double, double, long>> pts;
    const int x = xAxis_->currentIndex(), y = yAxis_->currentIndex();
    if (x < 0 || y < 0) return pts;
    for (const auto& [k, row] : rows_) {
        const double v = value(row, y);
        if (size_t(x) < row.parameters.size() && !std::isnan(v)) pts.emplace_back(row.parameters[size_t(x)], v, k);
    }
    std::stable_sort(pts.begin(), pts.end(), [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
    return pts;
}

void StudyResultsView::redrawPlot() {
    QChart* chart = plot_->chart();
    chart->removeAllSeries();
    for (QAbstractAxis* a : chart->axes()) {
        chart->removeAxis(a);
        delete a;
    }
    const auto pts = plotPoints();
    auto* scatter = new QScatterSeries;
    scatter->setMarkerSize(8);
    double xlo = std::numeric_limits<double>::infinity(), xhi = -xlo, ylo = xlo, yhi = -xlo;
    for (const auto& [x, y, k] : pts) {
        scatter->append(x, y);
        xlo = std::min(xlo, x), xhi = std::max(xhi, x), ylo = std::min(ylo, y), yhi = std::max(yhi, y);
    }
    // A sweep's cases joined in parameter order; Monte Carlo points stay a cloud.
    if (study_.design == StudyDesign::Factorial && study_.parameters.size() == 1) {
        auto* line = new QLineSeries;
        for (const auto& [x, y, k] : pts) line->append(x, y);
        chart->addSeries(line);
    }
    chart->addSeries(scatter);
    connect(scatter, &QScatterSeries::clicked, this, [this](const QPointF& p) {
        // The series reports the point whose marker was hit (the top one where markers
        // overlap); failing an exact match, the case nearest on screen.
        long best = -1;
        double bestD = std::numeric_limits<double>::infinity();
        const QPointF at = plot_->chart()->mapToPosition(p);
        for (const auto& [x, y, k] : plotPoints()) {
            if (x == p.x() && y == p.y()) {
                best = k;
                break;
            }
            const QPointF q = plot_->chart()->mapToPosition(QPointF(x, y));
            const double d = std::hypot(q.x() - at.x(), q.y() - at.y());
            if (d < bestD) bestD = d, best = k;
        }
        if (best >= 0) emit caseActivated(best);
    });
    auto* ax = new QValueAxis;
    auto* ay = new QValueAxis;
    ax->setTitleText(xAxis_->currentText());
    ay->setTitleText(yAxis_->currentText());
    if (!pts.empty()) {
        const auto [x0, x1] = padded(xlo, xhi);
        const auto [y0, y1] = padded(ylo, yhi);
        ax->setRange(x0, x1);
        ay->setRange(y0, y1);
    }
    chart->addAxis(ax, Qt::AlignBottom);
    chart->addAxis(ay, Qt::AlignLeft);
    for (QAbstractSeries* s : chart->series()) {
        s->attachAxis(ax);
        s->attachAxis(ay);
    }
}

void StudyResultsView::redrawHistogram() {
    edges_.clear();
    counts_.clear();
    QChart* chart = histogram_->chart();
    chart->removeAllSeries();
    for (QAbstractAxis* a : chart->axes()) {
        chart->removeAxis(a);
        delete a;
    }
    const int column = histogramOf_->currentIndex();
    std::vector<double> v;
    for (const auto& [k, row] : rows_)
        if (!std::isnan(value(row, column))) v.push_back(value(row, column));
    if (v.empty()) return;
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    // Sturges' rule: ⌈log₂ n⌉ + 1 bins of equal width.
    const int bins = v.size() < 2 || *hi == *lo ? 1 : int(std::ceil(std::log2(double(v.size())))) + 1;
    const double width = bins > 1 ? (*hi - *lo) / bins : 1.0;
    for (int b = 0; b <= bins; ++b) edges_.push_back(*lo + width * b);
    counts_.assign(size_t(bins), 0);
    for (double x : v) counts_[size_t(std::clamp(int((x - *lo) / width), 0, bins - 1))]++;
    auto* set = new QBarSet(histogramOf_->currentText());
    QStringList labels;
    int most = 0;
    for (int b = 0; b < bins; ++b) {
        *set << counts_[size_t(b)];
        most = std::max(most, counts_[size_t(b)]);
        labels << QString::number(0.5 * (edges_[size_t(b)] + edges_[size_t(b) + 1]), 'g', 4);
    }
    auto* series = new QBarSeries;
    series->setBarWidth(1.0);
    series->append(set);
    chart->addSeries(series);
    auto* ax = new QBarCategoryAxis;
    ax->append(labels);
    ax->setTitleText(histogramOf_->currentText() + tr(" (bin centres)"));
    auto* ay = new QValueAxis;
    ay->setRange(0, most);
    ay->setTitleText(tr("cases"));
    chart->addAxis(ax, Qt::AlignBottom);
    chart->addAxis(ay, Qt::AlignLeft);
    series->attachAxis(ax);
    series->attachAxis(ay);
}

}  // namespace looplab::ui
