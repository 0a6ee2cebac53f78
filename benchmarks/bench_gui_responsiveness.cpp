// Responsiveness of the workbench while a heavy model runs. Opens a model (by default the
// chain of 20 four-bar loops), starts the simulation in the worker thread and for a fixed
// wall time measures how late the GUI event loop serves a 1 ms timer: the gap between two
// consecutive timeouts is the longest the window could not react to input. The timer
// leaves the loop idle in between (a zero-interval timer would keep one of the machine's
// cores busy and slow the solver and the software renderer it measures). Each event
// delivery is timed too: the longest ones are listed by event type and receiver, so a
// regression says where it comes from, and the repaints of the 3D view are summarised.
// Writes a Markdown table.
//
//   bench_gui_responsiveness [OUTPUT.md] [--seconds S] [--model FILE] [--pace P] [--rtol R --atol A]
//                            [--t-end T] [--model-run] [--start NAME]
// --pace P runs the model at P times real time (default: as fast as it goes); --rtol and
// --atol replace the tolerances the model's run block or the method gives; --t-end the end
// time (default: P·S with a pace, else 1000 s, whose step-limit forecast stops a flexible
// model's run within its first seconds). The table's simulated time over the run's wall
// time is the pace the workbench kept, drawing included.
// --model-run runs the model as its file says (its run block's end time, pace and
// tolerances, as the workbench opens it) and measures until the run ends, S seconds at most;
// --start NAME chooses how its flexible members start (rest, consistent: StartMotion.h), as
// the run panel does. Either way, each batch of frames that reaches the window is compared
// with the real-time clock: the lag is the wall time since Run less the simulated time over
// the pace, what the animation shows late (the first batch's lag is the run's set-up).
// Needs a display (run under xvfb-run on a server).

#include "viewport/VtkViewport.h"
#include "workbench/MainWindow.h"
#include "document/WorkbenchDocument.h"
#include "looplab/kinematics/StartMotion.h"
#include "run/RunPanel.h"
#include "run/RunSession.h"
#include "recording/SimulationRecording.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QFile>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QMetaEnum>
#include <QPointer>
#include <QSurfaceFormat>
#include <QTextStream>
#include <QThread>
#include <QTimer>
#include <QWindow>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace {

struct Delivery {
    double ms = 0.0;
    double at = 0.0;  // s since recording started
    QString what;
};

// Times every outermost event delivery (nested deliveries are part of their parent's).
class TimingApplication : public QApplication {
public:
    using QApplication::QApplication;

    bool notify(QObject* receiver, QEvent* event) override
    {
        // Only the GUI thread's deliveries: the worker's run is one long delivery of its own.
        if (!recording_ || depth_ > 0 || QThread::currentThread() != thread())
            return QApplication::notify(receiver, event);
        ++depth_;
        QElapsedTimer timer;
        timer.start();
        const QEvent::Type type = event->type();
        // A delivery may delete its receiver (a deferred delete): then it is described by
        // the event alone.
        const QPointer<QObject> alive(receiver);
        const bool result = QApplication::notify(receiver, event);
        const double ms = timer.nsecsElapsed() * 1e-6;
        --depth_;
        if (!alive)
            receiver = nullptr;
        if (receiver == view_ && ms >= 1.0)
            viewFrames_.push_back(ms);
        if (ms >= 1.0)
            sinceTick_.push_back({ms, 0.0, describe(receiver, type)});
        if (ms >= 5.0) {
            longest_.push_back({ms, since_.elapsed() * 1e-3, describe(receiver, type)});
        }
        return result;
    }

    static QString describe(QObject* receiver, QEvent::Type type)
    {
        const char* typeName = QMetaEnum::fromType<QEvent::Type>().valueToKey(type);
        if (!receiver)
            return QString("%1 → (deleted)").arg(typeName ? typeName : QByteArray::number(type).constData());
        QString name = receiver->objectName();
        if (auto* scene = qobject_cast<QGraphicsScene*>(receiver); scene && !scene->views().isEmpty())
            name = scene->views().front()->objectName();
        return QString("%1 → %2%3")
            .arg(typeName ? typeName : QByteArray::number(type).constData(), receiver->metaObject()->className(),
                 name.isEmpty() ? QString() : " \"" + name + "\"");
    }

