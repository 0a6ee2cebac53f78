// Running a study's cases on a pool of threads (StudyExecution.h), as the Study panel and
// the command-line tool do: every row equals the same case run alone, the progress counts
// every case once with no time left at the end, the four-bar sweep's failures are exactly
// the non-Grashof coupler lengths, and a stop ends the run promptly without reporting the
// case it cut short.
#include "looplab/study/StudyCases.h"
#include "looplab/study/StudyExecution.h"
#include "looplab/study/StudyFile.h"
#include "looplab/study/StudyRunner.h"

#include <QtTest>

#include <algorithm>
#include <map>
#include <thread>

using namespace looplab;

namespace {

std::optional<StudyDescription> fourBarSweep() {
    return readStudyFile(LOOPLAB_STUDIES_DIR "/four-bar-coupler-sweep.json").study;
}

// A simulation study of the pendulum that runs far longer than any test would wait.
std::optional<StudyDescription> longPendulumStudy() {
    const std::string text = R"({"format": "looplab-study", "version": 1,
        "model": ")" LOOPLAB_EXAMPLES_DIR R"(/pendulum.json",
        "parameters": [{"path": "/bodies/0/mass", "values": [1, 2, 3, 4]}],
        "analysis": {"type": "simulate", "t_end": 1.0e5, "output_step": 1.0},
        "outputs": [{"quantity": "energy", "of": "max"}]})";
    return parseStudyFile(text, "long.json").study;
}

std::vector<long> allCases(long n) {
    std::vector<long> cases;
    for (long k = 0; k < n; ++k) cases.push_back(k);
    return cases;
}

// The closed-form Grashof condition for the example's crank 0.1 m, rocker 0.3 m and ground
// 0.4 m: the crank (shortest) turns fully iff shortest + longest ≤ sum of the other two.
bool grashofCrankTurns(double coupler) {
    std::vector<double> l = {0.1, 0.3, 0.4, coupler};
    std::sort(l.begin(), l.end());
    return l[0] == 0.1 && l[0] + l[3] <= l[1] + l[2];
}

}  // namespace

class TestStudyExecution : public QObject {
    Q_OBJECT

private slots:
    void threadedRowsEqualSerialRowsAndProgressCounts() {
        const auto study = fourBarSweep();
        QVERIFY(study);
        const long n = studyCaseCount(*study);
        const std::vector<long> cases = allCases(n);
        std::map<long, StudyRow> rows;
        std::vector<StudyProgress> progress;
        const long reported = runStudyCases(*study, cases, 3, [&](StudyRow&& row, const StudyProgress& p) {
            rows[row.index] = row;
            progress.push_back(p);
        });
        QCOMPARE(reported, n);
        QCOMPARE(long(rows.size()), n);
        long failed = 0;
        for (long k = 0; k < n; ++k) {
            const StudyRow& row = rows[k];
            QCOMPARE(formatStudyRow(row), formatStudyRow(runStudyCase(*study, k)));
            const double coupler = row.parameters[0];
            QVERIFY2(row.ok == grashofCrankTurns(coupler), qPrintable(QString::number(coupler)));
            if (!row.ok) ++failed;
        }
        QCOMPARE(failed, 5L);  // 0.125, 0.175 below the boundary; 0.625, 0.675, 0.725 above
        for (size_t i = 0; i < progress.size(); ++i) {
            QCOMPARE(progress[i].done, long(i) + 1);
            QCOMPARE(progress[i].total, n);
            QVERIFY(progress[i].remaining >= 0);
        }
        QCOMPARE(progress.back().failed, failed);
        QCOMPARE(progress.back().remaining, 0.0);
    }

    void stopKeepsFinishedRowsAndStartsNoMoreCases() {
        const auto study = fourBarSweep();
        QVERIFY(study);
        const long n = studyCaseCount(*study);
        const std::vector<long> cases = allCases(n);
        std::atomic<bool> stop{false};
        const int threads = 2;
        std::vector<StudyRow> rows;
        const long reported = runStudyCases(*study, cases, threads, [&](StudyRow&& row, const StudyProgress&) {
            rows.push_back(row);
            if (rows.size() == 3) stop = true;
        }, &stop);
        // The other thread may finish the case it had begun; nothing starts after the stop.
        QVERIFY(reported >= 3 && reported <= 3 + threads - 1);
        QCOMPARE(long(rows.size()), reported);
        for (const StudyRow& row : rows) QCOMPARE(formatStudyRow(row), formatStudyRow(runStudyCase(*study, row.index)));
    }

    void stopEndsARunningSimulationWithoutReportingIt() {
        const auto study = longPendulumStudy();
        QVERIFY(study);
        std::atomic<bool> stop{true};
        const StudyRow row = runStudyCase(*study, 0, &stop);
        QVERIFY(!row.ok);
        QVERIFY(row.assembled);
        QVERIFY2(row.reason.find("stopped") != std::string::npos, row.reason.c_str());

        // Stopped from another thread while the simulations run: no row is reported.
        std::atomic<bool> later{false};
        std::thread stopper([&] {
            QThread::msleep(300);
            later = true;
        });
        long calls = 0;
        const long reported = runStudyCases(*study, {0, 1, 2, 3}, 2, [&](StudyRow&&, const StudyProgress&) { ++calls; },
                                            &later);
        stopper.join();
        QCOMPARE(reported, 0L);
        QCOMPARE(calls, 0L);
    }
};

QTEST_GUILESS_MAIN(TestStudyExecution)
#include "tst_study_execution.moc"
