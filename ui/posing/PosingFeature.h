#pragma once
// Posing and the explanation of assembly in the workbench, wired together so the main
// window only forwards a few events: drags in the view move the pose (PoseController),
// the Pose panel types coordinates and writes the pose into the model, and a document
// that does not assemble is drawn at its best pose with its gaps (DiagnosisOverlay), one
// Warnings entry per unclosed joint and the four-bar's reach sentence. A singular
// configuration's direction is drawn at the initial configuration, at a dragged or typed
// pose, and at the frame of a run's singular_configuration warning.

#include "looplab/posing/AssemblyExplanation.h"
#include "looplab/scene/Scene.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

namespace looplab::ui {

class DiagnosisOverlay;
class PoseController;
class PosePanel;
class VtkViewport;
class WarningsPanel;
class WorkbenchDocument;

class PosingFeature : public QObject {
    Q_OBJECT

public:
    /// Draws a scene of a model in the view (the main window's own drawing, which also
    /// makes that model the one selections refer to).
    using DrawScene = std::function<void(const Scene&, const std::shared_ptr<const Model>&)>;

    PosingFeature(WorkbenchDocument* document, VtkViewport* viewport, WarningsPanel* warnings, DrawScene draw,
                  QObject* parent = nullptr);
    ~PosingFeature() override;

    PoseController* controller() const { return controller_; }
    PosePanel* panel() const { return panel_; }
    const DiagnosisOverlay& overlay() const { return *overlay_; }
    /// The explanation of the document shown last, if any.
    const std::optional<AssemblyExplanation>& explanation() const { return explanation_; }

    /// Shows the current document: draws the pose if there is one, or the best pose of a
    /// document that builds but does not assemble, with its gaps and warnings. Returns
    /// false when the caller should draw the model's initial state itself.
    bool showDocument();
    /// Posing is possible only while no run or recording owns the view.
    void setPosingEnabled(bool on);

    /// Draws the direction a recorded singular configuration cannot move in (a run's
    /// singular_configuration warning at time t), at the state of `model` at t between
    /// the recorded frames `before` and `after`; `frame` is the one shown. Returns false,
    /// drawing nothing, if no two links line up there.
    bool showRecordedSingularity(const Model& model, const State& before, const State& after, double t, int frame);
    /// The recording shows frame `frame` (−1: none): a mark of another frame goes.
    void recordedFrameShown(int frame);
    const DiagnosisOverlay& recordingOverlay() const { return *recordingOverlay_; }

signals:
    /// A sentence for the status bar.
    void message(const QString& text);

private:
    void drawPose();
    void clearWarnings();

    WorkbenchDocument* document_;
    VtkViewport* viewport_;
    WarningsPanel* warnings_;
    DrawScene draw_;
    PoseController* controller_;
    PosePanel* panel_;
    std::unique_ptr<DiagnosisOverlay> overlay_;
    // Marks of a recorded frame, kept apart from the pose's, which a recording clears.
    std::unique_ptr<DiagnosisOverlay> recordingOverlay_;
    int recordingOverlayFrame_ = -1;
    std::optional<AssemblyExplanation> explanation_;
    bool enabled_ = true;
};

}  // namespace looplab::ui
