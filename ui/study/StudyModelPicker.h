#pragma once
// The model tree of the Study panel: the model file's items (bodies, joints, markers,
// drivers, forces, ...) by name, each with the numbers it holds (a body's mass, a joint's
// point components, a marker's position, a driver's rate, a spring's stiffness). Choosing
// a number asks to vary it, by its JSON pointer into the model file (docs/study-format.md).

#include <QString>
#include <QTreeWidget>

namespace looplab::ui {

class StudyModelPicker : public QTreeWidget {
    Q_OBJECT

public:
    explicit StudyModelPicker(QWidget* parent = nullptr);

    /// Lists the numbers of a model file's JSON text (empty or invalid: an empty tree).
    void setModelText(const QByteArray& json);
    /// The item of the number at `pointer`, or null.
    QTreeWidgetItem* itemForPointer(const QString& pointer) const;

    static constexpr int kPointerRole = Qt::UserRole + 1;
    static constexpr int kValueRole = Qt::UserRole + 2;

signals:
    /// A number was chosen (double-click or Enter): its pointer and its value in the file.
    void numberPicked(const QString& pointer, double value);
};

}  // namespace looplab::ui
