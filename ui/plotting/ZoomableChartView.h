#pragma once
// A chart view that zooms: the mouse wheel zooms in and out about the pointer, a
// rectangle dragged with the left button zooms into it, a right click steps back.
// Whoever sets the axis ranges is told through userZoomed() that the user now owns
// them, so that live updates do not undo the zoom.

#include <QChartView>

namespace looplab::ui {

class ZoomableChartView : public QChartView {
    Q_OBJECT

public:
    explicit ZoomableChartView(QChart* chart, QWidget* parent = nullptr);

    /// Zooms by `factor` (> 1 magnifies) about `position` (view coordinates).
    void zoomAt(const QPointF& position, double factor);

signals:
    void userZoomed();

protected:
    void wheelEvent(QWheelEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
};

}  // namespace looplab::ui
