#include "document/JournalKeeper.h"

#include "document/WorkbenchDocument.h"

#include <QDateTime>
#include <QFileInfo>
#include <QMainWindow>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>

#include <utility>

namespace looplab::ui {

JournalKeeper::JournalKeeper(QMainWindow* window, WorkbenchDocument* document, std::function<void()> stopRun)
    : window_(window), document_(document), stopRun_(std::move(stopRun)),
      journal_(std::make_unique<DocumentJournal>())
{
}

JournalKeeper::~JournalKeeper() = default;

void JournalKeeper::discard() { journal_->discard(); }

void JournalKeeper::update()
{
    if (!document_->isModified()) {
        journal_->discard();
        return;
    }
    JournalEntry entry;
    entry.modelJson = QString::fromStdString(serializeModelDocument(document_->document()));
    entry.filePath = document_->filePath();
    QString error;
    if (!journal_->write(entry, &error)) {
        if (!failed_)
            window_->statusBar()->showMessage(tr("Unsaved changes cannot be journaled: %1").arg(error), 8000);
        failed_ = true;
        return;
    }
    failed_ = false;
}

bool JournalKeeper::restoreFromJournal(RestoreChoice how)
{
    const std::vector<JournalEntry> orphans = journal_->orphans();
    if (orphans.empty())
        return false;
    const JournalEntry& newest = orphans.front();
    const QString name = newest.untitled() ? tr("an untitled model") : QFileInfo(newest.filePath).fileName();
    bool restore = how == RestoreChoice::Restore;
    if (how == RestoreChoice::Ask) {
        QMessageBox box(QMessageBox::Question, tr("Restore unsaved changes"),
                        tr("LoopLab did not close properly while %1 had unsaved changes (last change %2).\n"
                           "Restore them?")
                            .arg(name, QDateTime::fromSecsSinceEpoch(newest.writtenAt).toString()),
                        QMessageBox::NoButton, window_);
        QPushButton* yes = box.addButton(tr("Restore"), QMessageBox::AcceptRole);
        box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
        box.setDefaultButton(yes);
        box.exec();
        restore = box.clickedButton() == yes;
    }
    if (!restore) {
        journal_->discardOrphan(newest);
        return false;
    }
    const DocumentResult read = parseModelDocument(newest.modelJson.toStdString(), newest.filePath.toStdString());
    if (!read.document) {
        // Kept, not discarded: the user may still want to recover it by hand.
        QMessageBox::warning(window_, tr("Cannot restore"),
                             tr("The journal %1 does not hold a readable model:\n%2")
                                 .arg(newest.journalFile, QString::fromStdString(formatDiagnostics(read.diagnostics))));
        return false;
    }
    stopRun_();
    document_->restore(*read.document, newest.filePath);
    // The window journals the restored document (it is modified) before the old
    // journal goes.
    if (journal_->hasJournal())
        journal_->discardOrphan(newest);
    window_->statusBar()->showMessage(tr("Restored unsaved changes of %1").arg(name), 8000);
    return true;
}

}  // namespace looplab::ui
