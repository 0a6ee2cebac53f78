#pragma once
// Runs the command-line tool built with the tests and collects what it printed.

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace looplab::test {

struct CliResult {
    bool finished = false;  ///< exited normally within the time limit
    int exitCode = -1;
    QByteArray out, err;
};

/// Runs the tool; with `stdoutFile` its standard output goes to that file (or device).
inline CliResult runCli(const QStringList& arguments, int timeoutMs = 300000, const QString& stdoutFile = {}) {
    QProcess p;
    if (!stdoutFile.isEmpty()) p.setStandardOutputFile(stdoutFile);
    p.start(QStringLiteral(LOOPLAB_CLI_PATH), arguments);
    CliResult r;
    r.finished = p.waitForFinished(timeoutMs) && p.exitStatus() == QProcess::NormalExit;
    r.exitCode = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

}  // namespace looplab::test
