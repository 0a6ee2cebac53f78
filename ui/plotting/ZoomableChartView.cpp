#include "plotting/ZoomableChartView.h"

#include <QChart>
#include <QMouseEvent>
#include <QWheelEvent>

#include <cmath>

namespace looplab::ui {

ZoomableChartView::ZoomableChartView(QChart* chart, QWidget* parent) : QChartView(chart, parent)
{
    setRubberBand(QChartView::RectangleRubberBand);
}

void ZoomableChartView::zoomAt(const QPointF& position, double factor)
{
    if (!(factor > 0.0))
        return;
    const QRectF area = chart()->plotArea();
    const QPointF p = chart()->mapFromScene(mapToScene(position.toPoint()));
    if (!area.contains(p))
        return;
    // The point under the pointer keeps its place: the new area shrinks towards it.
    const double w = area.width() / factor, h = area.height() / factor;
    const double fx = (p.x() - area.left()) / area.width(), fy = (p.y() - area.top()) / area.height();
    chart()->zoomIn(QRectF(p.x() - fx * w, p.y() - fy * h, w, h));
    emit userZoomed();
}

void ZoomableChartView::wheelEvent(QWheelEvent* event)
{
    const int steps = event->angleDelta().y();
    if (steps == 0) {
        QChartView::wheelEvent(event);
        return;
    }
    // One notch (120) zooms by 20 %.
    zoomAt(event->position(), std::pow(1.2, steps / 120.0));
    event->accept();
}

void ZoomableChartView::mouseReleaseEvent(QMouseEvent* event)
{
    // The base class zooms into the rubber band (left) or out one step (right) here;
    // only a band that was actually dragged open changes the axes.
    const bool banding = event->button() == Qt::LeftButton || event->button() == Qt::RightButton;
    QChartView::mouseReleaseEvent(event);
    if (banding && chart()->isZoomed())
        emit userZoomed();
}

}  // namespace looplab::ui
