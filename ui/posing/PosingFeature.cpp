#include "posing/PosingFeature.h"

#include "posing/DiagnosisOverlay.h"
#include "posing/PoseController.h"
#include "posing/PosePanel.h"
#include "viewport/VtkViewport.h"
#include "panels/WarningsPanel.h"
#include "document/WorkbenchDocument.h"

#include "looplab/model/State.h"
#include "looplab/kinematics/Assembly.h"
#include "looplab/model/ModelBuilder.h"
#include "looplab/posing/MechanismAdvice.h"

#include <algorithm>
#include <limits>

namespace looplab::ui {

PosingFeature::PosingFeature(WorkbenchDocument* document, VtkViewport* viewport, WarningsPanel* warnings,
                             DrawScene draw, QObject* parent)
    : QObject(parent), document_(document), viewport_(viewport), warnings_(warnings), draw_(std::move(draw)),
      controller_(new PoseController(this)), panel_(new PosePanel(controller_, document)),
      overlay_(std::make_unique<DiagnosisOverlay>(viewport->renderer())),
      recordingOverlay_(std::make_unique<DiagnosisOverlay>(viewport->renderer()))
{
    viewport_->setPoseDragEnabled(true);
    connect(viewport_, &VtkViewport::poseDragStarted, this, [this](int body, const Eigen::Vector3d& p) {
        if (enabled_)
            controller_->beginDrag(body, p);
    });
    connect(viewport_, &VtkViewport::poseDragMoved, this, [this](const Eigen::Vector3d& target) {
        if (enabled_)
            controller_->dragTo(target);
    });
    connect(viewport_, &VtkViewport::poseDragFinished, controller_, &PoseController::endDrag);
    connect(controller_, &PoseController::poseChanged, this, &PosingFeature::drawPose);
    connect(controller_, &PoseController::message, this, &PosingFeature::message);
}

PosingFeature::~PosingFeature() = default;

void PosingFeature::setPosingEnabled(bool on)
{
    // A run or recording draws other poses: marks of the model's pose would mislead.
    if (!on)
        overlay_->clear();
    enabled_ = on;
    viewport_->setPoseDragEnabled(on && controller_->model());
    panel_->setPosingEnabled(on);
}

void PosingFeature::drawPose()
{
    if (!enabled_ || !controller_->model())
        return;
    draw_(buildScene(*controller_->model(), controller_->state()), controller_->sharedModel());
    // A dragged or typed pose may sit at a dead centre the initial configuration does not
    // (or leave one): the marks follow the pose.
    if (explanation_ && explanation_->closed) {
        AssemblyExplanation atPose = *explanation_;
        atPose.pose = controller_->state();
        atPose.singular = singularLineUp(*controller_->model(), atPose.pose);
        if (!atPose.detached.empty() || atPose.singular)
            overlay_->show(*controller_->model(), atPose);
        else
            overlay_->clear();
    }
    viewport_->requestRender();
}

bool PosingFeature::showRecordedSingularity(const Model& model, const State& before, const State& after, double t,
                                            int frame)
{
    recordingOverlay_->clear();
    recordingOverlayFrame_ = -1;
    // Frames a few milliseconds apart can be degrees of crank apart where a linkage
    // passes a dead centre fast, and links count as lined up only within about 3°: the
    // state at the warning's own time, interpolated between the frames and closed again.
    State state = before;
    if (after.t > before.t && t > before.t) {
        const double a = std::min(1.0, (t - before.t) / (after.t - before.t));
        state.t = before.t + a * (after.t - before.t);
        state.q = before.q + a * (after.q - before.q);
        normalizePositions(model, state.q);
        if (!assemble(model, state).ok)
            state = before;
    }
    // The run's monitor has already decided the configuration is singular: any smallest
    // singular value counts, as in the warning's own sentence.
    AssemblyExplanation e;
    e.closed = true;
    e.pose = state;
    e.singular = singularLineUp(model, state, std::numeric_limits<double>::infinity());
    if (!e.singular)
        return false;
    recordingOverlay_->show(model, e);
    recordingOverlayFrame_ = frame;
    viewport_->requestRender();
    return true;
}

void PosingFeature::recordedFrameShown(int frame)
{
    if (recordingOverlayFrame_ < 0 || frame == recordingOverlayFrame_)
        return;
    recordingOverlay_->clear();
    recordingOverlayFrame_ = -1;
    viewport_->requestRender();
}

void PosingFeature::clearWarnings()
{
    warnings_->clearModelFindings();
}

bool PosingFeature::showDocument()
{
    overlay_->clear();
    clearWarnings();
    explanation_.reset();
    const LoadedModel& current = document_->loaded();
    if (current.ok()) {
        if (controller_->sharedModel() != current.model) {
            controller_->setModel(current.model, current.initial);
            panel_->refresh();
        }
        // Findings of a model that closes: joints away from their links, a dead centre.
        // (Redundancy is left to the run's warnings, which name it at the start.)
        AssemblyExplanation e;
        e.closed = true;
        e.pose = current.initial;
        e.detached = detachedJoints(*current.model);
        e.singular = singularLineUp(*current.model, current.initial);
        if (!e.detached.empty() || e.singular) {
            overlay_->show(*current.model, e);
            for (const DetachedJoint& d : e.detached)
                warnings_->addModelFinding("detached_joint", QString::fromStdString(d.sentence),
                                           {QString::fromStdString(d.name)});
            if (e.singular)
                warnings_->addModelFinding("singular_configuration", QString::fromStdString(e.singular->sentence),
                                           {QString::fromStdString(e.singular->joint)});
        }
        explanation_ = std::move(e);
        setPosingEnabled(enabled_);
        if (controller_->isPosed()) {
            drawPose();
            return true;
        }
        return false;
    }
    controller_->clear();
    panel_->refresh();
    setPosingEnabled(enabled_);
    const BuildResult built = buildModel(document_->document(), document_->filePath().toStdString());
    if (!built.ok())
        return false;
    AssemblyExplanation e = explainAssembly(*built.model);
    if (e.closed)
        return false;
    draw_(buildScene(*built.model, e.pose), built.model);
    overlay_->show(*built.model, e);
    viewport_->requestRender();
    // The cause first, with its fix (a four-bar whose links cannot reach), then the gap at each
    // unclosed joint it leaves, then the four-bar's conditions.
    const std::string reach = e.fourBar ? e.fourBar->reachSentence() : std::string();
    if (!reach.empty())
        warnings_->addModelFinding("assembly", QString::fromStdString(reach));
    for (const JointGap& g : e.gaps)
        warnings_->addModelFinding("unclosed_joint",
                                   tr("Joint %1 does not close: %2 at the best pose reached")
                                       .arg(QString::fromStdString(g.name))
                                       .arg(QString::fromStdString(g.label().substr(g.name.size() + 2))),
                                   {QString::fromStdString(g.name)});
    if (e.fourBar)
        warnings_->addModelFinding("four_bar", QString::fromStdString(e.fourBar->grashofSentence()));
    for (const DetachedJoint& d : e.detached)
        warnings_->addModelFinding("detached_joint", QString::fromStdString(d.sentence),
                                   {QString::fromStdString(d.name)});
    const std::vector<std::string> sentences = e.sentences();
    if (!sentences.empty())
        emit message(tr("Does not assemble: %1").arg(QString::fromStdString(sentences.front())));
    explanation_ = std::move(e);
    return true;
}

}  // namespace looplab::ui
