#pragma once
// What a model file says about showing it: its run settings go into the run panel and
// its camera into the view when it opens (so an example opens ready to play), its
// description shows in the Notes pane, and "Store Run Settings and View in Model" writes
// the run panel's settings and the view's camera back into the model, undoably. The run
// panel's start of flexible members is the model's own (`start` in the run block): it
// decides the state the model is built in, so choosing one edits the model at once
// (undoably) and the panel follows the model through undo and redo.

#include "looplab/kinematics/StartMotion.h"

#include <QObject>

class QAction;
class QPlainTextEdit;

namespace looplab::ui {

class RunPanel;
class VtkViewport;
class WorkbenchDocument;

class ModelPresentation : public QObject {
    Q_OBJECT

public:
    ModelPresentation(WorkbenchDocument* document, RunPanel* runPanel, VtkViewport* viewport,
                      QObject* parent = nullptr);

    /// The Notes pane: the model's description, editable (each edit is undoable).
    QPlainTextEdit* notesPane() const { return notes_; }
    /// Stores the run panel's settings and the camera in the model.
    QAction* storeAction() const { return store_; }

    /// Applies the document's run settings and camera to the run panel and the view.
    void applyToWindow();
    void applyRunSettings();
    /// The window calls it once it has drawn a newly opened model (which frames it), so
    /// that the saved camera wins.
    void applyCamera();
    /// Writes the run panel's settings and the current camera into the document.
    void storeInModel();

private:
    void showNotes();
    /// The run panel's start list shows the model's start.
    void showStart();
    void chooseStart(StartMotion start);

    WorkbenchDocument* document_;
    RunPanel* runPanel_;
    VtkViewport* viewport_;
    QPlainTextEdit* notes_;
    QAction* store_;
    bool showing_ = false;
};

}  // namespace looplab::ui
