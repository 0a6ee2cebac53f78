#include "workbench/ItemActions.h"

#include "overlays/TracePanel.h"
#include "overlays/Trails.h"
#include "workbench/ModelTreeModel.h"
#include "workbench/SceneDisplay.h"
#include "document/WorkbenchDocument.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>
#include <QTreeView>

namespace looplab::ui {

ItemActions::ItemActions(QMainWindow* window, WorkbenchDocument* document, ModelTreeModel* treeModel,
                         QTreeView* treeView, TracePanel* traces, SceneDisplay* scene, const bool& confirm)
    : window_(window), document_(document), treeModel_(treeModel), treeView_(treeView), traces_(traces),
      scene_(scene), confirm_(confirm)
{
    connect(treeView_, &QTreeView::customContextMenuRequested, this, &ItemActions::showContextMenu);
}

void ItemActions::showContextMenu(const QPoint& pos)
{
    const QModelIndex index = treeView_->indexAt(pos);
    const ItemKind kind = treeModel_->kindAt(index);
    const ItemRef item = treeModel_->itemAt(index);
    Trails* trails = scene_->trails();
    QMenu menu(window_);
    menu.addAction(tr("Add %1").arg(ModelTreeModel::kindName(kind)), this, [this, kind] { addItem(kind); });
    if (item.valid()) {
        menu.addAction(tr("Duplicate"), this, [this, item] { duplicateItem(item); });
        menu.addAction(tr("Rename"), this, [this, index] { treeView_->edit(index); });
        menu.addAction(tr("Delete"), this, [this, item] { deleteItem(item); });
        if (describe(item.kind).namedMembers) {
            const QString member = QString::fromStdString(itemName(document_->document(), item));
            menu.addAction(tr("Trail of a Node…"), this, [this, trails, member] {
                trails->chooseNode(member, document_->document(), scene_->drawnModel().get());
            });
        }
        if (!trails->node().isEmpty())
            menu.addAction(tr("Remove the Trail of %1").arg(trails->node()), this,
                           [this] { scene_->setTrailNode({}); });
        if (item.kind == ItemKind::Body) {
            const QString body = QString::fromStdString(itemName(document_->document(), item));
            menu.addAction(tr("Trace a Point of This Body…"), this, [this, body] {
                traces_->addTraceInteractively(body);
                if (auto* dock = qobject_cast<QDockWidget*>(traces_->parentWidget()))
                    dock->raise();
            });
        }
    }
    menu.exec(treeView_->viewport()->mapToGlobal(pos));
}

void ItemActions::addItem(ItemKind kind)
{
    ItemRef added;
    const LoadedModel loaded = document_->loaded();
    document_->edit(tr("Add %1").arg(ModelTreeModel::kindName(kind)), [kind, &added, &loaded](ModelDocument& doc) {
        added = looplab::ui::addItem(doc, kind, &loaded);
    });
    if (added.valid())
        scene_->selectItem(added);
    else if (const char* why = describe(kind).cannotAdd)
        window_->statusBar()->showMessage(tr(why));
}

void ItemActions::duplicateItem(ItemRef item)
{
    ItemRef copy;
    document_->edit(tr("Duplicate %1").arg(QString::fromStdString(itemName(document_->document(), item))),
                    [item, &copy](ModelDocument& doc) { copy = looplab::ui::duplicateItem(doc, item); });
    if (copy.valid())
        scene_->selectItem(copy);
}

void ItemActions::deleteItem(ItemRef item)
{
    const QString name = QString::fromStdString(itemName(document_->document(), item));
    const Dependants deps = dependantsOf(document_->document(), item);
    if (!deps.empty() && confirm_) {
        QStringList names;
        for (const auto* list : {&deps.joints, &deps.drivers, &deps.couplers, &deps.forces, &deps.markers})
            for (const std::string& n : *list)
                names << QString::fromStdString(n);
        const auto answer = QMessageBox::question(
            window_, tr("Delete %1").arg(name),
            tr("%1 is used by: %2.\nDelete it together with these items?").arg(name, names.join(", ")),
            QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
        if (answer != QMessageBox::Yes)
            return;
    }
    scene_->selectItem({});
    document_->edit(tr("Delete %1").arg(name), [item](ModelDocument& doc) { removeItem(doc, item); });
}

}  // namespace looplab::ui
