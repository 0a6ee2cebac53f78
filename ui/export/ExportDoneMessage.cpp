#include "export/ExportDoneMessage.h"

#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QUrl>

namespace looplab::ui {

QMessageBox* showExportDone(QWidget* parent, const QString& path, const QString& what)
{
    const QFileInfo file(path);
    auto* box = new QMessageBox(QMessageBox::Information, QObject::tr("Export finished"),
                                QObject::tr("Saved %1 (%2)\nin %3").arg(file.fileName(), what,
                                                                         QDir::toNativeSeparators(file.absolutePath())),
                                QMessageBox::Ok, parent);
    box->setObjectName("exportDoneMessage");
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton* open = box->addButton(QObject::tr("Open Folder"), QMessageBox::ActionRole);
    open->setObjectName("openExportFolder");
    // An action-role button would close the box; the folder opens beside it instead.
    QObject::disconnect(open, &QPushButton::clicked, nullptr, nullptr);
    QObject::connect(open, &QPushButton::clicked, box, [folder = file.absolutePath()] {
        QDesktopServices::openUrl(QUrl::fromLocalFile(folder));
    });
    box->open();
    return box;
}

}  // namespace looplab::ui
