// The journal of unsaved changes: its file (write, read, discard, orphans), the window
// restoring a document from it, and the workbench killed with SIGKILL after an edit and
// started again.

#include "looplab/files/ModelFile.h"
#include "viewport/VtkViewport.h"
#include "document/DocumentJournal.h"
#include "workbench/MainWindow.h"
#include "workbench/PropertyEditor.h"
#include "document/WorkbenchDocument.h"
#include "WorkbenchTestSupport.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QMessageBox>
#include <QProcess>
#include <QSurfaceFormat>
#include <QTimer>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <memory>

#include <sys/stat.h>
#include <optional>

using namespace looplab;
using namespace looplab::ui;
using test::example;

namespace {

QStringList journalFiles(const QString& dir)
{
    return QDir(dir).entryList({"journal-*.json"}, QDir::Files);
}

// The model a journal holds, or nothing.
std::optional<ModelDocument> journaledModel(const QString& file)
{
    const std::optional<JournalEntry> entry = DocumentJournal::read(file);
    if (!entry)
        return std::nullopt;
    DocumentResult r = parseModelDocument(entry->modelJson.toStdString());
    return r.document;
}

double journaledMass(const QString& file, int body)
{
    const std::optional<ModelDocument> doc = journaledModel(file);
    return doc && body < static_cast<int>(doc->bodies.size()) ? doc->bodies[static_cast<size_t>(body)].mass : -1.0;
}

ModelDocument exampleDocument(const char* name)
{
    return readModelDocument(example(name).toStdString()).document.value_or(ModelDocument{});
}

// A copy of an example in `dir`, so that a test may save over it.
QString copyOfExample(const QTemporaryDir& dir, const char* name)
{
    const QString copy = dir.filePath(name);
    QFile::remove(copy);
    return QFile::copy(example(name), copy) ? copy : QString();
}

// Sets the selected item's mass as a user would, through the property editor.
bool setMassInEditor(MainWindow& window, int body, double mass)
{
    window.selectItem({ItemKind::Body, body});
    auto* spin = window.propertyEditor()->findChild<QDoubleSpinBox*>("mass");
    if (!spin)
        return false;
    spin->setValue(mass);
    return true;
}

}  // namespace

class TestJournal : public QObject {
    Q_OBJECT

public:
    static void initMain() { QSurfaceFormat::setDefaultFormat(VtkViewport::defaultFormat()); }

private slots:
    void initTestCase();
    void init();
    void writesReadsAndDiscards();
    void orphansAreJournalsOfWorkbenchesThatAreGone();
    void editsAreJournaledAndSavingOrUndoingRemovesIt();
    void windowRestoresJournalWithItsFileAndModified();
    void declinedOrClosedLeavesNoJournal();
    void dialogAsksBeforeRestoring();
    void killedWorkbenchLosesNoEdit();

private:
    QString journalDir() const { return QString::fromLocal8Bit(qgetenv("LOOPLAB_JOURNAL_DIR")); }
    // Removes every journal of earlier tests (their windows are gone).
    void clearJournals();
};

void TestJournal::initTestCase() { test::useThrowAwaySettings("tst_journal"); }

void TestJournal::init() { clearJournals(); }

void TestJournal::clearJournals()
{
    QDir dir(journalDir());
    for (const QString& name : dir.entryList({"journal-*"}, QDir::Files))
        dir.remove(name);
}

