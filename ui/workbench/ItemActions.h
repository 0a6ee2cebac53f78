#pragma once
// What is done to the model tree's items: added (the Edit menu and the tree's context
// menu), duplicated, renamed in place, deleted (after naming what uses them), and, from
// the context menu, a node's trail and a body point's trace.

#include "document/DocumentOperations.h"

#include <QObject>

class QMainWindow;
class QPoint;
class QTreeView;

namespace looplab::ui {

class ModelTreeModel;
class SceneDisplay;
class TracePanel;
class WorkbenchDocument;

class ItemActions : public QObject {
    Q_OBJECT

public:
    /// While `confirm` is false, items with dependants are deleted without asking.
    ItemActions(QMainWindow* window, WorkbenchDocument* document, ModelTreeModel* treeModel, QTreeView* treeView,
                TracePanel* traces, SceneDisplay* scene, const bool& confirm);

    /// Adds an item of `kind` with one undoable edit and selects it.
    void addItem(ItemKind kind);
    void duplicateItem(ItemRef item);
    void deleteItem(ItemRef item);

private:
    void showContextMenu(const QPoint& pos);

    QMainWindow* window_;
    WorkbenchDocument* document_;
    ModelTreeModel* treeModel_;
    QTreeView* treeView_;
    TracePanel* traces_;
    SceneDisplay* scene_;
    const bool& confirm_;
};

}  // namespace looplab::ui
