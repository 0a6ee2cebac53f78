#pragma once
// The VTK side of the scene's flexible members (looplab::SceneBeam, SceneSurface): beams
// as their section swept along the sampled centreline, solids as their outer surface, an
// optional colour map of a field with its legend (one colour for a field flat to within
// rounding; a fixed relative scale for a mode's fields), and translucent ghosts. Unlike a rigid
// solid, a flexible member changes shape from frame to frame, so its points are written at
// every frame; cells are rebuilt only when the sample counts change. Plain VTK, no Qt.

#include "looplab/scene/Scene.h"
#include "viewport/FlexibleField.h"

#include <vtkSmartPointer.h>

#include <memory>
#include <string>
#include <vector>

class vtkActor;
class vtkLookupTable;
class vtkPolyData;
class vtkRenderer;
class vtkScalarBarActor;

namespace looplab::ui {

class FlexibleActors {
public:
    /// Adds actors to `renderer`, which must outlive this object.
    explicit FlexibleActors(vtkRenderer* renderer);
    ~FlexibleActors();
    FlexibleActors(const FlexibleActors&) = delete;
    FlexibleActors& operator=(const FlexibleActors&) = delete;

    /// Draws the scene's beams, surfaces and their ghosts. Returns true when the members
    /// are new (their number, kinds or sample counts differ from the ones drawn); the
    /// field's range then starts again.
    bool setScene(const looplab::Scene& scene);

    /// Colours the members by `field` and shows its legend (none: hidden). The colour
    /// range covers every value shown since the members or the field last changed, so
    /// the legend holds still while an animation plays.
    void setField(FlexibleField field);
    FlexibleField field() const { return field_; }
    /// The range of the values coloured (min, max); equal when nothing is coloured.
    void fieldRange(double range[2]) const;
    bool legendVisible() const;
    /// The legend's title: the field, its unit, and "uniform" with the value when it varies
    /// by less than rounding (one colour, as a chart's flat axis), or "of the mode,
    /// relative" for a mode's normalised fields (Scene::modeFields; scale −1 … 1 or 0 … 1).
    std::string legendTitle() const;
    /// The field shown varies by less than rounding and is drawn in one colour.
    bool fieldUniform() const { return uniform_; }

    /// Number of beams and surfaces drawn (not ghosts) and ghosts drawn.
    int memberCount() const { return static_cast<int>(members_.size()); }
    int ghostCount() const { return static_cast<int>(ghosts_.size()); }
    /// Draws member body `body` (a Scene::bodies index) brighter; −1 clears.
    void setHighlightedBody(int body);

    /// World bounds of the members drawn (not ghosts), merged into `out` (`any` says
    /// whether `out` holds bounds yet).
    void mergeBounds(double out[6], bool& any) const;

private:
    struct Member;
    bool sameMembers(const looplab::Scene& scene) const;
    void rebuild(const looplab::Scene& scene);
    void update(const looplab::Scene& scene);
    void applyColouring();

    vtkRenderer* renderer_;
    std::vector<std::unique_ptr<Member>> members_;
    std::vector<std::unique_ptr<Member>> ghosts_;
    vtkSmartPointer<vtkLookupTable> lookup_;
    vtkSmartPointer<vtkScalarBarActor> legend_;
    FlexibleField field_ = FlexibleField::None;
    double range_[2] = {0.0, 0.0};
    bool rangeSet_ = false;
    bool modeFields_ = false;
    bool uniform_ = false;
    double uniformValue_ = 0.0;
    int highlighted_ = -1;
};

}  // namespace looplab::ui
