#pragma once
// The model being edited: the document, its file, its undo history and the model
// compiled from it. Every change goes through edit() (or the undo stack) and is
// followed by a rebuild, so the compiled model and the diagnostics always describe
// the current document. A document that does not build is kept as it is: the user's
// edit is never dropped because the model became invalid.

#include "looplab/model/ModelDocument.h"
#include "looplab/files/ModelFile.h"

#include <QObject>
#include <QString>
#include <QUndoStack>

#include <functional>

namespace looplab::ui {

/// The name of a new model until its first save names it after its file.
inline constexpr const char* kUntitledModelName = "Untitled";

class WorkbenchDocument : public QObject {
    Q_OBJECT

public:
    explicit WorkbenchDocument(QObject* parent = nullptr);

    const ModelDocument& document() const { return doc_; }
    /// The last build of the current document; model is null if it failed.
    const LoadedModel& loaded() const { return loaded_; }
    /// The last build that succeeded, possibly of an earlier version of the document:
    /// what the viewport keeps showing while the document is invalid.
    const LoadedModel& lastGoodModel() const { return lastGood_; }
    /// Degrees of freedom and redundant equations of the current model (if it built).
    int dof() const { return dof_; }
    int redundantEquations() const { return redundant_; }
    /// "dof N, R redundant equations" or the first diagnostic.
    QString statusText() const { return status_; }

    QString filePath() const { return path_; }
    bool isModified() const { return !undo_.isClean(); }
    QUndoStack* undoStack() { return &undo_; }

    /// Starts an empty, unnamed model.
    void newDocument();
    /// Loads a file; on failure keeps the current document and returns false with the
    /// diagnostics in `error`.
    bool open(const QString& path, QString* error);
    /// Takes `doc` as the document of `path` (empty: untitled) without reading the file:
    /// a document recovered from a journal. It differs from what the file holds, so it
    /// counts as modified until saved; its undo history starts empty.
    void restore(const ModelDocument& doc, const QString& path);
    /// Writes the document atomically; the path becomes the document's file. The first
    /// save of a new model still called kUntitledModelName names it after the file
    /// ("crank.v2.json" gives "crank.v2") as an undoable edit.
    bool saveAs(const QString& path, QString* error);

    /// Applies `change` to a copy of the document and pushes it as an undoable command
    /// named `text`. Edits with the same `mergeKey` in a row merge into one undo step.
    /// Does nothing if the change leaves the document as it was.
    void edit(const QString& text, const std::function<void(ModelDocument&)>& change,
              const QString& mergeKey = {});

    /// Sets the document without recording an undo step, then rebuilds. Used by undo
    /// commands; everything else should call edit().
    void replaceDocument(const ModelDocument& doc);

signals:
    /// The document changed (edit, undo, redo, load); `structural` when items were added,
    /// removed or reordered, so views that index items must reset.
    void documentChanged(bool structural);
    /// The model was rebuilt (successfully or not) after a change.
    void modelRebuilt();
    /// A different file (or a new model) was loaded.
    void documentReset();
    void filePathChanged(const QString& path);
    void modifiedChanged(bool modified);

private:
    void rebuild();
    void setPath(const QString& path);

    ModelDocument doc_;
    LoadedModel loaded_, lastGood_;
    int dof_ = 0, redundant_ = 0;
    QString status_;
    QString path_;
    QUndoStack undo_;
};

}  // namespace looplab::ui
