// Drives the real main window under X: opening, editing with undo, saving, running
// simulations on the worker thread, stopping and pausing them, warnings and pictures.

#include "looplab/ModelFile.h"
#include "viewport/VtkViewport.h"
#include "workbench/DocumentOperations.h"
#include "workbench/ExamplesDirectory.h"
#include "workbench/MainWindow.h"
#include "workbench/ModelTreeModel.h"
#include "workbench/PlaybackBar.h"
#include "workbench/PlotPanel.h"
#include "workbench/PropertyEditor.h"
#include "workbench/RunPanel.h"
#include "workbench/SimulationRunner.h"
#include "workbench/WarningsPanel.h"
#include "workbench/WorkbenchDocument.h"

#include <QApplication>
#include <QComboBox>
#include <QMimeData>
#include <QSettings>
#include <QUrl>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImage>
#include <QChart>
#include <QChartView>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QValueAxis>
#include <QLineSeries>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QSurfaceFormat>
#include <QTemporaryDir>
#include <QTreeView>
#include <QUndoStack>
#include <QtTest>

#include <memory>

using namespace looplab;
using namespace looplab::ui;

namespace {

QString example(const char* name) { return QStringLiteral(LOOPLAB_EXAMPLES_DIR) + "/" + name; }

SimulationSettings fourBarSettings(double tEnd = 1.0)
{
    SimulationSettings s;
    s.method = "projection";
    s.integrator = "dopri5";
    s.tEnd = tEnd;
    s.outputStep = 0.01;
    return s;
}

}  // namespace

class TestWorkbench : public QObject {
    Q_OBJECT

public:
    // Called by QTEST_MAIN before the QApplication exists.
    static void initMain() { QSurfaceFormat::setDefaultFormat(VtkViewport::defaultFormat()); }

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void opensEveryExample();
    void editsMassThroughPropertyEditorAndUndoes();
    void editsJointBodyThroughCombo();
    void addsBodyAndJointSavesAndReloads();
    void renameAndDeleteKeepReferencesConsistent();
    void keepsInvalidEditsAndReportsDiagnostic();
    void runsFourBarToTheEnd();
    void reportsSingularConfigurationOfParallelogram();
    void stopsRunHalfway();
    void pausesAndResumes();
    void closingDuringRunStopsWorker();
    void grabsWindowWithModelColours();
    void opensDroppedFileAndRemembersIt();
    void pickingInViewSelectsInTree();

private:
    bool runToEnd(int timeoutMs = 120000);

    std::unique_ptr<MainWindow> window_;
};

void TestWorkbench::initTestCase()
{
    // Recent files go to a throw-away settings location.
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("LoopLabTest");
    QCoreApplication::setApplicationName("tst_workbench");
}

void TestWorkbench::init()
{
    window_ = std::make_unique<MainWindow>();
    window_->setConfirmationsEnabled(false);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
}

void TestWorkbench::cleanup() { window_.reset(); }

bool TestWorkbench::runToEnd(int timeoutMs)
{
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    if (!window_->startRun())
        return false;
    return finished.wait(timeoutMs) || finished.count() > 0;
}

void TestWorkbench::opensEveryExample()
{
    const QStringList files = exampleFiles();
    QVERIFY(files.size() >= 6);
    for (const QString& file : files) {
        QString error;
        QVERIFY2(window_->openFile(file, &error), qPrintable(file + ": " + error));
        const WorkbenchDocument* doc = window_->document();
        QVERIFY2(doc->loaded().ok(), qPrintable(file + ": " + doc->statusText()));
        QVERIFY(doc->loaded().diagnostics.empty());
        QVERIFY(doc->statusText().startsWith("dof "));
        QVERIFY(!doc->isModified());
        const ModelTreeModel* tree = window_->treeModel();
        for (ItemKind kind : {ItemKind::Body, ItemKind::Joint, ItemKind::Driver, ItemKind::Force}) {
            const QModelIndex group = tree->groupIndex(kind);
            QCOMPARE(tree->rowCount(group), itemCount(doc->document(), kind));
            QVERIFY(group.data().toString().endsWith(QString("(%1)").arg(itemCount(doc->document(), kind))));
        }
        const auto& expected = doc->document().expected;
        if (expected.dof)
            QCOMPARE(doc->dof(), *expected.dof);
        if (expected.redundant)
            QCOMPARE(doc->redundantEquations(), *expected.redundant);
        QVERIFY(window_->windowTitle().contains(QFileInfo(file).fileName()));
    }
}

