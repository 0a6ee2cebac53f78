#include "markers/MarkerPanel.h"

#include "looplab/sketch/SketchEdits.h"
#include "document/DocumentOperations.h"
#include "document/WorkbenchDocument.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace looplab::ui {

MarkerPanel::MarkerPanel(WorkbenchDocument* document, QWidget* parent) : QWidget(parent), document_(document)
{
    auto* layout = new QVBoxLayout(this);
    list_ = new QListWidget;
    list_->setObjectName("markerList");
    layout->addWidget(list_, 1);
    auto* form = new QFormLayout;
    body_ = new QComboBox;
    body_->setObjectName("markerBody");
    form->addRow(tr("Body"), body_);
    auto* row = new QHBoxLayout;
    const char* axes[3] = {"x", "y", "z"};
    for (int k = 0; k < 3; ++k) {
        position_[k] = new QDoubleSpinBox;
        position_[k]->setRange(-1e6, 1e6);
        position_[k]->setDecimals(4);
        position_[k]->setSingleStep(0.01);
        position_[k]->setSuffix(" m");
        position_[k]->setToolTip(tr("Position along body %1").arg(axes[k]));
        row->addWidget(position_[k]);
        connect(position_[k], &QDoubleSpinBox::editingFinished, this, &MarkerPanel::editSelected);
    }
    form->addRow(tr("Position (body frame)"), row);
    layout->addLayout(form);
    auto* buttons = new QHBoxLayout;
    add_ = new QPushButton(tr("Add Marker"));
    add_->setToolTip(tr("A new marker at the origin of the body chosen above"));
    delete_ = new QPushButton(tr("Delete Marker"));
    buttons->addWidget(add_);
    buttons->addWidget(delete_);
    layout->addLayout(buttons);
    message_ = new QLabel;
    message_->setWordWrap(true);
    layout->addWidget(message_);

    connect(add_, &QPushButton::clicked, this, &MarkerPanel::addMarker);
    connect(delete_, &QPushButton::clicked, this, &MarkerPanel::deleteSelected);
    connect(list_, &QListWidget::currentRowChanged, this, &MarkerPanel::showSelected);
    connect(body_, qOverload<int>(&QComboBox::activated), this, [this](int) { editSelected(); });
    connect(document_, &WorkbenchDocument::documentChanged, this, &MarkerPanel::refresh);
    // Another model: nothing of the previous one's markers stays selected or shown.
    connect(document_, &WorkbenchDocument::documentReset, this, [this] {
        message_->clear();
        list_->setCurrentRow(-1);
        refresh();
    });
    refresh();
}

QString MarkerPanel::message() const { return message_->text(); }

int MarkerPanel::selectedIndex() const
{
    const int row = list_->currentRow();
    return row >= 0 && row < static_cast<int>(document_->document().markers.size()) ? row : -1;
}

void MarkerPanel::refresh()
{
    filling_ = true;
    const ModelDocument& doc = document_->document();
    const int row = list_->currentRow();
    list_->clear();
    for (const MarkerDoc& m : doc.markers)
        list_->addItem(QString("%1  (on %2)").arg(QString::fromStdString(m.name), QString::fromStdString(m.body)));
    const QString body = body_->currentText();
    body_->clear();
    body_->addItem(kGroundName);
    for (const BodyDoc& b : doc.bodies) body_->addItem(QString::fromStdString(b.name));
    body_->setCurrentText(body.isEmpty() ? QString(kGroundName) : body);
    if (row >= 0 && row < list_->count()) list_->setCurrentRow(row);
    filling_ = false;
    showSelected();
}

void MarkerPanel::showSelected()
{
    if (filling_) return;
    const int i = selectedIndex();
    delete_->setEnabled(i >= 0);
    filling_ = true;
    for (QDoubleSpinBox* box : position_) box->setEnabled(i >= 0);
    if (i < 0) {
        // No coordinates of a marker that is gone, or of another model's.
        for (QDoubleSpinBox* box : position_) box->setValue(0.0);
        filling_ = false;
        return;
    }
    const MarkerDoc& m = document_->document().markers[static_cast<size_t>(i)];
    body_->setCurrentText(QString::fromStdString(m.body));
    for (int k = 0; k < 3; ++k) position_[k]->setValue(m.position[k]);
    filling_ = false;
}

void MarkerPanel::editSelected()
{
    const int i = selectedIndex();
    if (filling_ || i < 0) return;
    const std::string body = body_->currentText().toStdString();
    const auto k = static_cast<size_t>(i);
    const MarkerDoc& stored = document_->document().markers[k];
    // The boxes show four decimals of the document's coordinates (QDoubleSpinBox keeps the
    // rounded value): a coordinate the user did not change keeps every digit it had, and
    // Enter on an untouched marker is no edit at all.
    Vec3 p;
    for (int a = 0; a < 3; ++a) {
        const double shown = QString::number(stored.position[a], 'f', position_[a]->decimals()).toDouble();
        p[a] = position_[a]->value() == shown ? stored.position[a] : position_[a]->value();
    }
    if (body == stored.body && p == stored.position) return;
    document_->edit(tr("Move marker"), [k, body, p](ModelDocument& d) {
        d.markers[k].body = body;
        d.markers[k].position = p;
    }, QString("marker/%1").arg(i));
    message_->clear();
}

void MarkerPanel::addMarker()
{
    MarkerDoc m;
    m.name = freshSketchName(document_->document(), "marker");
    m.body = body_->currentText().isEmpty() ? std::string(kGroundName) : body_->currentText().toStdString();
    document_->edit(tr("Add marker"), [m](ModelDocument& d) { d.markers.push_back(m); });
    list_->setCurrentRow(list_->count() - 1);
    message_->clear();
}

bool MarkerPanel::deleteSelected()
{
    const int i = selectedIndex();
    if (i < 0) return false;
    const std::string name = document_->document().markers[static_cast<size_t>(i)].name;
    const std::vector<std::string> users = jointsUsingMarker(document_->document(), name);
    if (!users.empty()) {
        QStringList joints;
        for (const std::string& j : users) joints << QString::fromStdString(j);
        message_->setText(tr("'%1' is used by %2: delete or reconnect those joints first")
                              .arg(QString::fromStdString(name), joints.join(", ")));
        return false;
    }
    // A trace of the marker goes with it: it has nothing left to follow.
    document_->edit(tr("Delete marker"), [i, name](ModelDocument& d) {
        d.markers.erase(d.markers.begin() + static_cast<long>(i));
        d.traces.erase(std::remove_if(d.traces.begin(), d.traces.end(),
                                      [&name](const TraceDoc& t) { return t.marker == name; }),
                       d.traces.end());
    });
    message_->clear();
    return true;
}

}  // namespace looplab::ui
