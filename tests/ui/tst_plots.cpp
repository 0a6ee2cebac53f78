// Drives the workbench's plots under X: the joint-quantity chart (coordinates,
// reactions, driver efforts) during and after a run, keeping a run for comparison with
// another constraint method, PNG export and zoom of the charts, and the trail of the
// selected body.

#include "viewport/VtkViewport.h"
#include "workbench/MainWindow.h"
#include "workbench/ModelTreeModel.h"
#include "workbench/PlaybackBar.h"
#include "plotting/PlotPanel.h"
#include "plotting/SeriesDecimation.h"
#include "WorkbenchTestSupport.h"
#include "run/RunPanel.h"
#include "run/SimulationRunner.h"
#include "plotting/ZoomableChartView.h"

#include <QAction>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QImage>
#include <QLineSeries>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QSurfaceFormat>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QtTest>

#include <vtkActor.h>
#include <vtkActorCollection.h>
#include <vtkDataSet.h>
#include <vtkMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>

#include <cmath>
#include <memory>
#include <limits>
#include <vector>

using namespace looplab;
using namespace looplab::ui;

namespace {

using test::example;

SimulationSettings settings(const char* method, double tEnd = 1.0) { return test::runSettings(method, tEnd); }

double maximumY(const QLineSeries* s)
{
    double m = -std::numeric_limits<double>::infinity();
    for (const QPointF& p : s->points())
        m = std::max(m, p.y());
    return m;
}

// The viewport draws trails in one colour of their own (SceneActors.cpp).
std::vector<vtkActor*> trailActors(vtkRenderer* renderer)
{
    std::vector<vtkActor*> out;
    vtkActorCollection* actors = renderer->GetActors();
    actors->InitTraversal();
    while (vtkActor* a = actors->GetNextActor()) {
        const double* c = a->GetProperty()->GetColor();
        if (std::abs(c[0] - 0.75) < 1e-6 && std::abs(c[1] - 0.2) < 1e-6 && std::abs(c[2] - 0.8) < 1e-6)
            out.push_back(a);
    }
    return out;
}

vtkIdType trailPoints(vtkRenderer* renderer)
{
    const std::vector<vtkActor*> trails = trailActors(renderer);
    return trails.size() == 1 ? trails.front()->GetMapper()->GetInput()->GetNumberOfPoints() : -1;
}

}  // namespace

class TestPlots : public QObject {
    Q_OBJECT

public:
    // Called by QTEST_MAIN before the QApplication exists.
    static void initMain() { QSurfaceFormat::setDefaultFormat(VtkViewport::defaultFormat()); }

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void plotsDriverEffortAndCrankAngle();
    void listsReactionsOfEveryJoint();
    void plotsConditioningThroughSingularConfiguration();
    void comparesProjectionWithBaumgarte();
    void exportsChartsAsPng();
    void zoomsAndResetsZoom();
    void trailFollowsSelectedBody();
    void decimationKeepsExtremes();
    void longRunKeepsSeriesShort();

private:
    bool runToEnd();

    std::unique_ptr<MainWindow> window_;
};

void TestPlots::initTestCase() { test::useThrowAwaySettings("tst_plots"); }

void TestPlots::init()
{
    window_ = test::shownWindow();
    QVERIFY(window_);
}

void TestPlots::cleanup() { window_.reset(); }

bool TestPlots::runToEnd() { return test::runToEnd(*window_, true); }