void TestWorkbench::editsMassThroughPropertyEditorAndUndoes()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    window_->selectItem({ItemKind::Body, 1});
    QCOMPARE(window_->propertyEditor()->item(), (ItemRef{ItemKind::Body, 1}));
    auto* mass = window_->propertyEditor()->findChild<QDoubleSpinBox*>("mass");
    QVERIFY(mass);
    QVERIFY(mass->suffix().contains("kg"));
    QCOMPARE(mass->value(), 0.8);

    mass->setValue(1.25);
    QCOMPARE(window_->document()->document().bodies[1].mass, 1.25);
    QVERIFY(window_->document()->isModified());
    QVERIFY(window_->isWindowModified());
    QVERIFY(window_->document()->loaded().ok());

    window_->document()->undoStack()->undo();
    QCOMPARE(window_->document()->document().bodies[1].mass, 0.8);
    QCOMPARE(mass->value(), 0.8);
    QVERIFY(!window_->document()->isModified());

    window_->document()->undoStack()->redo();
    QCOMPARE(window_->document()->document().bodies[1].mass, 1.25);

    // A vector component through one of its three boxes.
    auto* y = window_->propertyEditor()->findChild<QDoubleSpinBox*>("position.y");
    QVERIFY(y);
    y->setValue(0.3);
    QCOMPARE(window_->document()->document().bodies[1].position.y(), 0.3);
    window_->document()->undoStack()->undo();
    QCOMPARE(window_->document()->document().bodies[1].position.y(), 0.1931902823826825);
}

void TestWorkbench::editsJointBodyThroughCombo()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    window_->selectItem({ItemKind::Joint, 3});
    auto* body2 = window_->propertyEditor()->findChild<QComboBox*>("body2");
    auto* type = window_->propertyEditor()->findChild<QComboBox*>("type");
    QVERIFY(body2 && type);
    QCOMPARE(body2->currentText(), QString("rocker"));
    QCOMPARE(type->currentText(), QString("revolute"));
    body2->setCurrentText("coupler");
    QCOMPARE(window_->document()->document().joints[3].body2, std::string("coupler"));
    window_->document()->undoStack()->undo();
    QCOMPARE(window_->document()->document().joints[3].body2, std::string("rocker"));
    type->setCurrentText("spherical");
    QCOMPARE(window_->document()->document().joints[3].type, JointType::Spherical);
    QVERIFY(window_->document()->loaded().ok());
}

void TestWorkbench::addsBodyAndJointSavesAndReloads()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    WorkbenchDocument* doc = window_->document();
    ItemRef body, joint;
    doc->edit("add body", [&](ModelDocument& d) { body = addItem(d, ItemKind::Body); });
    doc->edit("add joint", [&](ModelDocument& d) { joint = addItem(d, ItemKind::Joint); });
    QCOMPARE(body.index, 3);
    QCOMPARE(joint.index, 4);
    QCOMPARE(window_->treeModel()->rowCount(window_->treeModel()->groupIndex(ItemKind::Body)), 4);
    QCOMPARE(window_->treeModel()->groupIndex(ItemKind::Joint).data().toString(), QString("Joints (5)"));

    // Attach the new body to the rocker's end through the property editor.
    window_->selectItem(joint);
    auto* body1 = window_->propertyEditor()->findChild<QComboBox*>("body1");
    auto* body2 = window_->propertyEditor()->findChild<QComboBox*>("body2");
    QVERIFY(body1 && body2);
    body1->setCurrentText("rocker");
    body2->setCurrentText(QString::fromStdString(doc->document().bodies[3].name));
    QCOMPARE(doc->document().joints[4].body1, std::string("rocker"));

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("edited.json");
    QString error;
    QVERIFY2(window_->saveFile(path, &error), qPrintable(error));
    QVERIFY(!doc->isModified());
    QVERIFY(window_->windowTitle().contains("edited.json"));

    WorkbenchDocument reloaded;
    QVERIFY(reloaded.open(path, &error));
    QCOMPARE(serializeModelDocument(reloaded.document()), serializeModelDocument(doc->document()));
    QCOMPARE(reloaded.document().bodies.size(), size_t(4));
    QCOMPARE(reloaded.document().joints.size(), size_t(5));
}

