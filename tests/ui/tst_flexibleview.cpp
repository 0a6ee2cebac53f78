// Flexible members in the workbench's view: a clamped block (the example on a coarser
// mesh: what is checked is how it is drawn, not how accurately it bends, and the coarse
// mesh keeps the suite to seconds under the sanitizers) and the cantilever beam opened
// from their files, their equilibrium computed through the Modes panel,
// the drawn bounds checked against the nodal positions of the equilibrium (the block's
// surface exactly; the beam's swept section to the tilt of its section), an exaggeration
// factor k checked to scale the drawn displacement by k, the colour map's legend, and a
// mode shape of the beam animated about its equilibrium, drawn as a ghost, and the trail of
// the beam's tip node during playback of a recorded run.

#include "WorkbenchTestSupport.h"

#include "looplab/kinematics/NodalOutputs.h"
#include "looplab/model/State.h"
#include "looplab/scene/FlexibleScene.h"
#include "camera/CameraController.h"
#include "viewport/VtkViewport.h"
#include "watch/WatchFeature.h"
#include "workbench/FlexibleView.h"
#include "recording/ModeShapeAnimation.h"
#include "workbench/ModesPanel.h"
#include "workbench/PlaybackBar.h"
#include "run/RunPanel.h"
#include "document/WorkbenchDocument.h"

#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QSet>
#include <QSlider>
#include <QSpinBox>
#include <QTableWidget>

#include <array>
#include <cmath>

using namespace looplab;
using namespace looplab::ui;
using looplab::ui::test::example;

namespace {

using Bounds = std::array<double, 6>;

Bounds boundsOf(const std::vector<Vec3>& points)
{
    Bounds b{{1e300, -1e300, 1e300, -1e300, 1e300, -1e300}};
    for (const Vec3& p : points)
        for (int i = 0; i < 3; ++i) {
            b[size_t(2 * i)] = std::min(b[size_t(2 * i)], p[i]);
            b[size_t(2 * i + 1)] = std::max(b[size_t(2 * i + 1)], p[i]);
        }
    return b;
}

double largestDifference(const Bounds& a, const Bounds& b)
{
    double d = 0.0;
    for (size_t i = 0; i < 6; ++i)
        d = std::max(d, std::abs(a[i] - b[i]));
    return d;
}

}  // namespace

class TestFlexibleView : public QObject {
    Q_OBJECT

public:
    static void initMain() { QSurfaceFormat::setDefaultFormat(VtkViewport::defaultFormat()); }

private slots:
    void initTestCase() { test::useThrowAwaySettings("tst_flexibleview"); }
    void init()
    {
        window_ = test::shownWindow();
        QVERIFY(window_);
        auto* dock = window_->findChild<QDockWidget*>("modesDock");
        QVERIFY(dock);
        dock->raise();
        window_->flexibleView()->setExaggeration(1.0);
        window_->flexibleView()->setField(FlexibleField::None);
        QCoreApplication::processEvents();
    }
    void cleanup() { window_.reset(); }

    void blockSurfaceAndExaggeration();
    void beamSectionAndExaggeration();
    void trailOfBeamTipIsTheRecordedNode();
    void beamModeShapeAnimates();
    void honestColoursAndTheSwingInView();

private:
    /// Opens `path`, computes `count` modes through the panel and shows mode 0 paused at
    /// its equilibrium frame.
    bool showEquilibrium(const QString& path, int count);
    Bounds drawnFlexibleBounds() const
    {
        Bounds b{};
        window_->viewport()->flexibleBounds(b.data());
        return b;
    }

    std::unique_ptr<MainWindow> window_;
};

bool TestFlexibleView::showEquilibrium(const QString& path, int count)
{
    if (!window_->openFile(path))
        return false;
    ModesPanel* panel = window_->modesPanel();
    panel->countBox()->setValue(count);
    QSignalSpy finished(window_.get(), &MainWindow::modesFinished);
    QTest::mouseClick(panel->computeButton(), Qt::LeftButton);
    if (!test::waitForSignals(finished, "the modes of " + path))
        return false;
    if (panel->table()->rowCount() < 1)
        return false;
    const QRect cell = panel->table()->visualItemRect(panel->table()->item(0, 0));
    QTest::mouseClick(panel->table()->viewport(), Qt::LeftButton, {}, cell.center());
    if (!window_->modeAnimation())
        return false;
    window_->playbackBar()->pause();
    window_->playbackBar()->setCurrentFrame(0);  // phase 0: the equilibrium itself
    return true;
}

