#pragma once
// Which field colours the flexible members in the view (FlexibleActors.h); apart from
// FlexibleActors so that VtkViewport.h stays free of VTK headers.

namespace looplab::ui {

enum class FlexibleField {
    None,         ///< each member in its colour
    AxialStrain,   ///< beams by SceneBeam::axialStrain [1]; solids in their colour
    VonMises,      ///< solids by SceneSurface::vonMises [Pa]; beams in their colour
    BendingStrain  ///< beams by SceneBeam::bendingStrain [1]; solids in their colour (last: the
                   ///< settings keep the number)
};

}  // namespace looplab::ui