void TestWorkbench::renameAndDeleteKeepReferencesConsistent()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    const QModelIndex crank = window_->treeModel()->itemIndex({ItemKind::Body, 0});
    QVERIFY(window_->treeModel()->setData(crank, "input"));
    const ModelDocument& d = window_->document()->document();
    QCOMPARE(d.bodies[0].name, std::string("input"));
    QCOMPARE(d.joints[0].body2, std::string("input"));
    QCOMPARE(d.joints[1].body1, std::string("input"));
    QVERIFY(window_->document()->loaded().ok());
    // Names must stay unique.
    QVERIFY(!window_->treeModel()->setData(crank, "rocker"));

    const Dependants deps = dependantsOf(d, {ItemKind::Body, 0});
    QCOMPARE(deps.joints, (std::vector<std::string>{"A", "B"}));
    window_->document()->edit("delete", [](ModelDocument& m) { removeItem(m, {ItemKind::Body, 0}); });
    QCOMPARE(window_->document()->document().bodies.size(), size_t(2));
    QCOMPARE(window_->document()->document().joints.size(), size_t(2));
    window_->document()->undoStack()->undo();
    QCOMPARE(window_->document()->document().joints.size(), size_t(4));
    window_->document()->undoStack()->undo();
    QCOMPARE(window_->document()->document().bodies[0].name, std::string("crank"));
}

void TestWorkbench::keepsInvalidEditsAndReportsDiagnostic()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    window_->selectItem({ItemKind::Body, 0});
    auto* mass = window_->propertyEditor()->findChild<QDoubleSpinBox*>("mass");
    QVERIFY(mass);
    mass->setValue(0.0);
    QCOMPARE(window_->document()->document().bodies[0].mass, 0.0);
    QVERIFY(!window_->document()->loaded().ok());
    QVERIFY(!window_->document()->statusText().startsWith("dof"));
    QVERIFY(!window_->runPanel()->runButton()->isEnabled());
    window_->document()->undoStack()->undo();
    QVERIFY(window_->document()->loaded().ok());
    QVERIFY(window_->runPanel()->runButton()->isEnabled());
}

void TestWorkbench::runsFourBarToTheEnd()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    window_->runPanel()->setSettings(fourBarSettings());
    QVERIFY(runToEnd());
    const SimulationRecording& rec = window_->recording();
    QCOMPARE(rec.frameCount(), 101);
    QVERIFY(qAbs(rec.endTime() - 1.0) < 1e-9);
    QLineSeries* position = window_->plotPanel()->positionViolationSeries();
    QCOMPARE(position->count(), 101);
    QCOMPARE(window_->plotPanel()->velocityViolationSeries()->count(), 101);
    // The chart plots log10 of each norm: below −10 means below 1e-10.
    for (int i = 0; i < rec.frameCount(); ++i) {
        const RecordedFrame& f = rec.frame(i);
        const QPointF p = position->at(i);
        QVERIFY(f.violation.position < 1e-10);
        QVERIFY2(p.y() < -10.0, qPrintable(QString("position violation 1e%1 at t = %2").arg(p.y()).arg(p.x())));
        QCOMPARE(p.x(), f.t);
        QCOMPARE(p.y(), std::log10(std::max(f.violation.position, 1e-18)));
        QCOMPARE(f.poses.size(), size_t(3));
    }
    // Each label drawn on the violation axis reads as the power of ten at whose height
    // it sits, and the axis spans every plotted point.
    QValueAxis* axis = window_->plotPanel()->violationAxis();
    QChart* chart = window_->plotPanel()->chartView(PlotPanel::Chart::Violation)->chart();
    QTest::qWait(200);  // the charts take frames on a timer
    int labels = 0;
    for (QGraphicsItem* item : chart->scene()->items()) {
        auto* text = dynamic_cast<QGraphicsTextItem*>(item);
        if (!text || !text->isVisible() || !text->toPlainText().startsWith("1e"))
            continue;
        bool ok = false;
        const double value = text->toPlainText().toDouble(&ok);
        QVERIFY2(ok, qPrintable(text->toPlainText()));
        const double labelY = text->mapToScene(text->boundingRect().center()).y();
        const double valueY = chart->mapToPosition(QPointF(0.5, std::log10(value)), position).y();
        QVERIFY2(std::abs(labelY - valueY) < 3.0,
                 qPrintable(QString("label %1 drawn at y = %2, its value at y = %3")
                                .arg(text->toPlainText()).arg(labelY).arg(valueY)));
        ++labels;
    }
    QVERIFY2(labels >= 3, qPrintable(QString("%1 labels").arg(labels)));
    for (QLineSeries* s : {position, window_->plotPanel()->velocityViolationSeries(),
                           window_->plotPanel()->accelerationViolationSeries()})
        for (const QPointF& p : s->points())
            QVERIFY(p.y() >= axis->min() && p.y() <= axis->max());
    QVERIFY(!window_->isRunning());
    QVERIFY(window_->runPanel()->runButton()->isEnabled());

    // Playback: scrubbing shows the frame at that time and moves the plot cursor.
    window_->playbackBar()->seekTime(0.5);
    QCOMPARE(window_->playbackBar()->currentFrame(), 50);
    window_->playbackBar()->play();
    QTRY_VERIFY_WITH_TIMEOUT(!window_->playbackBar()->isPlaying(), 5000);
    QCOMPARE(window_->playbackBar()->currentFrame(), 100);

    QTemporaryDir dir;
    const QString csv = dir.filePath("plots.csv");
    QVERIFY(window_->plotPanel()->exportCsv(csv));
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 102);
    QVERIFY(lines.front().startsWith("t,violation_position"));
}

