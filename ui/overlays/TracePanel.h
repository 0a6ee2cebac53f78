#pragma once
// Traces of chosen body points over the recording (coupler curves): the list of traced
// points, their polylines in the 3D view with a dot where each point is at the frame
// shown, and CSV export. The points are kept by body name and body-frame position, so
// they survive edits and new runs; the paths are recomputed from the frame source when
// it changes.

#include "looplab/kinematics/PointTrace.h"

#include <QWidget>

#include <memory>
#include <vector>

class QListWidget;
class QPushButton;

namespace looplab {
struct Model;
struct ModelDocument;
}

namespace looplab::ui {

class FrameSource;
class TracePolyline;
class VtkViewport;

class TracePanel : public QWidget {
    Q_OBJECT

public:
    explicit TracePanel(VtkViewport* viewport, QWidget* parent = nullptr);
    ~TracePanel() override;

    /// The document whose bodies and markers can be traced (may be null); kept by pointer.
    void setDocument(const ModelDocument* document);
    /// Where the paths come from (kept by pointer; null clears them).
    void setSource(const FrameSource* source);
    /// The source gained or lost frames, or has a new model: recompute the paths.
    void sourceChanged();
    /// Puts each trace's dot at frame `frame` of the source.
    void showFrame(int frame);

    /// Adds a trace; false with *error if the body is not in the source's model.
    bool addTrace(const TracedPoint& point, QString* error = nullptr);
    void removeTrace(int index);
    /// A model was opened: the previous model's traces go, and the points its file asks
    /// to trace (ModelDocument::traces) take their place.
    void documentOpened();
    int traceCount() const { return static_cast<int>(traces_.size()); }
    /// The traces as last computed (one sample per frame of the source).
    const std::vector<PointTrace>& traces() const { return traces_; }
    /// Writes the traces as CSV (PointTrace.h: t, then x, y, z per point) atomically.
    bool exportCsv(const QString& path, QString* error = nullptr) const;

    /// Opens the dialog to choose a point: a marker, or a body and a point in its frame;
    /// `preferredBody` is preselected if given.
    void addTraceInteractively(const QString& preferredBody = {});

signals:
    void tracesChanged();
    /// The panel's Export… button: the window asks where (beside the model by default).
    void exportRequested();

private:
    void recompute();
    void refreshList();

    VtkViewport* viewport_;
    const ModelDocument* document_ = nullptr;
    const FrameSource* source_ = nullptr;
    std::vector<PointTrace> traces_;
    std::vector<std::unique_ptr<TracePolyline>> lines_;
    int frame_ = -1;
    // What the paths were computed from, so that new frames of the same run only add
    // their samples.
    std::shared_ptr<const Model> computedModel_;
    int computedFrames_ = 0;
    QListWidget* list_;
    QPushButton* add_;
    QPushButton* remove_;
    QPushButton* export_;
};

}  // namespace looplab::ui
