#include "study/StudyModelPicker.h"

#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace looplab::ui {

namespace {

// RFC 6901 escaping of one pointer token.
QString token(const QString& key) {
    QString t = key;
    t.replace("~", "~0");
    t.replace("/", "~1");
    return t;
}

// Adds the numbers under `value` (at `pointer`, labelled `label`) below `parent`; returns
// whether any number was added (items without numbers are left out).
bool addNumbers(QTreeWidgetItem* parent, const QString& label, const QString& pointer, const QJsonValue& value) {
    if (value.isDouble()) {
        auto* item = new QTreeWidgetItem(parent, {label, QString::number(value.toDouble(), 'g', 10)});
        item->setData(0, StudyModelPicker::kPointerRole, pointer);
        item->setData(0, StudyModelPicker::kValueRole, value.toDouble());
        item->setToolTip(0, pointer);
        return true;
    }
    if (!value.isObject() && !value.isArray()) return false;
    auto* group = new QTreeWidgetItem(parent, {label});
    bool any = false;
    if (value.isObject()) {
        const QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            any = addNumbers(group, it.key(), pointer + "/" + token(it.key()), it.value()) || any;
    } else {
        const QJsonArray a = value.toArray();
        for (int i = 0; i < a.size(); ++i)
            any = addNumbers(group, label + "[" + QString::number(i) + "]", pointer + "/" + QString::number(i), a[i]) || any;
        // A vector of numbers reads better as its components directly under the item.
        if (any) {
            for (int i = 0; i < group->childCount(); ++i) group->child(i)->setText(0, QString("[%1]").arg(i));
        }
    }
    if (!any) delete group;
    return any;
}

}  // namespace

StudyModelPicker::StudyModelPicker(QWidget* parent) : QTreeWidget(parent) {
    setColumnCount(2);
    setHeaderLabels({tr("Model item"), tr("Value")});
    header()->setSectionResizeMode(0, QHeaderView::Stretch);
    setToolTip(tr("Double-click a number to vary it in the study"));
    connect(this, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item, int) {
        const QVariant pointer = item->data(0, kPointerRole);
        if (pointer.isValid()) emit numberPicked(pointer.toString(), item->data(0, kValueRole).toDouble());
    });
}

void StudyModelPicker::setModelText(const QByteArray& json) {
    clear();
    const QJsonObject root = QJsonDocument::fromJson(json).object();
    for (auto it = root.begin(); it != root.end(); ++it) {
        // Lists of items (bodies, joints, ...); vectors such as gravity come after them.
        const QJsonArray items = it.value().toArray();
        if (!it.value().isArray() || items.isEmpty() || !items.first().isObject()) continue;
        auto* section = new QTreeWidgetItem(this, {it.key()});
        for (int i = 0; i < items.size(); ++i) {
            const QString name = items[i].toObject().value("name").toString(QString("#%1").arg(i));
            addNumbers(section, name, "/" + token(it.key()) + "/" + QString::number(i), items[i]);
        }
        if (section->childCount() == 0) delete section;
    }
    if (root.value("gravity").isArray()) {
        auto* top = invisibleRootItem();
        addNumbers(top, "gravity", "/gravity", root.value("gravity"));
    }
    expandToDepth(0);
}

QTreeWidgetItem* StudyModelPicker::itemForPointer(const QString& pointer) const {
    QTreeWidgetItemIterator it(const_cast<StudyModelPicker*>(this));
    for (; *it; ++it)
        if ((*it)->data(0, kPointerRole).toString() == pointer) return *it;
    return nullptr;
}

}  // namespace looplab::ui
