#pragma once
// An undoable change of the model document, stored as the document before and after.
// Models are small (kilobytes), so snapshots are simpler and safer than per-field
// inverse operations, and they make every kind of edit undoable the same way.

#include "looplab/model/ModelDocument.h"

#include <QUndoCommand>

namespace looplab::ui {

class WorkbenchDocument;

/// Replaces the document with `after` on redo and with `before` on undo. Consecutive
/// edits with the same non-empty merge key (the same field of the same item, e.g. a spin
/// box stepped several times) merge into one undo step.
class DocumentEditCommand : public QUndoCommand {
public:
    DocumentEditCommand(WorkbenchDocument* target, const QString& text, ModelDocument before,
                        ModelDocument after, QString mergeKey = {});

    void undo() override;
    void redo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

private:
    WorkbenchDocument* target_;
    ModelDocument before_, after_;
    QString mergeKey_;
};

}  // namespace looplab::ui
