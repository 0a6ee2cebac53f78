#include "plotting/SeriesDecimation.h"

#include <algorithm>

namespace looplab::ui {

QList<QPointF> decimatedForDisplay(const QList<QPointF>& points, int maxPoints)
{
    maxPoints = std::max(maxPoints, 4);
    const qsizetype n = points.size();
    if (n <= maxPoints)
        return points;
    // The first and last point are kept apart, so the groups share maxPoints − 2.
    const qsizetype groups = (maxPoints - 2) / 2;
    const qsizetype inner = n - 2;
    QList<QPointF> out;
    out.reserve(maxPoints);
    out << points.front();
    for (qsizetype g = 0; g < groups; ++g) {
        const qsizetype begin = 1 + g * inner / groups, end = 1 + (g + 1) * inner / groups;
        if (begin >= end)
            continue;
        qsizetype lo = begin, hi = begin;
        for (qsizetype i = begin + 1; i < end; ++i) {
            if (points[i].y() < points[lo].y())
                lo = i;
            if (points[i].y() > points[hi].y())
                hi = i;
        }
        out << points[std::min(lo, hi)];
        if (lo != hi)
            out << points[std::max(lo, hi)];
    }
    out << points.back();
    return out;
}

}  // namespace looplab::ui
