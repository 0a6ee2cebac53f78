// Sketch mode and a model's presentation in the real window, with simulated clicks: a
// four-bar sketched on an empty model in eight clicks has one degree of freedom and links
// whose mass and inertia are those of their bars (m = ρAL, I = m(L² + h²)/12); a gear pair
// between two ground pivots takes four clicks; andrews.json
// opens with its stiff solver, end time and pace and shows its description in the Notes
// pane; settings and the view stored in a model come back when it is opened again;
// markers are added, moved and deleted from the Markers pane, undoably.

#include "looplab/kinematics/Mobility.h"
#include "looplab/files/ModelFile.h"
#include "looplab/sketch/SketchEdits.h"
#include "markers/MarkerPanel.h"
#include "posing/PoseController.h"
#include "posing/PosePanel.h"
#include "posing/PosingFeature.h"
#include "presentation/ModelPresentation.h"
#include "sketch/SketchFeature.h"
#include "sketch/SketchGrid.h"
#include "viewport/VtkViewport.h"
#include "workbench/MainWindow.h"
#include "run/RunPanel.h"
#include "document/WorkbenchDocument.h"
#include "UserSteps.h"
#include "WorkbenchTestSupport.h"

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QStatusBar>
#include <QPushButton>
#include <QDir>
#include <QPlainTextEdit>
#include <QSurfaceFormat>
#include <QToolBar>
#include <QUndoStack>
#include <QtTest>

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <array>
#include <cmath>

using namespace looplab;
using namespace looplab::ui;

class TestSketch : public QObject {
    Q_OBJECT

public:
    static void initMain() { QSurfaceFormat::setDefaultFormat(VtkViewport::defaultFormat()); }

private slots:
    void initTestCase() { test::useThrowAwaySettings("tst_sketch"); }
    void init()
    {
        window_ = test::shownWindow();
        QVERIFY(window_);
        steps_ = std::make_unique<test::UserSteps>(test::UserSteps{*window_});
    }
    void cleanup()
    {
        steps_.reset();
        window_.reset();
    }

    void fourBarInEightClicks()
    {
        window_->document()->newDocument();
        SketchFeature* sketch = window_->sketch();
        steps_->toolButton(sketch->toolBar(), sketch->sketchAction());
        QVERIFY(sketch->isActive());
        QCOMPARE(sketch->tool(), SketchFeature::Tool::GroundPivot);
        QVERIFY(window_->viewport()->renderer()->GetActiveCamera()->GetParallelProjection());
        const auto [A, B, C, D] = clickFourBar(sketch);
        QVERIFY2(steps_->clicks <= 8, qPrintable(QString("%1 clicks").arg(steps_->clicks)));
        // The view still looks straight at the work plane.
        vtkCamera* camera = window_->viewport()->renderer()->GetActiveCamera();
        QVERIFY(camera->GetParallelProjection());
        double dir[3];
        camera->GetDirectionOfProjection(dir);
        QVERIFY(std::abs(dir[2] + 1.0) < 1e-9);

        const ModelDocument& doc = window_->document()->document();
        QCOMPARE(doc.bodies.size(), size_t(3));
        QCOMPARE(doc.joints.size(), size_t(4));
        QCOMPARE(doc.name, std::string(kUntitledModelName));
        const LoadedModel& loaded = window_->document()->loaded();
        QVERIFY2(loaded.model, "the sketched four-bar does not build and assemble");
        const MobilityReport mob = analyzeMobility(*loaded.model, loaded.initial);
        QCOMPARE(mob.dof, 1);

        const BarStyle style = sketch->barStyle();
        const double L[3] = {(B - A).norm(), (C - B).norm(), (D - C).norm()};
        for (int k = 0; k < 3; ++k) {
            const Body& body = loaded.model->bodies[static_cast<size_t>(k + 1)];
            const double m = style.density * style.height * style.thickness * L[k];  // ρ A L
            const double I = m * (L[k] * L[k] + style.height * style.height) / 12.0;
            qInfo("%s: L = %.4f m, m = %.6f kg (ρAL %.6f), Izz = %.4e kg m² (m(L²+h²)/12 %.4e)", body.name.c_str(),
                  L[k], body.rigid()->mass(), m, body.rigid()->inertia()(2, 2), I);
            QVERIFY2(std::abs(body.rigid()->mass() - m) <= 1e-9 * m, body.name.c_str());
            QVERIFY2(std::abs(body.rigid()->inertia()(2, 2) - I) <= 1e-9 * I, body.name.c_str());
        }
        // Each click was one undoable edit: 2 pivots and 3 links.
        QCOMPARE(window_->document()->undoStack()->count(), 5);
        const QString shots = QStringLiteral(LOOPLAB_SCREENSHOT_DIR);
        QDir().mkpath(shots);
        window_->screenshot().save(shots + "/sketch-four-bar.png");
    }

