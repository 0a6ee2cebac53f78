#include "document/DocumentJournal.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUuid>

#include <algorithm>

namespace looplab::ui {

namespace {

const char* kFormat = "looplab-journal";
constexpr int kVersion = 1;
const char* kPrefix = "journal-";

QString lockFileOf(const QString& journalFile)
{
    QString lock = journalFile;
    lock.chop(QStringLiteral(".json").size());
    return lock + QStringLiteral(".lock");
}

// A lock that counts as stale only when its process is gone, never by age: a workbench
// may stay open for days.
std::unique_ptr<QLockFile> makeLock(const QString& journalFile)
{
    auto lock = std::make_unique<QLockFile>(lockFileOf(journalFile));
    lock->setStaleLockTime(0);
    return lock;
}

}  // namespace

QString DocumentJournal::defaultDirectory()
{
    const QByteArray overridden = qgetenv("LOOPLAB_JOURNAL_DIR");
    if (!overridden.isEmpty())
        return QString::fromLocal8Bit(overridden);
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/journal");
}

DocumentJournal::DocumentJournal(QString directory) : directory_(std::move(directory))
{
    QDir().mkpath(directory_);
    journalFile_ = QDir(directory_).filePath(kPrefix + QUuid::createUuid().toString(QUuid::WithoutBraces) +
                                             QStringLiteral(".json"));
    lock_ = makeLock(journalFile_);
    // A fresh name cannot be locked by anyone else; failing here means the directory is
    // not writable, which write() reports.
    lock_->tryLock(0);
}

DocumentJournal::~DocumentJournal() = default;

bool DocumentJournal::hasJournal() const { return QFileInfo::exists(journalFile_); }

bool DocumentJournal::write(const JournalEntry& entry, QString* error)
{
    if (written_ && written_->first == entry.modelJson && written_->second == entry.filePath && hasJournal())
        return true;
    if (!lock_->isLocked() && !lock_->tryLock(0)) {
        if (error)
            *error = QCoreApplication::translate("DocumentJournal", "cannot create %1").arg(lockFileOf(journalFile_));
        return false;
    }
    QJsonObject o;
    o["format"] = kFormat;
    o["version"] = kVersion;
    o["file"] = entry.filePath;
    o["untitled"] = entry.untitled();
    o["written"] = QDateTime::currentSecsSinceEpoch();
    // As text, not as a parsed object: the document comes back byte for byte, numbers
    // included, exactly as a save would have written it.
    o["model"] = entry.modelJson;
    QSaveFile file(journalFile_);
    if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(o).toJson()) < 0 || !file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    written_ = std::make_pair(entry.modelJson, entry.filePath);
    return true;
}

void DocumentJournal::discard()
{
    QFile::remove(journalFile_);
    written_.reset();
}

std::optional<JournalEntry> DocumentJournal::read(const QString& journalFile)
{
    QFile file(journalFile);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonDocument json = QJsonDocument::fromJson(file.readAll());
    const QJsonObject o = json.object();
    if (o["format"].toString() != kFormat || o["version"].toInt() != kVersion || !o["model"].isString())
        return std::nullopt;
    JournalEntry entry;
    entry.modelJson = o["model"].toString();
    entry.filePath = o["untitled"].toBool() ? QString() : o["file"].toString();
    entry.writtenAt = static_cast<qint64>(o["written"].toDouble());
    entry.journalFile = journalFile;
    return entry;
}

std::vector<JournalEntry> DocumentJournal::orphans() const
{
    std::vector<JournalEntry> found;
    const QDir dir(directory_);
    for (const QString& name : dir.entryList({kPrefix + QStringLiteral("*.json")}, QDir::Files)) {
        const QString path = dir.filePath(name);
        if (path == journalFile_)
            continue;
        // The lock can be taken only if no running workbench holds it.
        const std::unique_ptr<QLockFile> lock = makeLock(path);
        if (!lock->tryLock(0))
            continue;
        if (std::optional<JournalEntry> entry = read(path))
            found.push_back(std::move(*entry));
    }
    std::sort(found.begin(), found.end(),
              [](const JournalEntry& a, const JournalEntry& b) { return a.writtenAt > b.writtenAt; });
    return found;
}

bool DocumentJournal::discardOrphan(const JournalEntry& orphan) const
{
    if (orphan.journalFile.isEmpty() || orphan.journalFile == journalFile_)
        return false;
    const std::unique_ptr<QLockFile> lock = makeLock(orphan.journalFile);
    if (!lock->tryLock(0))
        return false;
    QFile::remove(orphan.journalFile);
    // The lock file goes when `lock` unlocks.
    return true;
}

}  // namespace looplab::ui