void TestPlots::plotsDriverEffortAndCrankAngle()
{
    QVERIFY(window_->openFile(example("slider-crank.json")));
    window_->runPanel()->setSettings(settings("projection", 1.0));
    PlotPanel* plots = window_->plotPanel();
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    QVERIFY(window_->startRun());
    // The list is known as soon as the run starts; the choice applies to frames to come.
    QVERIFY(plots->setJointQuantity("motor"));
    QCOMPARE(plots->jointQuantity(), QString("motor"));
    QVERIFY(plots->jointQuantityBox()->currentText().contains("N·m"));
    QVERIFY(test::waitForSignals(finished, "the run to end"));
    QVERIFY(finished.front().front().value<RunSummary>().ok);

    const SimulationRecording& rec = window_->recording();
    const int frames = rec.frameCount();
    QCOMPARE(frames, 101);
    QLineSeries* series = plots->jointQuantitySeries();
    QCOMPARE(series->count(), frames);
    for (int i = 0; i < frames; ++i) {
        const QPointF p = series->at(i);
        QCOMPARE(p.x(), rec.frame(i).t);
        QVERIFY2(std::isfinite(p.y()) && p.y() != 0.0,
                 qPrintable(QString("motor effort %1 at t = %2").arg(p.y()).arg(p.x())));
    }

    // Choosing another quantity after the run redraws it from the recording.
    QVERIFY(plots->setJointQuantity("O.angle"));
    QCOMPARE(series->count(), frames);
    const double turn = series->at(frames - 1).y() - series->at(0).y();
    QVERIFY2(std::abs(turn - 2.0 * M_PI) <= 1e-6, qPrintable(QString("crank turned %1 rad").arg(turn, 0, 'g', 15)));
    for (int i = 1; i < frames; ++i)
        QVERIFY(series->at(i).y() > series->at(i - 1).y());
    QVERIFY(!plots->setJointQuantity("no.such.quantity"));
    QCOMPARE(plots->jointQuantity(), QString("O.angle"));

    // The playback cursor follows on this chart too.
    window_->playbackBar()->seekTime(0.5);
    bool cursorFound = false;
    const auto chartSeries = plots->chartView(PlotPanel::Chart::JointQuantity)->chart()->series();
    for (QAbstractSeries* s : chartSeries) {
        auto* line = qobject_cast<QLineSeries*>(s);
        if (line && line->count() == 2 && line->at(0).x() == 0.5 && line->at(1).x() == 0.5)
            cursorFound = true;
    }
    QVERIFY(cursorFound);

    // A second run keeps the choice and fills the chart while it runs. It is paced at five
    // times real time so that it lasts 0.4 s of wall time on any machine. The charts take
    // frames at most every 150 ms, so they may lag the recording but never lead it.
    window_->runPanel()->setSettings(settings("projection", 2.0));
    window_->runPanel()->setPace(5.0);
    int liveBatches = 0, ahead = 0, partial = 0;
    const auto watch = connect(window_->runner(), &SimulationRunner::framesReceived, this, [&] {
        ++liveBatches;
        ahead += series->count() > window_->recording().frameCount();
        partial += series->count() > 0 && series->count() < 201;
    });
    QSignalSpy paced(window_.get(), &MainWindow::runFinished);
    QVERIFY(runToEnd());
    disconnect(watch);
    window_->runPanel()->setPace(0.0);
    QCOMPARE(paced.count(), 1);
    QVERIFY2(paced.front().front().value<RunSummary>().wallTime >= 0.4 - 0.01,
             qPrintable(QString("2 s at 5x took %1 s").arg(paced.front().front().value<RunSummary>().wallTime)));
    QCOMPARE(plots->jointQuantity(), QString("O.angle"));
    QVERIFY2(liveBatches >= 2, qPrintable(QString("%1 batches").arg(liveBatches)));
    QVERIFY2(partial >= 1, "the chart was never seen partly filled during the run");
    QCOMPARE(ahead, 0);
    QCOMPARE(series->count(), 201);
    const double turns = series->at(200).y() - series->at(0).y();
    QVERIFY(std::abs(turns - 4.0 * M_PI) <= 1e-6);
}

void TestPlots::listsReactionsOfEveryJoint()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    window_->runPanel()->setSettings(settings("projection", 0.2));
    QVERIFY(runToEnd());
    PlotPanel* plots = window_->plotPanel();
    const QComboBox* box = plots->jointQuantityBox();
    for (const char* joint : {"A", "B", "C", "D"})
        for (const char* part : {"force.x", "force.y", "force.z", "force.magnitude", "torque.x", "torque.y",
                                 "torque.z", "torque.magnitude"})
            QVERIFY2(box->findData(QString("%1.%2").arg(joint, part)) >= 0, qPrintable(QString(joint) + "." + part));
    QVERIFY(box->findData("A.angle") >= 0);

    // |F| is the norm of the three components, frame by frame.
    const SimulationRecording& rec = window_->recording();
    QVERIFY(plots->setJointQuantity("B.force.magnitude"));
    const QList<QPointF> magnitude = plots->jointQuantitySeries()->points();
    QCOMPARE(magnitude.size(), rec.frameCount());
    std::vector<QList<QPointF>> parts;
    for (const char* c : {"B.force.x", "B.force.y", "B.force.z"}) {
        QVERIFY(plots->setJointQuantity(c));
        parts.push_back(plots->jointQuantitySeries()->points());
    }
    for (int i = 0; i < magnitude.size(); ++i) {
        const double x = parts[0][i].y(), y = parts[1][i].y(), z = parts[2][i].y();
        QVERIFY(std::abs(magnitude[i].y() - std::sqrt(x * x + y * y + z * z)) <= 1e-9 * (1.0 + magnitude[i].y()));
    }
    QVERIFY(maximumY(plots->jointQuantitySeries()) != 0.0 || parts[0].front().y() != 0.0);
}

