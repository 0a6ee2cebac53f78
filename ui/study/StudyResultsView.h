#pragma once
// The results of a study in the Study panel: a table with one row per case (the columns of
// the CSV file), a plot of an output against a parameter (the cases as points, joined in
// parameter order for a sweep) and a histogram of an output over the cases (for Monte Carlo
// studies). Activating a case — a table row, a point of the plot — asks to open it.

#include "looplab/study/StudyDescription.h"
#include "looplab/study/StudyTable.h"

#include <QWidget>

#include <map>
#include <vector>

class QChartView;
class QComboBox;
class QTableWidget;
class QTabWidget;

namespace looplab::ui {

class StudyResultsView : public QWidget {
    Q_OBJECT

public:
    explicit StudyResultsView(QWidget* parent = nullptr);

    /// Forgets the rows and takes the columns of `study`.
    void reset(const StudyDescription& study);
    /// Adds (or replaces) the row of one case; the table stays in case order.
    void addRow(const StudyRow& row);
    /// The rows so far, in case order.
    std::vector<StudyRow> rows() const;
    const StudyRow* row(long caseIndex) const;

    /// Plot output column `value` (index into studyValueColumns) against parameter `parameter`.
    void setPlotAxes(int parameter, int value);
    /// The plotted points (x, y, case) of cases with a value, in parameter order.
    std::vector<std::tuple<double, double, long>> plotPoints() const;
    /// The histogram's bin edges and counts of the current output.
    std::vector<double> histogramEdges() const { return edges_; }
    std::vector<int> histogramCounts() const { return counts_; }

    /// Redraws the plot and the histogram now (they follow new rows a moment later).
    void refresh();

    QTableWidget* table() const { return table_; }
    QTabWidget* tabs() const { return tabs_; }
    QChartView* plotView() const { return plot_; }

signals:
    void caseActivated(long caseIndex);

private:
    void redrawPlot();
    void redrawHistogram();
    double value(const StudyRow& row, int column) const;

    StudyDescription study_;
    std::vector<std::string> valueColumns_;
    std::map<long, StudyRow> rows_;
    QTabWidget* tabs_;
    QTableWidget* table_;
    QComboBox* xAxis_;
    QComboBox* yAxis_;
    QComboBox* histogramOf_;
    QChartView* plot_;
    QChartView* histogram_;
    std::vector<double> edges_;
    std::vector<int> counts_;
    bool redrawPending_ = false;
};

}  // namespace looplab::ui
