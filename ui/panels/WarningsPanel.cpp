#include "panels/WarningsPanel.h"

#include "looplab/integrate/MethodRegistry.h"

#include <QHeaderView>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace looplab::ui {

namespace {

enum Role { TimeRole = Qt::UserRole, JointsRole, KindRole };

QString kindLabel(const QString& kind)
{
    if (kind == "redundant_constraints")
        return QObject::tr("Redundant constraints");
    if (kind == "rank_change")
        return QObject::tr("Rank change");
    if (kind == "singular_configuration")
        return QObject::tr("Singular configuration");
    if (kind == "failure")
        return QObject::tr("Solver failure");
    if (kind == "constraint_violation")
        return QObject::tr("Constraint violation");
    if (kind == "energy_drift")
        return QObject::tr("Energy drift");
    if (kind == "branch_change")
        return QObject::tr("Assembly branch change");
    if (kind == "repartition")
        return QObject::tr("Coordinates re-partitioned");
    if (kind == "stiffness")
        return QObject::tr("Stiff model");
    if (kind == "rounding_bound_steps")
        return QObject::tr("Steps kept at rounding's limit");
    if (kind == "assembly")
        return QObject::tr("Does not assemble");
    if (kind == "unclosed_joint")
        return QObject::tr("Joint does not close");
    if (kind == "four_bar")
        return QObject::tr("Four-bar");
    if (kind == "detached_joint")
        return QObject::tr("Joint off its link");
    if (kind == "start")
        return QObject::tr("Start of members");
    // A kind without a label of its own still reads as words, never as an identifier.
    QString words = kind;
    words.replace('_', ' ');
    if (!words.isEmpty())
        words[0] = words[0].toUpper();
    return words;
}

}  // namespace

WarningsPanel::WarningsPanel(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    tree_ = new QTreeWidget;
    tree_->setObjectName("warnings");
    tree_->setRootIsDecorated(false);
    tree_->setColumnCount(5);
    tree_->setHeaderLabels({tr("Time [s]"), tr("Kind"), tr("Joints"), tr("Detail"), tr("Remedy")});
    tree_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    tree_->header()->setSectionResizeMode(3, QHeaderView::Stretch);
    tree_->header()->setStretchLastSection(false);
    // A cause and its fix are sentences: in a narrow dock (a projector's 1024 × 768) the
    // Detail column shows a few words, so the current entry is also shown whole below.
    detail_ = new QTextBrowser;
    detail_->setObjectName("warningDetail");
    detail_->setOpenLinks(false);
    detail_->setPlaceholderText(tr("The selected warning, in full."));
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(tree_);
    split->addWidget(detail_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    layout->addWidget(split);
    connect(tree_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) { showDetail(item); });
    connect(tree_, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) { onActivated(item); });
    connect(tree_, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) { onActivated(item); });
}

void WarningsPanel::clear()
{
    tree_->clear();
    detail_->clear();
    findings_ = 0;
}

void WarningsPanel::addModelFinding(const QString& kind, const QString& text, const QStringList& joints)
{
    insertMessage(findings_++, kind, text, -1.0, joints);
}

void WarningsPanel::clearModelFindings()
{
    for (; findings_ > 0; --findings_)
        delete tree_->takeTopLevelItem(0);
}

void WarningsPanel::addEvent(const SimulationEvent& event)
{
    QStringList joints;
    for (const std::string& j : event.joints)
        joints << QString::fromStdString(j);
    addMessage(QString::fromLatin1(runEventKindName(event.kind)), QString::fromStdString(event.detail), event.t, joints);
}

void WarningsPanel::addMessage(const QString& kind, const QString& text, double t, const QStringList& joints)
{
    insertMessage(count(), kind, text, t, joints);
}

void WarningsPanel::insertMessage(int row, const QString& kind, const QString& text, double t,
                                  const QStringList& joints)
{
    auto* item = new QTreeWidgetItem;
    item->setText(0, t >= 0.0 ? QString::number(t, 'f', 4) : QString("–"));
    item->setText(1, kindLabel(kind));
    item->setText(2, joints.join(", "));
    item->setText(3, text);
    item->setToolTip(3, text);
    item->setData(0, TimeRole, t);
    item->setData(0, JointsRole, joints);
    item->setData(0, KindRole, kind);
    const bool severe = kind == "failure" || kind == "singular_configuration" || kind == "stiffness";
    item->setIcon(0, style()->standardIcon(severe ? QStyle::SP_MessageBoxWarning : QStyle::SP_MessageBoxInformation));
    tree_->insertTopLevelItem(row, item);
    // Without a choice of the user's, the pane shows what ended a run, else the first entry.
    if (!tree_->currentItem() || (kind == "failure" && tree_->currentItem()->data(0, KindRole) != "failure"))
        tree_->setCurrentItem(item);
    // An explicit integrator on a stiff model: one click takes the first method the
    // registry suggests instead, with its own integrator and tolerances.
    const std::vector<std::pair<std::string, std::string>> remedies = stiffRemedies();
    if (kind == "stiffness" && !remedies.empty()) {
        const QString method = QString::fromStdString(remedies.front().first);
        auto* button = new QPushButton(
            tr("Switch to %1/%2").arg(method, QString::fromStdString(remedies.front().second)));
        button->setObjectName("switchMethod");
        button->setToolTip(tr("Stop this run and set the run panel to %1 with its default integrator and "
                              "tolerances, which step over the stiff motion instead of resolving it.")
                               .arg(method));
        connect(button, &QPushButton::clicked, this, [this, method] { emit methodSwitchRequested(method); });
        tree_->setItemWidget(item, 4, button);
    }
}

QPushButton* WarningsPanel::remedyButton(int i) const
{
    if (i < 0 || i >= count())
        return nullptr;
    return qobject_cast<QPushButton*>(tree_->itemWidget(tree_->topLevelItem(i), 4));
}

int WarningsPanel::count() const { return tree_->topLevelItemCount(); }

QString WarningsPanel::kindAt(int i) const { return tree_->topLevelItem(i)->data(0, KindRole).toString(); }

double WarningsPanel::timeAt(int i) const { return tree_->topLevelItem(i)->data(0, TimeRole).toDouble(); }

void WarningsPanel::activate(int i)
{
    if (i >= 0 && i < count())
        onActivated(tree_->topLevelItem(i));
}

void WarningsPanel::showDetail(QTreeWidgetItem* item)
{
    if (!item) {
        detail_->clear();
        return;
    }
    QString head = item->text(1);
    const double t = item->data(0, TimeRole).toDouble();
    if (t >= 0.0)
        head += tr(" at t = %1 s").arg(item->text(0));
    if (!item->text(2).isEmpty())
        head += tr(" (%1)").arg(item->text(2));
    detail_->setPlainText(head + "\n" + item->text(3));
}

void WarningsPanel::onActivated(QTreeWidgetItem* item)
{
    if (item)
        emit entryActivated(item->data(0, KindRole).toString(), item->data(0, TimeRole).toDouble(),
                            item->data(0, JointsRole).toStringList());
}

}  // namespace looplab::ui