// The parallelogram passes its flat configuration at t = 0.2153 s (quadrature, see the
// core test tst_singular): the smallest singular value plotted dips there, and both
// conditioning quantities are the recorded numbers.
void TestPlots::plotsConditioningThroughSingularConfiguration()
{
    QVERIFY(window_->openFile(example("parallelogram.json")));
    PlotPanel* plots = window_->plotPanel();
    window_->runPanel()->setSettings(settings("projection", 0.4));
    QVERIFY(runToEnd());
    const SimulationRecording& rec = window_->recording();
    QCOMPARE(rec.frameCount(), 41);
    QVERIFY(plots->setJointQuantity("constraints.sigma_min"));
    const QList<QPointF> sigma = plots->jointQuantitySeries()->points();
    QCOMPARE(sigma.size(), rec.frameCount());
    int lowest = 0;
    for (int i = 0; i < sigma.size(); ++i) {
        QCOMPARE(sigma[i].y(), rec.frame(i).smallestSingularValue);
        if (sigma[i].y() < sigma[lowest].y())
            lowest = i;
    }
    // One of the two frames around the crossing, far below the value at the start.
    QVERIFY2(std::abs(sigma[lowest].x() - 0.2153) < 0.01, qPrintable(QString::number(sigma[lowest].x())));
    qInfo("sigma_min %.3g at t = 0 s, %.3g at t = %.2f s", sigma.front().y(), sigma[lowest].y(), sigma[lowest].x());
    QVERIFY(sigma[lowest].y() < 0.2 * sigma.front().y());
    QVERIFY(plots->setJointQuantity("constraints.rank"));
    const QList<QPointF> rank = plots->jointQuantitySeries()->points();
    QCOMPARE(rank.size(), rec.frameCount());
    for (int i = 0; i < rank.size(); ++i)
        QCOMPARE(rank[i].y(), double(rec.frame(i).rank));
    QCOMPARE(rank.front().y(), 17.0);
}

void TestPlots::comparesProjectionWithBaumgarte()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    PlotPanel* plots = window_->plotPanel();
    window_->runPanel()->setSettings(settings("projection"));
    QVERIFY(runToEnd());
    QVERIFY(!plots->hasComparison());
    QVERIFY(plots->keepForComparison());
    QVERIFY(plots->hasComparison());
    QCOMPARE(plots->comparisonLabel(), QString("projection / dopri5"));

    window_->runPanel()->setSettings(settings("baumgarte"));
    QVERIFY(runToEnd());
    QCOMPARE(window_->recording().label(), QString("baumgarte / dopri5"));

    // Both runs on the violation chart: the kept one dashed and named by its method.
    QLineSeries* kept = plots->comparisonPositionSeries();
    QLineSeries* current = plots->positionViolationSeries();
    const auto violationSeries = plots->chartView(PlotPanel::Chart::Violation)->chart()->series();
    QVERIFY(violationSeries.contains(kept) && violationSeries.contains(current));
    QVERIFY(kept->isVisible());
    QCOMPARE(kept->pen().style(), Qt::DashLine);
    QVERIFY(kept->name().contains("projection / dopri5"));
    QCOMPARE(kept->count(), 101);
    QCOMPARE(current->count(), 101);
    const double keptMax = maximumY(kept), currentMax = maximumY(current);
    QVERIFY2(keptMax < -10.0, qPrintable(QString("kept maximum 1e%1").arg(keptMax)));
    QVERIFY2(currentMax > keptMax, qPrintable(QString("baumgarte %1, projection %2").arg(currentMax).arg(keptMax)));

    // Energy and joint quantity carry the kept run too.
    QCOMPARE(plots->comparisonEnergySeries()->count(), 101);
    QVERIFY(plots->comparisonEnergySeries()->isVisible());
    QVERIFY(plots->setJointQuantity("A.angle"));
    QCOMPARE(plots->comparisonJointQuantitySeries()->count(), 101);
    QCOMPARE(plots->jointQuantitySeries()->count(), 101);
    QVERIFY(plots->comparisonJointQuantitySeries()->isVisible());
    QTest::qWait(200);
    QDir().mkpath(LOOPLAB_SCREENSHOT_DIR);
    QVERIFY(plots->grab().save(QStringLiteral(LOOPLAB_SCREENSHOT_DIR) + "/plots-comparison.png"));

    plots->clearComparison();
    QVERIFY(!plots->hasComparison());
    QCOMPARE(plots->comparisonPositionSeries()->count(), 0);
    QVERIFY(!plots->comparisonPositionSeries()->isVisible());
    QVERIFY(!plots->comparisonJointQuantitySeries()->isVisible());

    // Loading another model drops a kept run.
    QVERIFY(plots->keepForComparison());
    QVERIFY(window_->openFile(example("slider-crank.json")));
    QVERIFY(!plots->hasComparison());
    QVERIFY(!plots->keepForComparison());  // nothing recorded yet
}

