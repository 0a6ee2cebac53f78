#pragma once
// Typed editors for the selected item of the document: spin boxes with units for
// numbers, three spin boxes for vectors, combo boxes for types and for the bodies and
// joints an item refers to. Each change becomes one undoable document edit; stepping
// the same field repeatedly merges into one undo step.
//
// Each editor widget is named after its field ("mass", "position.x", "body1", ...) so
// that tests and accessibility tools can find it.

#include "workbench/DocumentOperations.h"

#include <QWidget>

#include <functional>
#include <vector>

class QFormLayout;
class QLabel;
class QScrollArea;

namespace looplab::ui {

class WorkbenchDocument;

class PropertyEditor : public QWidget {
    Q_OBJECT

public:
    explicit PropertyEditor(WorkbenchDocument* document, QWidget* parent = nullptr);

    /// Shows the editors of `item`; an invalid reference shows the model's own
    /// properties (name, gravity).
    void setItem(ItemRef item);
    ItemRef item() const { return item_; }

private:
    using Getter = std::function<double(const ModelDocument&)>;
    using Setter = std::function<void(ModelDocument&, double)>;
    using VecGetter = std::function<Vec3(const ModelDocument&)>;
    using VecSetter = std::function<void(ModelDocument&, const Vec3&)>;
    using TextGetter = std::function<QString(const ModelDocument&)>;
    using TextSetter = std::function<void(ModelDocument&, const QString&)>;

    void rebuild();
    void refresh();
    void onDocumentChanged(bool structural);
    QString signature() const;

    void addName();
    void addNumber(const QString& label, const QString& key, const QString& unit, Getter get, Setter set,
                   double minimum = -1e9, double maximum = 1e9, int decimals = 6);
    void addVector(const QString& label, const QString& key, const QString& unit, VecGetter get, VecSetter set);
    void addChoice(const QString& label, const QString& key, const QStringList& options, TextGetter get,
                   TextSetter set);
    void addBodyFields();
    void addJointFields();
    void addDriverFields();
    void addForceFields();
    void addModelFields();

    void commit(const QString& key, const std::function<void(ModelDocument&)>& change);
    QStringList bodyChoices() const;
    QStringList jointChoices() const;

    WorkbenchDocument* document_;
    ItemRef item_;
    QString signature_;
    QScrollArea* scroll_ = nullptr;
    QWidget* form_ = nullptr;
    QFormLayout* layout_ = nullptr;
    QLabel* title_ = nullptr;
    std::vector<std::function<void()>> refreshers_;
};

}  // namespace looplab::ui
