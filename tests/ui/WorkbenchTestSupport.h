#pragma once
// What the workbench's GUI tests share: example paths, run settings, a fresh main window
// per test, and running a simulation to its end.

#include "EventWait.h"
#include "looplab/simulation/Simulation.h"
#include "workbench/MainWindow.h"
#include "recording/RecordedFrame.h"

#include <QCoreApplication>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QString>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

namespace looplab::ui::test {

// Every wait of the GUI suites is for an event, bounded only by the safety limit.
using eventwait::safetyLimitMs;
using eventwait::waitForExit;
using eventwait::waitForSignals;
using eventwait::waitUntil;

inline QString example(const char* name) { return QStringLiteral(LOOPLAB_EXAMPLES_DIR) + "/" + name; }

/// `method` with Dormand–Prince from t = 0 to `tEnd`, a frame every 10 ms.
inline SimulationSettings runSettings(const char* method = "projection", double tEnd = 1.0)
{
    SimulationSettings s;
    s.method = method;
    s.integrator = "dopri5";
    s.tEnd = tEnd;
    s.outputStep = 0.01;
    return s;
}

/// Settings such as recent files go to a throw-away location named after the test, and
/// the windows' journals of unsaved changes to a directory removed when the test ends.
inline void useThrowAwaySettings(const char* testName)
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("LoopLabTest");
    QCoreApplication::setApplicationName(testName);
    static QTemporaryDir journals;
    qputenv("LOOPLAB_JOURNAL_DIR", journals.path().toLocal8Bit());
}

/// A shown main window that asks nothing before discarding or deleting; null if it
/// never became visible.
inline std::unique_ptr<MainWindow> shownWindow()
{
    auto window = std::make_unique<MainWindow>();
    window->setConfirmationsEnabled(false);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get()))
        return nullptr;
    return window;
}

/// Runs the window's current model to its end with the run panel's settings: waits for the
/// run's finished signal, however long a loaded machine takes (up to the safety limit,
/// EventWait.h). True if the run finished and, when `requireSuccess`, ended without failure.
inline bool runToEnd(MainWindow& window, bool requireSuccess)
{
    QSignalSpy finished(&window, &MainWindow::runFinished);
    if (!window.startRun())
        return false;
    if (!waitForSignals(finished, "the run of " + window.windowTitle() + " to finish"))
        return false;
    const RunSummary summary = finished.front().front().value<RunSummary>();
    if (requireSuccess && !summary.ok)
        qWarning("the run ended without success: %s", qPrintable(summary.message));
    return !requireSuccess || summary.ok;
}

}  // namespace looplab::ui::test
