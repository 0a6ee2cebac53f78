#pragma once
// The sketch's marks in the 3D view: every pivot as a dot (ground pivots dark, moving
// pivots light) and the end a link chain continues from as a ring. Plain VTK props added
// to the view's renderer.

#include "looplab/common/Types.h"

#include <vector>

class vtkProp;
class vtkRenderer;

namespace looplab::ui {

class SketchOverlay {
public:
    explicit SketchOverlay(vtkRenderer* renderer);
    ~SketchOverlay();
    SketchOverlay(const SketchOverlay&) = delete;
    SketchOverlay& operator=(const SketchOverlay&) = delete;

    void clear();
    void addPivot(const Vec3& point, bool ground, double radius);
    void addPending(const Vec3& point, double radius);
    int pivotCount() const { return pivots_; }

private:
    void addDot(const Vec3& point, double radius, const double color[3], double opacity);
    vtkRenderer* renderer_;
    std::vector<vtkProp*> props_;
    int pivots_ = 0;
};

}  // namespace looplab::ui
