#pragma once
// The Markers pane: every marker of the model (named frames on bodies that marker-form
// joints connect), with Add, Delete and the marker's body and position in the body frame
// editable. Each change is one undoable document edit; deleting a marker that joints use
// is refused with their names, so no joint is left pointing at nothing.

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QListWidget;
class QPushButton;

namespace looplab::ui {

class WorkbenchDocument;

class MarkerPanel : public QWidget {
    Q_OBJECT

public:
    explicit MarkerPanel(WorkbenchDocument* document, QWidget* parent = nullptr);

    QListWidget* list() const { return list_; }
    QPushButton* addButton() const { return add_; }
    QPushButton* deleteButton() const { return delete_; }
    QComboBox* bodyBox() const { return body_; }
    QDoubleSpinBox* coordinate(int axis) const { return position_[axis]; }
    /// The sentence shown after the last refused action (empty if none).
    QString message() const;

    /// Adds a marker on the body chosen in the body box at its origin and selects it.
    void addMarker();
    /// Deletes the selected marker unless joints use it.
    bool deleteSelected();

private:
    void refresh();
    void showSelected();
    void editSelected();
    int selectedIndex() const;

    WorkbenchDocument* document_;
    QListWidget* list_;
    QComboBox* body_;
    QDoubleSpinBox* position_[3];
    QPushButton* add_;
    QPushButton* delete_;
    QLabel* message_;
    bool filling_ = false;
};

}  // namespace looplab::ui
