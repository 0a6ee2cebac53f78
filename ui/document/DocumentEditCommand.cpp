#include "document/DocumentEditCommand.h"

#include "document/WorkbenchDocument.h"

namespace looplab::ui {

DocumentEditCommand::DocumentEditCommand(WorkbenchDocument* target, const QString& text,
                                         ModelDocument before, ModelDocument after, QString mergeKey)
    : QUndoCommand(text), target_(target), before_(std::move(before)), after_(std::move(after)),
      mergeKey_(std::move(mergeKey))
{
}

void DocumentEditCommand::undo() { target_->replaceDocument(before_); }

void DocumentEditCommand::redo() { target_->replaceDocument(after_); }

int DocumentEditCommand::id() const
{
    // QUndoStack only calls mergeWith() for equal non-negative ids.
    return mergeKey_.isEmpty() ? -1 : 1;
}

bool DocumentEditCommand::mergeWith(const QUndoCommand* other)
{
    const auto* edit = static_cast<const DocumentEditCommand*>(other);
    if (edit->mergeKey_ != mergeKey_ || edit->target_ != target_)
        return false;
    after_ = edit->after_;
    return true;
}

}  // namespace looplab::ui
