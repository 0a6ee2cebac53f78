#pragma once
// A picture written as a PNG file through a temporary file renamed into place, so that a
// failed save keeps the old picture (the 3D view's and the charts' pictures).

#include <QString>

class QImage;

namespace looplab::ui {

/// Writes `image` to `path` as PNG; false with the reason in `error`.
bool writePngFile(const QImage& image, const QString& path, QString* error = nullptr);

}  // namespace looplab::ui
