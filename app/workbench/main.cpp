// The LoopLab workbench.
//
//   looplab [MODEL] [--run] [--screenshot FILE.png] [--quit-after SECONDS]
//           [--quit-at-end-of-input] [--restore ask|yes|no] [--edit KIND:INDEX:FIELD=VALUE ...]
//
// With --screenshot the whole main window is grabbed (3D view and plots included) after
// --quit-after seconds, or at the end of the run with --run, or once the window has
// been shown otherwise; the program then quits with status 0. --quit-at-end-of-input
// quits the same way once standard input ends, so that a script decides by an event of
// its own (closing the pipe) rather than by a time when the workbench is done.
//
// If a workbench crashed or was killed with unsaved changes, the next start offers to
// restore them (DocumentJournal.h); --restore yes or no answers without the dialog. A
// restored document replaces a MODEL named on the command line.
// --edit sets a field of an item in the property editor, as a user typing there would
// (one undoable edit each, in order), for scripted checks such as the journal's test.

#include "viewport/VtkViewport.h"
#include "document/DocumentOperations.h"
#include "looplab/Version.h"
#include "workbench/MainWindow.h"
#include "workbench/PropertyEditor.h"
#include "run/SimulationRunner.h"
#include "document/WorkbenchDocument.h"

#include <QApplication>
#include <QComboBox>
#include <QCommandLineParser>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QDir>
#include <QFileInfo>
#include <QSocketNotifier>
#include <QSurfaceFormat>
#include <QTimer>

#include <cerrno>
#include <cstdio>

#include <unistd.h>

using looplab::ui::MainWindow;
using looplab::ui::RunSummary;
using looplab::ui::VtkViewport;

namespace {

const QCommandLineOption runOption("run", "Start the simulation once the model is open.");
const QCommandLineOption screenshotOption("screenshot", "Save a picture of the main window to FILE (PNG).", "FILE");
const QCommandLineOption quitAfterOption("quit-after", "Quit after SECONDS (after taking the screenshot).",
                                         "SECONDS");
const QCommandLineOption quitAtEndOfInputOption("quit-at-end-of-input",
                                                 "Quit when standard input ends (after taking the screenshot).");
const QCommandLineOption restoreOption("restore",
                                       "Unsaved changes left by a workbench that did not close properly: ask "
                                       "(default), yes (restore) or no (discard).",
                                       "CHOICE", "ask");
const QCommandLineOption editOption("edit",
                                    "Set FIELD of item INDEX (from 0) of KIND (body, joint, driver, force, beam, solid, node_set) to "
                                    "VALUE in the property editor, e.g. body:1:mass=1.25. May be repeated.",
                                    "KIND:INDEX:FIELD=VALUE");

void describeOptions(QCommandLineParser& parser)
{
    parser.setApplicationDescription("LoopLab workbench for closed-loop multibody mechanisms");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("model", "Model file (.json) to open.", "[MODEL]");
    parser.addOptions({runOption, screenshotOption, quitAfterOption, quitAtEndOfInputOption, restoreOption, editOption});
}

// Selects the item and sets its field's editor as a user would; the editor makes the
// document edit. False with the reason in `error`.
bool applyEdit(MainWindow& window, const QString& spec, QString& error)
{
    const int eq = spec.indexOf('=');
    const QStringList where = spec.left(eq).split(':');
    if (eq < 0 || where.size() != 3) {
        error = QString("--edit %1: expected KIND:INDEX:FIELD=VALUE").arg(spec);
        return false;
    }
    const QString value = spec.mid(eq + 1);
    looplab::ui::ItemKind kind;
    const QString k = where[0].toLower();
    if (k == "body")
        kind = looplab::ui::ItemKind::Body;
    else if (k == "joint")
        kind = looplab::ui::ItemKind::Joint;
    else if (k == "driver")
        kind = looplab::ui::ItemKind::Driver;
    else if (k == "force")
        kind = looplab::ui::ItemKind::Force;
    else if (k == "beam")
        kind = looplab::ui::ItemKind::Beam;
    else if (k == "solid")
        kind = looplab::ui::ItemKind::Solid;
    else if (k == "node_set")
        kind = looplab::ui::ItemKind::NodeSet;
    else {
        error = QString("--edit %1: unknown kind '%2'").arg(spec, where[0]);
        return false;
    }
    bool indexOk = false;
    const int index = where[1].toInt(&indexOk);
    if (!indexOk || index < 0 || index >= looplab::ui::itemCount(window.document()->document(), kind)) {
        error = QString("--edit %1: no such item").arg(spec);
        return false;
    }
    window.selectItem({kind, index});
    QWidget* editor = window.propertyEditor()->findChild<QWidget*>(where[2]);
    if (auto* spin = qobject_cast<QDoubleSpinBox*>(editor)) {
        bool ok = false;
        const double number = value.toDouble(&ok);
        if (!ok) {
            error = QString("--edit %1: '%2' is not a number").arg(spec, value);
            return false;
        }
        spin->setValue(number);
    } else if (auto* count = qobject_cast<QSpinBox*>(editor)) {
        bool ok = false;
        const int number = value.toInt(&ok);
        if (!ok) {
            error = QString("--edit %1: '%2' is not a whole number").arg(spec, value);
            return false;
        }
        count->setValue(number);
    } else if (auto* combo = qobject_cast<QComboBox*>(editor)) {
        combo->setCurrentText(value);
    } else if (auto* line = qobject_cast<QLineEdit*>(editor)) {
        line->setText(value);
        emit line->editingFinished();
    } else {
        error = QString("--edit %1: the item has no field '%2'").arg(spec, where[2]);
        return false;
    }
    return true;
}

}  // namespace

