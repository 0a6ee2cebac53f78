#pragma once
// Runs the command-line tool built with the tests and collects what it printed.

#include "EventWait.h"

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace looplab::test {

struct CliResult {
    bool finished = false;  ///< exited normally (not killed, not left running at the safety limit)
    int exitCode = -1;
    QByteArray out, err;
};

/// Runs the tool to its exit; with `stdoutFile` its standard output goes to that file (or
/// device). A run still going at the safety limit (EventWait.h) is killed and reported.
inline CliResult runCli(const QStringList& arguments, const QString& stdoutFile = {}) {
    QProcess p;
    if (!stdoutFile.isEmpty()) p.setStandardOutputFile(stdoutFile);
    p.start(QStringLiteral(LOOPLAB_CLI_PATH), arguments);
    CliResult r;
    if (!eventwait::waitForExit(p, "looplab-cli " + arguments.join(' '))) {
        p.kill();
        p.waitForFinished();
    }
    r.finished = p.exitStatus() == QProcess::NormalExit && p.error() != QProcess::FailedToStart;
    r.exitCode = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

}  // namespace looplab::test