void TestPlots::exportsChartsAsPng()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    window_->runPanel()->setSettings(settings("projection", 0.5));
    QVERIFY(runToEnd());
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    PlotPanel* plots = window_->plotPanel();
    for (PlotPanel::Chart chart : {PlotPanel::Chart::Violation, PlotPanel::Chart::Energy,
                                   PlotPanel::Chart::JointQuantity}) {
        const QString path = dir.filePath(QString("chart-%1.png").arg(static_cast<int>(chart)));
        QString error;
        QVERIFY2(plots->exportPng(chart, path, &error), qPrintable(error));
        QVERIFY(QFileInfo(path).size() > 0);
        const QImage image(path);
        QVERIFY(!image.isNull());
        const QChartView* view = plots->chartView(chart);
        QVERIFY(view->width() > 50 && view->height() > 50);
        QCOMPARE(image.size(), view->size() * view->devicePixelRatio());
        // A drawn chart, not a blank: more than a handful of colours.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 3)
            for (int x = 0; x < image.width(); x += 3)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 10, qPrintable(QString("%1 colours").arg(colours.size())));
    }
    QString error;
    QVERIFY(!plots->exportPng(PlotPanel::Chart::Energy, dir.filePath("missing/dir/x.png"), &error));
    QVERIFY(!error.isEmpty());
}

void TestPlots::zoomsAndResetsZoom()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    window_->runPanel()->setSettings(settings("projection", 1.0));
    QVERIFY(runToEnd());
    PlotPanel* plots = window_->plotPanel();
    auto* view = qobject_cast<ZoomableChartView*>(plots->chartView(PlotPanel::Chart::Energy));
    QVERIFY(view);
    auto* time = qobject_cast<QValueAxis*>(view->chart()->axes(Qt::Horizontal).front());
    QVERIFY(time);
    QCOMPARE(time->min(), 0.0);
    QCOMPARE(time->max(), 1.0);

    // The wheel zooms about the pointer.
    const QPointF centre = view->mapFromScene(view->chart()->mapToScene(view->chart()->plotArea().center()));
    QWheelEvent wheel(centre, view->mapToGlobal(centre), QPoint(), QPoint(0, 240), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(view->viewport(), &wheel);
    QVERIFY(plots->isZoomed(PlotPanel::Chart::Energy));
    QVERIFY(!plots->isZoomed(PlotPanel::Chart::Violation));
    const double width = time->max() - time->min();
    QVERIFY2(width < 0.8, qPrintable(QString("visible time span %1").arg(width)));
    QVERIFY(time->min() > 0.0 && time->max() < 1.0);

    // A rubber band drag zooms further; the cursor does not undo it.
    const QPoint a = (centre - QPointF(40, 30)).toPoint(), b = (centre + QPointF(40, 30)).toPoint();
    QTest::mousePress(view->viewport(), Qt::LeftButton, Qt::NoModifier, a);
    QMouseEvent move(QEvent::MouseMove, b, view->viewport()->mapToGlobal(b), Qt::NoButton, Qt::LeftButton,
                     Qt::NoModifier);
    QApplication::sendEvent(view->viewport(), &move);
    QTest::mouseRelease(view->viewport(), Qt::LeftButton, Qt::NoModifier, b);
    QVERIFY(time->max() - time->min() < width);
    const double zoomedMin = time->min();
    window_->playbackBar()->seekTime(0.3);
    QCOMPARE(time->min(), zoomedMin);

    plots->resetZoom();
    QVERIFY(!plots->isZoomed(PlotPanel::Chart::Energy));
    QCOMPARE(time->min(), 0.0);
    QCOMPARE(time->max(), 1.0);
}

