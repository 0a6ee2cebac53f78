// The LoopLab workbench.
//
//   looplab [MODEL] [--run] [--screenshot FILE.png] [--quit-after SECONDS]
//
// With --screenshot the whole main window is grabbed (3D view and plots included) after
// --quit-after seconds, or at the end of the run with --run, or once the window has
// been shown otherwise; the program then quits with status 0.

#include "viewport/VtkViewport.h"
#include "workbench/MainWindow.h"
#include "workbench/SimulationRunner.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QSurfaceFormat>
#include <QTimer>

#include <cstdio>

using looplab::ui::MainWindow;
using looplab::ui::RunSummary;
using looplab::ui::VtkViewport;

namespace {

const QCommandLineOption runOption("run", "Start the simulation once the model is open.");
const QCommandLineOption screenshotOption("screenshot", "Save a picture of the main window to FILE (PNG).", "FILE");
const QCommandLineOption quitAfterOption("quit-after", "Quit after SECONDS (after taking the screenshot).",
                                         "SECONDS");

void describeOptions(QCommandLineParser& parser)
{
    parser.setApplicationDescription("LoopLab workbench for closed-loop multibody mechanisms");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("model", "Model file (.json) to open.", "[MODEL]");
    parser.addOptions({runOption, screenshotOption, quitAfterOption});
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
            QCoreApplication::setApplicationVersion("0.1.0");
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
    QApplication::setApplicationVersion("0.1.0");

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

    if (run) {
        QTimer::singleShot(0, &window, [&] {
            if (!window.startRun()) {
                std::fprintf(stderr, "looplab: the model cannot be simulated\n");
                status = 1;
            }
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
