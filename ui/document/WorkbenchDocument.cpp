#include "document/WorkbenchDocument.h"

#include "looplab/kinematics/FourBarAnalysis.h"

#include "looplab/kinematics/Mobility.h"
#include "document/DocumentEditCommand.h"

#include <QFileInfo>

namespace looplab::ui {

namespace {

bool sameStructure(const ModelDocument& a, const ModelDocument& b)
{
    return a.bodies.size() == b.bodies.size() && a.joints.size() == b.joints.size() &&
           a.drivers.size() == b.drivers.size() && a.couplers.size() == b.couplers.size() &&
           a.forces.size() == b.forces.size() && a.stops.size() == b.stops.size() &&
           a.markers.size() == b.markers.size() && a.beams.size() == b.beams.size() &&
           a.solids.size() == b.solids.size() && a.nodeSets.size() == b.nodeSets.size();
}

}  // namespace

WorkbenchDocument::WorkbenchDocument(QObject* parent) : QObject(parent)
{
    connect(&undo_, &QUndoStack::cleanChanged, this, [this](bool clean) { emit modifiedChanged(!clean); });
    newDocument();
}

void WorkbenchDocument::newDocument()
{
    ModelDocument doc;
    doc.name = kUntitledModelName;
    doc.gravity = Vec3(0.0, -9.81, 0.0);
    undo_.clear();
    doc_ = doc;
    lastGood_ = LoadedModel{};
    setPath({});
    rebuild();
    emit documentReset();
    emit documentChanged(true);
}

bool WorkbenchDocument::open(const QString& path, QString* error)
{
    DocumentResult read = readModelDocument(path.toStdString());
    if (!read.document) {
        if (error)
            *error = QString::fromStdString(formatDiagnostics(read.diagnostics));
        return false;
    }
    undo_.clear();
    doc_ = *read.document;
    lastGood_ = LoadedModel{};
    setPath(path);
    rebuild();
    emit documentReset();
    emit documentChanged(true);
    return true;
}

void WorkbenchDocument::restore(const ModelDocument& doc, const QString& path)
{
    undo_.clear();
    doc_ = doc;
    lastGood_ = LoadedModel{};
    setPath(path);
    rebuild();
    // No index of the empty stack is clean any more: modified until saved.
    undo_.resetClean();
    emit documentReset();
    emit documentChanged(true);
}

bool WorkbenchDocument::saveAs(const QString& path, QString* error)
{
    // "Untitled" says nothing in a list of models or a report; the file's name does.
    ModelDocument saved = doc_;
    const bool naming = path_.isEmpty() && doc_.name == kUntitledModelName;
    if (naming && !QFileInfo(path).completeBaseName().isEmpty())
        saved.name = QFileInfo(path).completeBaseName().toStdString();
    std::string why;
    if (!writeModelDocument(saved, path.toStdString(), &why)) {
        if (error)
            *error = QString::fromStdString(why);
        return false;
    }
    // Named only once the file is written, so a failed save leaves no edit behind.
    if (saved.name != doc_.name)
        edit(tr("Name model %1").arg(QString::fromStdString(saved.name)),
             [&saved](ModelDocument& d) { d.name = saved.name; });
    setPath(path);
    undo_.setClean();
    return true;
}

void WorkbenchDocument::edit(const QString& text, const std::function<void(ModelDocument&)>& change,
                             const QString& mergeKey)
{
    ModelDocument after = doc_;
    change(after);
    // Serialising is the one complete equality the document offers; it is cheap at
    // model sizes and avoids undo steps that change nothing.
    if (serializeModelDocument(after) == serializeModelDocument(doc_))
        return;
    undo_.push(new DocumentEditCommand(this, text, doc_, std::move(after), mergeKey));
}

void WorkbenchDocument::replaceDocument(const ModelDocument& doc)
{
    const bool structural = !sameStructure(doc, doc_);
    doc_ = doc;
    rebuild();
    emit documentChanged(structural);
}

void WorkbenchDocument::rebuild()
{
    loaded_ = prepareModel(doc_, path_.toStdString());
    if (loaded_.ok()) {
        const MobilityReport report = analyzeMobility(*loaded_.model, loaded_.initial);
        dof_ = report.dof;
        redundant_ = static_cast<int>(report.redundant.size());
        status_ = QString("dof %1, %2 redundant equations").arg(dof_).arg(redundant_);
        // A four-bar says how it moves where the eye already is, as `looplab-cli check` does.
        if (const std::optional<FourBarLinkage> fourBar = findPlanarFourBar(*loaded_.model))
            status_ += QString("; ") + QString::fromStdString(fourBar->grashofSentence());
        lastGood_ = loaded_;
    } else {
        dof_ = redundant_ = 0;
        const Diagnostic& first = loaded_.diagnostics.empty() ? Diagnostic{} : loaded_.diagnostics.front();
        status_ = QString::fromStdString(first.location.empty() ? first.message
                                                                : first.location + ": " + first.message);
        if (status_.isEmpty())
            status_ = tr("The model could not be built");
    }
    emit modelRebuilt();
}

void WorkbenchDocument::setPath(const QString& path)
{
    path_ = path;
    emit filePathChanged(path);
}

}  // namespace looplab::ui
