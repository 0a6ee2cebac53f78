#include "workbench/ModelTreeModel.h"

#include "document/WorkbenchDocument.h"

namespace looplab::ui {

namespace {

constexpr int kGroupCount = 8;
// internalId 0 marks group rows; item rows store their group + 1.
constexpr quintptr kGroupId = 0;

ItemKind kindOfGroup(int row) { return static_cast<ItemKind>(row); }

}  // namespace

ModelTreeModel::ModelTreeModel(WorkbenchDocument* document, QObject* parent)
    : QAbstractItemModel(parent), document_(document)
{
    connect(document_, &WorkbenchDocument::documentChanged, this, &ModelTreeModel::onDocumentChanged);
}

QString ModelTreeModel::groupName(ItemKind kind)
{
    switch (kind) {
    case ItemKind::Body: return tr("Bodies");
    case ItemKind::Joint: return tr("Joints");
    case ItemKind::Driver: return tr("Drivers");
    case ItemKind::Force: return tr("Forces");
    case ItemKind::Beam: return tr("Beams");
    case ItemKind::Solid: return tr("Solids");
    case ItemKind::NodeSet: return tr("Node sets");
    case ItemKind::Coupler: return tr("Gears and couplers");
    }
    return {};
}

QString ModelTreeModel::kindName(ItemKind kind)
{
    switch (kind) {
    case ItemKind::Body: return tr("body");
    case ItemKind::Joint: return tr("joint");
    case ItemKind::Driver: return tr("driver");
    case ItemKind::Force: return tr("force");
    case ItemKind::Beam: return tr("beam");
    case ItemKind::Solid: return tr("solid");
    case ItemKind::NodeSet: return tr("node set");
    case ItemKind::Coupler: return tr("coupler");
    }
    return {};
}

QModelIndex ModelTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (column != 0 || row < 0)
        return {};
    if (!parent.isValid())
        return row < kGroupCount ? createIndex(row, 0, kGroupId) : QModelIndex();
    if (parent.internalId() != kGroupId)
        return {};
    if (row >= itemCount(document_->document(), kindOfGroup(parent.row())))
        return {};
    return createIndex(row, 0, static_cast<quintptr>(parent.row() + 1));
}

QModelIndex ModelTreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == kGroupId)
        return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, kGroupId);
}

int ModelTreeModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return kGroupCount;
    if (parent.internalId() != kGroupId)
        return 0;
    return itemCount(document_->document(), kindOfGroup(parent.row()));
}

int ModelTreeModel::columnCount(const QModelIndex&) const { return 1; }

QVariant ModelTreeModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    const ModelDocument& doc = document_->document();
    if (index.internalId() == kGroupId) {
        const ItemKind kind = kindOfGroup(index.row());
        if (role == Qt::DisplayRole)
            return QString("%1 (%2)").arg(groupName(kind)).arg(itemCount(doc, kind));
        return {};
    }
    const ItemRef item = itemAt(index);
    if (role == Qt::DisplayRole || role == Qt::EditRole)
        return QString::fromStdString(itemName(doc, item));
    if (role == Qt::ToolTipRole && item.kind == ItemKind::Beam) {
        const BeamDoc& b = doc.beams[static_cast<size_t>(item.index)];
        return tr("%1 elements, %2 m; nodes %3.root … %3.tip")
            .arg(b.elements)
            .arg((b.to - b.from).norm())
            .arg(QString::fromStdString(b.name));
    }
    if (role == Qt::ToolTipRole && item.kind == ItemKind::Solid) {
        const SolidDoc& b = doc.solids[static_cast<size_t>(item.index)];
        return tr("%1 × %2 × %3 elements, %4 × %5 × %6 m; faces %7.xmin … %7.zmax")
            .arg(b.elements[0]).arg(b.elements[1]).arg(b.elements[2])
            .arg(b.size.x()).arg(b.size.y()).arg(b.size.z())
            .arg(QString::fromStdString(b.name));
    }
    if (role == Qt::ToolTipRole && item.kind == ItemKind::NodeSet) {
        const NodeSetDoc& n = doc.nodeSets[static_cast<size_t>(item.index)];
        const QString nodes = QString::fromStdString(formatNodeNames(n.nodes));
        return n.nodes.size() == 1 ? tr("1 node: %1").arg(nodes) : tr("%1 nodes: %2").arg(n.nodes.size()).arg(nodes);
    }
    if (role == Qt::ToolTipRole && item.kind == ItemKind::Coupler) {
        const CouplerDoc& c = doc.couplers[static_cast<size_t>(item.index)];
        QStringList joints;
        for (const std::string& j : c.joints)
            joints << QString::fromStdString(j);
        return QString("%1: %2").arg(couplerTypeName(c.type), joints.join(" – "));
    }
    if (role == Qt::ToolTipRole && item.kind == ItemKind::Joint) {
        const JointDoc& j = doc.joints[static_cast<size_t>(item.index)];
        return QString("%1: %2 – %3").arg(jointTypeName(j.type), QString::fromStdString(j.body1),
                                          QString::fromStdString(j.body2));
    }
    return {};
}

bool ModelTreeModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    const ItemRef item = itemAt(index);
    if (role != Qt::EditRole || !item.valid())
        return false;
    const std::string name = value.toString().trimmed().toStdString();
    ModelDocument probe = document_->document();
    if (!renameItem(probe, item, name))
        return false;
    document_->edit(tr("Rename %1").arg(QString::fromStdString(name)),
                    [item, name](ModelDocument& doc) { renameItem(doc, item, name); });
    return true;
}

Qt::ItemFlags ModelTreeModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    if (index.internalId() == kGroupId)
        return Qt::ItemIsEnabled;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsEditable;
}

QModelIndex ModelTreeModel::groupIndex(ItemKind kind) const { return index(static_cast<int>(kind), 0); }

QModelIndex ModelTreeModel::itemIndex(ItemRef item) const
{
    return index(item.index, 0, groupIndex(item.kind));
}

ItemRef ModelTreeModel::itemAt(const QModelIndex& index) const
{
    if (!index.isValid() || index.internalId() == kGroupId)
        return {};
    return {kindOfGroup(static_cast<int>(index.internalId() - 1)), index.row()};
}

ItemKind ModelTreeModel::kindAt(const QModelIndex& index) const
{
    if (!index.isValid())
        return ItemKind::Body;
    return index.internalId() == kGroupId ? kindOfGroup(index.row())
                                          : kindOfGroup(static_cast<int>(index.internalId() - 1));
}

void ModelTreeModel::onDocumentChanged(bool structural)
{
    if (structural) {
        beginResetModel();
        endResetModel();
        return;
    }
    // Same rows: names (and group counts) may have changed, nothing moved.
    for (int g = 0; g < kGroupCount; ++g) {
        const QModelIndex group = index(g, 0);
        emit dataChanged(group, group);
        const int n = rowCount(group);
        if (n > 0)
            emit dataChanged(index(0, 0, group), index(n - 1, 0, group));
    }
}

}  // namespace looplab::ui