    /// Called at each timer tick: remembers what filled the gap if it is the largest yet.
    void tick(double gapMs)
    {
        if (gapMs > largestGap_) {
            largestGap_ = gapMs;
            largestGapAt_ = since_.elapsed() * 1e-3;
            largestGapParts_ = sinceTick_;
        }
        sinceTick_.clear();
    }
    const std::vector<Delivery>& largestGapParts() const { return largestGapParts_; }
    double largestGapAt() const { return largestGapAt_; }

    /// Deliveries to this object of 1 ms or more are counted as 3D frames.
    void setView(QObject* view) { view_ = view; }
    std::vector<double> viewFrames() const
    {
        std::vector<double> v = viewFrames_;
        std::sort(v.begin(), v.end());
        return v;
    }

    void setRecording(bool on)
    {
        recording_ = on;
        if (on)
            since_.start();
    }
    std::vector<Delivery> longest(size_t count)
    {
        std::sort(longest_.begin(), longest_.end(), [](const Delivery& a, const Delivery& b) { return a.ms > b.ms; });
        if (longest_.size() > count)
            longest_.resize(count);
        return longest_;
    }

private:
    bool recording_ = false;
    QElapsedTimer since_;
    int depth_ = 0;
    std::vector<Delivery> longest_;
    std::vector<Delivery> sinceTick_, largestGapParts_;
    QObject* view_ = nullptr;
    std::vector<double> viewFrames_;
    double largestGap_ = 0.0, largestGapAt_ = 0.0;
};

}  // namespace