// The block's surface is drawn through its boundary nodes, so the drawn bounds are those
// of the boundary nodes at X + k (x − X), x the equilibrium, for every k.
void TestFlexibleView::blockSurfaceAndExaggeration()
{
    QVERIFY(showEquilibrium(QStringLiteral(LOOPLAB_TEST_DATA_DIR "/clamped-block-coarse.json"), 1));
    const ModeShapeAnimation* animation = window_->modeAnimation();
    const Model& model = *animation->frameModel();
    const State& eq = animation->equilibrium();
    const Body& body = model.body(BodyIndex(1));
    QVERIFY(body.solid());
    const SolidMesh& mesh = *body.solid();
    const int nx = mesh.elementsAlong(0), ny = mesh.elementsAlong(1), nz = mesh.elementsAlong(2);
    auto expected = [&](double k) {
        std::vector<Vec3> points;
        for (int kk = 0; kk <= nz; ++kk)
            for (int j = 0; j <= ny; ++j)
                for (int i = 0; i <= nx; ++i) {
                    if (i != 0 && i != nx && j != 0 && j != ny && kk != 0 && kk != nz)
                        continue;  // inside
                    const int n = mesh.gridNode(i, j, kk);
                    const Vec3 X = mesh.initialNodePosition(n);
                    const Vec3 x = eq.q.segment<3>(body.slice.positionOffset + 3 * n);
                    points.push_back(X + k * (x - X));
                }
        return boundsOf(points);
    };
    // The equilibrium and its ghost are drawn.
    QCOMPARE(window_->viewport()->ghostCount(), 1);
    const Bounds rest = expected(0.0);
    const double sag = rest[2] - expected(1.0)[2];  // the lowest point's drop [m]
    qInfo("block: lowest point drops %.6g m at the equilibrium", sag);
    QVERIFY(sag > 1e-5);
    for (double k : {1.0, 10.0, 500.0}) {
        window_->flexibleView()->setExaggeration(k);
        const Bounds drawn = drawnFlexibleBounds();
        const double error = largestDifference(drawn, expected(k));
        const double drop = rest[2] - drawn[2];
        qInfo("k = %g: drawn bounds differ from the nodes' by %.3g m; drawn drop %.9g m = %.12f k × the drop",
              k, error, drop, drop / (k * sag));
        QVERIFY(error <= 1e-12);
        QVERIFY(std::abs(drop - k * sag) <= 1e-9 * k * sag);
    }
    // Von Mises stress colours the block, with its legend: the mode's own, relative to
    // its largest (none at phase 0, where the swing passes the equilibrium); axial strain
    // has no beam to colour, so no legend.
    window_->flexibleView()->setField(FlexibleField::VonMises);
    window_->playbackBar()->setCurrentFrame(ModeShapeAnimation::kFramesPerCycle / 4);
    QVERIFY(window_->viewport()->fieldLegendVisible());
    double range[2];
    window_->viewport()->fieldRange(range);
    qInfo("von Mises range %.6g .. %.6g (of the mode, relative)", range[0], range[1]);
    QVERIFY(range[1] > range[0] && range[0] >= 0.0 && range[1] <= 1.0 + 1e-12);
    window_->flexibleView()->setField(FlexibleField::AxialStrain);
    QVERIFY(!window_->viewport()->fieldLegendVisible());
    // A view setting, not an edit.
    QVERIFY(!window_->document()->isModified());
}

