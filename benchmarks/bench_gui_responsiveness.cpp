// Responsiveness of the workbench while a heavy model runs: opens the chain of 20
// four-bar loops, starts the simulation in the worker thread, and for a fixed wall time
// measures the gaps between consecutive iterations of the GUI event loop (a zero-interval
// timer fires once per iteration). Writes the median, 99th percentile and largest gap.
//
//   bench_gui_responsiveness [OUTPUT.md] [--seconds S]
// Needs a display (run under xvfb-run on a server).

#include "viewport/VtkViewport.h"
#include "workbench/MainWindow.h"
#include "workbench/SimulationRecording.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
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
    double seconds = 20.0;
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == "--seconds" && i + 1 < args.size())
            seconds = args[++i].toDouble();
        else
            outPath = args[i];
    }

    looplab::ui::MainWindow window;
    window.setConfirmationsEnabled(false);
    window.resize(1500, 950);
    window.show();
    const QString model = QStringLiteral(LOOPLAB_EXAMPLES_DIR "/chain-20-loops.json");
    QString error;
    if (!window.openFile(model, &error)) {
        std::fprintf(stderr, "cannot open %s: %s\n", qPrintable(model), qPrintable(error));
        return 2;
    }
    // Let the first frame render before the measurement starts.
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
    const double median = gaps.empty() ? 0.0 : gaps[gaps.size() / 2];
    const double p99 = gaps.empty() ? 0.0 : gaps[static_cast<size_t>(0.99 * (gaps.size() - 1))];
    const double worst = gaps.empty() ? 0.0 : gaps.back();
    const int frames = static_cast<int>(window.recording().frameCount());
    QFile out(outPath);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Text)) return 1;
    QTextStream ts(&out);
    ts << "| model | wall time [s] | event-loop iterations | median gap [ms] | 99th percentile [ms] | largest gap [ms] | frames recorded |\n";
    ts << "|---|---|---|---|---|---|---|\n";
    ts << "| chain-20-loops.json | " << seconds << " | " << gaps.size() << " | " << QString::number(median, 'f', 3)
       << " | " << QString::number(p99, 'f', 2) << " | " << QString::number(worst, 'f', 2) << " | " << frames << " |\n";
    ts.flush();
    std::printf("event-loop gaps: median %.3f ms, 99th percentile %.2f ms, largest %.2f ms over %zu iterations; %d frames\n",
                median, p99, worst, gaps.size(), frames);
    return 0;
}
