#pragma once
// Exports the frames of a FrameSource (a run's recording, a mode's swing) to MP4 or GIF
// from the workbench: the scene rendered off screen at the chosen size with what the view
// shows over it (camera, grid, traces, arrows, colour map) and a caption with the time,
// optionally with a picture of the plots beside it. VTK must render
// on the GUI thread, so the job works in small pieces (one video frame per event-loop
// turn) and the window stays responsive; it can be cancelled at any time. The file is
// written under a temporary name in the target's folder and renamed into place only
// when complete.

#include "export/VideoEncoder.h"
#include "viewport/FlexibleField.h"

#include "looplab/analysis/MotionArrows.h"
#include "looplab/scene/Scene.h"

#include <Eigen/Core>
#include <QImage>
#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>
#include <memory>
#include <vector>

class vtkCamera;

namespace looplab::ui {

class ArrowOverlay;
class FrameSource;
class OffscreenSceneRenderer;

struct AnimationExportSettings {
    QString path;           ///< .mp4 or .gif
    int width = 800;        ///< of the 3D picture [px]
    int height = 600;       ///< [px]
    double fps = 30.0;
    bool withPlots = false;  ///< the plots' picture beside the 3D picture
    /// The Flexible Bodies view's settings, so that the video looks like the view: the
    /// field that colours beams and solid meshes (with its legend), and the factor k that
    /// draws their displacement k times larger (withExaggeratedDeformation, FlexibleScene.h).
    FlexibleField flexibleField = FlexibleField::None;
    double deformationScale = 1.0;
    bool withGrid = true;  ///< the ground grid, as the view's View → Grid
};

class AnimationExportJob : public QObject {
    Q_OBJECT

public:
    /// `source` must outlive the job and keep its frames while it runs.
    AnimationExportJob(const FrameSource& source, AnimationExportSettings settings, QObject* parent = nullptr);
    ~AnimationExportJob() override;  ///< cancels an unfinished export

    /// The 3D picture's camera: a copy of `camera` (the view's, whose grid lies normal to
    /// world axis `up`), or, if never set, fitted to the whole motion.
    void setCamera(vtkCamera* camera, int up);
    /// Arrows drawn at each frame as the view draws them (FrameArrows.h); none by default.
    void setArrows(const ArrowRequest& request, const ArrowScale& scale);
    /// The caption in the picture's corner for the frame at time t; by default the time,
    /// "t = 0.250 s".
    void setCaption(std::function<QString(double t)> caption);
    /// Paths drawn over the mechanism, one point per frame of the source; each is drawn
    /// up to the frame shown.
    void setTraces(const std::vector<std::vector<Eigen::Vector3d>>& traces);
    /// With settings.withPlots: a picture of the plots at time t, scaled to the video's
    /// height and put to the right of the 3D picture.
    void setPlotPicture(std::function<QImage(double t)> picture);

    /// Checks the settings, creates the temporary file and starts working in the event
    /// loop; false with *error (nothing started) if it cannot.
    bool start(QString* error);
    /// Stops, removes the temporary file and leaves any existing file untouched.
    void cancel();
    /// Works until done without the event loop (scripts and tests); false with *error.
    bool runToEnd(QString* error);

    int frameCount() const { return static_cast<int>(picks_.size()); }
    int framesDone() const { return done_; }
    bool isRunning() const { return running_; }
    QString codecName() const;
    /// Mean wall time per frame so far [s]: rendering (and composing), and encoding.
    double renderSecondsPerFrame() const;
    double encodeSecondsPerFrame() const;

signals:
    void progress(int done, int total);
    /// Once, at the end: ok, or why not (empty message when cancelled).
    void finished(bool ok, const QString& message);

private:
    bool open(QString* error);
    bool step(QString* error);  ///< one frame; true while there is more to do
    bool complete(QString* error);
    void fail(const QString& message);
    void discardTemporary();
    /// The source's frame i as the view would draw it (deformation exaggerated).
    Scene drawnScene(int i) const;

    const FrameSource& source_;
    AnimationExportSettings settings_;
    std::unique_ptr<OffscreenSceneRenderer> renderer_;
    VideoEncoder encoder_;
    std::vector<std::vector<Eigen::Vector3d>> traces_;
    std::function<QImage(double)> plotPicture_;
    std::vector<double> camera_;  ///< position, focal point, view up, view angle, parallel scale, parallel flag
    int cameraUp_ = 1;
    ArrowRequest arrowRequest_;
    ArrowScale arrowScale_;
    std::unique_ptr<ArrowOverlay> arrows_;
    std::function<QString(double)> caption_;
    std::vector<int> picks_;      ///< source frame of each video frame
    int plotWidth_ = 0;
    QString temporary_;
    QTimer timer_;
    int done_ = 0;
    bool running_ = false;
    double renderSeconds_ = 0.0, encodeSeconds_ = 0.0;
    QImage composed_;
};

}  // namespace looplab::ui
