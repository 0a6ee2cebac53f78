#include "overlays/TracePanel.h"

#include "overlays/TracePolyline.h"
#include "viewport/VtkViewport.h"
#include "recording/FrameSource.h"

#include "looplab/model/Model.h"
#include "looplab/model/ModelDocument.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QVBoxLayout>

#include <sstream>

namespace looplab::ui {

namespace {
const Eigen::Vector3d kColors[] = {{0.95, 0.55, 0.05}, {0.6, 0.2, 0.7}, {0.05, 0.6, 0.65}, {0.45, 0.3, 0.1}};
}

TracePanel::TracePanel(VtkViewport* viewport, QWidget* parent)
    : QWidget(parent), viewport_(viewport), list_(new QListWidget(this)),
      add_(new QPushButton(tr("Add…"), this)), remove_(new QPushButton(tr("Remove"), this)),
      export_(new QPushButton(tr("Export CSV…"), this)) {
    setObjectName("tracePanel");
    list_->setObjectName("traceList");
    add_->setObjectName("addTraceButton");
    remove_->setObjectName("removeTraceButton");
    export_->setObjectName("exportTracesButton");
    add_->setToolTip(tr("Trace a point of a body over the recording (a marker, or a point in the body's frame)"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(add_);
    buttons->addWidget(remove_);
    buttons->addWidget(export_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(list_);
    layout->addLayout(buttons);
    connect(add_, &QPushButton::clicked, this, [this] { addTraceInteractively(); });
    connect(remove_, &QPushButton::clicked, this, [this] {
        if (list_->currentRow() >= 0) removeTrace(list_->currentRow());
    });
    connect(export_, &QPushButton::clicked, this, &TracePanel::exportRequested);
    connect(list_, &QListWidget::currentRowChanged, this, [this] { refreshList(); });
    refreshList();
}

TracePanel::~TracePanel() = default;

void TracePanel::setDocument(const ModelDocument* document) { document_ = document; }

void TracePanel::setSource(const FrameSource* source) {
    source_ = source;
    sourceChanged();
}

void TracePanel::sourceChanged() {
    recompute();
    if (source_ && frame_ >= source_->frameCount()) frame_ = source_->frameCount() - 1;
    showFrame(frame_);
}

void TracePanel::recompute() {
    const std::shared_ptr<const Model> model = source_ ? source_->frameModel() : nullptr;
    const int frames = model ? source_->frameCount() : 0;
    // Frames only added to the same run: sample just those.
    const bool extend = model && model == computedModel_ && frames >= computedFrames_;
    for (size_t i = 0; i < traces_.size(); ++i) {
        PointTrace& trace = traces_[i];
        if (!extend || int(trace.times.size()) != computedFrames_) {
            trace.times.clear();
            trace.positions.clear();
        }
        // A body the model does not have leaves the trace empty rather than gone: the
        // user may rename it back or run another model.
        if (model && model->findBody(trace.point.body))
            for (int f = int(trace.times.size()); f < frames; ++f)
                appendTraceSample(*model, source_->frameState(f), trace);
        lines_[i]->setPoints(trace.positions);
    }
    computedModel_ = model;
    computedFrames_ = frames;
    viewport_->requestRender();
    refreshList();
    emit tracesChanged();
}

void TracePanel::showFrame(int frame) {
    frame_ = frame;
    if (source_ && (source_->frameModel() != computedModel_ || source_->frameCount() != computedFrames_)) recompute();
    for (size_t i = 0; i < traces_.size(); ++i) {
        const std::vector<Vec3>& p = traces_[i].positions;
        if (frame >= 0 && frame < int(p.size())) lines_[i]->setDot(p[size_t(frame)]);
    }
    if (!traces_.empty()) viewport_->requestRender();
}

bool TracePanel::addTrace(const TracedPoint& point, QString* error) {
    const std::shared_ptr<const Model> model = source_ ? source_->frameModel() : nullptr;
    if (model && !model->findBody(point.body)) {
        if (error) *error = tr("The model has no body named '%1'.").arg(QString::fromStdString(point.body));
        return false;
    }
    PointTrace trace;
    trace.point = point;
    traces_.push_back(trace);
    computedFrames_ = 0;  // the new trace needs every frame
    auto line = std::make_unique<TracePolyline>(viewport_->renderer(), kColors[(traces_.size() - 1) % std::size(kColors)]);
    line->setStyle(2.5, 0.006);
    lines_.push_back(std::move(line));
    recompute();
    showFrame(frame_);
    list_->setCurrentRow(int(traces_.size()) - 1);
    return true;
}

void TracePanel::removeTrace(int index) {
    if (index < 0 || index >= int(traces_.size())) return;
    traces_.erase(traces_.begin() + index);
    lines_.erase(lines_.begin() + index);
    viewport_->requestRender();
    refreshList();
    emit tracesChanged();
}

void TracePanel::documentOpened() {
    traces_.clear();
    lines_.clear();
    if (document_)
        for (const TraceDoc& t : document_->traces)
            // A trace the model cannot resolve has a build diagnostic of its own.
            if (const std::optional<TracedPoint> point = tracedPoint(*document_, t)) addTrace(*point);
    sourceChanged();
}

bool TracePanel::exportCsv(const QString& path, QString* error) const {
    std::ostringstream csv;
    const Status s = writeTraceCsv(csv, traces_);
    if (!s.ok) {
        if (error) *error = QString::fromStdString(s.message);
        return false;
    }
    QSaveFile file(path);
    const std::string text = csv.str();
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) != qint64(text.size()) ||
        !file.commit()) {
        if (error) *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

void TracePanel::refreshList() {
    const int row = list_->currentRow();
    QSignalBlocker block(list_);
    list_->clear();
    for (const PointTrace& trace : traces_) {
        QString text = QString::fromStdString(traceLabel(trace.point));
        if (!trace.point.label.empty())
            text += tr(" on %1").arg(QString::fromStdString(trace.point.body));
        text += tr(" — %n point(s)", nullptr, int(trace.positions.size()));
        list_->addItem(text);
    }
    list_->setCurrentRow(std::min(row, list_->count() - 1));
    remove_->setEnabled(list_->currentRow() >= 0);
    export_->setEnabled(!traces_.empty() && !traces_.front().times.empty());
}

void TracePanel::addTraceInteractively(const QString& preferredBody) {
    QDialog dialog(this);
    dialog.setObjectName("addTraceDialog");
    dialog.setWindowTitle(tr("Trace a Point"));
    auto* form = new QFormLayout(&dialog);
    auto* what = new QComboBox(&dialog);
    what->setObjectName("tracePointCombo");
    // Markers first (they name points on purpose), then each body with a typed point.
    if (document_) {
        for (const MarkerDoc& m : document_->markers)
            what->addItem(tr("Marker %1 (on %2)").arg(QString::fromStdString(m.name), QString::fromStdString(m.body)),
                          QStringList{"marker", QString::fromStdString(m.name)});
        for (const BodyDoc& b : document_->bodies)
            what->addItem(tr("Body %1, point below").arg(QString::fromStdString(b.name)),
                          QStringList{"body", QString::fromStdString(b.name)});
    }
    for (int i = 0; i < what->count(); ++i)
        if (what->itemData(i).toStringList().value(0) == "body" && what->itemData(i).toStringList().value(1) == preferredBody)
            what->setCurrentIndex(i);
    form->addRow(tr("Point:"), what);
    QDoubleSpinBox* xyz[3];
    const char* names[3] = {"traceX", "traceY", "traceZ"};
    for (int k = 0; k < 3; ++k) {
        xyz[k] = new QDoubleSpinBox(&dialog);
        xyz[k]->setObjectName(names[k]);
        xyz[k]->setRange(-1e3, 1e3);
        xyz[k]->setDecimals(4);
        xyz[k]->setSingleStep(0.01);
        xyz[k]->setSuffix(" m");
        form->addRow(tr("%1 in the body frame:").arg(QChar('x' + k)), xyz[k]);
    }
    auto updateEnabled = [&] {
        const bool body = what->currentData().toStringList().value(0) == "body";
        for (QDoubleSpinBox* s : xyz) s->setEnabled(body);
    };
    connect(what, &QComboBox::currentIndexChanged, &dialog, updateEnabled);
    updateEnabled();
    auto* box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    form->addRow(box);
    connect(box, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(box, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (what->count() == 0 || dialog.exec() != QDialog::Accepted) return;
    const QStringList choice = what->currentData().toStringList();
    TracedPoint point;
    if (choice.value(0) == "marker") {
        point = *markerPoint(*document_, choice.value(1).toStdString());
    } else {
        point.body = choice.value(1).toStdString();
        point.localPoint = Vec3(xyz[0]->value(), xyz[1]->value(), xyz[2]->value());
    }
    QString error;
    if (!addTrace(point, &error)) QMessageBox::warning(this, tr("Trace a Point"), error);
}

}  // namespace looplab::ui
