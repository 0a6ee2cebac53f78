#pragma once
// The list of things a user should look at: redundant constraints, rank changes and
// singular configurations with their times, solver failures with their reasons, and what
// the start of a run gave its flexible members (the vibration a rest start sets ringing).
// Activating an entry asks for playback to seek to its time and for its joints to be
// highlighted. A stiff model's entry carries a button that switches the run to the method
// suggested instead.

#include "looplab/simulation/Simulation.h"

#include <QStringList>
#include <QWidget>

class QPushButton;
class QTreeWidget;
class QTextBrowser;
class QTreeWidgetItem;

namespace looplab::ui {

class WarningsPanel : public QWidget {
    Q_OBJECT

public:
    explicit WarningsPanel(QWidget* parent = nullptr);

    void clear();
    /// Adds an event reported by the simulator.
    void addEvent(const SimulationEvent& event);
    /// Adds a message that did not come as an event (e.g. the reason a run failed).
    void addMessage(const QString& kind, const QString& text, double t = -1.0, const QStringList& joints = {});
    /// A finding about the model as it is now (why it does not assemble, a joint off its
    /// link): shown above the rows of the last run, which describe a recording, in the
    /// order added.
    void addModelFinding(const QString& kind, const QString& text, const QStringList& joints = {});
    /// Removes the model's findings, keeping the run's rows.
    void clearModelFindings();

    int count() const;
    /// Kind ("singular_configuration", ...) and time of entry i; time −1 if it has none.
    QString kindAt(int i) const;
    double timeAt(int i) const;
    /// Emits entryActivated for entry i, as a click would.
    void activate(int i);

    QTreeWidget* view() const { return tree_; }
    /// The pane under the list that shows the current entry's whole text, word-wrapped.
    QTextBrowser* detailView() const { return detail_; }

    /// The button of entry i that switches to a suggested method, or nullptr.
    QPushButton* remedyButton(int i) const;

signals:
    void entryActivated(const QString& kind, double t, const QStringList& joints);
    /// The user asked to run with this method (its default integrator and tolerances).
    void methodSwitchRequested(const QString& method);

private:
    void onActivated(QTreeWidgetItem* item);
    void insertMessage(int row, const QString& kind, const QString& text, double t, const QStringList& joints);

    void showDetail(QTreeWidgetItem* item);

    QTreeWidget* tree_;
    QTextBrowser* detail_;
    int findings_ = 0;  ///< the model's findings: the first rows
};

}  // namespace looplab::ui