// The beam's section (20 mm square) is swept along its centreline: across the bending
// plane (z) the drawn bounds are the nodes' ± half the width exactly; in the bending plane
// (y) ± half the height, up to the tilt of the section, h/2 (1 − cos θ) with θ the
// largest drawn slope angle. The tip's drawn displacement is k times the computed one.
void TestFlexibleView::beamSectionAndExaggeration()
{
    QVERIFY(showEquilibrium(example("cantilever-beam.json"), 1));
    const ModeShapeAnimation* animation = window_->modeAnimation();
    const Model& model = *animation->frameModel();
    const State& eq = animation->equilibrium();
    const Body& body = model.body(BodyIndex(1));
    QVERIFY(body.beam());
    const BeamMesh& mesh = *body.beam();
    const double half = 0.01;  // the example's section: 0.02 × 0.02 m
    for (double k : {1.0, 20.0, 100.0}) {
        window_->flexibleView()->setExaggeration(k);
        std::vector<Vec3> nodes;
        double tilt = 0.0;
        const VecX& q0 = mesh.initialNodalCoordinates();
        for (int n = 0; n < mesh.nodeCount(); ++n) {
            const int at = body.slice.positionOffset + 6 * n;
            const Vec3 X = q0.segment<3>(6 * n), x = eq.q.segment<3>(at);
            const Vec3 slope = q0.segment<3>(6 * n + 3) + k * (eq.q.segment<3>(at + 3) - q0.segment<3>(6 * n + 3));
            nodes.push_back(X + k * (x - X));
            tilt = std::max(tilt, std::atan2(std::hypot(slope.y(), slope.z()), slope.x()));
        }
        const Bounds n = boundsOf(nodes);
        const Bounds drawn = drawnFlexibleBounds();
        const double yError = std::max(std::abs(drawn[2] - (n[2] - half)), std::abs(drawn[3] - (n[3] + half)));
        const double zError = std::max(std::abs(drawn[4] - (n[4] - half)), std::abs(drawn[5] - (n[5] + half)));
        // The tilted section's corner sits h/2 cos θ from the centreline across it.
        const double tiltBound = half * (1.0 - std::cos(tilt));
        qInfo("k = %g: tip at y = %.9g m; drawn y bounds off by %.3g m (tilt allows %.3g), z bounds by %.3g m", k,
              n[2], yError, tiltBound, zError);
        QVERIFY(zError <= 1e-12);
        QVERIFY(yError <= tiltBound + 1e-12);
        // x: from the root's end face to the tip, whose face leans by the tilt.
        QVERIFY(std::abs(drawn[0] - n[0]) <= 1e-12);
        QVERIFY(std::abs(drawn[1] - n[1]) <= half * std::sin(tilt) + 1e-12);
    }
    // Axial strain colours the beam with a legend.
    window_->flexibleView()->setField(FlexibleField::AxialStrain);
    QVERIFY(window_->viewport()->fieldLegendVisible());
}

// Mode 1 of the cantilever: the centreline swings about the equilibrium, the root stays,
// the tip moves across the beam by the amplitude asked for, and the equilibrium stays
// drawn as a ghost.
void TestFlexibleView::beamModeShapeAnimates()
{
    QVERIFY(showEquilibrium(example("cantilever-beam.json"), 3));
    const ModeShapeAnimation* animation = window_->modeAnimation();
    window_->modesPanel()->amplitudeSlider()->setValue(10);
    const int quarter = ModeShapeAnimation::kFramesPerCycle / 4;
    window_->playbackBar()->setCurrentFrame(quarter);
    QCOMPARE(window_->viewport()->ghostCount(), 1);
    const Scene rest = animation->frameScene(0);
    const Scene peak = animation->frameScene(quarter);
    QCOMPARE(peak.ghostBeams.size(), size_t(1));
    const SceneBeam& a = rest.beams.front();
    const SceneBeam& b = peak.beams.front();
    const Vec3 tip = b.points.back() - a.points.back();
    const double across = std::hypot(tip.y(), tip.z());
    const double expected = 0.10 * animation->modelSize();
    qInfo("mode 1 at a quarter cycle: tip moves %.6g m across the beam (asked %.6g), %.3g along it, root %.3g", across,
          expected, std::abs(tip.x()), (b.points.front() - a.points.front()).norm());
    // The nodal coordinates move linearly with the mode (the retraction of a beam is an
    // addition), so the largest drawn displacement is the asked one to rounding.
    QVERIFY(std::abs(tip.norm() - expected) <= 1e-9 * expected);
    QVERIFY(std::abs(tip.x()) < 0.05 * across);
    QVERIFY((b.points.front() - a.points.front()).norm() <= 1e-12);
    // The ghost is the equilibrium.
    for (size_t i = 0; i < a.points.size(); ++i)
        QVERIFY((peak.ghostBeams.front().points[i] - a.points[i]).norm() <= 1e-15);
    // The view draws the frame, not the rest: its bounds hold the displaced tip, which
    // lies 0.1 m outside those of the rest shape.
    const Bounds drawn = drawnFlexibleBounds();
    for (int c = 0; c < 3; ++c) {
        QVERIFY(drawn[size_t(2 * c)] <= b.points.back()[c] + 1e-12);
        QVERIFY(drawn[size_t(2 * c + 1)] >= b.points.back()[c] - 1e-12);
    }
}

