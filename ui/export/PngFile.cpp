#include "export/PngFile.h"

#include <QCoreApplication>
#include <QImage>
#include <QSaveFile>

namespace looplab::ui {

bool writePngFile(const QImage& image, const QString& path, QString* error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QCoreApplication::translate("PngFile", "Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    if (!image.save(&file, "PNG")) {
        file.cancelWriting();
        if (error)
            *error = QCoreApplication::translate("PngFile", "Cannot write %1: the PNG encoder failed.").arg(path);
        return false;
    }
    if (!file.commit()) {
        if (error)
            *error = QCoreApplication::translate("PngFile", "Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

}  // namespace looplab::ui