    // A driver added to a freshly sketched four-bar starts at the crank's sketched angle, so
    // the model still assembles and can run; posing the driven crank and using the pose
    // moves where the drive starts (the view does not snap back), in one undoable edit, and
    // the status bar says so.
    void driverStartsWhereTheSketchPutsItsJoint()
    {
        window_->document()->newDocument();
        SketchFeature* sketch = window_->sketch();
        steps_->toolButton(sketch->toolBar(), sketch->sketchAction());
        clickFourBar(sketch);
        steps_->toolButton(sketch->toolBar(), sketch->sketchAction());  // leave sketch mode
        WorkbenchDocument* doc = window_->document();
        QVERIFY(doc->loaded().ok());

        QAction* addDriver = nullptr;
        for (QAction* menu : window_->menuBar()->actions())
            if (menu->menu())
                for (QAction* a : menu->menu()->actions())
                    if (a->text() == QStringLiteral("Add driver")) addDriver = a;
        QVERIFY(addDriver);
        addDriver->trigger();
        QCOMPARE(doc->document().drivers.size(), size_t(1));
        const DriverDoc driver = doc->document().drivers[0];
        QVERIFY2(doc->loaded().ok(), formatDiagnostics(doc->loaded().diagnostics).c_str());
        const Model& m = *doc->loaded().model;
        const auto crank = m.findJoint(driver.joint);
        QVERIFY(crank);
        const double sketched = jointAngle(m, doc->loaded().initial, *crank);
        qInfo("driver on %s starts at %.6f rad; the sketched crank is at %.6f rad", driver.joint.c_str(),
              driver.law.initial, sketched);
        QVERIFY(std::abs(sketched) > 0.5);  // a sketch's angle, not the 0 of a joint by points
        QVERIFY(std::abs(driver.law.initial - sketched) < 1e-12);
        QVERIFY(window_->runPanel()->runButton()->isEnabled());

        PoseController* pose = window_->posing()->controller();
        QVERIFY(pose->setCoordinate(QString::fromStdString(driver.joint), sketched + 0.3).status.ok);
        const State posed = pose->state();
        QTest::mouseClick(window_->posing()->panel()->useButton(), Qt::LeftButton);
        QVERIFY2(doc->loaded().ok(), formatDiagnostics(doc->loaded().diagnostics).c_str());
        QVERIFY((doc->loaded().initial.q - posed.q).cwiseAbs().maxCoeff() < 1e-9);
        QVERIFY(std::abs(doc->document().drivers[0].law.initial - (sketched + 0.3)) < 1e-9);
        QCOMPARE(doc->document().drivers[0].law.rate, driver.law.rate);
        QVERIFY2(window_->statusBar()->currentMessage().contains("the drive starts there"),
                 qPrintable(window_->statusBar()->currentMessage()));
        doc->undoStack()->undo();
        QCOMPARE(doc->document().drivers[0].law.initial, driver.law.initial);
    }

