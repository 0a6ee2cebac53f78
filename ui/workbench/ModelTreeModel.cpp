#include "workbench/ModelTreeModel.h"

#include "document/WorkbenchDocument.h"

#include <array>

namespace looplab::ui {

namespace {

// One group per kind, in ItemKind's order.
constexpr int kGroupCount = kItemKindCount;
// internalId 0 marks group rows; item rows store their group + 1.
constexpr quintptr kGroupId = 0;

ItemKind kindOfGroup(int row) { return static_cast<ItemKind>(row); }

QString jointTooltip(const ModelDocument& doc, size_t i)
{
    const JointDoc& j = doc.joints[i];
    return QString("%1: %2 – %3").arg(jointTypeName(j.type), QString::fromStdString(j.body1),
                                      QString::fromStdString(j.body2));
}

QString beamTooltip(const ModelDocument& doc, size_t i)
{
    const BeamDoc& b = doc.beams[i];
    return ModelTreeModel::tr("%1 elements, %2 m; nodes %3.root … %3.tip")
        .arg(b.elements)
        .arg((b.to - b.from).norm())
        .arg(QString::fromStdString(b.name));
}

QString solidTooltip(const ModelDocument& doc, size_t i)
{
    const SolidDoc& b = doc.solids[i];
    return ModelTreeModel::tr("%1 × %2 × %3 elements, %4 × %5 × %6 m; faces %7.xmin … %7.zmax")
        .arg(b.elements[0]).arg(b.elements[1]).arg(b.elements[2])
        .arg(b.size.x()).arg(b.size.y()).arg(b.size.z())
        .arg(QString::fromStdString(b.name));
}

QString nodeSetTooltip(const ModelDocument& doc, size_t i)
{
    const NodeSetDoc& n = doc.nodeSets[i];
    const QString nodes = QString::fromStdString(formatNodeNames(n.nodes));
    return n.nodes.size() == 1 ? ModelTreeModel::tr("1 node: %1").arg(nodes)
                               : ModelTreeModel::tr("%1 nodes: %2").arg(n.nodes.size()).arg(nodes);
}

QString couplerTooltip(const ModelDocument& doc, size_t i)
{
    const CouplerDoc& c = doc.couplers[i];
    QStringList joints;
    for (const std::string& j : c.joints)
        joints << QString::fromStdString(j);
    return QString("%1: %2").arg(couplerTypeName(c.type), joints.join(" – "));
}

// What an item's name does not say; a rigid body, a driver and a force have their name only.
struct KindTooltip {
    ItemKind kind;
    QString (*tooltip)(const ModelDocument& doc, size_t index);
};

constexpr std::array<KindTooltip, kItemKindCount> kTooltips{{
    {ItemKind::Body, nullptr},
    {ItemKind::Joint, jointTooltip},
    {ItemKind::Driver, nullptr},
    {ItemKind::Force, nullptr},
    {ItemKind::Beam, beamTooltip},
    {ItemKind::Solid, solidTooltip},
    {ItemKind::NodeSet, nodeSetTooltip},
    {ItemKind::Coupler, couplerTooltip},
}};
static_assert(coversItemKinds(kTooltips), "one tooltip entry per ItemKind, in the enum's order");

}  // namespace

ModelTreeModel::ModelTreeModel(WorkbenchDocument* document, QObject* parent)
    : QAbstractItemModel(parent), document_(document)
{
    connect(document_, &WorkbenchDocument::documentChanged, this, &ModelTreeModel::onDocumentChanged);
}

QString ModelTreeModel::groupName(ItemKind kind) { return tr(describe(kind).groupTitle); }

QString ModelTreeModel::kindName(ItemKind kind) { return tr(describe(kind).singular); }

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
    if (role == Qt::ToolTipRole)
        if (const auto tooltip = kTooltips[static_cast<size_t>(item.kind)].tooltip)
            return tooltip(doc, static_cast<size_t>(item.index));
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
