#pragma once
// Waiting in the suites. A test never decides its result by how long something took: it
// waits for the event itself (a finished signal, a frame count, a state, a process's exit).
// Only a safety limit, far beyond what a loaded machine needs, ends a wait for an event
// that never comes, and then the test says what it was waiting for and for how long.
// Speed is measured by the benchmarks, not here.

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QProcess>
#include <QSignalSpy>
#include <QString>
#include <QtTest>

#include <functional>

namespace looplab::eventwait {

/// How long one wait may last before the test gives up on its event: 10 minutes, or
/// LOOPLAB_TEST_SAFETY_LIMIT_S seconds. A suite's CTest TIMEOUT and Qt Test's per-function
/// watchdog (QTEST_FUNCTION_TIMEOUT, set by tests/CMakeLists.txt) are longer, so a wait
/// that gives up reports what it was waiting for before anything kills the suite.
inline int safetyLimitMs()
{
    bool ok = false;
    const int seconds = qEnvironmentVariableIntValue("LOOPLAB_TEST_SAFETY_LIMIT_S", &ok);
    return ok && seconds > 0 ? 1000 * seconds : 600 * 1000;
}

/// Reports a wait the safety limit ended; always false.
inline bool gaveUpWaiting(const QString& what, const QElapsedTimer& clock)
{
    qWarning("gave up waiting for %s after %.0f s (the tests' safety limit, LOOPLAB_TEST_SAFETY_LIMIT_S)",
             qPrintable(what), double(clock.elapsed()) / 1000.0);
    return false;
}

/// Processes events until `done()` holds. False, with a warning naming `what`, if the
/// safety limit passes first.
inline bool waitUntil(const std::function<bool()>& done, const QString& what)
{
    QElapsedTimer clock;
    clock.start();
    const QDeadlineTimer limit(safetyLimitMs());
    while (!done()) {
        if (limit.hasExpired())
            return gaveUpWaiting(what, clock);
        // Processes events (and deferred deletions) for up to 10 ms at a time.
        QTest::qWait(10);
    }
    return true;
}

/// Waits until `spy` has recorded at least `count` signals.
inline bool waitForSignals(QSignalSpy& spy, const QString& what, int count = 1)
{
    return waitUntil([&] { return spy.count() >= count; }, what);
}

/// Waits until `process` has exited (it may have exited already). It does not check how:
/// the caller looks at the exit status and code.
inline bool waitForExit(QProcess& process, const QString& what)
{
    QElapsedTimer clock;
    clock.start();
    const QDeadlineTimer limit(safetyLimitMs());
    while (process.state() != QProcess::NotRunning) {
        if (limit.hasExpired())
            return gaveUpWaiting(what, clock);
        process.waitForFinished(1000);
    }
    return true;
}

}  // namespace looplab::eventwait
