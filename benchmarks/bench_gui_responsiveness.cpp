// Responsiveness of the workbench while a heavy model runs. Opens a model (by default the
// chain of 20 four-bar loops), starts the simulation in the worker thread and for a fixed
// wall time measures the gaps between consecutive iterations of the GUI event loop (a
// zero-interval timer fires once per iteration). Writes a Markdown table.
//
//   bench_gui_responsiveness [OUTPUT.md] [--seconds S] [--model FILE]
// Needs a display (run under xvfb-run on a server).

#include "viewport/VtkViewport.h"
#include "workbench/MainWindow.h"
#include "workbench/SimulationRecording.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSurfaceFormat>
#include <QTextStream>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>


int main(int argc, char** argv) {
    QSurfaceFormat::setDefaultFormat(looplab::ui::VtkViewport::defaultFormat());
    QApplication app(argc, argv);
    QString outPath = "benchmark-gui.md";
    QString model = QStringLiteral(LOOPLAB_EXAMPLES_DIR "/chain-20-loops.json");
    double seconds = 20.0;
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == "--seconds" && i + 1 < args.size())
            seconds = args[++i].toDouble();
        else if (args[i] == "--model" && i + 1 < args.size())
            model = args[++i];
        else
            outPath = args[i];
    }

    looplab::ui::MainWindow window;
    window.setConfirmationsEnabled(false);
    window.resize(1500, 950);
    window.show();
    QString error;
    if (!window.openFile(model, &error)) {
        std::fprintf(stderr, "cannot open %s: %s\n", qPrintable(model), qPrintable(error));
        return 2;
    }
    // Let the first frame render before anything is measured.
    QElapsedTimer settle;
    settle.start();
    while (settle.elapsed() < 1000) app.processEvents();

    if (!window.startRun()) {
        std::fprintf(stderr, "the run did not start\n");
        return 3;
    }
    std::vector<double> gaps;
    QElapsedTimer clock, total;
    clock.start();
    total.start();
    QTimer tick;
    tick.setInterval(0);
    QObject::connect(&tick, &QTimer::timeout, [&] {
        gaps.push_back(clock.nsecsElapsed() * 1e-6);
        clock.restart();
        if (total.elapsed() >= seconds * 1000.0) {
            tick.stop();
            window.stopRun();
            app.quit();
        }
    });
    tick.start();
    app.exec();

    std::sort(gaps.begin(), gaps.end());
    auto quantile = [&](double q) {
        return gaps.empty() ? 0.0 : gaps[static_cast<size_t>(q * static_cast<double>(gaps.size() - 1))];
    };
    const int frames = window.recording().frameCount();
    QFile out(outPath);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Text)) return 1;
    QTextStream ts(&out);
    ts << "| model | run [s] | event-loop iterations | median gap [ms] | 99.9th percentile [ms] | largest gap [ms] | frames shown |\n";
    ts << "|---|---|---|---|---|---|---|\n";
    ts << "| " << QFileInfo(model).fileName() << " | " << seconds << " | " << gaps.size() << " | "
       << QString::number(quantile(0.5), 'f', 3) << " | " << QString::number(quantile(0.999), 'f', 1) << " | "
       << QString::number(gaps.empty() ? 0.0 : gaps.back(), 'f', 1) << " | " << frames << " |\n";
    ts.flush();
    std::printf("event-loop gaps: median %.3f ms, 99.9th percentile %.1f ms, largest %.1f ms over %zu "
                "iterations; %d frames\n",
                quantile(0.5), quantile(0.999), gaps.empty() ? 0.0 : gaps.back(), gaps.size(), frames);
    return 0;
}
