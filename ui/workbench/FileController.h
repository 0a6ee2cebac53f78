#pragma once
// The File menu's model files: new, open (with Open Recent and the Examples menu, and
// files dropped on the window), import of URDF or MJCF, save and save as, and the question
// about unsaved changes before any of them replaces the open document.

#include <QObject>
#include <QString>
#include <QStringList>

class QMainWindow;
class QMenu;
class QMimeData;

namespace looplab::ui {

class PosingFeature;
class RunSession;
class WorkbenchDocument;

class FileController : public QObject {
    Q_OBJECT

public:
    /// While `confirm` is false, unsaved changes are discarded without asking.
    FileController(QMainWindow* window, WorkbenchDocument* document, RunSession* session, PosingFeature* posing,
                   const bool& confirm);

    /// As MainWindow::openFile.
    bool openFile(const QString& path, QString* error = nullptr);
    /// As MainWindow::importFile.
    bool importFile(const QString& path, QString* error = nullptr);
    /// As MainWindow::saveFile.
    bool saveFile(const QString& path, QString* error = nullptr);

    /// Offers to save unsaved changes; false if the user cancelled or the save failed.
    bool maybeSave();
    /// An empty model replaces the open one (without asking).
    void newModel();
    void openWithDialog();
    void importWithDialog();
    /// File → Import Notes: what the last import left out.
    void showImportNotes();
    /// Saves to the document's file, or asks for one; false if not saved.
    bool save();
    bool saveAsWithDialog();
    /// Opens `path` after offering to save unsaved changes; says why if it cannot.
    void openAfterAsking(const QString& path);
    /// The menus this fills: Open Recent (kept up to date) and Examples.
    void setMenus(QMenu* recent, QMenu* examples);

    /// The first model file, or file to import, among dropped URLs; empty if none.
    static QString droppedModelPath(const QMimeData* mime);

private:
    void openInteractively(const QString& path);
    void addRecentFile(const QString& path);
    void updateRecentMenu();
    void populateExamplesMenu();

    QMainWindow* window_;
    WorkbenchDocument* document_;
    RunSession* session_;
    PosingFeature* posing_;
    const bool& confirm_;
    QMenu* recentMenu_ = nullptr;
    QMenu* examplesMenu_ = nullptr;
    /// What the last import left out, a sentence each (File → Import Notes).
    QStringList importReport_;
};

}  // namespace looplab::ui