void TestJournal::writesReadsAndDiscards()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    DocumentJournal journal(dir.path());
    QCOMPARE(QFileInfo(journal.journalFile()).path(), QFileInfo(dir.path()).absoluteFilePath());
    QVERIFY(!journal.hasJournal());

    const ModelDocument fourBar = exampleDocument("four-bar.json");
    JournalEntry entry;
    entry.modelJson = QString::fromStdString(serializeModelDocument(fourBar));
    entry.filePath = "/somewhere/four-bar.json";
    const qint64 before = QDateTime::currentSecsSinceEpoch();
    QVERIFY(journal.write(entry));
    QVERIFY(journal.hasJournal());
    std::optional<JournalEntry> back = DocumentJournal::read(journal.journalFile());
    QVERIFY(back);
    // Byte for byte what a save would write.
    QCOMPARE(back->modelJson, entry.modelJson);
    QCOMPARE(back->filePath, entry.filePath);
    QVERIFY(!back->untitled());
    QVERIFY(back->writtenAt >= before && back->writtenAt <= QDateTime::currentSecsSinceEpoch());
    QCOMPARE(back->journalFile, journal.journalFile());
    // The same entry again (one change announced twice) is not written again: the file
    // keeps its inode, which every atomic replacement changes.
    auto inode = [&] {
        struct stat st;
        return ::stat(QFile::encodeName(journal.journalFile()).constData(), &st) == 0 ? st.st_ino : ino_t(0);
    };
    const ino_t first = inode();
    QVERIFY(first != 0);
    QVERIFY(journal.write(entry));
    QCOMPARE(inode(), first);

    // A second write replaces the first whole; the temporary file of the atomic write is
    // gone: the directory holds the journal and its lock only.
    const ModelDocument pendulum = exampleDocument("pendulum.json");
    entry.modelJson = QString::fromStdString(serializeModelDocument(pendulum));
    entry.filePath.clear();
    QVERIFY(journal.write(entry));
    QVERIFY(inode() != first);
    back = DocumentJournal::read(journal.journalFile());
    QVERIFY(back);
    QCOMPARE(back->modelJson, entry.modelJson);
    QVERIFY(back->untitled());
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 2);

    journal.discard();
    QVERIFY(!journal.hasJournal());
    QVERIFY(!DocumentJournal::read(journal.journalFile()));

    // Anything that is not a journal reads as nothing.
    QFile other(dir.filePath("journal-other.json"));
    QVERIFY(other.open(QIODevice::WriteOnly));
    other.write("{\"format\": \"looplab-model\", \"version\": 1}");
    other.close();
    QVERIFY(!DocumentJournal::read(other.fileName()));
    QVERIFY(!DocumentJournal::read(dir.filePath("missing.json")));
}

void TestJournal::orphansAreJournalsOfWorkbenchesThatAreGone()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    JournalEntry entry;
    entry.modelJson = QString::fromStdString(serializeModelDocument(exampleDocument("four-bar.json")));
    entry.filePath = "/somewhere/four-bar.json";

    auto first = std::make_unique<DocumentJournal>(dir.path());
    QVERIFY(first->write(entry));
    const QString firstFile = first->journalFile();
    DocumentJournal second(dir.path());
    entry.filePath = "/somewhere/else.json";
    QVERIFY(second.write(entry));
    // Both run: neither is an orphan, to either.
    QVERIFY(second.orphans().empty());
    QVERIFY(first->orphans().empty());
    QVERIFY(!second.discardOrphan(*DocumentJournal::read(firstFile)));
    QVERIFY(QFileInfo::exists(firstFile));

    // Gone without discarding (as after a crash): its journal is an orphan.
    first.reset();
    const std::vector<JournalEntry> orphans = second.orphans();
    QCOMPARE(orphans.size(), size_t(1));
    QCOMPARE(orphans[0].journalFile, firstFile);
    QCOMPARE(orphans[0].filePath, QString("/somewhere/four-bar.json"));
    QCOMPARE(orphans[0].modelJson, entry.modelJson);
    QVERIFY(second.discardOrphan(orphans[0]));
    QVERIFY(!QFileInfo::exists(firstFile));
    QVERIFY(second.orphans().empty());
    QVERIFY(second.hasJournal());
}

void TestJournal::editsAreJournaledAndSavingOrUndoingRemovesIt()
{
    QTemporaryDir dir;
    const QString model = copyOfExample(dir, "four-bar.json");
    QVERIFY(!model.isEmpty());
    auto window = test::shownWindow();
    QVERIFY(window);
    QVERIFY(window->openFile(model));
    const DocumentJournal& journal = window->journal();
    QVERIFY(!journal.hasJournal());  // nothing to lose yet

    QVERIFY(setMassInEditor(*window, 1, 1.25));
    QVERIFY(journal.hasJournal());
    QCOMPARE(journaledMass(journal.journalFile(), 1), 1.25);
    QCOMPARE(DocumentJournal::read(journal.journalFile())->filePath, model);
    // Every edit, not just the first.
    QVERIFY(setMassInEditor(*window, 2, 0.75));
    QCOMPARE(journaledMass(journal.journalFile(), 2), 0.75);
    QCOMPARE(journaledMass(journal.journalFile(), 1), 1.25);

    // Back to what the file holds: nothing to lose.
    QUndoStack* undo = window->document()->undoStack();
    undo->undo();
    QVERIFY(journal.hasJournal());
    undo->undo();
    QVERIFY(!window->document()->isModified());
    QVERIFY(!journal.hasJournal());
    undo->redo();
    QCOMPARE(journaledMass(journal.journalFile(), 1), 1.25);

    QVERIFY(window->saveFile(model));
    QVERIFY(!journal.hasJournal());
    QVERIFY(journalFiles(journalDir()).isEmpty());
}