// Colours that do not mislead. At rest the cantilever's axial strain is rounding (about
// 1e-16): one colour, and the legend says the value. A mode's colours are the mode's own
// strain, relative to its largest (the legend says so): its first bending mode strains
// the root most and the free tip, which turns most, not at all; its axis not at all. An
// exaggeration of 50 on top of the amplitude keeps the whole swing in the picture.
void TestFlexibleView::honestColoursAndTheSwingInView()
{
    QVERIFY(window_->openFile(example("cantilever-beam.json")));
    window_->flexibleView()->setField(FlexibleField::AxialStrain);
    QTest::qWait(50);
    VtkViewport* view = window_->viewport();
    QVERIFY(view->fieldLegendVisible());
    const QString atRest = QString::fromStdString(view->fieldLegendTitle());
    qInfo("at rest: legend '%s'", qPrintable(QString(atRest).replace('\n', ' ')));
    QVERIFY(view->fieldUniform());
    QVERIFY2(atRest.contains("uniform"), qPrintable(atRest));

    QVERIFY(showEquilibrium(example("cantilever-beam.json"), 2));
    // The square section bends alike in y and z: one frequency twice (the sag under
    // gravity parts them by a few millionths), told apart by the way each mode moves the beam.
    QTableWidget* table = window_->modesPanel()->table();
    const double f1 = table->item(0, 0)->text().toDouble(), f2 = table->item(1, 0)->text().toDouble();
    const QStringList along{table->item(0, 2)->text(), table->item(1, 2)->text()};
    qInfo("modes 1 and 2: %.8g Hz along %s, %.8g Hz along %s", f1, qPrintable(along[0]), f2, qPrintable(along[1]));
    QVERIFY(std::abs(f1 - f2) <= 1e-5 * f1);
    QCOMPARE(QSet<QString>(along.begin(), along.end()), (QSet<QString>{"y", "z"}));
    window_->flexibleView()->setField(FlexibleField::BendingStrain);
    const int quarter = ModeShapeAnimation::kFramesPerCycle / 4;
    window_->playbackBar()->setCurrentFrame(quarter);
    const QString bending = QString::fromStdString(view->fieldLegendTitle());
    QVERIFY2(bending.contains("bending") && bending.contains("of the mode") && bending.contains("relative"),
             qPrintable(bending));
    QVERIFY(!view->fieldUniform());
    const Scene peak = window_->modeAnimation()->frameScene(quarter);
    const std::vector<double>& b = peak.beams.front().bendingStrain;
    qInfo("mode 1 at a quarter cycle: bending field %.6f at the root, %.3g at the tip", b.front(), b.back());
    QVERIFY(std::abs(b.front() - 1.0) < 1e-9);
    QVERIFY(b.back() < 0.02);
    for (double a : peak.beams.front().axialStrain)
        QCOMPARE(a, 0.0);
    window_->flexibleView()->setField(FlexibleField::AxialStrain);
    QVERIFY(QString::fromStdString(view->fieldLegendTitle()).contains("of the mode"));

    CameraController* camera = window_->watch()->camera();
    QVERIFY(camera->showsWholeRun(*window_->modeAnimation()));
    window_->modesPanel()->amplitudeSlider()->setValue(20);
    window_->flexibleView()->setExaggeration(50.0);
    QVERIFY(camera->showsWholeRun(*window_->modeAnimation()));
    std::array<double, 6> swing{};
    QVERIFY(CameraController::runBounds(*window_->modeAnimation(), swing, [](const Scene& s) {
        return withExaggeratedDeformation(s, 50.0);
    }));
    qInfo("exaggerated swing: x %.2f .. %.2f, y %.2f .. %.2f, z %.2f .. %.2f m, in the picture", swing[0], swing[1],
          swing[2], swing[3], swing[4], swing[5]);
    // The tip swings 50 × 0.2 m either way: far beyond the 1 m beam, and the view followed.
    QVERIFY(std::max({swing[1] - swing[0], swing[3] - swing[2], swing[5] - swing[4]}) > 10.0);
    window_->flexibleView()->setExaggeration(1.0);
    window_->flexibleView()->setField(FlexibleField::None);
}

