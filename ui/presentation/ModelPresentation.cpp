#include "presentation/ModelPresentation.h"

#include "looplab/simulation/ModelRunSettings.h"
#include "viewport/VtkViewport.h"
#include "run/MemberStart.h"
#include "run/RunPanel.h"
#include "document/WorkbenchDocument.h"

#include <QAction>
#include <QPlainTextEdit>

#include <vtkCamera.h>
#include <vtkRenderer.h>

namespace looplab::ui {

ModelPresentation::ModelPresentation(WorkbenchDocument* document, RunPanel* runPanel, VtkViewport* viewport,
                                     QObject* parent)
    : QObject(parent), document_(document), runPanel_(runPanel), viewport_(viewport)
{
    notes_ = new QPlainTextEdit;
    notes_->setObjectName("notesPane");
    notes_->setPlaceholderText(tr("Notes on this model: what it shows, where its numbers come from."));
    store_ = new QAction(tr("Store Run Settings and View in Model"), this);
    store_->setToolTip(tr("Save the run settings and the camera with the model, so it opens ready to play"));
    connect(store_, &QAction::triggered, this, &ModelPresentation::storeInModel);
    connect(notes_, &QPlainTextEdit::textChanged, this, [this] {
        if (showing_) return;
        const std::string text = notes_->toPlainText().toStdString();
        // Typing merges into one undo step.
        document_->edit(tr("Edit notes"), [text](ModelDocument& d) { d.description = text; }, "notes");
    });
    connect(document_, &WorkbenchDocument::documentChanged, this, &ModelPresentation::showNotes);
    connect(document_, &WorkbenchDocument::documentChanged, this, &ModelPresentation::showStart);
    connect(document_, &WorkbenchDocument::documentReset, this, [this] {
        showNotes();
        applyRunSettings();
    });
    connect(runPanel_, &RunPanel::startChosen, this, &ModelPresentation::chooseStart);
    showNotes();
    showStart();
}

void ModelPresentation::showStart() { runPanel_->setStart(modelStart(document_->document())); }

void ModelPresentation::chooseStart(StartMotion start)
{
    // Choosing the start the model has already (a file without one has the default) is no
    // edit, so opening the list and closing it leaves the model unmodified.
    if (start == modelStart(document_->document()))
        return;
    const std::string name = startMotionName(start);
    document_->edit(tr("Start members: %1").arg(QString::fromStdString(name)),
                    [name](ModelDocument& d) { d.run.start = name; });
}

void ModelPresentation::showNotes()
{
    const QString text = QString::fromStdString(document_->document().description);
    if (notes_->toPlainText() == text) return;
    showing_ = true;
    notes_->setPlainText(text);
    showing_ = false;
}

void ModelPresentation::applyToWindow()
{
    applyRunSettings();
    applyCamera();
}

void ModelPresentation::applyRunSettings()
{
    const ModelDocument& doc = document_->document();
    showStart();
    if (doc.run.empty()) return;
    // A block that names its method is run as `looplab-cli simulate MODEL` runs it: the
    // tolerances it leaves out are the method's defaults, not what the panel held for the
    // model before (tlismni's 1e-6 rather than the 1e-8 of the panel's default method, ten
    // times the steps: a flexible example at pace 1 could not keep up). The fields it
    // leaves out otherwise keep the panel's.
    const ResolvedRunSettings resolved = resolveRunSettings({}, doc.run, runPanel_->settings());
    if (doc.run.method && resolved.error.empty())
        runPanel_->setSettings(resolved.settings);
    else
        runPanel_->setSettings(withModelRunSettings(doc.run, runPanel_->settings()));
    if (doc.run.pace) runPanel_->setPace(*doc.run.pace);
}

void ModelPresentation::applyCamera()
{
    const ModelDocument& doc = document_->document();
    if (doc.camera)
        viewport_->setCamera(doc.camera->position, doc.camera->focalPoint, doc.camera->viewUp, doc.camera->parallel,
                             doc.camera->parallelScale.value_or(0.0));
}

void ModelPresentation::storeInModel()
{
    const RunSettingsDoc run = runSettingsDocFrom(runPanel_->settings(), runPanel_->pace());
    vtkCamera* c = viewport_->renderer()->GetActiveCamera();
    CameraDoc cam;
    double p[3], f[3], u[3];
    c->GetPosition(p);
    c->GetFocalPoint(f);
    c->GetViewUp(u);
    cam.position = Vec3(p[0], p[1], p[2]);
    cam.focalPoint = Vec3(f[0], f[1], f[2]);
    cam.viewUp = Vec3(u[0], u[1], u[2]);
    cam.parallel = c->GetParallelProjection() != 0;
    if (cam.parallel) cam.parallelScale = c->GetParallelScale();
    document_->edit(tr("Store run settings and view"), [run, cam](ModelDocument& d) {
        // The start is the model's already (chooseStart): a file without one keeps the
        // default without naming it.
        const std::optional<std::string> start = d.run.start;
        d.run = run;
        d.run.start = start;
        d.camera = cam;
    });
}

}  // namespace looplab::ui