    void sliderCrankByClicks()
    {
        window_->document()->newDocument();
        SketchFeature* sketch = window_->sketch();
        steps_->toolButton(sketch->toolBar(), sketch->sketchAction());
        const Vec3 A(-0.2, 0, 0), B(-0.1, 0.1, 0), C(0.2, 0, 0), along(0.4, 0, 0);
        steps_->view(A);
        steps_->toolButton(sketch->toolBar(), sketch->toolAction(SketchFeature::Tool::Link));
        steps_->view(A);
        steps_->view(B);
        steps_->view(C);
        QTest::keyClick(window_->viewport()->renderSurface(), Qt::Key_Escape);
        steps_->toolButton(sketch->toolBar(), sketch->toolAction(SketchFeature::Tool::Slider));
        steps_->view(C);
        steps_->view(along);
        const ModelDocument& doc = window_->document()->document();
        QCOMPARE(doc.bodies.size(), size_t(3));  // crank, rod, slider block
        QCOMPARE(doc.joints.size(), size_t(4));  // ground–crank and crank–rod pins, the guide, the rod–block pin
        const LoadedModel& loaded = window_->document()->loaded();
        QVERIFY2(loaded.model, "the sketched slider-crank does not build and assemble");
        QCOMPARE(analyzeMobility(*loaded.model, loaded.initial).dof, 1);
        // The guide runs along x through C.
        const JointDoc& guide = doc.joints[2];
        QCOMPARE(guide.type, JointType::Prismatic);
        QVERIFY((guide.axis - Vec3::UnitX()).norm() < 1e-12);
        QVERIFY((guide.point - C).norm() < 1e-12);
    }

    // Between two ground pivots 0.4 m apart, a gear pair in four clicks (the tool, the two
    // pivots, the point where the wheels touch, a quarter of the way): wheels of 15 and 45
    // teeth, pitch radii 0.1 and 0.3 m, one degree of freedom left.
    void gearPairBetweenTwoPivotsInFourClicks()
    {
        window_->document()->newDocument();
        SketchFeature* sketch = window_->sketch();
        steps_->toolButton(sketch->toolBar(), sketch->sketchAction());
        const Vec3 A(-0.2, 0, 0), B(0.2, 0, 0), touch(-0.1, 0, 0);
        steps_->view(A);
        steps_->view(B);
        steps_->clicks = 0;
        steps_->toolButton(sketch->toolBar(), sketch->toolAction(SketchFeature::Tool::GearPair));
        steps_->view(A);
        steps_->view(B);
        steps_->view(touch);
        QVERIFY2(steps_->clicks <= 6, qPrintable(QString("%1 clicks").arg(steps_->clicks)));
        const ModelDocument& doc = window_->document()->document();
        QCOMPARE(doc.bodies.size(), size_t(2));
        QCOMPARE(doc.couplers.size(), size_t(1));
        QCOMPARE(doc.couplers[0].teeth1.value_or(0), 15);
        QCOMPARE(doc.couplers[0].teeth2.value_or(0), 45);
        const LoadedModel& loaded = window_->document()->loaded();
        QVERIFY2(loaded.model, qPrintable(window_->document()->statusText()));
        QVERIFY(std::abs(loaded.model->couplers[0].radius1 - 0.1) < 1e-12);
        QVERIFY(std::abs(loaded.model->couplers[0].radius2 - 0.3) < 1e-12);
        QCOMPARE(analyzeMobility(*loaded.model, loaded.initial).dof, 1);
        // One undoable edit.
        window_->document()->undoStack()->undo();
        QCOMPARE(window_->document()->document().couplers.size(), size_t(0));
    }

