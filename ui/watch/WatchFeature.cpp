#include "watch/WatchFeature.h"

#include "camera/CameraController.h"
#include "overlays/ArrowFeature.h"
#include "plotting/PlotWindows.h"
#include "viewport/VtkViewport.h"
#include "panels/PanelDock.h"
#include "recording/SimulationRecording.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>

namespace looplab::ui {

WatchFeature::WatchFeature(QMainWindow* mainWindow, VtkViewport* viewport, const SimulationRecording* recording,
                           std::function<int()> selectedBody, QDockWidget* tabWith)
    : QObject(mainWindow), mainWindow_(mainWindow), viewport_(viewport), recording_(recording),
      selectedBody_(std::move(selectedBody))
{
    plots_ = new PlotWindows(mainWindow, recording);
    camera_ = new CameraController(viewport, this);
    arrows_ = new ArrowFeature(viewport);
    arrowDock_ = panelDock(tr("Arrows"), "arrowDock", arrows_, mainWindow);
    mainWindow->addDockWidget(Qt::RightDockWidgetArea, arrowDock_);
    if (tabWith)
        mainWindow->tabifyDockWidget(tabWith, arrowDock_);
}

void WatchFeature::addMenuEntries(QMenu* view)
{
    using SV = VtkViewport::StandardView;
    QMenu* camera = view->addMenu(tr("&Camera"));
    camera->addAction(tr("Fit to &Mechanism"), camera_, &CameraController::fitToMechanism);
    QAction* fitRun = camera->addAction(tr("Fit to the Whole &Run"), this, [this] { camera_->fitToRun(*recording_); });
    fitRun->setObjectName("cameraFitRun");
    follow_ = camera->addAction(tr("&Follow Selected Body"));
    follow_->setObjectName("cameraFollow");
    follow_->setCheckable(true);
    follow_->setToolTip(tr("Keep the body selected when this is ticked where it is in the view during playback"));
    connect(follow_, &QAction::toggled, this, [this](bool on) {
        camera_->followBody(on ? selectedBody_() : -1);
        // Nothing selected: nothing to follow.
        if (on && camera_->followedBody() < 0) {
            const QSignalBlocker block(follow_);
            follow_->setChecked(false);
        }
    });
    camera->addSeparator();
    camera->addAction(tr("Orthographic &Front"), this, [this] { camera_->orthographicView(SV::Front); })
        ->setObjectName("cameraOrthoFront");
    camera->addAction(tr("Orthographic &Top"), this, [this] { camera_->orthographicView(SV::Top); })
        ->setObjectName("cameraOrthoTop");
    camera->addAction(tr("Orthographic &Side"), this, [this] { camera_->orthographicView(SV::Side); })
        ->setObjectName("cameraOrthoSide");
    camera->addAction(tr("&Perspective"), this, [this] { camera_->setOrthographic(false); })
        ->setObjectName("cameraPerspective");
    plots_->addMenuEntries(view);
}

void WatchFeature::runFinished()
{
    if (camera_->followedBody() >= 0 || recording_->isEmpty())
        return;
    if (!camera_->showsWholeRun(*recording_))
        camera_->fitToRun(*recording_);
}

void WatchFeature::recordingChanged()
{
    plots_->refreshAll();
    if (recording_->isEmpty()) {
        arrows_->clear();
        plots_->setCursorFrame(-1);
    }
}

void WatchFeature::frameShown(const FrameSource* source, int frame)
{
    arrows_->showFrame(source, frame);
    // A mode animation's frames are not the recording's.
    plots_->setCursorFrame(source == recording_ ? frame : -1);
    if (camera_->followedBody() >= 0 && source && frame >= 0 && frame < source->frameCount())
        camera_->sceneShown(source->frameScene(frame));
}

}  // namespace looplab::ui
