#pragma once
// Marks drawn over the mechanism to show why it does not close or move: a red segment
// between the two frames of each unclosed joint, an orange mark at a joint placed away
// from its links, a magenta arrow along the direction a singular configuration cannot
// move in; each with a label. The props are added to the viewport's renderer.

#include "looplab/posing/AssemblyExplanation.h"

#include <vtkSmartPointer.h>

#include <string>
#include <utility>
#include <vector>

class vtkProp;
class vtkRenderer;

namespace looplab::ui {

class DiagnosisOverlay {
public:
    explicit DiagnosisOverlay(vtkRenderer* renderer);
    ~DiagnosisOverlay();
    DiagnosisOverlay(const DiagnosisOverlay&) = delete;
    DiagnosisOverlay& operator=(const DiagnosisOverlay&) = delete;

    /// Shows the gaps, detached joints and singular line-up of `e` at `model`'s pose
    /// e.pose; replaces what was shown.
    void show(const Model& model, const AssemblyExplanation& e);
    void clear();

    /// The labels drawn, in drawing order (gaps first).
    const std::vector<std::string>& labels() const { return labels_; }
    /// Segments drawn (one per gap, detached joint or singular direction).
    int segmentCount() const { return segments_; }
    /// Their ends, global [m], in drawing order: a singular direction runs from the
    /// joint's point along the direction it cannot move in.
    const std::vector<std::pair<Vec3, Vec3>>& segmentEnds() const { return ends_; }

private:
    void addSegment(const Vec3& a, const Vec3& b, const double color[3], const std::string& label);

    // Held, so that the overlay may outlive the view that drew it.
    vtkSmartPointer<vtkRenderer> renderer_;
    std::vector<vtkProp*> props_;
    std::vector<std::string> labels_;
    std::vector<std::pair<Vec3, Vec3>> ends_;
    int segments_ = 0;
};

}  // namespace looplab::ui