int main(int argc, char** argv)
{
    // Help and version need no display, and a GUI application cannot start without one.
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg == "-h" || arg == "--help" || arg == "--help-all" || arg == "-v" || arg == "--version") {
            QCoreApplication console(argc, argv);
            QCoreApplication::setApplicationName("looplab");
            QCoreApplication::setApplicationVersion(looplab::version());
            QCommandLineParser parser;
            describeOptions(parser);
            parser.process(console);  // prints and exits
            return 0;
        }
    }

    // VTK needs its OpenGL format on every context, which must be the default before the
    // application creates any.
    QSurfaceFormat::setDefaultFormat(VtkViewport::defaultFormat());
    QApplication app(argc, argv);
    QApplication::setOrganizationName("LoopLab");
    QApplication::setApplicationName("LoopLab");
    QApplication::setApplicationVersion(looplab::version());

    QCommandLineParser parser;
    describeOptions(parser);
    parser.process(app);

    MainWindow window;
    const QStringList positional = parser.positionalArguments();
    if (!positional.isEmpty()) {
        QString error;
        if (!window.openFile(QFileInfo(positional.first()).absoluteFilePath(), &error)) {
            std::fprintf(stderr, "looplab: %s\n", qPrintable(error));
            return 1;
        }
    }
    window.show();

    const QString screenshot = parser.value(screenshotOption);
    const bool run = parser.isSet(runOption);
    bool quitAfterOk = false;
    const double quitAfter = parser.value(quitAfterOption).toDouble(&quitAfterOk);
    if (parser.isSet(quitAfterOption) && (!quitAfterOk || quitAfter < 0.0)) {
        std::fprintf(stderr, "looplab: --quit-after needs a non-negative number of seconds\n");
        return 2;
    }

    const QString restore = parser.value(restoreOption);
    if (restore != "ask" && restore != "yes" && restore != "no") {
        std::fprintf(stderr, "looplab: --restore needs ask, yes or no\n");
        return 2;
    }
    const QStringList edits = parser.values(editOption);

    int status = 0;
    auto finish = [&] {
        if (!screenshot.isEmpty()) {
            if (!window.screenshot().save(screenshot)) {
                std::fprintf(stderr, "looplab: cannot write %s\n", qPrintable(screenshot));
                status = 1;
            }
        }
        window.setConfirmationsEnabled(false);
        window.close();
        QApplication::exit(status);
    };

    // Once the window is up: the offer to restore (a dialog over the window), then the
    // scripted edits, which apply to the restored document if there is one.
    QTimer::singleShot(0, &window, [&] {
        window.restoreFromJournal(restore == "yes"  ? MainWindow::JournalRestore::Restore
                                  : restore == "no" ? MainWindow::JournalRestore::Discard
                                                    : MainWindow::JournalRestore::Ask);
        for (const QString& edit : edits) {
            QString error;
            if (!applyEdit(window, edit, error)) {
                std::fprintf(stderr, "looplab: %s\n", qPrintable(error));
                status = 2;
            }
        }
    });
    if (run) {
        QTimer::singleShot(0, &window, [&] {
            if (!window.startRun()) {
                std::fprintf(stderr, "looplab: the model cannot be simulated\n");
                status = 1;
            }
        });
    }
    if (parser.isSet(quitAtEndOfInputOption)) {
        auto* input = new QSocketNotifier(STDIN_FILENO, QSocketNotifier::Read, &window);
        QObject::connect(input, &QSocketNotifier::activated, &window, [&, input] {
            char buffer[4096];
            const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
            if (n > 0 || (n < 0 && (errno == EINTR || errno == EAGAIN)))
                return;  // what arrives is ignored; only the end counts
            input->setEnabled(false);
            finish();
        });
    }
    if (parser.isSet(quitAfterOption)) {
        QTimer::singleShot(static_cast<int>(quitAfter * 1000.0), &window, finish);
    } else if (run && !screenshot.isEmpty()) {
        // Let the last frame and plot update paint before grabbing.
        QObject::connect(&window, &MainWindow::runFinished, &window,
                         [&](const RunSummary&) { QTimer::singleShot(300, &window, finish); });
    } else if (!screenshot.isEmpty()) {
        QTimer::singleShot(1000, &window, finish);
    }
    const int rc = app.exec();
    return status != 0 ? status : rc;
}
