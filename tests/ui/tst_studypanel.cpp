// The workbench's Study panel (ui/study), driven through its widgets: the four-bar's
// coupler length swept across the Grashof boundary, whose crank turns fully exactly where
// the closed-form condition says and whose rows equal `looplab-cli study` on the saved
// study file; a long study cancelled promptly with its finished rows kept; a case opened
// as the workbench's model through the undo stack.
#include "WorkbenchTestSupport.h"

#include "study/StudyEditor.h"
#include "study/StudyModelPicker.h"
#include "study/StudyPanel.h"
#include "study/StudyResultsView.h"
#include "document/WorkbenchDocument.h"

#include "looplab/files/ModelFile.h"
#include "looplab/study/StudyFile.h"
#include "looplab/study/StudyRunner.h"

#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QLineEdit>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QUndoStack>

#include <QChart>
#include <QChartView>

#include <cmath>
#include <numeric>

using namespace looplab;
using namespace looplab::ui;
using namespace looplab::ui::test;

namespace {

// The four-bar of four-bar-rod-coupler.json: crank 0.1 m, rocker 0.3 m, ground 0.4 m. The
// crank (shortest link) turns fully iff shortest + longest ≤ the sum of the other two
// (Grashof): for the coupler c, iff 0.2 ≤ c ≤ 0.6.
bool grashofCrankTurns(double coupler) {
    std::vector<double> l = {0.1, 0.3, 0.4, coupler};
    std::sort(l.begin(), l.end());
    return l[0] == 0.1 && l[0] + l[3] <= l[1] + l[2];
}

// Picks the number at `pointer` in the panel's model tree by double-clicking it.
bool pick(StudyPanel* panel, const QString& pointer) {
    StudyModelPicker* tree = panel->picker();
    QTreeWidgetItem* item = tree->itemForPointer(pointer);
    if (!item) {
        qWarning("no item for %s in the model tree (%d top items)", qPrintable(pointer), tree->topLevelItemCount());
        return false;
    }
    for (QTreeWidgetItem* p = item->parent(); p; p = p->parent()) p->setExpanded(true);
    tree->scrollToItem(item);
    const int before = panel->editor()->parameterCount();
    const QRect r = tree->visualItemRect(item);
    // A double-click is a press, a release and a second press: the item view activates
    // on the second, for the item the first pressed.
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, r.center());
    QTest::mouseDClick(tree->viewport(), Qt::LeftButton, {}, r.center());
    if (panel->editor()->parameterCount() != before + 1)
        qWarning("double-click at (%d, %d) in a %s tree did not add %s", r.center().x(), r.center().y(),
                 tree->isVisible() ? "visible" : "hidden", qPrintable(pointer));
    return panel->editor()->parameterCount() == before + 1;
}

void setCell(StudyEditor* editor, int row, int column, const QString& text) {
    editor->parameterTable()->item(row, column)->setText(text);
}

void addOutput(StudyPanel* panel, const QString& quantity, const QString& statistic) {
    panel->findChild<QComboBox*>("studyQuantity")->setCurrentText(quantity);
    panel->findChild<QComboBox*>("studyStatistic")->setCurrentText(statistic);
    QTest::mouseClick(panel->findChild<QPushButton*>("studyAddOutput"), Qt::LeftButton);
}

// Shows the Study dock (tabbed with the plots) so the panel's widgets take clicks.
StudyPanel* showStudyPanel(MainWindow& window) {
    auto* dock = window.findChild<QDockWidget*>("studyDock");
    if (!dock) return nullptr;
    dock->raise();
    dock->setFloating(true);
    dock->resize(1200, 900);
    QTest::qWait(50);
    return window.studyPanel();
}

double valueAt(const ModelDocument& doc, const char* pointer) {
    const QJsonDocument json = QJsonDocument::fromJson(QByteArray::fromStdString(serializeModelDocument(doc)));
    QJsonValue v = json.object();
    for (const QString& t : QString(pointer).split('/', Qt::SkipEmptyParts))
        v = v.isArray() ? v.toArray().at(t.toInt()) : v.toObject().value(t);
    return v.toDouble(NAN);
}

}  // namespace

