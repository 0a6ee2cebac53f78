#include "export/ExportFolder.h"

#include <QDir>
#include <QFileInfo>

namespace looplab::ui {

QString defaultExportPath(const QString& modelPath, const QString& fileName)
{
    if (!modelPath.isEmpty()) {
        const QFileInfo folder(QFileInfo(modelPath).absolutePath());
        if (folder.isDir() && folder.isWritable())
            return QDir(folder.absoluteFilePath()).filePath(fileName);
    }
    return QDir::home().filePath(fileName);
}

}  // namespace looplab::ui