void TestJournal::windowRestoresJournalWithItsFileAndModified()
{
    QTemporaryDir dir;
    const QString model = copyOfExample(dir, "four-bar.json");
    QVERIFY(!model.isEmpty());
    auto crashed = test::shownWindow();
    QVERIFY(crashed);
    QVERIFY(crashed->openFile(model));
    QVERIFY(setMassInEditor(*crashed, 1, 1.25));
    const QString left = crashed->journal().journalFile();
    // Destroyed without closing, the window's unsaved changes stay journaled.
    crashed.reset();
    QVERIFY(QFileInfo::exists(left));

    auto window = test::shownWindow();
    QVERIFY(window);
    QVERIFY(window->restoreFromJournal(MainWindow::JournalRestore::Restore));
    const WorkbenchDocument* doc = window->document();
    QCOMPARE(doc->document().bodies[1].mass, 1.25);
    QCOMPARE(doc->filePath(), model);
    QVERIFY(doc->isModified());
    QVERIFY(window->isWindowModified());
    QVERIFY(window->windowTitle().contains("four-bar.json"));
    QVERIFY(doc->loaded().ok());
    // The restored document is this window's journal now; the old one is gone.
    QVERIFY(!QFileInfo::exists(left));
    QVERIFY(window->journal().hasJournal());
    QCOMPARE(journaledMass(window->journal().journalFile(), 1), 1.25);
    QCOMPARE(journalFiles(journalDir()).size(), 1);
    // Nothing more to restore.
    QVERIFY(!window->restoreFromJournal(MainWindow::JournalRestore::Restore));

    // Saving writes the restored edit to its own file.
    QVERIFY(window->saveFile(doc->filePath()));
    QVERIFY(!doc->isModified());
    QVERIFY(!window->journal().hasJournal());
    const DocumentResult saved = readModelDocument(model.toStdString());
    QVERIFY(saved.document);
    QCOMPARE(saved.document->bodies[1].mass, 1.25);
}

void TestJournal::declinedOrClosedLeavesNoJournal()
{
    auto crashed = test::shownWindow();
    QVERIFY(crashed);
    crashed->document()->edit("add body", [](ModelDocument& d) { addItem(d, ItemKind::Body); });
    QVERIFY(crashed->journal().hasJournal());
    const QString left = crashed->journal().journalFile();
    QVERIFY(DocumentJournal::read(left)->untitled());
    crashed.reset();

    auto window = test::shownWindow();
    QVERIFY(window);
    QVERIFY(!window->restoreFromJournal(MainWindow::JournalRestore::Discard));
    QVERIFY(!QFileInfo::exists(left));
    QVERIFY(window->document()->document().bodies.empty());
    QVERIFY(!window->document()->isModified());

    // Closing with unsaved changes discarded (no confirmation here) leaves nothing.
    window->document()->edit("add body", [](ModelDocument& d) { addItem(d, ItemKind::Body); });
    QVERIFY(window->journal().hasJournal());
    QVERIFY(window->close());
    QVERIFY(!window->journal().hasJournal());
    QVERIFY(journalFiles(journalDir()).isEmpty());
}