void TestWorkbench::reportsSingularConfigurationOfParallelogram()
{
    QVERIFY(window_->openFile(example("parallelogram.json")));
    window_->runPanel()->setSettings(fourBarSettings(1.0));
    QVERIFY(runToEnd());
    WarningsPanel* warnings = window_->warningsPanel();
    int singular = -1;
    for (int i = 0; i < warnings->count() && singular < 0; ++i)
        if (warnings->kindAt(i) == "singular_configuration")
            singular = i;
    QVERIFY2(singular >= 0, "no singular-configuration warning");
    const double t = warnings->timeAt(singular);
    QVERIFY2(t > 0.1 && t < 0.4, qPrintable(QString("singular at t = %1").arg(t)));
    QVERIFY(window_->plotPanel()->singularMarkerCount() >= 1);

    // Activating the entry seeks playback to the event.
    warnings->activate(singular);
    const int frame = window_->playbackBar()->currentFrame();
    QVERIFY(frame >= 0);
    QVERIFY(qAbs(window_->recording().frame(frame).t - t) <= 0.0100001);
}

void TestWorkbench::stopsRunHalfway()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    window_->runPanel()->setSettings(fourBarSettings(1000.0));
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    QVERIFY(window_->startRun());
    QTRY_VERIFY_WITH_TIMEOUT(window_->recording().frameCount() > 5, 30000);
    QVERIFY(window_->isRunning());
    QVERIFY(window_->runPanel()->stopButton()->isEnabled());
    window_->stopRun();
    QVERIFY(finished.wait(30000) || finished.count() == 1);
    const auto summary = finished.front().front().value<RunSummary>();
    QVERIFY(summary.stopped);
    QVERIFY(!summary.ok);
    QVERIFY(!window_->isRunning());
    QVERIFY(window_->recording().endTime() < 1000.0);
    QVERIFY(window_->runPanel()->resetButton()->isEnabled());
    window_->resetRun();
    QVERIFY(window_->recording().isEmpty());
}

void TestWorkbench::pausesAndResumes()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    // Long enough that the run cannot end before the pause arrives.
    window_->runPanel()->setSettings(fourBarSettings(500.0));
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    QVERIFY(window_->startRun());
    QTRY_VERIFY_WITH_TIMEOUT(window_->recording().frameCount() > 2, 30000);
    window_->pauseRun();
    QVERIFY(window_->runner()->isPaused());
    QVERIFY(window_->runPanel()->resumeButton()->isEnabled());
    QVERIFY(!window_->runPanel()->pauseButton()->isEnabled());
    QTest::qWait(300);  // frames already in flight arrive
    const int held = window_->recording().frameCount();
    QTest::qWait(400);
    QCOMPARE(window_->recording().frameCount(), held);
    QVERIFY(window_->isRunning());
    window_->resumeRun();
    QVERIFY(!window_->runner()->isPaused());
    QTRY_VERIFY_WITH_TIMEOUT(window_->recording().frameCount() > held + 5, 30000);
    // Stop while paused must wake the worker too.
    window_->pauseRun();
    window_->stopRun();
    QVERIFY(finished.wait(30000) || finished.count() == 1);
    QVERIFY(finished.front().front().value<RunSummary>().stopped);
}