class TestStudyPanel : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { useThrowAwaySettings("tst_studypanel"); }

    void grashofSweepSwitchesAtTheClosedFormAndEqualsTheCli() {
        auto window = shownWindow();
        QVERIFY(window);
        QString error;
        QVERIFY2(window->document()->open(example("four-bar-rod-coupler.json"), &error), qPrintable(error));
        StudyPanel* panel = showStudyPanel(*window);
        QVERIFY(panel);

        // Coupler 0.13 … 0.73 m in steps of 0.02 m: the boundaries 0.2 and 0.6 fall midway
        // between two cases, 0.01 m from each.
        QVERIFY(pick(panel, "/joints/2/length"));
        StudyEditor* editor = panel->editor();
        setCell(editor, 0, StudyEditor::NameColumn, "coupler_length");
        setCell(editor, 0, StudyEditor::FirstColumn, "0.13");
        setCell(editor, 0, StudyEditor::SecondColumn, "0.73");
        setCell(editor, 0, StudyEditor::StepsColumn, "31");
        panel->findChild<QComboBox*>("studyAnalysis")->setCurrentText("kinematics");
        // Kinematics every 1.8° of the crank: the positions a loop cannot reach are found at any
        // step; a finer one only makes the 31 cases, run here and by the command-line tool, slower.
        panel->findChild<QLineEdit*>("studyTEnd")->setText("1");
        panel->findChild<QLineEdit*>("studyStep")->setText("0.005");
        addOutput(panel, "A.angle", "final");
        addOutput(panel, "D.angle", "min");
        addOutput(panel, "D.angle", "max");
        panel->threads()->setValue(2);

        QSignalSpy finished(panel, &StudyPanel::studyFinished);
        QTest::mouseClick(panel->runButton(), Qt::LeftButton);
        QVERIFY2(panel->isRunning(), qPrintable(panel->statusText()));
        QVERIFY(test::waitForSignals(finished, "the study to finish"));
        QCOMPARE(finished.at(0).at(0).toBool(), false);

        const std::vector<StudyRow> rows = panel->results()->rows();
        QCOMPARE(rows.size(), size_t(31));
        QCOMPARE(panel->results()->table()->rowCount(), 31);
        auto* bar = panel->findChild<QProgressBar*>("studyProgress");
        QCOMPARE(bar->value(), 31);
        QCOMPARE(bar->maximum(), 31);
        double lastShort = 0, firstTurning = 1, lastTurning = 0, firstLong = 1;
        for (const StudyRow& row : rows) {
            const double c = row.parameters[0];
            QVERIFY(std::abs(c - (0.13 + 0.02 * double(row.index))) < 1e-12);
            QVERIFY2(row.ok == grashofCrankTurns(c), qPrintable(QString("coupler %1: %2").arg(c).arg(row.reason.c_str())));
            // A failed case's whole reason is the tooltip of every cell of its row.
            QTableWidget* table = panel->results()->table();
            for (int column = 0; column < table->columnCount(); ++column)
                QCOMPARE(table->item(int(row.index), column)->toolTip(),
                         row.ok ? QString() : QString::fromStdString(row.reason));
            if (row.ok) {
                // A full turn of the crank in the second the motor turns at 2π rad/s.
                QVERIFY(std::abs(row.values[0] - 2 * M_PI) < 1e-9);
                firstTurning = std::min(firstTurning, c);
                lastTurning = std::max(lastTurning, c);
            } else if (c < 0.4) {
                lastShort = std::max(lastShort, c);
            } else {
                firstLong = std::min(firstLong, c);
            }
        }
        qInfo("crank turns for coupler %.2f … %.2f m; stops at %.2f and %.2f m (closed form: 0.2 … 0.6 m)",
              firstTurning, lastTurning, lastShort, firstLong);
        QVERIFY(std::abs(lastShort - 0.19) < 1e-12 && std::abs(firstTurning - 0.21) < 1e-12);
        QVERIFY(std::abs(lastTurning - 0.59) < 1e-12 && std::abs(firstLong - 0.61) < 1e-12);

        // The plot shows every case that turned, against the coupler length.
        panel->results()->setPlotAxes(0, 0);
        QCOMPARE(panel->results()->plotPoints().size(), size_t(20));  // 0.21 … 0.59 m
#ifdef LOOPLAB_SCREENSHOT_DIR
        QDir().mkpath(LOOPLAB_SCREENSHOT_DIR);
        panel->results()->tabs()->setCurrentIndex(1);
        QTest::qWait(50);
        panel->window()->grab().save(LOOPLAB_SCREENSHOT_DIR "/study-panel.png");
        panel->results()->tabs()->setCurrentIndex(0);
#endif

        // The saved study file, run by the command-line tool, gives the same rows.
        QTemporaryDir dir;
        const QString studyPath = dir.filePath("sweep.json");
        QVERIFY2(panel->saveStudy(studyPath, &error), qPrintable(error));
        const StudyFileResult reread = readStudyFile(studyPath.toStdString());
        QVERIFY2(reread.study, formatDiagnostics(reread.diagnostics).c_str());
        QProcess cli;
        cli.start(LOOPLAB_CLI_PATH, {"study", studyPath, "--out", dir.filePath("cli.csv"), "--threads", "1"});
        QVERIFY(test::waitForExit(cli, "looplab-cli study"));
        QCOMPARE(cli.exitCode(), 0);
        QFile csv(dir.filePath("cli.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().split('\n');
        QCOMPARE(lines.at(0).toStdString(), studyHeader(*panel->lastStudy()));
        QCOMPARE(lines.size(), 31 + 2);  // header, rows, the empty piece after the last break
        for (const StudyRow& row : rows) QCOMPARE(lines.at(int(row.index) + 1).toStdString(), formatStudyRow(row));

        // Reopening the file gives the same study in the panel, and shows its model.
        QVERIFY(window->document()->open(example("pendulum.json"), &error));
        QVERIFY2(panel->openStudy(studyPath, &error), qPrintable(error));
        QVERIFY(window->document()->filePath().endsWith("four-bar-rod-coupler.json"));
        // A source that never ends is refused with the reason, and the study stays.
        QString endless;
        QVERIFY(!panel->openStudy("/dev/zero", &endless));
        QVERIFY2(endless.contains("/dev/zero") && endless.contains("larger than 64 MB"), qPrintable(endless));
        QVERIFY(panel->picker()->itemForPointer("/joints/2/length"));
        QCOMPARE(editor->parameterCount(), 1);
        QCOMPARE(editor->parameterTable()->item(0, StudyEditor::StepsColumn)->text(), QString("31"));
    }

    void cancelStopsPromptlyAndKeepsFinishedRows() {
        auto window = shownWindow();
        QVERIFY(window);
        QString error;
        QVERIFY2(window->document()->open(example("four-bar-rod-coupler.json"), &error), qPrintable(error));
        StudyPanel* panel = showStudyPanel(*window);
        QVERIFY(panel);
        QVERIFY(pick(panel, "/joints/2/length"));
        StudyEditor* editor = panel->editor();
        setCell(editor, 0, StudyEditor::FirstColumn, "0.25");
        setCell(editor, 0, StudyEditor::SecondColumn, "0.55");
        setCell(editor, 0, StudyEditor::StepsColumn, "5000");
        panel->findChild<QComboBox*>("studyAnalysis")->setCurrentText("kinematics");
        panel->findChild<QLineEdit*>("studyTEnd")->setText("1");
        panel->findChild<QLineEdit*>("studyStep")->setText("0.001");
        addOutput(panel, "D.angle", "max");
        panel->threads()->setValue(2);

        QSignalSpy finished(panel, &StudyPanel::studyFinished);
        QTest::mouseClick(panel->runButton(), Qt::LeftButton);
        QVERIFY(panel->isRunning());
        QVERIFY(test::waitUntil([&] { return panel->results()->rows().size() >= 10; }, "ten rows of the study"));
        // The window answers while the study runs.
        QElapsedTimer answer;
        answer.start();
        QTest::qWait(1);
        qInfo("event loop answered in %lld ms during the study", answer.elapsed());

        const size_t before = panel->results()->rows().size();
        QElapsedTimer stop;
        stop.start();
        QTest::mouseClick(panel->cancelButton(), Qt::LeftButton);
        QVERIFY(test::waitForSignals(finished, "the cancelled study to finish"));
        qInfo("cancelled after %zu cases; the study ended %lld ms after Cancel", before, stop.elapsed());
        QCOMPARE(finished.at(0).at(0).toBool(), true);
        const std::vector<StudyRow> rows = panel->results()->rows();
        QVERIFY(rows.size() >= before);
        QVERIFY(rows.size() < 5000);
        QCOMPARE(panel->results()->table()->rowCount(), int(rows.size()));
        // The kept rows are whole: each equals its case run alone.
        for (size_t i = 0; i < rows.size(); i += std::max<size_t>(1, rows.size() / 5))
            QCOMPARE(formatStudyRow(rows[i]), formatStudyRow(runStudyCase(*panel->lastStudy(), rows[i].index)));
        QVERIFY(panel->runButton()->isEnabled());
        QVERIFY(!panel->isRunning());
    }

    void clickingACaseOpensThatVariantThroughTheUndoStack() {
        auto window = shownWindow();
        QVERIFY(window);
        QString error;
        QVERIFY2(window->document()->open(example("four-bar-rod-coupler.json"), &error), qPrintable(error));
        StudyPanel* panel = showStudyPanel(*window);
        QVERIFY(panel);
        QVERIFY(pick(panel, "/joints/2/length"));
        StudyEditor* editor = panel->editor();
        editor->setList(0, {0.35, 0.45, 0.5});
        panel->findChild<QComboBox*>("studyAnalysis")->setCurrentText("check");

        // The study varies the model file: with unsaved edits of it, it does not run.
        window->document()->edit("rename", [](ModelDocument& d) { d.name += " (edited)"; });
        QVERIFY(!panel->runStudy());
        QVERIFY2(panel->statusText().contains("Save the model first"), qPrintable(panel->statusText()));
        window->document()->undoStack()->undo();
        QVERIFY(!window->document()->isModified());

        QSignalSpy finished(panel, &StudyPanel::studyFinished);
        QTest::mouseClick(panel->runButton(), Qt::LeftButton);
        QVERIFY(test::waitForSignals(finished, "the study of three cases to finish"));
        QCOMPARE(panel->results()->rows().size(), size_t(3));

        WorkbenchDocument* doc = window->document();
        QCOMPARE(valueAt(doc->document(), "/joints/2/length"), 0.4);
        const int undoBefore = doc->undoStack()->index();
        QTableWidget* table = panel->results()->table();
        table->scrollToItem(table->item(1, 0));
        const QPoint at = table->visualItemRect(table->item(1, 0)).center();
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, at);
        QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(valueAt(doc->document(), "/joints/2/length"), 0.45);
        QVERIFY(doc->isModified());
        QCOMPARE(doc->undoStack()->index(), undoBefore + 1);
        QVERIFY(doc->loaded().ok());
        doc->undoStack()->undo();
        QCOMPARE(valueAt(doc->document(), "/joints/2/length"), 0.4);

        // With unsaved edits of another model, a case is not opened over them.
        QVERIFY(doc->open(example("four-bar.json"), &error));
        doc->edit("rename", [](ModelDocument& d) { d.name += " (edited)"; });
        QVERIFY(!panel->openCase(2));
        QVERIFY(doc->isModified());
        QVERIFY(doc->filePath().endsWith("four-bar.json"));
    }

    void monteCarloHistogramAndPlotPointOpensItsCase() {
        auto window = shownWindow();
        QVERIFY(window);
        QString error;
        QVERIFY2(window->document()->open(example("spring-mass.json"), &error), qPrintable(error));
        StudyPanel* panel = showStudyPanel(*window);
        QVERIFY(panel);
        QVERIFY(pick(panel, "/bodies/0/mass"));
        StudyEditor* editor = panel->editor();
        qobject_cast<QComboBox*>(editor->parameterTable()->cellWidget(0, StudyEditor::KindColumn))->setCurrentText("normal");
        setCell(editor, 0, StudyEditor::FirstColumn, "1");
        setCell(editor, 0, StudyEditor::SecondColumn, "0.1");
        panel->findChild<QLineEdit*>("studySeed")->setText("7");
        panel->findChild<QSpinBox*>("studySamples")->setValue(100);
        panel->findChild<QComboBox*>("studyAnalysis")->setCurrentText("statics");
        addOutput(panel, "block.y", "final");

        // A bad setting is reported with its place in the study, and nothing runs.
        setCell(editor, 0, StudyEditor::SecondColumn, "-0.1");
        QVERIFY(!panel->runStudy());
        QVERIFY2(panel->statusText().contains("/parameters/0/normal/sd"), qPrintable(panel->statusText()));
        setCell(editor, 0, StudyEditor::SecondColumn, "0.1");

        QSignalSpy finished(panel, &StudyPanel::studyFinished);
        QTest::mouseClick(panel->runButton(), Qt::LeftButton);
        QVERIFY(test::waitForSignals(finished, "the Monte Carlo study to finish"));
        const std::vector<StudyRow> rows = panel->results()->rows();
        QCOMPARE(rows.size(), size_t(100));
        // Static sag −m g / k of the block on the 1000 N/m spring, case by case, and the
        // sample mean within three standard errors of −μ g / k.
        double sum = 0;
        for (const StudyRow& row : rows) {
            QVERIFY(row.ok);
            QVERIFY(std::abs(row.values[0] + row.parameters[0] * 9.81 / 1000.0) < 1e-12);
            sum += row.values[0];
        }
        const double mean = sum / 100;
        qInfo("mean sag %.6g m (analytic −0.00981 m, standard error %.3g m)", mean, 0.000981 / std::sqrt(100.0));
        QVERIFY(std::abs(mean + 0.00981) < 3 * 0.000981 / std::sqrt(100.0));

        // The histogram counts every case once, each in the bin its value falls in.
        StudyResultsView* results = panel->results();
        QVERIFY(results->tabs()->isTabEnabled(2));
        results->refresh();
        const std::vector<double> edges = results->histogramEdges();
        const std::vector<int> counts = results->histogramCounts();
        QCOMPARE(counts.size(), size_t(std::ceil(std::log2(100.0))) + 1);
        QCOMPARE(std::accumulate(counts.begin(), counts.end(), 0), 100);
        for (size_t b = 0; b < counts.size(); ++b) {
            const bool last = b + 1 == counts.size();
            const auto in = std::count_if(rows.begin(), rows.end(), [&](const StudyRow& r) {
                return r.values[0] >= edges[b] && (r.values[0] < edges[b + 1] || (last && r.values[0] <= edges[b + 1]));
            });
            QCOMPARE(counts[b], int(in));
        }

#ifdef LOOPLAB_SCREENSHOT_DIR
        results->tabs()->setCurrentIndex(2);
        QTest::qWait(50);
        results->grab().save(LOOPLAB_SCREENSHOT_DIR "/study-histogram.png");
#endif

        // Clicking a point of the plot opens that case: the block gets its mass.
        results->tabs()->setCurrentIndex(1);
        results->setPlotAxes(0, 0);
        QTest::qWait(100);
        QChartView* view = results->plotView();
        QVERIFY(view);
        // The point farthest on screen from its neighbours, so that no other marker covers it.
        QChart* chart = view->chart();
        const auto points = results->plotPoints();
        size_t pickIndex = 0;
        double room = -1;
        for (size_t i = 0; i < points.size(); ++i) {
            double nearest = std::numeric_limits<double>::infinity();
            const QPointF pi = chart->mapToPosition(QPointF(std::get<0>(points[i]), std::get<1>(points[i])));
            for (size_t j = 0; j < points.size(); ++j) {
                if (j == i) continue;
                const QPointF pj = chart->mapToPosition(QPointF(std::get<0>(points[j]), std::get<1>(points[j])));
                nearest = std::min(nearest, std::hypot(pi.x() - pj.x(), pi.y() - pj.y()));
            }
            if (nearest > room) room = nearest, pickIndex = i;
        }
        const auto [x, y, k] = points[pickIndex];
        const QPoint at = view->mapFromScene(chart->mapToScene(chart->mapToPosition(QPointF(x, y))));
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
        QTRY_COMPARE_WITH_TIMEOUT(valueAt(window->document()->document(), "/bodies/0/mass"),
                                  results->row(k)->parameters[0], test::safetyLimitMs());
    }
};

QTEST_MAIN(TestStudyPanel)
#include "tst_studypanel.moc"