// The real path: a dialog names the file and restores only on "Restore".
void TestJournal::dialogAsksBeforeRestoring()
{
    QTemporaryDir dir;
    const QString model = copyOfExample(dir, "four-bar.json");
    QVERIFY(!model.isEmpty());
    for (const char* answer : {"Discard", "Restore"}) {
        auto crashed = test::shownWindow();
        QVERIFY(crashed);
        QVERIFY(crashed->openFile(model));
        QVERIFY(setMassInEditor(*crashed, 1, 1.25));
        crashed.reset();

        auto window = test::shownWindow();
        QVERIFY(window);
        QString text;
        bool answered = false;
        // The dialog is modal: it is answered from the event loop it runs.
        QTimer::singleShot(200, this, [&] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box)
                return;
            text = box->text();
            const QImage picture = box->grab().toImage();
            QDir().mkpath(LOOPLAB_SCREENSHOT_DIR);
            picture.save(QString(LOOPLAB_SCREENSHOT_DIR) + "/journal-restore-dialog.png");
            for (QAbstractButton* button : box->buttons())
                if (button->text() == answer) {
                    button->click();
                    answered = true;
                }
        });
        const bool restored = window->restoreFromJournal(MainWindow::JournalRestore::Ask);
        QVERIFY(answered);
        QVERIFY2(text.contains("four-bar.json"), qPrintable(text));
        QCOMPARE(restored, QString(answer) == "Restore");
        QCOMPARE(window->document()->document().bodies.size(), restored ? size_t(3) : size_t(0));
        if (restored) {
            QCOMPARE(window->document()->document().bodies[1].mass, 1.25);
            QVERIFY(window->document()->isModified());
        }
        // Either way the crashed window's journal is settled.
        QCOMPARE(journalFiles(journalDir()).size(), restored ? 1 : 0);
        QVERIFY(window->close());
    }
}

void TestJournal::killedWorkbenchLosesNoEdit()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString journals = dir.filePath("journal");
    const QString model = copyOfExample(dir, "four-bar.json");
    QVERIFY(!model.isEmpty());
    QCOMPARE(readModelDocument(model.toStdString()).document->bodies[1].mass, 0.8);

    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("LOOPLAB_JOURNAL_DIR", journals);
    // Recent files and other settings go to the temporary directory too.
    env.insert("XDG_CONFIG_HOME", dir.filePath("config"));
    env.insert("XDG_DATA_HOME", dir.filePath("data"));
    env.insert("QT_QPA_PLATFORM", "xcb");

    // First run: one edit through the property editor, then SIGKILL once it is journaled.
    QProcess first;
    first.setProcessEnvironment(env);
    first.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    first.start(LOOPLAB_WORKBENCH_PATH, {model, "--edit", "body:1:mass=1.25"});
    QVERIFY2(first.waitForStarted(-1), qPrintable(first.errorString()));
    QVERIFY(test::waitUntil(
        [&] {
            return journalFiles(journals).size() == 1 &&
                   journaledMass(journals + "/" + journalFiles(journals).front(), 1) == 1.25;
        },
        "the first workbench to journal the edit"));
    const QString journal = journals + "/" + journalFiles(journals).front();
    QCOMPARE(first.state(), QProcess::Running);
    first.kill();  // SIGKILL: no handler, no clean-up
    QVERIFY(test::waitForExit(first, "the killed workbench to end"));
    QCOMPARE(first.exitStatus(), QProcess::CrashExit);
    QVERIFY(QFileInfo::exists(journal));
    QCOMPARE(DocumentJournal::read(journal)->filePath, model);
    // The file itself never saw the edit.
    QCOMPARE(readModelDocument(model.toStdString()).document->bodies[1].mass, 0.8);

    // Second run, told to restore: the restored document (modified, so journaled by the
    // new process, with the original file) holds the edit, and the old journal is gone.
    // Told to (its standard input closed), it then quits cleanly, which leaves no journal.
    QProcess second;
    second.setProcessEnvironment(env);
    second.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    second.start(LOOPLAB_WORKBENCH_PATH, {"--restore", "yes", "--quit-at-end-of-input"});
    QVERIFY2(second.waitForStarted(-1), qPrintable(second.errorString()));
    QString restored;
    auto findRestored = [&] {
        const QStringList files = journalFiles(journals);
        if (files.size() != 1 || journals + "/" + files.front() == journal)
            return false;
        restored = journals + "/" + files.front();
        return true;
    };
    QVERIFY(test::waitUntil(findRestored, "the second workbench to journal the restored document"));
    const std::optional<JournalEntry> entry = DocumentJournal::read(restored);
    QVERIFY(entry);
    QCOMPARE(entry->filePath, model);
    const std::optional<ModelDocument> doc = journaledModel(restored);
    QVERIFY(doc);
    QCOMPARE(doc->bodies[1].mass, 1.25);
    QVERIFY(!QFileInfo::exists(journal));
    second.closeWriteChannel();
    QVERIFY(test::waitForExit(second, "the second workbench to quit at the end of its input"));
    QCOMPARE(second.exitStatus(), QProcess::NormalExit);
    QCOMPARE(second.exitCode(), 0);
    QVERIFY(journalFiles(journals).isEmpty());
}

QTEST_MAIN(TestJournal)
#include "tst_journal.moc"