// The trail of the cantilever's tip node, played back frame by frame from a recorded run,
// is the node's recorded positions: those meshNodePosition() gives for the recorded states,
// the function with which `looplab-cli simulate --node beam.tip` writes its columns. The
// trail is drawn from the scene's sampled centreline, which the cable element's
// interpolation puts on the node, so they agree to rounding.
void TestFlexibleView::trailOfBeamTipIsTheRecordedNode()
{
    QVERIFY(window_->openFile(example("cantilever-beam.json")));
    SimulationSettings run = window_->runPanel()->settings();
    run.tEnd = 0.05;  // 26 frames, 2 ms apart (the example's output step)
    // What is checked is where the trail is drawn, not how accurately the beam swings: a
    // loose tolerance takes HHT a few dozen steps where the default 1e-8 takes thousands
    // (100 s under the sanitizers).
    run.ode.rtol = 1e-4;
    run.ode.atol = 1e-7;
    window_->runPanel()->setSettings(run);
    QVERIFY(test::runToEnd(*window_, true));
    const SimulationRecording& recording = window_->recording();
    const int frames = recording.frameCount();
    QVERIFY2(frames >= 20, qPrintable(QString("%1 frames").arg(frames)));

    QString error;
    QVERIFY(!window_->setTrailNode("beam.node9", &error));
    QVERIFY2(error.startsWith("'beam.node9' is not a node of the model's beams or solids"), qPrintable(error));
    QVERIFY(window_->viewport()->trailPoints().empty());

    PlaybackBar* playback = window_->playbackBar();
    playback->setCurrentFrame(0);
    QVERIFY(window_->setTrailNode("beam.tip", &error));
    QCOMPARE(window_->trailNode(), QString("beam.tip"));
    for (int i = 1; i < frames; ++i)
        playback->setCurrentFrame(i);
    std::vector<std::vector<Eigen::Vector3d>> trails = window_->viewport()->trailPoints();
    QCOMPARE(trails.size(), size_t(1));
    QCOMPARE(int(trails.front().size()), frames);

    const Model& model = *recording.frameModel();
    const std::optional<MeshNode> tip = findMeshNode(model, "beam.tip");
    QVERIFY(tip);
    const Vec3 start = meshNodePosition(model, recording.frameState(0), *tip);
    double worst = 0.0, travel = 0.0;
    for (int i = 0; i < frames; ++i) {
        const Vec3 r = meshNodePosition(model, recording.frameState(i), *tip);
        worst = std::max(worst, (trails.front()[size_t(i)] - r).norm());
        travel = std::max(travel, (r - start).norm());
    }
    qInfo("tip trail of %d points: largest distance to the recorded node %.3g m; the tip moved up to %.3g m", frames,
          worst, travel);
    QVERIFY(worst < 1e-12);
    QVERIFY(travel > 1e-5);  // the frames differ by far more than the tolerance

    // Back to the start: the trail starts again there.
    playback->setCurrentFrame(0);
    trails = window_->viewport()->trailPoints();
    QCOMPARE(trails.size(), size_t(1));
    QCOMPARE(trails.front().size(), size_t(1));
    QVERIFY((trails.front().front() - start).norm() < 1e-12);

    QVERIFY(window_->setTrailNode({}));
    QVERIFY(window_->viewport()->trailPoints().empty());

    // A solid's node on its surface is drawn and trailed; an inner one is not drawn.
    QVERIFY(window_->openFile(example("clamped-block.json")));
    QVERIFY(window_->trailNode().isEmpty());
    QVERIFY(!window_->setTrailNode("block.node3_1_1", &error));
    QVERIFY2(error.contains("inner node of a solid"), qPrintable(error));
    QVERIFY(window_->viewport()->trailPoints().empty());
    QVERIFY2(window_->setTrailNode("block.node20_2_2", &error), qPrintable(error));
    trails = window_->viewport()->trailPoints();
    QCOMPARE(trails.size(), size_t(1));
    QCOMPARE(trails.front().size(), size_t(1));
    const LoadedModel& block = window_->document()->loaded();
    QVERIFY(block.ok());
    const Vec3 corner = meshNodePosition(*block.model, block.initial, *findMeshNode(*block.model, "block.node20_2_2"));
    QVERIFY((trails.front().front() - corner).norm() < 1e-12);
}

QTEST_MAIN(TestFlexibleView)
#include "tst_flexibleview.moc"