    // A cam from a ground pivot in three clicks (the tool, the pivot, the roller's centre
    // 0.2 m above it): a disc cam, a roller follower on a vertical guide, one degree of
    // freedom, its law's rise a quarter of the distance.
    void camFromAPivotInThreeClicks()
    {
        window_->document()->newDocument();
        SketchFeature* sketch = window_->sketch();
        steps_->toolButton(sketch->toolBar(), sketch->sketchAction());
        const Vec3 A(0, -0.1, 0), roller(0, 0.1, 0);
        steps_->view(A);
        steps_->clicks = 0;
        steps_->toolButton(sketch->toolBar(), sketch->toolAction(SketchFeature::Tool::Cam));
        steps_->view(A);
        steps_->view(roller);
        QVERIFY2(steps_->clicks <= 6, qPrintable(QString("%1 clicks").arg(steps_->clicks)));
        const ModelDocument& doc = window_->document()->document();
        QCOMPARE(doc.couplers.size(), size_t(1));
        QCOMPARE(doc.couplers[0].type, CouplerType::Cam);
        QVERIFY(std::abs(doc.couplers[0].cam.segments[0].lift - 0.05) < 1e-12);
        const LoadedModel& loaded = window_->document()->loaded();
        QVERIFY2(loaded.model, qPrintable(window_->document()->statusText()));
        QCOMPARE(analyzeMobility(*loaded.model, loaded.initial).dof, 1);
    }

    void andrewsOpensWithItsSettings()
    {
        QString error;
        QVERIFY2(window_->openFile(test::example("andrews.json"), &error), qPrintable(error));
        const SimulationSettings s = window_->runPanel()->settings();
        QCOMPARE(QString::fromStdString(s.integrator), QString("bdf"));
        QCOMPARE(s.tEnd, 0.03);
        QCOMPARE(window_->runPanel()->pace(), 0.01);
        QCOMPARE(window_->presentation()->notesPane()->toPlainText(),
                 QString::fromStdString(window_->document()->document().description));
        QVERIFY(window_->presentation()->notesPane()->toPlainText().contains("Hairer & Wanner"));
    }

    void storedSettingsAndViewComeBack()
    {
        QString error;
        QVERIFY2(window_->openFile(test::example("four-bar.json"), &error), qPrintable(error));
        SimulationSettings s = window_->runPanel()->settings();
        s.integrator = "rk4";
        s.tEnd = 1.25;
        s.ode.step = 0.002;
        window_->runPanel()->setSettings(s);
        window_->viewport()->setCamera(Eigen::Vector3d(0.2, 0.1, 3.0), Eigen::Vector3d(0.2, 0.1, 0.0),
                                       Eigen::Vector3d(0, 1, 0), true, 0.4);
        window_->presentation()->storeAction()->trigger();
        QTemporaryDir dir;
        const QString path = dir.filePath("stored.json");
        QVERIFY2(window_->saveFile(path, &error), qPrintable(error));
        window_->document()->newDocument();
        QVERIFY2(window_->openFile(path, &error), qPrintable(error));
        QTest::qWait(50);
        const SimulationSettings back = window_->runPanel()->settings();
        QCOMPARE(QString::fromStdString(back.integrator), QString("rk4"));
        QCOMPARE(back.tEnd, 1.25);
        vtkCamera* camera = window_->viewport()->renderer()->GetActiveCamera();
        QVERIFY(camera->GetParallelProjection());
        QCOMPARE(camera->GetParallelScale(), 0.4);
        double f[3];
        camera->GetFocalPoint(f);
        QVERIFY(std::abs(f[0] - 0.2) < 1e-12 && std::abs(f[1] - 0.1) < 1e-12);
    }

