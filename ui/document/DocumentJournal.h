#pragma once
// A journal of the open document, so that a crash or a killed process loses no edit.
//
// Each running workbench owns one slot in the journal directory: journal-<id>.json with
// the document (its model JSON exactly as a save would write it, the file it belongs to
// and whether it is untitled) and journal-<id>.lock, a QLockFile held while the
// workbench runs. The journal is rewritten atomically (QSaveFile: temporary file, then
// rename) after every change of a modified document and removed once nothing is left
// to lose (saved, discarded, closed). A journal whose lock is not held by a running
// process was left by a workbench that did not close properly: an orphan, offered for
// restoring at the next start.
//
// The directory is QStandardPaths::AppDataLocation/journal, or LOOPLAB_JOURNAL_DIR
// if that environment variable is set (tests, several independent setups).

#include <QLockFile>
#include <QString>

#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace looplab::ui {

/// What a journal holds.
struct JournalEntry {
    /// The model document as the model file format writes it (serializeModelDocument()).
    QString modelJson;
    /// The file the document belongs to; empty when untitled.
    QString filePath;
    /// Seconds since the epoch (UTC) when the journal was written.
    qint64 writtenAt = 0;
    /// The journal file it was read from (empty for an entry not read from a file).
    QString journalFile;
    bool untitled() const { return filePath.isEmpty(); }
};

class DocumentJournal {
public:
    /// The directory journals go to: $LOOPLAB_JOURNAL_DIR, else AppDataLocation/journal.
    static QString defaultDirectory();

    /// Claims a new slot in `directory` (created if needed) for this process.
    explicit DocumentJournal(QString directory = defaultDirectory());
    /// Releases the slot; the journal itself stays if it was not discarded (it then
    /// shows up as an orphan, as after a crash).
    ~DocumentJournal();
    DocumentJournal(const DocumentJournal&) = delete;
    DocumentJournal& operator=(const DocumentJournal&) = delete;

    QString directory() const { return directory_; }
    /// This slot's journal file.
    QString journalFile() const { return journalFile_; }
    /// Whether this slot's journal file exists.
    bool hasJournal() const;

    /// Replaces this slot's journal atomically (and durably: the file is synced before
    /// it takes the journal's name). An entry equal to the one last written (model and
    /// file) is not written again, since one change of the document may be announced
    /// several times. False with the reason in `error` if the directory cannot be
    /// written.
    bool write(const JournalEntry& entry, QString* error = nullptr);
    /// Removes this slot's journal (nothing left to lose).
    void discard();

    /// Journals in the directory left by workbenches that no longer run, newest first.
    /// Journals of running workbenches, this one's included, are never listed.
    std::vector<JournalEntry> orphans() const;
    /// Reads a journal file; nothing if it is missing or not a journal.
    static std::optional<JournalEntry> read(const QString& journalFile);
    /// Removes an orphan's journal and lock, unless its workbench runs after all.
    bool discardOrphan(const JournalEntry& orphan) const;

private:
    QString directory_;
    QString journalFile_;
    std::unique_ptr<QLockFile> lock_;
    /// What the journal file holds now (model, file), if this slot wrote it.
    std::optional<std::pair<QString, QString>> written_;
};

}  // namespace looplab::ui