void TestWorkbench::closingDuringRunStopsWorker()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    window_->runPanel()->setSettings(fourBarSettings(1000.0));
    QVERIFY(window_->startRun());
    QTRY_VERIFY_WITH_TIMEOUT(window_->recording().frameCount() > 0, 30000);
    // Loading another model stops the run and clears its recording.
    QVERIFY(window_->openFile(example("slider-crank.json")));
    QVERIFY(window_->recording().isEmpty());
    QVERIFY(window_->startRun());
    QTRY_VERIFY_WITH_TIMEOUT(window_->recording().frameCount() > 0, 30000);
    QVERIFY(window_->close());
    window_.reset();  // joins the worker thread; must return promptly
}

void TestWorkbench::grabsWindowWithModelColours()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    window_->runPanel()->setSettings(fourBarSettings());
    QVERIFY(runToEnd());
    QTest::qWait(300);
    const QImage image = window_->screenshot().convertToFormat(QImage::Format_RGB32);
    QDir().mkpath(LOOPLAB_SCREENSHOT_DIR);
    const QString path = QStringLiteral(LOOPLAB_SCREENSHOT_DIR) + "/workbench-four-bar.png";
    QVERIFY(image.save(path));
    QVERIFY(QImage(path).size() == image.size());

    // Only the viewport's area counts: plots and icons have colours of their own.
    VtkViewport* view = window_->viewport();
    const QRect area(view->mapTo(window_.get(), QPoint(0, 0)) * image.devicePixelRatio(),
                     view->size() * image.devicePixelRatio());
    int red = 0, blue = 0, green = 0;
    for (int y = area.top(); y <= area.bottom(); ++y)
        for (int x = area.left() + area.width() / 5; x <= area.right(); ++x) {
            const QRgb px = image.pixel(x, y);
            const int r = qRed(px), g = qGreen(px), b = qBlue(px);
            red += r > 90 && r > 2 * g && r > 2 * b;
            green += g > 90 && g > 2 * r && g > 2 * b;
            blue += b > 90 && b > 2 * r && 5 * b > 8 * g;
        }
    QVERIFY2(red > 100, qPrintable(QString("red pixels: %1").arg(red)));
    QVERIFY2(blue > 100, qPrintable(QString("blue pixels: %1").arg(blue)));
    QVERIFY2(green > 100, qPrintable(QString("green pixels: %1").arg(green)));
}

void TestWorkbench::opensDroppedFileAndRemembersIt()
{
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(example("slider-crank.json"))});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(window_.get(), &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(window_.get(), &drop);
    QCOMPARE(QFileInfo(window_->document()->filePath()).fileName(), QString("slider-crank.json"));
    QVERIFY(window_->document()->loaded().ok());
    const QStringList recent = QSettings().value("recentFiles").toStringList();
    QVERIFY(!recent.isEmpty());
    QCOMPARE(QFileInfo(recent.front()).fileName(), QString("slider-crank.json"));
}

void TestWorkbench::pickingInViewSelectsInTree()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    // Viewport body i is the model's moving body i, i.e. document body i here.
    emit window_->viewport()->bodyPicked(2);
    QCOMPARE(window_->selectedItem(), (ItemRef{ItemKind::Body, 2}));
    QCOMPARE(window_->propertyEditor()->item(), (ItemRef{ItemKind::Body, 2}));
    emit window_->viewport()->jointPicked(1);
    QCOMPARE(window_->selectedItem(), (ItemRef{ItemKind::Joint, 1}));
    emit window_->viewport()->emptySpacePicked();
    QVERIFY(!window_->selectedItem().valid());
}

QTEST_MAIN(TestWorkbench)
#include "tst_workbench.moc"