    void markersFromThePanel()
    {
        WorkbenchDocument* doc = window_->document();
        doc->newDocument();
        doc->edit("sketch", [](ModelDocument& d) {
            const WorkPlane xy;
            addGroundPivot(d, xy, Vec3(0, 0, 0));
            addLink(d, xy, {Vec3(0, 0, 0), "ground_pivot1"}, {Vec3(0.3, 0, 0), ""}, BarStyle{});
        });
        MarkerPanel* panel = window_->markerPanel();
        QCOMPARE(panel->list()->count(), 3);
        panel->bodyBox()->setCurrentText("link1");
        QTest::mouseClick(panel->addButton(), Qt::LeftButton);
        QCOMPARE(doc->document().markers.size(), size_t(4));
        const MarkerDoc added = doc->document().markers.back();
        QCOMPARE(added.body, std::string("link1"));
        QCOMPARE(added.position, Vec3::Zero().eval());
        QCOMPARE(panel->list()->currentRow(), 3);
        // Moved along the link by typing a coordinate.
        panel->coordinate(0)->setValue(0.1);
        emit panel->coordinate(0)->editingFinished();
        QCOMPARE(doc->document().markers.back().position, Vec3(0.1, 0, 0));
        // Enter on coordinates shown to four decimals keeps every digit the document has,
        // and on an untouched marker makes no edit; a changed coordinate changes alone.
        const Vec3 exact(0.123456789, 1.0 / 3.0, -2e-7);
        doc->edit("exact", [&](ModelDocument& d) { d.markers.back().position = exact; });
        const int edits = doc->undoStack()->count();
        QCOMPARE(panel->coordinate(1)->value(), 0.3333);
        emit panel->coordinate(1)->editingFinished();
        QCOMPARE(doc->document().markers.back().position, exact);
        QCOMPARE(doc->undoStack()->count(), edits);
        panel->coordinate(2)->setValue(0.05);
        emit panel->coordinate(2)->editingFinished();
        QCOMPARE(doc->document().markers.back().position, Vec3(exact.x(), exact.y(), 0.05));
        QCOMPARE(doc->undoStack()->count(), edits + 1);
        QVERIFY(panel->deleteSelected());
        QCOMPARE(doc->document().markers.size(), size_t(3));
        doc->undoStack()->undo();
        QCOMPARE(doc->document().markers.size(), size_t(4));
        // A marker a joint uses stays, and the pane names the joint.
        panel->list()->setCurrentRow(0);
        QVERIFY(!panel->deleteSelected());
        QCOMPARE(doc->document().markers.size(), size_t(4));
        QVERIFY2(panel->message().contains("pin1"), qPrintable(panel->message()));

        // Another model: no marker of this one selected, no coordinates or refusal left over.
        panel->list()->setCurrentRow(3);
        QCOMPARE(panel->coordinate(2)->value(), 0.05);
        QVERIFY(window_->openFile(test::example("pendulum.json")));
        QCOMPARE(panel->list()->currentRow(), -1);
        QVERIFY(panel->message().isEmpty());
        for (int a = 0; a < 3; ++a) {
            QCOMPARE(panel->coordinate(a)->value(), 0.0);
            QVERIFY(!panel->coordinate(a)->isEnabled());
        }
        QVERIFY(!panel->deleteButton()->isEnabled());
    }

