#include "workbench/SceneDisplay.h"

#include "looplab/scene/Scene.h"
#include "overlays/Trails.h"
#include "plotting/PlotPanel.h"
#include "posing/PosingFeature.h"
#include "recording/RecordedFrame.h"
#include "recording/SimulationRecording.h"
#include "viewport/VtkViewport.h"
#include "watch/WatchFeature.h"
#include "workbench/FlexibleView.h"
#include "workbench/ModelTreeModel.h"
#include "workbench/PlaybackBar.h"
#include "workbench/PropertyEditor.h"
#include "document/WorkbenchDocument.h"

#include <QItemSelectionModel>
#include <QTreeView>

namespace looplab::ui {

SceneDisplay::SceneDisplay(WorkbenchDocument* document, ModelTreeModel* treeModel, QTreeView* treeView,
                           PropertyEditor* properties, VtkViewport* viewport, FlexibleView* flexibleView,
                           PlaybackBar* playback, const SimulationRecording* recording, Trails* trails,
                           PosingFeature* posing, PlotPanel* plots, WatchFeature* watch)
    : document_(document), treeModel_(treeModel), treeView_(treeView), properties_(properties), viewport_(viewport),
      flexibleView_(flexibleView), playback_(playback), recording_(recording), trails_(trails), posing_(posing),
      plots_(plots), watch_(watch)
{
    connect(treeView_->selectionModel(), &QItemSelectionModel::currentChanged, this, &SceneDisplay::showSelection);
    connect(viewport_, &VtkViewport::bodyPicked, this, &SceneDisplay::onBodyPicked);
    connect(viewport_, &VtkViewport::jointPicked, this, &SceneDisplay::onJointPicked);
    connect(viewport_, &VtkViewport::emptySpacePicked, this, [this] { selectItem({}); });
}

void SceneDisplay::refreshScene()
{
    // A pose being made, or the best pose of a document that does not assemble.
    if (posing_->showDocument()) {
        showSelection();
        return;
    }
    const LoadedModel& good = document_->lastGoodModel();
    if (!good.ok()) {
        if (sceneModel_ || document_->document().bodies.empty()) {
            viewport_->setScene(flexibleView_->prepare({}));
            sceneModel_.reset();
            trails_->forgetDrawn();
        }
        return;
    }
    drawScene(buildScene(*good.model, good.initial), *good.model);
    sceneModel_ = good.model;
    showSelection();
}

void SceneDisplay::drawScene(const Scene& scene, const Model& model)
{
    if (viewport_->setScene(flexibleView_ ? flexibleView_->prepare(scene) : scene)) {
        // New solids: look at them against gravity. Their trails went with the old ones;
        // the selection starts the trail again.
        viewport_->setUpAxis(VtkViewport::upAxisAgainst(model.gravity));
        trails_->forgetDrawn();
    }
}

void SceneDisplay::drawModel(const Scene& scene, const std::shared_ptr<const Model>& model)
{
    drawScene(scene, *model);
    sceneModel_ = model;
}

void SceneDisplay::showFrame(int frame)
{
    const FrameSource* source = playback_->source();
    if (!source || frame < 0 || frame >= source->frameCount())
        return;
    // A jump back would join the trail's end to an earlier place: the trail starts again
    // at the frame shown.
    const bool jumpedBack = frame < lastShownFrame_;
    lastShownFrame_ = frame;
    if (posing_)
        posing_->recordedFrameShown(source == recording_ ? frame : -1);
    // The view shows the frames only while it shows their model (a document opened
    // since has its own scene).
    const std::shared_ptr<const Model> model = source->frameModel();
    if (model && model == sceneModel_)
        drawScene(source->frameScene(frame), *model);
    if (jumpedBack)
        trails_->restart();
    // A mode animation's time is the animation's, not the run's.
    if (source == recording_)
        plots_->setCursorTime(source->frameTime(frame));
    watch_->frameShown(source, frame);
}

void SceneDisplay::restartTrail()
{
    lastShownFrame_ = -1;
    trails_->restart();
}

void SceneDisplay::startOver()
{
    properties_->setItem({});
    sceneModel_.reset();
    // Another model: its solids are new even where they look like the old ones, so the
    // view starts over (camera, trails), looking against its gravity.
    viewport_->setScene(flexibleView_->prepare({}));
    viewport_->setUpAxis(VtkViewport::upAxisAgainst(document_->document().gravity));
    trails_->forgetAll();
    refreshScene();
}

void SceneDisplay::showRunStart(const std::shared_ptr<const Model>& model, const State& initial)
{
    // The view must show the model being simulated, even if an earlier version was shown;
    // if it already does, rebuilding its actors would only delay the first frame.
    if (sceneModel_ != model)
        refreshScene();
    else
        drawScene(buildScene(*model, initial), *model);
    restartTrail();
}

void SceneDisplay::traceRecordedFrames(const FrameBatch& batch)
{
    // Only the batch's last frame is shown; a trail needs the ones before it too.
    const int count = recording_->frameCount();
    const int first = count - static_cast<int>(batch.frames.size());
    if (trails_->any() && sceneModel_ && recording_->frameModel() == sceneModel_ && playback_->source() == recording_)
        for (int i = first; i + 1 < count; ++i)
            drawScene(recording_->frameScene(i), *sceneModel_);
}

// --- Selection ------------------------------------------------------------------------

void SceneDisplay::selectItem(ItemRef item)
{
    const QModelIndex index = item.valid() ? treeModel_->itemIndex(item) : QModelIndex();
    if (index.isValid()) {
        treeView_->setCurrentIndex(index);
        treeView_->scrollTo(index);
    } else {
        treeView_->selectionModel()->clearSelection();
        treeView_->setCurrentIndex({});
    }
}

ItemRef SceneDisplay::selectedItem() const { return treeModel_->itemAt(treeView_->currentIndex()); }

void SceneDisplay::showSelection()
{
    const ItemRef item = selectedItem();
    if (properties_->item() != item)
        properties_->setItem(item);
    int body = -1;
    std::vector<int> joints;
    if (sceneModel_ && item.valid()) {
        const std::string name = itemName(document_->document(), item);
        if (item.kind == ItemKind::Body || item.kind == ItemKind::Beam || item.kind == ItemKind::Solid) {
            if (auto b = sceneModel_->findBody(name))
                body = sceneBodyIndex(*b);
        } else if (item.kind == ItemKind::Joint) {
            if (auto j = sceneModel_->findJoint(name))
                joints.push_back(j->value());
        }
    }
    viewport_->setHighlightedBody(body);
    viewport_->setHighlightedJoints(joints);
    // A trail follows a rigid body's centre of mass; a mesh has no such point.
    selectedBody_ = item.kind == ItemKind::Body ? body : -1;
    updateTrail();
}

void SceneDisplay::highlightJoints(const std::vector<int>& joints) { viewport_->setHighlightedJoints(joints); }

void SceneDisplay::updateTrail() { trails_->update(sceneModel_.get(), selectedBody_); }

bool SceneDisplay::setTrailNode(const QString& name, QString* error)
{
    return trails_->setNode(name, sceneModel_.get(), error);
}

void SceneDisplay::onBodyPicked(int index)
{
    if (!sceneModel_ || index < 0)
        return;
    std::string name;
    for (int b = 0; b < sceneModel_->bodyCount(); ++b)
        if (sceneBodyIndex(BodyIndex(b)) == index)
            name = sceneModel_->body(BodyIndex(b)).name;
    if (name.empty())
        return;
    const ModelDocument& doc = document_->document();
    for (ItemKind kind : {ItemKind::Body, ItemKind::Beam, ItemKind::Solid})
        for (int i = 0; i < itemCount(doc, kind); ++i)
            if (itemName(doc, {kind, i}) == name)
                selectItem({kind, i});
}

void SceneDisplay::onJointPicked(int index)
{
    if (!sceneModel_ || index < 0 || index >= static_cast<int>(sceneModel_->joints.size()))
        return;
    const std::string& name = sceneModel_->joints[static_cast<size_t>(index)].name;
    const auto& joints = document_->document().joints;
    for (size_t i = 0; i < joints.size(); ++i)
        if (joints[i].name == name)
            selectItem({ItemKind::Joint, static_cast<int>(i)});
}

}  // namespace looplab::ui
