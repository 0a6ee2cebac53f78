#pragma once
// The window's side of the journal of unsaved changes (DocumentJournal.h): the open
// document journaled after every change while it is modified, the journal removed when
// nothing is left to lose, and the journal a crashed or killed workbench left offered for
// restoring.

#include "document/DocumentJournal.h"

#include <QObject>

#include <functional>
#include <memory>

class QMainWindow;

namespace looplab::ui {

class WorkbenchDocument;

class JournalKeeper : public QObject {
    Q_OBJECT

public:
    /// What to do with a journal left by a workbench that did not close properly.
    enum class RestoreChoice {
        Ask,      ///< a dialog asks the user
        Restore,  ///< restore it without asking (scripted use, tests)
        Discard   ///< discard it without asking
    };

    /// `stopRun` stops a run in progress before a restored document replaces the open one.
    JournalKeeper(QMainWindow* window, WorkbenchDocument* document, std::function<void()> stopRun);
    ~JournalKeeper() override;

    /// Journals the document if it is modified, else removes its journal.
    void update();
    /// Removes the open document's journal (its changes were saved or discarded).
    void discard();
    /// As MainWindow::restoreFromJournal.
    bool restoreFromJournal(RestoreChoice how);
    const DocumentJournal& journal() const { return *journal_; }

private:
    QMainWindow* window_;
    WorkbenchDocument* document_;
    std::function<void()> stopRun_;
    std::unique_ptr<DocumentJournal> journal_;
    /// The last journal write failed (reported once until one succeeds).
    bool failed_ = false;
};

}  // namespace looplab::ui
