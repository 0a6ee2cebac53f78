#pragma once
// Bounds the number of points a chart series holds. Qt Charts recomputes the outline of
// a whole line (a stroked path, for hit testing) whenever a series or an axis changes,
// so a run of many thousand frames would make each live update take longer than the
// last. A chart a few hundred pixels wide cannot show more than about two points per
// pixel column anyway: keeping the smallest and the largest value of each group of
// consecutive points draws the same picture, spikes included.

#include <QList>
#include <QPointF>

namespace looplab::ui {

/// At most `maxPoints` (at least 4) of `points`, in their order: all of them if they
/// fit; otherwise the lowest and highest point of each of about maxPoints/2 groups of
/// consecutive points, and always the first and the last point.
QList<QPointF> decimatedForDisplay(const QList<QPointF>& points, int maxPoints);

}  // namespace looplab::ui