int main(int argc, char** argv)
{
    QSurfaceFormat::setDefaultFormat(looplab::ui::VtkViewport::defaultFormat());
    TimingApplication app(argc, argv);
    QString outPath = "benchmark-gui.md";
    QString model = QStringLiteral(LOOPLAB_EXAMPLES_DIR "/chain-20-loops.json");
    double seconds = 20.0;
    double pace = 0.0, rtol = 0.0, atol = 0.0, tEnd = 0.0;
    bool modelRun = false;
    QString start;
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == "--seconds" && i + 1 < args.size())
            seconds = args[++i].toDouble();
        else if (args[i] == "--pace" && i + 1 < args.size())
            pace = args[++i].toDouble();
        else if (args[i] == "--t-end" && i + 1 < args.size())
            tEnd = args[++i].toDouble();
        else if (args[i] == "--rtol" && i + 1 < args.size())
            rtol = args[++i].toDouble();
        else if (args[i] == "--atol" && i + 1 < args.size())
            atol = args[++i].toDouble();
        else if (args[i] == "--model" && i + 1 < args.size())
            model = args[++i];
        else if (args[i] == "--model-run")
            modelRun = true;
        else if (args[i] == "--start" && i + 1 < args.size())
            start = args[++i];
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
    if (!start.isEmpty()) {
        looplab::StartMotion motion;
        if (!looplab::parseStartMotion(start.toStdString(), motion)) {
            std::fprintf(stderr, "unknown start '%s'\n", qPrintable(start));
            return 2;
        }
        const std::string name = start.toStdString();
        window.document()->edit("start", [name](looplab::ModelDocument& d) { d.run.start = name; });
    }
    const std::optional<std::string> startName = window.document()->document().run.start;
    const QString startUsed = QString::fromStdString(startName.value_or("consistent"));
    const looplab::StartReport startReport = window.document()->loaded().start;
    // Let the first frame render before anything is measured.
    QElapsedTimer settle;
    settle.start();
    while (settle.elapsed() < 1000)
        app.processEvents();

    int viewFrames = 0;
    QObject::connect(window.viewport(), &looplab::ui::VtkViewport::frameRendered, [&] { ++viewFrames; });
    // A paced run lasts the whole measurement, so the view animates throughout.
    looplab::SimulationSettings settings = window.runPanel()->settings();
    if (modelRun) {
        pace = window.runPanel()->pace();
    } else {
        settings.tEnd = tEnd > 0.0 ? tEnd : pace > 0.0 ? pace * seconds : std::max(settings.tEnd, 1e3);
    }
    if (rtol > 0.0)
        settings.ode.rtol = rtol;
    if (atol > 0.0)
        settings.ode.atol = atol;
    window.runPanel()->setSettings(settings);
    window.runPanel()->setPace(pace);

    // The pace the window shows: each batch's simulated time against the clock started at Run.
    struct PaceSample {
        double wall = 0.0;       // s since Run, when the batch reached the window
        double simulated = 0.0;  // s of simulated time recorded by then
    };
    std::vector<PaceSample> paceSamples;
    QElapsedTimer sinceRun;
    double runWall = -1.0;  // s from Run to the end of the run as the window learns it
    looplab::ui::RunSummary summary;
    const QMetaObject::Connection sampling =
        QObject::connect(window.runSession(), &looplab::ui::RunSession::framesRecorded, [&] {
            const looplab::ui::SimulationRecording& r = window.recording();
            if (!r.isEmpty())
                paceSamples.push_back({sinceRun.nsecsElapsed() * 1e-9, r.endTime() - r.startTime()});
        });
    sinceRun.start();
    if (!window.startRun()) {
        std::fprintf(stderr, "the run did not start\n");
        return 3;
    }
    app.setView(window.viewport()->renderSurface());
    app.setRecording(true);
    std::vector<double> gaps;
    QString runMessage;
    QElapsedTimer clock, total;
    clock.start();
    total.start();
    QTimer tick;
    tick.setTimerType(Qt::PreciseTimer);
    tick.setInterval(1);
    QObject::connect(&tick, &QTimer::timeout, [&] {
        gaps.push_back(clock.nsecsElapsed() * 1e-6);
        clock.restart();
        app.tick(gaps.back());
        if (total.elapsed() >= seconds * 1000.0) {
            tick.stop();
            app.setRecording(false);
            // What the run panel said while the run went on: a run that ended before the
            // measurement did says why here.
            runMessage = window.runPanel()->message();
            window.stopRun();
            app.quit();
        }
    });
    QMetaObject::Connection untilTheEnd;
    if (modelRun)
        untilTheEnd = QObject::connect(window.runSession(), &looplab::ui::RunSession::runFinished,
                                       [&](const looplab::ui::RunSummary& s) {
                                           runWall = sinceRun.nsecsElapsed() * 1e-9;
                                           summary = s;
                                           tick.stop();
                                           app.setRecording(false);
                                           runMessage = window.runPanel()->message();
                                           app.quit();
                                       });
    tick.start();
    app.exec();
    const double measured = total.nsecsElapsed() * 1e-9;
    // A run stopped at the time limit ends after the loop: nothing here is to hear of it.
    QObject::disconnect(untilTheEnd);
    QObject::disconnect(sampling);

    std::sort(gaps.begin(), gaps.end());
    auto quantile = [&](double q) {
        return gaps.empty() ? 0.0 : gaps[static_cast<size_t>(q * static_cast<double>(gaps.size() - 1))];
    };
    const int frames = window.recording().frameCount();
    const double simulated = window.recording().isEmpty() ? 0.0 : window.recording().endTime();
    QFile out(outPath);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Text))
        return 1;
    QTextStream ts(&out);
    ts << "| model | pace | run [s] | timer gaps | median gap [ms] | 99th percentile [ms] | largest gap [ms] | "
          "simulated [s] | frames recorded | 3D frames drawn |\n";
    ts << "|---|---|---|---|---|---|---|---|---|---|\n";
    ts << "| " << QFileInfo(model).fileName() << " | " << (pace > 0.0 ? QString("%1×").arg(pace) : QString("free"))
       << " | " << QString::number(measured, 'f', 2) << " | " << gaps.size() << " | "
       << QString::number(quantile(0.5), 'f', 2) << " | " << QString::number(quantile(0.99), 'f', 1) << " | "
       << QString::number(gaps.empty() ? 0.0 : gaps.back(), 'f', 1) << " | " << QString::number(simulated, 'f', 2)
       << " | " << frames << " | " << viewFrames << " |\n\n";
    // How far the animation fell behind real time: the largest lag over the run, and the
    // lag once the first batch had come (the run's set-up done).
    double largestLag = 0.0, largestLagAfterFirst = 0.0, firstBatch = 0.0, lastLag = 0.0;
    for (size_t k = 0; k < paceSamples.size(); ++k) {
        const PaceSample& p = paceSamples[k];
        const double lag = pace > 0.0 ? p.wall - p.simulated / pace : 0.0;
        largestLag = std::max(largestLag, lag);
        if (k == 0)
            firstBatch = p.wall;
        else if (pace > 0.0)
            largestLagAfterFirst =
                std::max(largestLagAfterFirst, lag - (paceSamples[0].wall - paceSamples[0].simulated / pace));
        lastLag = lag;
    }
    const double wallOfRun = runWall >= 0.0 ? runWall : (paceSamples.empty() ? 0.0 : paceSamples.back().wall);
    ts << "| model | start | start's vibration [J] | pace | run ended | wall from Run to the end [s] | simulated [s] | "
          "simulated / wall | first frames after [ms] | largest lag behind real time [ms] | growth of the lag after "
          "the first frames [ms] | lag at the end [ms] |\n";
    ts << "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    ts << "| " << QFileInfo(model).fileName() << " | " << startUsed << " | "
       << QString::number(startReport.vibrationEnergy, 'g', 2) << " | "
       << (pace > 0.0 ? QString("%1×").arg(pace) : QString("free")) << " | "
       << (runWall < 0.0 ? QString("no (measurement ended)") : summary.ok ? QString("finished") : summary.message)
       << " | " << QString::number(wallOfRun, 'f', 3) << " | " << QString::number(simulated, 'f', 3) << " | "
       << QString::number(wallOfRun > 0.0 ? simulated / wallOfRun : 0.0, 'f', 3) << " | "
       << QString::number(1e3 * firstBatch, 'f', 0) << " | " << QString::number(1e3 * largestLag, 'f', 0) << " | "
       << QString::number(1e3 * largestLagAfterFirst, 'f', 0) << " | " << QString::number(1e3 * lastLag, 'f', 0)
       << " |\n\n";
    if (runWall >= 0.0)
        ts << "The run " << (summary.ok ? QString("finished") : "ended: " + summary.message) << " after "
           << summary.steps << " steps in " << QString::number(summary.wallTime, 'f', 3)
           << " s of the worker's clock.\n\n";
    const std::vector<double> view = app.viewFrames();
    auto viewQuantile = [&](double q) {
        return view.empty() ? 0.0 : view[static_cast<size_t>(q * static_cast<double>(view.size() - 1))];
    };
    ts << "3D view repaints: " << view.size() << ", median " << QString::number(viewQuantile(0.5), 'f', 1)
       << " ms, 90th percentile " << QString::number(viewQuantile(0.9), 'f', 1) << " ms, longest "
       << QString::number(viewQuantile(1.0), 'f', 1) << " ms.\n\n";
    ts << "The largest gap, at " << QString::number(app.largestGapAt(), 'f', 2)
       << " s, held these deliveries of 1 ms or more:\n\n";
    for (const Delivery& d : app.largestGapParts())
        ts << "- " << QString::number(d.ms, 'f', 1) << " ms: " << d.what << "\n";
    ts << "\nLongest event deliveries:\n\n";
    for (const Delivery& d : app.longest(8))
        ts << "- " << QString::number(d.ms, 'f', 1) << " ms at " << QString::number(d.at, 'f', 2) << " s: " << d.what
           << "\n";
    ts.flush();
    std::printf("timer gaps: median %.2f ms, 99th percentile %.1f ms, largest %.1f ms over %zu; simulated %.2f s, "
                "%d frames recorded, %d 3D frames drawn\n",
                quantile(0.5), quantile(0.99), gaps.empty() ? 0.0 : gaps.back(), gaps.size(), simulated, frames,
                viewFrames);
    std::printf("run panel: %s\n", qPrintable(runMessage));
    std::printf("start %s (%.2g J of vibration); pace: %.3f s simulated in %.3f s from Run to the end (%.3f), first "
                "frames after %.0f ms, largest lag behind real time %.0f ms (%.0f ms more after the first frames), "
                "%.0f ms at the end\n",
                qPrintable(startUsed), startReport.vibrationEnergy, simulated, wallOfRun,
                wallOfRun > 0.0 ? simulated / wallOfRun : 0.0, 1e3 * firstBatch, 1e3 * largestLag,
                1e3 * largestLagAfterFirst, 1e3 * lastLag);
    std::printf("3D view repaints: %zu, median %.1f ms, 90th percentile %.1f ms, longest %.1f ms\n", view.size(),
                viewQuantile(0.5), viewQuantile(0.9), viewQuantile(1.0));
    std::printf("largest gap at %.2f s held:\n", app.largestGapAt());
    for (const Delivery& d : app.largestGapParts())
        std::printf("  %.1f ms: %s\n", d.ms, qPrintable(d.what));
    std::printf("longest deliveries:\n");
    for (const Delivery& d : app.longest(8))
        std::printf("  %.1f ms at %.2f s: %s\n", d.ms, d.at, qPrintable(d.what));
    return 0;
}