    // A sketch has a sense of size: the plane's grid at the snapping step, the origin, a
    // scale bar and the pointer's coordinates, all still there after the first link; the
    // step can be set, and clicks snap to it.
    void sketchShowsGridScaleAndCoordinates()
    {
        window_->document()->newDocument();
        SketchFeature* sketch = window_->sketch();
        steps_->toolButton(sketch->toolBar(), sketch->sketchAction());
        QVERIFY(!window_->viewport()->isGridVisible());  // the floor grid, edge-on from here
        const SketchGrid& grid = sketch->grid();
        QVERIFY(grid.isShown());
        // The empty plane shows 1.2 m of height (parallel scale 0.6): a step of 1.2/40 = 0.03 m
        // rounded to 0.02 m, and a scale bar that is a round number.
        const double height = 2.0 * window_->viewport()->renderer()->GetActiveCamera()->GetParallelScale();
        QCOMPARE(sketch->gridStep(), automaticSketchStep(height));
        QVERIFY(sketch->gridStep() > height / 100.0 && sketch->gridStep() < height / 15.0);
        QVERIFY(grid.lineCount() > 20);
        qInfo("view %.3f m high: step %.4g m, %d grid lines, scale bar '%s'", height, sketch->gridStep(),
              grid.lineCount(), grid.scaleLabel().c_str());
        QVERIFY(!grid.scaleLabel().empty());
        const double bar = grid.scaleMetres(), decade = std::pow(10.0, std::floor(std::log10(bar)));
        const double mantissa = bar / decade;
        QVERIFY(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 || std::abs(mantissa - 5) < 1e-9);
        QCOMPARE(sketchLengthLabel(0.2), std::string("0.2 m"));
        QCOMPARE(sketchLengthLabel(0.05), std::string("50 mm"));

        // A step typed on the toolbar: a click near (0.123, 0.061) lands on (0.1, 0.05).
        sketch->gridStepBox()->setValue(0.05);
        QCOMPARE(sketch->gridStep(), 0.05);
        QVERIFY(std::abs(grid.step() - 0.05) < 1e-15);
        steps_->view(Vec3(0.123, 0.061, 0));
        const ModelDocument& doc = window_->document()->document();
        QCOMPARE(doc.markers.size(), size_t(1));
        QVERIFY(std::abs(doc.markers.front().position.x() - 0.1) < 1e-12);
        QVERIFY(std::abs(doc.markers.front().position.y() - 0.05) < 1e-12);

        // The pointer's coordinates, where a click would place the point.
        QWindow* surface = window_->viewport()->renderSurface();
        QTest::mouseMove(surface, window_->viewport()->worldToView(Vec3(0.31, -0.19, 0)).toPoint());
        QVERIFY(test::waitUntil([&] { return !sketch->cursorLabel()->text().isEmpty(); }, "the pointer's coordinates"));
        QCOMPARE(sketch->cursorLabel()->text().simplified(), QString("x 0.30 y -0.20 z 0.00 m"));

        // After the first link the grid, the step and the scale bar stay.
        steps_->toolButton(sketch->toolBar(), sketch->toolAction(SketchFeature::Tool::Link));
        steps_->view(Vec3(0.1, 0.05, 0));
        steps_->view(Vec3(0.4, 0.2, 0));
        QCOMPARE(doc.bodies.size(), size_t(1));
        QVERIFY(grid.isShown());
        QVERIFY(grid.lineCount() > 20);
        QVERIFY(std::abs(grid.step() - 0.05) < 1e-15);
        QVERIFY(!grid.scaleLabel().empty());
        QDir().mkpath(LOOPLAB_SCREENSHOT_DIR);
        window_->screenshot().save(QStringLiteral(LOOPLAB_SCREENSHOT_DIR) + "/sketch-grid.png");
        // Back to auto, and out of sketch mode: the floor grid returns, the plane's goes.
        sketch->gridStepBox()->setValue(0.0);
        QCOMPARE(sketch->gridStepBox()->text(), QString("auto"));
        steps_->toolButton(sketch->toolBar(), sketch->sketchAction());
        QVERIFY(!grid.isShown());
        QVERIFY(window_->viewport()->isGridVisible());
    }

private:
    // In sketch mode: ground pivots A and D, then links A–B–C–D (seven clicks). The points lie
    // on the sketch grid, so the snapped pivots are exactly these.
    std::array<Vec3, 4> clickFourBar(SketchFeature* sketch)
    {
        const std::array<Vec3, 4> p{Vec3(-0.2, -0.1, 0), Vec3(-0.1, 0.12, 0), Vec3(0.24, 0.2, 0), Vec3(0.2, -0.1, 0)};
        steps_->view(p[0]);
        steps_->view(p[3]);
        steps_->toolButton(sketch->toolBar(), sketch->toolAction(SketchFeature::Tool::Link));
        for (const Vec3& point : p) steps_->view(point);
        return p;
    }
    std::unique_ptr<MainWindow> window_;
    std::unique_ptr<test::UserSteps> steps_;
};

QTEST_MAIN(TestSketch)
#include "tst_sketch.moc"
