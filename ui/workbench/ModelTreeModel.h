#pragma once
// Tree view model over the document: one group per kind of item (Bodies, Joints, Drivers,
// Forces, the flexible members Beams and Solids, the Node sets that name their nodes, Gears
// and couplers), in ItemKind's order, with their item counts, and the items below them.
// Item names are editable in place; a rename goes through the document's undo stack and
// updates every reference.

#include "document/DocumentOperations.h"

#include <QAbstractItemModel>

namespace looplab::ui {

class WorkbenchDocument;

class ModelTreeModel : public QAbstractItemModel {
    Q_OBJECT

public:
    explicit ModelTreeModel(WorkbenchDocument* document, QObject* parent = nullptr);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

    /// The group row of a kind.
    QModelIndex groupIndex(ItemKind kind) const;
    /// The row of an item; invalid if out of range.
    QModelIndex itemIndex(ItemRef item) const;
    /// The item at a row; an invalid ItemRef for group rows.
    ItemRef itemAt(const QModelIndex& index) const;
    /// The kind of a group or item row.
    ItemKind kindAt(const QModelIndex& index) const;
    /// Group label without the count, e.g. "Bodies".
    static QString groupName(ItemKind kind);
    /// Name of one item of a kind, lower case, e.g. "body".
    static QString kindName(ItemKind kind);

private:
    void onDocumentChanged(bool structural);

    WorkbenchDocument* document_;
};

}  // namespace looplab::ui
