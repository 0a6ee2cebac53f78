#include "workbench/FileController.h"

#include "looplab/exchange/ModelImport.h"
#include "posing/PosingFeature.h"
#include "run/RunSession.h"
#include "workbench/ExamplesDirectory.h"
#include "workbench/ModelSavePath.h"
#include "document/WorkbenchDocument.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QUrl>

namespace looplab::ui {

namespace {

constexpr int kMaxRecentModelFiles = 8;
const char* kRecentModelFilesKey = "recentFiles";

}  // namespace

FileController::FileController(QMainWindow* window, WorkbenchDocument* document, RunSession* session,
                               PosingFeature* posing, const bool& confirm)
    : window_(window), document_(document), session_(session), posing_(posing), confirm_(confirm)
{
}

QString FileController::droppedModelPath(const QMimeData* mime)
{
    if (!mime || !mime->hasUrls())
        return {};
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile() && (url.toLocalFile().endsWith(".json", Qt::CaseInsensitive) ||
                                  isImportable(url.toLocalFile().toStdString())))
            return url.toLocalFile();
    return {};
}

bool FileController::openFile(const QString& path, QString* error)
{
    QString why;
    if (isImportable(path.toStdString()))
        return importFile(path, error);
    // Load first: a file that cannot be read must not cost the current run or model.
    DocumentResult probe = readModelDocument(path.toStdString());
    if (!probe.document) {
        if (error)
            *error = QString::fromStdString(formatDiagnostics(probe.diagnostics));
        return false;
    }
    session_->stop();
    if (!document_->open(path, &why)) {
        if (error)
            *error = why;
        return false;
    }
    addRecentFile(QFileInfo(path).absoluteFilePath());
    // A model that does not assemble keeps the explanation the posing feature gave.
    if (!posing_->explanation() || posing_->explanation()->closed)
        window_->statusBar()->showMessage(document_->statusText());
    return true;
}

bool FileController::importFile(const QString& path, QString* error)
{
    const ImportResult imported = importModel(path.toStdString());
    if (!imported.ok()) {
        if (error)
            *error = QString::fromStdString(formatDiagnostics(imported.diagnostics));
        return false;
    }
    session_->stop();
    // A new, unsaved model: Save asks where to write it in the model format.
    document_->restore(*imported.document, QString());
    importReport_.clear();
    for (const std::string& line : imported.report)
        importReport_ << QString::fromStdString(line);
    window_->statusBar()->showMessage(
        tr("Imported %1: %2 bodies, %3 joints%4")
            .arg(QFileInfo(path).fileName())
            .arg(imported.document->bodies.size())
            .arg(imported.document->joints.size())
            .arg(importReport_.isEmpty() ? QString()
                                         : tr("; %n note(s) in File → Import Notes", "", int(importReport_.size()))));
    return true;
}

void FileController::showImportNotes()
{
    const QString notes = importReport_.isEmpty()
                              ? tr("The last import took over everything.")
                              : QStringLiteral("• ") + importReport_.join(QStringLiteral("\n• "));
    QMessageBox* box =
        new QMessageBox(QMessageBox::Information, tr("What the import left out"), notes, QMessageBox::Close, window_);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void FileController::importWithDialog()
{
    if (!maybeSave())
        return;
    const QString path = QFileDialog::getOpenFileName(window_, tr("Import URDF or MJCF"), examplesDirectory(),
                                                      tr("Robot descriptions (*.urdf *.xml *.mjcf)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!importFile(path, &error))
        QMessageBox::critical(window_, tr("Cannot import"), error);
}

bool FileController::saveFile(const QString& path, QString* error)
{
    if (!document_->saveAs(path, error))
        return false;
    addRecentFile(QFileInfo(path).absoluteFilePath());
    window_->statusBar()->showMessage(tr("Saved %1").arg(QFileInfo(path).fileName()), 4000);
    return true;
}

bool FileController::maybeSave()
{
    if (!document_->isModified() || !confirm_)
        return true;
    const auto answer = QMessageBox::warning(window_, tr("Unsaved changes"),
                                             tr("The model has unsaved changes. Save them?"),
                                             QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void FileController::newModel()
{
    session_->stop();
    document_->newDocument();
}

void FileController::openWithDialog()
{
    if (!maybeSave())
        return;
    const QString start =
        document_->filePath().isEmpty() ? examplesDirectory() : QFileInfo(document_->filePath()).path();
    const QString path = QFileDialog::getOpenFileName(window_, tr("Open model"), start, tr("LoopLab models (*.json)"));
    if (!path.isEmpty())
        openInteractively(path);
}

void FileController::openAfterAsking(const QString& path)
{
    if (maybeSave())
        openInteractively(path);
}

void FileController::openInteractively(const QString& path)
{
    QString error;
    if (!openFile(path, &error))
        QMessageBox::critical(window_, tr("Cannot open model"), error);
}

bool FileController::save()
{
    if (document_->filePath().isEmpty())
        return saveAsWithDialog();
    QString error;
    if (!saveFile(document_->filePath(), &error)) {
        QMessageBox::critical(window_, tr("Cannot save model"), error);
        return false;
    }
    return true;
}

bool FileController::saveAsWithDialog()
{
    QString path =
        QFileDialog::getSaveFileName(window_, tr("Save model"), document_->filePath(), tr("LoopLab models (*.json)"));
    if (path.isEmpty())
        return false;
    path = modelSavePath(path);
    QString error;
    if (!saveFile(path, &error)) {
        QMessageBox::critical(window_, tr("Cannot save model"), error);
        return false;
    }
    return true;
}

void FileController::setMenus(QMenu* recent, QMenu* examples)
{
    recentMenu_ = recent;
    examplesMenu_ = examples;
    updateRecentMenu();
    populateExamplesMenu();
}

void FileController::addRecentFile(const QString& path)
{
    QSettings settings;
    QStringList files = settings.value(kRecentModelFilesKey).toStringList();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecentModelFiles)
        files.removeLast();
    settings.setValue(kRecentModelFilesKey, files);
    updateRecentMenu();
}

void FileController::updateRecentMenu()
{
    recentMenu_->clear();
    const QStringList files = QSettings().value(kRecentModelFilesKey).toStringList();
    for (const QString& f : files)
        recentMenu_->addAction(QFileInfo(f).fileName(), this, [this, f] { openAfterAsking(f); })->setToolTip(f);
    recentMenu_->setEnabled(!files.isEmpty());
}

void FileController::populateExamplesMenu()
{
    examplesMenu_->clear();
    const QStringList files = exampleFiles();
    for (const QString& f : files)
        examplesMenu_->addAction(QFileInfo(f).completeBaseName(), this, [this, f] { openAfterAsking(f); });
    examplesMenu_->setEnabled(!files.isEmpty());
}

}  // namespace looplab::ui
