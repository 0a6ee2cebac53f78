#pragma once
// The picture of the plots that goes beside the 3D view in an exported animation: the
// plot panel's charts, each as on screen with its cursor at the frame's time, stacked
// top to bottom so that the picture is about as tall as it is wide (the panel itself lays
// them side by side, which beside a 3D view would make a strip).

#include <QImage>

namespace looplab::ui {

class PlotPanel;

/// Moves the panel's cursor to `t` [s] and returns its charts stacked; the caller puts
/// the cursor back when done.
QImage plotsPicture(PlotPanel& panel, double t);

}  // namespace looplab::ui