void TestPlots::trailFollowsSelectedBody()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    QAction* trail = window_->trailAction();
    QVERIFY(trail && trail->isCheckable() && !trail->isChecked());
    vtkRenderer* renderer = window_->viewport()->renderer();
    QCOMPARE(trailActors(renderer).size(), size_t(0));

    // Checked without a selection: nothing to follow yet.
    trail->setChecked(true);
    QCOMPARE(window_->trailBody(), -1);
    window_->selectItem({ItemKind::Body, 1});  // the coupler, viewport body 1
    QCOMPARE(window_->trailBody(), 1);
    QCOMPARE(trailActors(renderer).size(), size_t(1));

    window_->runPanel()->setSettings(settings("projection", 1.0));
    QVERIFY(runToEnd());
    QCOMPARE(window_->trailBody(), 1);
    // The run's trail has a point for every frame, not only for those shown.
    const vtkIdType livePoints = trailPoints(renderer);
    QVERIFY2(livePoints >= 101, qPrintable(QString("%1 trail points").arg(livePoints)));

    // Playing back from the start draws it again from there.
    window_->playbackBar()->seekTime(0.0);
    window_->playbackBar()->seekTime(0.2);
    const vtkIdType replayed = trailPoints(renderer);
    QVERIFY2(replayed >= 2 && replayed < 10, qPrintable(QString("%1 trail points").arg(replayed)));

    // Another body takes the trail over; unchecking removes it.
    window_->selectItem({ItemKind::Body, 2});
    QCOMPARE(window_->trailBody(), 2);
    QCOMPARE(trailActors(renderer).size(), size_t(1));
    trail->setChecked(false);
    QCOMPARE(window_->trailBody(), -1);
    QCOMPARE(trailActors(renderer).size(), size_t(0));
}


void TestPlots::decimationKeepsExtremes()
{
    // A smooth curve with one narrow spike up and one down, far more points than kept.
    QList<QPointF> points;
    const int n = 100000;
    for (int i = 0; i < n; ++i) {
        const double t = i * 1e-3;
        double y = std::sin(t);
        if (i == 31337)
            y = 50.0;
        if (i == 77777)
            y = -40.0;
        points << QPointF(t, y);
    }
    const QList<QPointF> kept = decimatedForDisplay(points, 800);
    QVERIFY(kept.size() <= 800);
    QVERIFY(kept.size() >= 700);
    QCOMPARE(kept.front(), points.front());
    QCOMPARE(kept.back(), points.back());
    QVERIFY(kept.contains(points[31337]));
    QVERIFY(kept.contains(points[77777]));
    for (int i = 1; i < kept.size(); ++i)
        QVERIFY(kept[i].x() > kept[i - 1].x());
    // Every kept point is one of the originals.
    for (const QPointF& p : kept) {
        const int i = qRound(p.x() * 1e3);
        QCOMPARE(points[i], p);
    }
    // Within each stretch between kept points the curve stays inside their envelope
    // give or take the change of sin over one group (125 points, 0.125 rad).
    for (int i = 0; i < n; i += 997) {
        if (std::abs(i - 31337) < 300 || std::abs(i - 77777) < 300)
            continue;  // the spikes' own groups keep the spike, not the curve
        auto after = std::lower_bound(kept.begin(), kept.end(), points[i].x(),
                                      [](const QPointF& p, double x) { return p.x() < x; });
        QVERIFY(after != kept.end());
        QVERIFY2(std::abs(after->y() - points[i].y()) <= 0.26,
                 qPrintable(QString("at t = %1: %2 vs kept %3").arg(points[i].x()).arg(points[i].y()).arg(after->y())));
    }
    // Short series pass unchanged.
    const QList<QPointF> few = points.mid(0, 500);
    QCOMPARE(decimatedForDisplay(few, 800), few);
}

void TestPlots::longRunKeepsSeriesShort()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    // 2 001 frames, two and a half times what a series may hold.
    SimulationSettings s = settings("baumgarte", 1.0);
    s.outputStep = 0.0005;
    window_->runPanel()->setSettings(s);
    QVERIFY(runToEnd());
    PlotPanel* plots = window_->plotPanel();
    const SimulationRecording& rec = window_->recording();
    QCOMPARE(rec.frameCount(), 2001);
    QCOMPARE(plots->pointCount(), 2001);
    double largest = -std::numeric_limits<double>::infinity();
    for (const RecordedFrame& f : rec.frames())
        largest = std::max(largest, PlotPanel::plottedViolation(f.violation.position));
    for (QLineSeries* series : {plots->positionViolationSeries(), plots->energySeries(), plots->jointQuantitySeries()}) {
        QVERIFY2(series->count() <= 800, qPrintable(QString("%1 points").arg(series->count())));
        QCOMPARE(series->at(0).x(), rec.frame(0).t);
        QCOMPARE(series->at(series->count() - 1).x(), rec.frame(2000).t);
    }
    // The worst violation of the run is on the chart.
    QCOMPARE(maximumY(plots->positionViolationSeries()), largest);
}

QTEST_MAIN(TestPlots)
#include "tst_plots.moc"
