#pragma once
// The method comparison: the user ticks several method/integrator pairs, runs the
// current model with all of them at once (MethodComparisonRunner, one thread each) and
// sees their violation, energy, reaction and cost (cumulative steps) curves overlaid,
// with a table of wall time, steps and largest violations per pair.

#include "comparison/MethodComparisonRunner.h"

#include <QWidget>

class QChart;
class QListWidget;
class QPushButton;
class QLabel;
class QTableWidget;

namespace looplab::ui {

class ComparisonPanel : public QWidget {
    Q_OBJECT

public:
    explicit ComparisonPanel(QWidget* parent = nullptr);

    /// The ticked pairs, in the registry's order.
    std::vector<ComparisonPair> checkedPairs() const;
    /// Ticks exactly these pairs (others unticked; unknown ones ignored).
    void setCheckedPairs(const std::vector<ComparisonPair>& pairs);
    /// Runs the ticked pairs on the model with `base`'s end time, tolerances and steps.
    bool compare(std::shared_ptr<const Model> model, const State& start, const SimulationSettings& base);

    MethodComparisonRunner* runner() const { return runner_; }
    QTableWidget* table() const { return table_; }
    QPushButton* compareButton() const { return compare_; }

    /// Table columns.
    enum Column { PairColumn, StatusColumn, WallTimeColumn, StepsColumn, PositionColumn, VelocityColumn,
                  AccelerationColumn, ColumnCount };

signals:
    /// Compare was pressed: the owner answers with compare() and the current model.
    void compareRequested();

private:
    void showResult(int index);
    void redrawCurves();

    QListWidget* pairs_;
    QPushButton* compare_;
    QPushButton* cancel_;
    QLabel* status_;
    QTableWidget* table_;
    std::vector<QChart*> charts_;  // violation, energy, reaction, cost
    MethodComparisonRunner* runner_;
};

}  // namespace looplab::ui
