#include "workbench/ExamplesDirectory.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace looplab::ui {

QString examplesDirectory()
{
    QStringList candidates;
    const QString appDir = QCoreApplication::applicationDirPath();
    if (!appDir.isEmpty()) {
        candidates << appDir + "/../share/looplab/examples" << appDir + "/examples";
    }
#ifdef LOOPLAB_EXAMPLES_DIR
    candidates << QStringLiteral(LOOPLAB_EXAMPLES_DIR);
#endif
    for (const QString& c : candidates)
        if (QFileInfo(c).isDir())
            return QDir(c).canonicalPath();
    return {};
}

QStringList exampleFiles()
{
    const QString dir = examplesDirectory();
    if (dir.isEmpty())
        return {};
    QStringList out;
    const QFileInfoList files = QDir(dir).entryInfoList({"*.json"}, QDir::Files, QDir::Name);
    for (const QFileInfo& f : files)
        out << f.absoluteFilePath();
    return out;
}

}  // namespace looplab::ui
