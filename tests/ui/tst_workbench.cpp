// Drives the real main window under X: opening, editing with undo, saving, running
// simulations on the worker thread, stopping and pausing them, warnings and pictures.

#include "looplab/integrate/MethodRegistry.h"
#include "looplab/kinematics/JointCoordinates.h"
#include "looplab/kinematics/StartMotion.h"
#include "looplab/files/ModelFile.h"
#include "looplab/scene/Scene.h"
#include "looplab/simulation/Simulation.h"
#include "overlays/ArrowFeature.h"
#include "overlays/ArrowOverlay.h"
#include "presentation/ModelPresentation.h"
#include "viewport/VtkViewport.h"
#include "watch/WatchFeature.h"
#include "document/DocumentOperations.h"
#include "workbench/ExamplesDirectory.h"
#include "workbench/HelpMenu.h"
#include "workbench/MainWindow.h"
#include "workbench/ModelSavePath.h"
#include "workbench/ModelTreeModel.h"
#include "workbench/PlaybackBar.h"
#include "plotting/PlotPanel.h"
#include "workbench/ProjectorMode.h"
#include "workbench/PropertyEditor.h"
#include "run/RunPanel.h"
#include "run/SimulationRunner.h"
#include "panels/WarningsPanel.h"
#include "document/WorkbenchDocument.h"
#include "WorkbenchTestSupport.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QMimeData>
#include <QSettings>
#include <QTreeWidget>
#include <QUrl>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QFile>
#include <QFormLayout>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QChart>
#include <QChartView>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QValueAxis>
#include <QLineSeries>
#include <QMenuBar>
#include <QDialog>
#include <QTextBrowser>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QSurfaceFormat>
#include <QTemporaryDir>
#include <QTreeView>
#include <QUndoStack>
#include <QtTest>

#include <cmath>
#include <memory>

using namespace looplab;
using namespace looplab::ui;

namespace {

using test::example;

// Types into a line edit as a user would and confirms with Return.
void enterText(QLineEdit* edit, const QString& text)
{
    edit->setFocus();
    edit->selectAll();
    if (text.isEmpty())
        QTest::keyClick(edit, Qt::Key_Backspace);
    else
        QTest::keyClicks(edit, text);
    QTest::keyClick(edit, Qt::Key_Return);
}

// Types into a spin box as a user would, replacing what it shows, and confirms with Return:
// each key passes the box's validation, as it does for a user.
void typeInto(QAbstractSpinBox* spin, const QString& text)
{
    spin->setFocus();
    spin->selectAll();
    QTest::keyClicks(spin, text);
    QTest::keyClick(spin, Qt::Key_Return);
}

// Chooses `text` in a closed combo box with the arrow keys, as a user does: each key makes
// the next item current and reports it chosen (QComboBox::activated).
void chooseWithKeys(QComboBox* box, const QString& text)
{
    const int target = box->findText(text);
    QVERIFY2(target >= 0, qPrintable(text));
    box->setFocus();
    for (int k = 0; k < box->count() && box->currentIndex() != target; ++k)
        QTest::keyClick(box, box->currentIndex() < target ? Qt::Key_Down : Qt::Key_Up);
    QCOMPARE(box->currentText(), text);
}

// QCOMPARE compares doubles to 1e-12 only (qFuzzyCompare): these check the last bit.
bool exactlyEqual(double a, double b) { return a == b; }
QString exactText(double x) { return QString::number(x, 'g', 17); }

// Empty if each component agrees within the tolerance, else both quaternions.
QString quatDifference(const Quat& actual, const Quat& expected, double tolerance = 1e-12)
{
    for (int k = 0; k < 4; ++k)
        if (!(std::abs(actual.coeffs()[k] - expected.coeffs()[k]) <= tolerance))
            return QString("quaternion (w x y z) %1 %2 %3 %4, expected %5 %6 %7 %8")
                .arg(actual.w(), 0, 'g', 17).arg(actual.x(), 0, 'g', 17)
                .arg(actual.y(), 0, 'g', 17).arg(actual.z(), 0, 'g', 17)
                .arg(expected.w(), 0, 'g', 17).arg(expected.x(), 0, 'g', 17)
                .arg(expected.y(), 0, 'g', 17).arg(expected.z(), 0, 'g', 17);
    return {};
}

// A macro, so that a mismatch ends the test function like QVERIFY does.
#define COMPARE_QUAT(actual, expected)                            \
    do {                                                          \
        const QString why = quatDifference((actual), (expected)); \
        QVERIFY2(why.isEmpty(), qPrintable(why));                 \
    } while (false)

bool sameCoeffs(const Quat& a, const Quat& b) { return a.coeffs() == b.coeffs(); }

SimulationSettings fourBarSettings(double tEnd = 1.0) { return test::runSettings("projection", tEnd); }

// A frame source that is not a recording: another's frames in reverse order, at times of
// its own, as a mode animation would give states it makes up.
class ReversedFrames : public FrameSource {
public:
    explicit ReversedFrames(const FrameSource& of) : of_(of) {}
    int frameCount() const override { return of_.frameCount(); }
    double frameTime(int i) const override { return 0.5 * i; }
    std::shared_ptr<const Model> frameModel() const override { return of_.frameModel(); }
    State frameState(int i) const override { return of_.frameState(of_.frameCount() - 1 - i); }

private:
    const FrameSource& of_;
};

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
    void addedJointStartsUnconnected();
    void saveAsAddsJsonSuffix();
    void firstSaveNamesNewModel();
    void renameAndDeleteKeepReferencesConsistent();
    void tracesFollowRenamesAndDeletions();
    void keepsInvalidEditsAndReportsDiagnostic();
    void editsBodyOrientationAsAxisAngle();
    void refusesZeroOrientationAxis();
    void editsMarkersOfJointDefinedByMarkers();
    void repointsJointAtAnotherMarker();
    void editsLengthOfDistanceJoint();
    void editsPolynomialCoefficientsOfDriver();
    void editsPolynomialCoefficientsOfBodyTorque();
    void parsesAndFormatsCoefficients();
    void axesAndQuaternionsAtAnyScale();
    void runsFourBarToTheEnd();
    void runsOnTheChosenLinearAlgebra();
    void implicitParametersShowForTheirIntegrators();
    void hhtAlphaFromThePanelReachesTheSolver();
    void implicitParameterRangesAreEnforced();
    void implicitParametersSavedWithTheModel();
    void hhtAlphaKeepsEveryDigit();
    void methodParametersOfEachTypeEditSaveAndReopen();
    void startOfFlexibleMembersChosenRunAndSaved();
    void openedModelRunsAsTheCommandLineRunsIt();
    void jointAnglesDoNotAliasBetweenFrames();
    void reportsSingularConfigurationOfParallelogram();
    void warnsOfBranchChangeOfDoubleParallelogram();
    void stiffWarningSwitchesToSuggestedMethod();
    void stopsRunHalfway();
    void editAfterRunSaysRecordingIsOfPreviousModel();
    void pausesAndResumes();
    void closingDuringRunStopsWorker();
    void grabsWindowWithModelColours();
    void playbackDrawsFramesOfAnySource();
    void opensDroppedFileAndRemembersIt();
    // URDF and MJCF files open as new, unsaved models, dropped or from File → Import.
    void importsRobotDescriptionsAsNewModels();
    void pickingInViewSelectsInTree();
    void shortcutsWorkWithFocusInView();
    void helpMenuListsKeysMouseAndDocuments();
    // The window fits a 1024 × 768 projector with every panel reachable.
    void fitsASmallScreen();
    // One switch makes text, lines and background carry to the back of a room, and back.
    void projectorModeIsOneSwitch();
    // A four-bar that assembles says how it moves in the status line.
    void fourBarStatusSaysHowItMoves();

private:
    bool runToEnd();

    std::unique_ptr<MainWindow> window_;
};

void TestWorkbench::initTestCase() { test::useThrowAwaySettings("tst_workbench"); }

void TestWorkbench::init()
{
    window_ = test::shownWindow();
    QVERIFY(window_);
}

void TestWorkbench::cleanup() { window_.reset(); }

bool TestWorkbench::runToEnd() { return test::runToEnd(*window_, false); }

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
        for (ItemKind kind : {ItemKind::Body, ItemKind::Joint, ItemKind::Driver, ItemKind::Force, ItemKind::Beam,
                              ItemKind::Solid, ItemKind::Coupler}) {
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

// Add Joint from the Edit menu: the four-bar's joint A is a revolute from ground to the
// first body at the origin about z, so any such default would repeat it. The new joint
// connects nothing; the model then fails to build with an error that names it.
void TestWorkbench::addedJointStartsUnconnected()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    WorkbenchDocument* doc = window_->document();
    QCOMPARE(doc->redundantEquations(), 3);
    QAction* add = nullptr;
    for (QAction* action : window_->menuBar()->findChildren<QAction*>())
        if (action->text() == "Add joint")
            add = action;
    QVERIFY(add);
    add->trigger();

    const std::vector<JointDoc>& joints = doc->document().joints;
    QCOMPARE(joints.size(), size_t(5));
    QCOMPARE(joints[4].name, std::string("joint"));
    QCOMPARE(joints[4].body1, std::string());
    QCOMPARE(joints[4].body2, std::string());
    for (size_t i = 0; i < 4; ++i)
        QVERIFY(!joints[i].body1.empty() && !joints[i].body2.empty());

    // The property editor shows the new joint with both bodies blank, not a guess.
    QCOMPARE(window_->selectedItem(), (ItemRef{ItemKind::Joint, 4}));
    auto* body1 = window_->propertyEditor()->findChild<QComboBox*>("body1");
    auto* body2 = window_->propertyEditor()->findChild<QComboBox*>("body2");
    QVERIFY(body1 && body2);
    QCOMPARE(body1->currentText(), QString());
    QCOMPARE(body2->currentText(), QString());

    const LoadedModel& loaded = doc->loaded();
    QVERIFY(!loaded.ok());
    QCOMPARE(loaded.diagnostics.size(), size_t(2));
    QCOMPARE(loaded.diagnostics[0].location, std::string("/joints/4/body1"));
    QCOMPARE(loaded.diagnostics[1].location, std::string("/joints/4/body2"));
    QCOMPARE(loaded.diagnostics[0].message, std::string("missing body name: joint 'joint' is not connected"));
    QCOMPARE(doc->statusText(), QString("/joints/4/body1: missing body name: joint 'joint' is not connected"));
    QVERIFY(!window_->runPanel()->runButton()->isEnabled());

    // Choosing its bodies in the editor connects it; undo takes the joint away again.
    body1->setCurrentText("coupler");
    body2->setCurrentText("rocker");
    QCOMPARE(joints[4].body1, std::string("coupler"));
    QCOMPARE(joints[4].body2, std::string("rocker"));
    doc->undoStack()->undo();
    doc->undoStack()->undo();
    doc->undoStack()->undo();
    QCOMPARE(doc->document().joints.size(), size_t(4));
    QVERIFY(doc->loaded().ok());
    QCOMPARE(doc->redundantEquations(), 3);
}

// The open dialog lists *.json: any other suffix, or none, gets ".json" added.
void TestWorkbench::saveAsAddsJsonSuffix()
{
    QCOMPARE(modelSavePath("crank"), QString("crank.json"));
    QCOMPARE(modelSavePath("crank.v2"), QString("crank.v2.json"));
    QCOMPARE(modelSavePath("crank."), QString("crank.json"));
    QCOMPARE(modelSavePath("crank.json"), QString("crank.json"));
    QCOMPARE(modelSavePath("Crank.JSON"), QString("Crank.JSON"));
    QCOMPARE(modelSavePath("/tmp/run.v1/crank"), QString("/tmp/run.v1/crank.json"));
}

// A new model is "Untitled" until its first save, which names it after the file as an
// undo step of its own; later saves, and models that have a name, keep theirs.
void TestWorkbench::firstSaveNamesNewModel()
{
    WorkbenchDocument* doc = window_->document();
    doc->newDocument();
    doc->edit("add body", [](ModelDocument& d) { addItem(d, ItemKind::Body); });
    QCOMPARE(doc->document().name, std::string("Untitled"));
    const int steps = doc->undoStack()->count();

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString error;
    QVERIFY2(window_->saveFile(dir.filePath("crank.v2.json"), &error), qPrintable(error));
    QCOMPARE(doc->document().name, std::string("crank.v2"));
    QCOMPARE(doc->undoStack()->count(), steps + 1);
    QVERIFY(!doc->isModified());
    const DocumentResult written = readModelDocument(dir.filePath("crank.v2.json").toStdString());
    QVERIFY(written.document);
    QCOMPARE(written.document->name, std::string("crank.v2"));

    doc->undoStack()->undo();
    QCOMPARE(doc->document().name, std::string("Untitled"));
    QVERIFY(doc->isModified());
    doc->undoStack()->redo();
    QCOMPARE(doc->document().name, std::string("crank.v2"));

    // The file is no longer untitled: a save elsewhere keeps the model's name.
    doc->edit("rename", [](ModelDocument& d) { d.name = "Untitled"; });
    QVERIFY(window_->saveFile(dir.filePath("copy.json"), &error));
    QCOMPARE(doc->document().name, std::string("Untitled"));

    // A name the user typed before the first save stays.
    doc->newDocument();
    doc->edit("name", [](ModelDocument& d) { d.name = "Slider-crank"; });
    QVERIFY(window_->saveFile(dir.filePath("slider.json"), &error));
    QCOMPARE(doc->document().name, std::string("Slider-crank"));
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

// The points a model file asks to trace name bodies and markers: they follow a renamed
// body and go with a deleted one, so the saved file still builds.
void TestWorkbench::tracesFollowRenamesAndDeletions()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    WorkbenchDocument* doc = window_->document();
    doc->edit("trace", [](ModelDocument& d) {
        d.markers.push_back(MarkerDoc{"pin", "crank", Vec3(0.05, 0, 0), Quat::Identity()});
        d.traces = {TraceDoc{"", "coupler", Vec3(0.1, 0.05, 0)}, TraceDoc{"pin", "", Vec3::Zero()}};
    });
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));
    QVERIFY(window_->treeModel()->setData(window_->treeModel()->itemIndex({ItemKind::Body, 1}), "link"));
    QCOMPARE(doc->document().traces.size(), size_t(2));
    QCOMPARE(doc->document().traces[0].body, std::string("link"));
    QVERIFY(doc->loaded().ok());
    doc->edit("delete crank", [](ModelDocument& d) { removeItem(d, {ItemKind::Body, 0}); });
    QCOMPARE(doc->document().traces.size(), size_t(1));
    QCOMPARE(doc->document().traces[0].body, std::string("link"));
    doc->edit("delete coupler", [](ModelDocument& d) { removeItem(d, {ItemKind::Body, 0}); });
    QVERIFY(doc->document().traces.empty());
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

void TestWorkbench::editsBodyOrientationAsAxisAngle()
{
    QVERIFY(window_->openFile(example("pendulum.json")));
    WorkbenchDocument* doc = window_->document();
    const Quat original = doc->document().bodies[0].orientation;
    window_->selectItem({ItemKind::Body, 0});
    PropertyEditor* editor = window_->propertyEditor();
    auto* ax = editor->findChild<QDoubleSpinBox*>("orientation.axis.x");
    auto* ay = editor->findChild<QDoubleSpinBox*>("orientation.axis.y");
    auto* az = editor->findChild<QDoubleSpinBox*>("orientation.axis.z");
    auto* angle = editor->findChild<QDoubleSpinBox*>("orientation.angle");
    auto* quaternion = editor->findChild<QLineEdit*>("orientation.quaternion");
    QVERIFY(ax && ay && az && angle && quaternion);
    QVERIFY(quaternion->isReadOnly());
    // The file stores (cos 60°, 0, 0, sin 60°): 120° about z.
    QCOMPARE(quaternion->text(), QString("0.5000000000000001 0 0 0.8660254037844386"));
    QVERIFY(std::abs(ax->value()) < 1e-6 && std::abs(ay->value()) < 1e-6);
    QVERIFY(std::abs(az->value() - 1.0) < 1e-6);
    QVERIFY(std::abs(angle->value() - 120.0) < 1e-6);

    QSignalSpy rebuilt(doc, &WorkbenchDocument::modelRebuilt);
    const int steps = doc->undoStack()->count();
    angle->setValue(90.0);
    COMPARE_QUAT(doc->document().bodies[0].orientation, Quat(std::cos(M_PI / 4), 0.0, 0.0, std::sin(M_PI / 4)));
    QCOMPARE(doc->undoStack()->count(), steps + 1);
    QCOMPARE(rebuilt.count(), 1);
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));
    QCOMPARE(quaternion->text(), QString::fromStdString(formatNumberList(
                                     {std::cos(M_PI / 4), 0.0, 0.0, std::sin(M_PI / 4)}, " ")));

    doc->undoStack()->undo();
    QVERIFY(sameCoeffs(doc->document().bodies[0].orientation, original));
    QVERIFY(std::abs(angle->value() - 120.0) < 1e-6);
    QCOMPARE(quaternion->text(), QString("0.5000000000000001 0 0 0.8660254037844386"));
    doc->undoStack()->redo();

    // An axis of any length and direction: 60° about (1, 2, 2)/3 is
    // (cos 30°, sin 30° · (1/3, 2/3, 2/3)).
    angle->setValue(60.0);
    ax->setValue(1.0);
    ay->setValue(2.0);
    az->setValue(2.0);
    COMPARE_QUAT(doc->document().bodies[0].orientation,
                Quat(std::sqrt(3.0) / 2.0, 0.5 / 3.0, 1.0 / 3.0, 1.0 / 3.0));
    QCOMPARE(doc->document().bodies[0].orientation.norm(), 1.0);
    // What the user typed stays while it describes the stored rotation.
    QCOMPARE(ay->value(), 2.0);
    QVERIFY(editor->message().isEmpty());
    QVERIFY(doc->loaded().ok());

    // Undo steps back through the edits to the file's value, exactly.
    while (doc->undoStack()->canUndo())
        doc->undoStack()->undo();
    QVERIFY(sameCoeffs(doc->document().bodies[0].orientation, original));
    QVERIFY(!doc->isModified());
}

void TestWorkbench::refusesZeroOrientationAxis()
{
    QVERIFY(window_->openFile(example("pendulum.json")));
    WorkbenchDocument* doc = window_->document();
    const Quat original = doc->document().bodies[0].orientation;
    window_->selectItem({ItemKind::Body, 0});
    PropertyEditor* editor = window_->propertyEditor();
    auto* az = editor->findChild<QDoubleSpinBox*>("orientation.axis.z");
    auto* ax = editor->findChild<QDoubleSpinBox*>("orientation.axis.x");
    auto* quaternion = editor->findChild<QLineEdit*>("orientation.quaternion");
    auto* message = editor->findChild<QLabel*>("message");
    QVERIFY(az && ax && quaternion && message);
    QVERIFY(editor->message().isEmpty());
    QVERIFY(message->isHidden());

    QSignalSpy rebuilt(doc, &WorkbenchDocument::modelRebuilt);
    const int steps = doc->undoStack()->count();
    const QString before = quaternion->text();
    az->setValue(0.0);  // the axis was (0, 0, 1)
    QVERIFY(sameCoeffs(doc->document().bodies[0].orientation, original));
    QVERIFY(doc->document().bodies[0].orientation.coeffs().allFinite());
    QCOMPARE(doc->undoStack()->count(), steps);
    QCOMPARE(rebuilt.count(), 0);
    QVERIFY(!doc->isModified());
    QCOMPARE(quaternion->text(), before);
    QVERIFY2(editor->message().startsWith("/bodies/0/orientation: axis has zero length"),
             qPrintable(editor->message()));
    QVERIFY(!message->isHidden());

    // Completing the axis from there is accepted: 120° about x.
    ax->setValue(1.0);
    COMPARE_QUAT(doc->document().bodies[0].orientation, Quat(0.5, std::sqrt(3.0) / 2.0, 0.0, 0.0));
    QVERIFY(editor->message().isEmpty());
    QVERIFY(message->isHidden());
    doc->undoStack()->undo();
    QVERIFY(sameCoeffs(doc->document().bodies[0].orientation, original));
    QCOMPARE(az->value(), 1.0);
    QCOMPARE(ax->value(), 0.0);
}

void TestWorkbench::editsMarkersOfJointDefinedByMarkers()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    WorkbenchDocument* doc = window_->document();
    // Joint D (ground–rocker at (0.4, 0, 0)) defined by two markers instead of a point.
    doc->edit("markers", [](ModelDocument& d) {
        const BodyDoc& rocker = d.bodies[2];
        const Vec3 local = rocker.orientation.normalized().toRotationMatrix().transpose() *
                           (Vec3(0.4, 0.0, 0.0) - rocker.position);
        d.markers.push_back({"groundPivot", kGroundName, Vec3(0.4, 0.0, 0.0), Quat::Identity()});
        d.markers.push_back({"rockerEnd", "rocker", local, Quat::Identity()});
        JointDoc& joint = d.joints[3];
        joint.byMarkers = true;
        joint.marker1 = "groundPivot";
        joint.marker2 = "rockerEnd";
    });
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));
    const ModelDocument start = doc->document();

    window_->selectItem({ItemKind::Joint, 3});
    PropertyEditor* editor = window_->propertyEditor();
    // A joint by markers has no point or bodies of its own.
    QVERIFY(!editor->findChild<QDoubleSpinBox*>("point.x"));
    auto* x1 = editor->findChild<QDoubleSpinBox*>("marker1.position.x");
    auto* y2 = editor->findChild<QDoubleSpinBox*>("marker2.position.y");
    auto* angle2 = editor->findChild<QDoubleSpinBox*>("marker2.orientation.angle");
    auto* az2 = editor->findChild<QDoubleSpinBox*>("marker2.orientation.axis.z");
    auto* quaternion2 = editor->findChild<QLineEdit*>("marker2.orientation.quaternion");
    QVERIFY(x1 && y2 && angle2 && az2 && quaternion2);
    QCOMPARE(x1->value(), 0.4);
    QCOMPARE(quaternion2->text(), QString("1 0 0 0"));
    QCOMPARE(angle2->value(), 0.0);

    // Position of the ground marker: one edit, the model is re-assembled.
    QSignalSpy rebuilt(doc, &WorkbenchDocument::modelRebuilt);
    x1->setValue(0.41);
    QCOMPARE(doc->document().markers[0].position, Vec3(0.41, 0.0, 0.0));
    QCOMPARE(rebuilt.count(), 1);
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));
    doc->undoStack()->undo();
    QCOMPARE(doc->document().markers[0].position, start.markers[0].position);
    QCOMPARE(x1->value(), 0.4);

    // A component of the rocker marker keeps the others exactly.
    y2->setValue(0.01);
    QCOMPARE(doc->document().markers[1].position,
             Vec3(start.markers[1].position.x(), 0.01, start.markers[1].position.z()));
    doc->undoStack()->undo();
    QCOMPARE(doc->document().markers[1].position, start.markers[1].position);

    // Orientation of the rocker marker: 90° about z is (cos 45°, 0, 0, sin 45°).
    angle2->setValue(90.0);
    COMPARE_QUAT(doc->document().markers[1].orientation, Quat(std::cos(M_PI / 4), 0.0, 0.0, std::sin(M_PI / 4)));
    QVERIFY(sameCoeffs(doc->document().markers[0].orientation, Quat::Identity()));
    QVERIFY(doc->document().bodies[2].orientation.coeffs() == start.bodies[2].orientation.coeffs());
    const int steps = doc->undoStack()->count();
    doc->undoStack()->undo();
    QVERIFY(sameCoeffs(doc->document().markers[1].orientation, Quat::Identity()));
    QCOMPARE(quaternion2->text(), QString("1 0 0 0"));

    // A zero axis is refused with the marker's location.
    doc->undoStack()->redo();
    az2->setValue(0.0);
    COMPARE_QUAT(doc->document().markers[1].orientation, Quat(std::cos(M_PI / 4), 0.0, 0.0, std::sin(M_PI / 4)));
    QCOMPARE(doc->undoStack()->count(), steps);
    QVERIFY2(editor->message().startsWith("/markers/1/orientation: axis has zero length"),
             qPrintable(editor->message()));

    while (doc->undoStack()->index() > 1)
        doc->undoStack()->undo();
    QCOMPARE(serializeModelDocument(doc->document()), serializeModelDocument(start));
}

void TestWorkbench::repointsJointAtAnotherMarker()
{
    QVERIFY(window_->openFile(example("pendulum.json")));
    WorkbenchDocument* doc = window_->document();
    // The pivot defined by markers: one at the origin, another on the ground at (0.1, 0.2, 0)
    // and the bob's end that sits on the pivot.
    doc->edit("markers", [](ModelDocument& d) {
        const BodyDoc& bob = d.bodies[0];
        const Vec3 local = bob.orientation.normalized().toRotationMatrix().transpose() * (Vec3::Zero() - bob.position);
        d.markers.push_back({"pivotA", kGroundName, Vec3::Zero(), Quat::Identity()});
        d.markers.push_back({"pivotB", kGroundName, Vec3(0.1, 0.2, 0.0), Quat::Identity()});
        d.markers.push_back({"bobEnd", "bob", local, Quat::Identity()});
        JointDoc& joint = d.joints[0];
        joint.byMarkers = true;
        joint.marker1 = "pivotA";
        joint.marker2 = "bobEnd";
    });
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));

    window_->selectItem({ItemKind::Joint, 0});
    PropertyEditor* editor = window_->propertyEditor();
    auto* marker1 = editor->findChild<QComboBox*>("marker1");
    QVERIFY(marker1);
    QCOMPARE(marker1->count(), 3);
    QCOMPARE(marker1->currentText(), QString("pivotA"));
    QVERIFY(marker1->findText("pivotB") >= 0 && marker1->findText("bobEnd") >= 0);

    // Pointed at pivotB: the joint's ground frame is that marker, and the bob assembles there.
    marker1->setCurrentText("pivotB");
    QCOMPARE(doc->document().joints[0].marker1, std::string("pivotB"));
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));
    const Joint& moved = doc->loaded().model->joints[0];
    QCOMPARE(moved.frame1.origin, Vec3(0.1, 0.2, 0.0));
    const Vec3 end = pointPosition(*doc->loaded().model, doc->loaded().initial, moved.frame2.body, moved.frame2.origin);
    QVERIFY2((end - Vec3(0.1, 0.2, 0.0)).norm() < 1e-9, qPrintable(QString::number((end - Vec3(0.1, 0.2, 0.0)).norm())));
    // The position editor now edits pivotB.
    auto* x1 = editor->findChild<QDoubleSpinBox*>("marker1.position.x");
    QVERIFY(x1);
    QCOMPARE(x1->value(), 0.1);

    doc->undoStack()->undo();
    QCOMPARE(doc->document().joints[0].marker1, std::string("pivotA"));
    QVERIFY(doc->loaded().ok());
    QCOMPARE(doc->loaded().model->joints[0].frame1.origin, Vec3(Vec3::Zero()));
    QCOMPARE(editor->findChild<QComboBox*>("marker1")->currentText(), QString("pivotA"));
}

void TestWorkbench::editsLengthOfDistanceJoint()
{
    // The coupler of this four-bar is a 0.4 m distance joint between crank and rocker.
    QVERIFY(window_->openFile(example("four-bar-rod-coupler.json")));
    WorkbenchDocument* doc = window_->document();
    window_->selectItem({ItemKind::Joint, 2});
    PropertyEditor* editor = window_->propertyEditor();
    auto* length = editor->findChild<QDoubleSpinBox*>("length");
    QVERIFY(length);
    QCOMPARE(length->value(), 0.4);
    auto rodLength = [doc] {
        const Model& m = *doc->loaded().model;
        const Joint& rod = m.joints[2];
        return (pointPosition(m, doc->loaded().initial, rod.frame2.body, rod.frame2.origin) -
                pointPosition(m, doc->loaded().initial, rod.frame1.body, rod.frame1.origin))
            .norm();
    };
    QVERIFY(std::abs(rodLength() - 0.4) < 1e-9);

    // Typed 0.42 m: the built model holds its rod ends 0.42 m apart.
    length->setValue(0.42);
    QCOMPARE(*doc->document().joints[2].length, 0.42);
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));
    QCOMPARE(doc->loaded().model->joints[2].length, 0.42);
    QVERIFY2(std::abs(rodLength() - 0.42) < 1e-9, qPrintable(QString::number(rodLength(), 'g', 17)));

    doc->undoStack()->undo();
    QCOMPARE(*doc->document().joints[2].length, 0.4);
    QVERIFY(doc->loaded().ok());
    QVERIFY(std::abs(rodLength() - 0.4) < 1e-9);
    QCOMPARE(editor->findChild<QDoubleSpinBox*>("length")->value(), 0.4);
}

void TestWorkbench::editsPolynomialCoefficientsOfDriver()
{
    QVERIFY(window_->openFile(example("slider-crank.json")));
    WorkbenchDocument* doc = window_->document();
    const TimeLaw original = doc->document().drivers[0].law;
    QCOMPARE(original.kind, TimeLaw::Kind::ConstantVelocity);
    window_->selectItem({ItemKind::Driver, 0});
    PropertyEditor* editor = window_->propertyEditor();
    auto* kind = editor->findChild<QComboBox*>("law");
    QVERIFY(kind);
    QVERIFY(!editor->findChild<QLineEdit*>("law.coefficients"));
    kind->setCurrentText("polynomial");
    // A polynomial starts from the old law's value at t = 0, so the model still builds.
    QCOMPARE(doc->document().drivers[0].law.kind, TimeLaw::Kind::Polynomial);
    QCOMPARE(doc->document().drivers[0].law.coefficients, std::vector<double>{original.initial});
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));

    auto* coefficients = editor->findChild<QLineEdit*>("law.coefficients");
    QVERIFY(coefficients);
    QCOMPARE(coefficients->text(), QString("0"));
    const std::vector<double> seeded = doc->document().drivers[0].law.coefficients;

    // s(t) = c0 + c1 t + c2 t²; commas and spaces both separate.
    QSignalSpy rebuilt(doc, &WorkbenchDocument::modelRebuilt);
    const int steps = doc->undoStack()->count();
    enterText(coefficients, "0, 6.283185307179586 0.5");
    const std::vector<double> entered{0.0, 6.283185307179586, 0.5};
    QCOMPARE(doc->document().drivers[0].law.coefficients, entered);
    QCOMPARE(doc->undoStack()->count(), steps + 1);
    QCOMPARE(rebuilt.count(), 1);
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));
    const double t = 0.3;
    const TimeLawValue s = doc->document().drivers[0].law.evaluate(t);
    QVERIFY(std::abs(s.value - (6.283185307179586 * t + 0.5 * t * t)) < 1e-12);
    QVERIFY(std::abs(s.rate - (6.283185307179586 + 2.0 * 0.5 * t)) < 1e-12);
    QVERIFY(std::abs(s.acceleration - 1.0) < 1e-12);
    QCOMPARE(coefficients->text(), QString("0, 6.283185307179586, 0.5"));

    // Refused input leaves the law as it was and says why, in the loader's words.
    const QString saved = QString::fromStdString(serializeModelDocument(doc->document()));
    enterText(coefficients, "1, x, 3");
    QCOMPARE(doc->document().drivers[0].law.coefficients, entered);
    QCOMPARE(doc->undoStack()->count(), steps + 1);
    QCOMPARE(rebuilt.count(), 1);
    QVERIFY2(editor->message().startsWith("/drivers/0/law/coefficients/1: expected a number, found 'x'"),
             qPrintable(editor->message()));
    QCOMPARE(coefficients->text(), QString("1, x, 3"));
    enterText(coefficients, "");
    QCOMPARE(doc->document().drivers[0].law.coefficients, entered);
    QVERIFY2(editor->message().startsWith("/drivers/0/law/coefficients: polynomial law needs at least one coefficient"),
             qPrintable(editor->message()));
    enterText(coefficients, "1,,2");
    QVERIFY2(editor->message().startsWith("/drivers/0/law/coefficients/1:"), qPrintable(editor->message()));
    enterText(coefficients, "1 inf");
    QVERIFY2(editor->message().contains("finite"), qPrintable(editor->message()));
    QCOMPARE(QString::fromStdString(serializeModelDocument(doc->document())), saved);
    QCOMPARE(doc->undoStack()->count(), steps + 1);

    // Undo restores the coefficients, then the law, exactly.
    doc->undoStack()->undo();
    QCOMPARE(doc->document().drivers[0].law.coefficients, seeded);
    QVERIFY(editor->message().isEmpty());
    doc->undoStack()->undo();
    const TimeLaw& back = doc->document().drivers[0].law;
    QCOMPARE(back.kind, TimeLaw::Kind::ConstantVelocity);
    QCOMPARE(back.rate, original.rate);
    QCOMPARE(back.initial, original.initial);
    QVERIFY(back.coefficients.empty());
    QVERIFY(!doc->isModified());
}

void TestWorkbench::editsPolynomialCoefficientsOfBodyTorque()
{
    QVERIFY(window_->openFile(example("andrews.json")));
    WorkbenchDocument* doc = window_->document();
    int torque = -1;
    for (size_t i = 0; i < doc->document().forces.size(); ++i)
        if (doc->document().forces[i].type == ForceType::BodyTorque)
            torque = static_cast<int>(i);
    QVERIFY(torque >= 0);
    const auto f = static_cast<size_t>(torque);
    QVERIFY(!doc->document().forces[f].law);
    window_->selectItem({ItemKind::Force, torque});
    PropertyEditor* editor = window_->propertyEditor();
    auto* kind = editor->findChild<QComboBox*>("law");
    QVERIFY(kind);
    QCOMPARE(kind->currentText(), QString("none"));
    kind->setCurrentText("polynomial");
    // The factor starts at 1: the torque is what it was until the coefficients change.
    QVERIFY(doc->document().forces[f].law);
    QCOMPARE(doc->document().forces[f].law->coefficients, std::vector<double>{1.0});

    auto* coefficients = editor->findChild<QLineEdit*>("law.coefficients");
    QVERIFY(coefficients);
    enterText(coefficients, "2 -0.5 1e-3");
    const std::vector<double> entered{2.0, -0.5, 1e-3};
    QCOMPARE(doc->document().forces[f].law->coefficients, entered);
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));

    enterText(coefficients, "1, x, 3");
    QCOMPARE(doc->document().forces[f].law->coefficients, entered);
    const QString where = QString("/forces/%1/law/coefficients/1: ").arg(torque);
    QVERIFY2(editor->message().startsWith(where), qPrintable(editor->message()));

    doc->undoStack()->undo();
    QCOMPARE(doc->document().forces[f].law->coefficients, std::vector<double>{1.0});
    doc->undoStack()->undo();
    QVERIFY(!doc->document().forces[f].law);
    QVERIFY(!doc->isModified());
}

void TestWorkbench::parsesAndFormatsCoefficients()
{
    std::vector<double> out{7.0};
    Diagnostic problem;
    QVERIFY(parseCoefficients(" 1.5,-2e-3  +4\t0.1 ", out, problem));
    QCOMPARE(out, (std::vector<double>{1.5, -2e-3, 4.0, 0.1}));
    // The saved form reads back to the same doubles.
    const std::vector<double> awkward{0.1, 1.0 / 3.0, -6.283185307179586, 1e-300, 12345678.9};
    QVERIFY(parseCoefficients(formatNumberList(awkward), out, problem));
    QCOMPARE(out, awkward);
    for (const char* bad : {"", "   ", "1, x, 3", "1,,2", "1,", "nan", "1e999", "0x10", "+-1", "1.2.3"}) {
        const std::vector<double> before = out;
        QVERIFY2(!parseCoefficients(bad, out, problem), bad);
        QCOMPARE(out, before);
        QVERIFY(!problem.message.empty());
    }
    QVERIFY(!parseCoefficients("1, x, 3", out, problem));
    QCOMPARE(problem.location, std::string("/1"));
    QVERIFY(!parseCoefficients("", out, problem));
    QCOMPARE(problem.location, std::string());

    Quat q(0.25, 0.0, 0.0, 0.0);
    QVERIFY(!quaternionFromAxisAngle(Vec3::Zero(), 90.0, q));
    QCOMPARE(q.w(), 0.25);
    QVERIFY(quaternionFromAxisAngle(Vec3(0.0, 0.0, 1.0), 90.0, q));
    COMPARE_QUAT(q, Quat(std::cos(M_PI / 4), 0.0, 0.0, std::sin(M_PI / 4)));
    const AxisAngle fromStored = axisAngleOf(Quat(2.0 * std::cos(M_PI / 6), 0.0, -2.0 * std::sin(M_PI / 6), 0.0));
    QVERIFY((fromStored.axis - Vec3(0.0, -1.0, 0.0)).norm() < 1e-12);
    QVERIFY(std::abs(fromStored.degrees - 60.0) < 1e-12);
    QCOMPARE(axisAngleOf(Quat::Identity()).axis, Vec3(Vec3::UnitZ()));
    QCOMPARE(axisAngleOf(Quat(0.0, 0.0, 0.0, 0.0)).degrees, 0.0);
}

// An axis or quaternion of any finite, non-zero length is a direction, as the model builder
// takes it: its length neither overflows nor underflows to "zero length".
void TestWorkbench::axesAndQuaternionsAtAnyScale()
{
    const double h = std::sqrt(0.5);
    Quat q(0.25, 0.0, 0.0, 0.0);
    QVERIFY(quaternionFromAxisAngle(Vec3(1e200, 0.0, 1e200), 90.0, q));
    COMPARE_QUAT(q, Quat(h, 0.5, 0.0, 0.5));
    QVERIFY(quaternionFromAxisAngle(Vec3(1e-200, 0.0, 0.0), 90.0, q));
    COMPARE_QUAT(q, Quat(h, h, 0.0, 0.0));
    for (const Vec3& bad : {Vec3(0.0, -0.0, 0.0), Vec3(std::nan(""), 0.0, 1.0), Vec3(HUGE_VAL, 0.0, 0.0)}) {
        QVERIFY(!quaternionFromAxisAngle(bad, 90.0, q));
        COMPARE_QUAT(q, Quat(h, h, 0.0, 0.0));
    }
    for (const Quat& stored : {Quat(1e200, 0.0, 0.0, 1e200), Quat(5e-324, 0.0, 0.0, 5e-324)}) {
        const AxisAngle extreme = axisAngleOf(stored);
        QVERIFY((extreme.axis - Vec3(Vec3::UnitZ())).norm() < 1e-15);
        QVERIFY2(std::abs(extreme.degrees - 90.0) < 1e-12, qPrintable(exactText(extreme.degrees)));
        QVERIFY(sameRotation(stored, Quat(h, 0.0, 0.0, h)));
    }
    QVERIFY(!sameRotation(Quat(0.0, 0.0, 0.0, 0.0), Quat::Identity()));
}

// The run panel's linear-algebra choice reaches the solver: both paths run the chain of
// 20 loops to the end on the constraint manifold and agree on where it ends.
void TestWorkbench::runsOnTheChosenLinearAlgebra()
{
    QVERIFY(window_->openFile(example("chain-20-loops.json")));
    auto* choice = window_->runPanel()->findChild<QComboBox*>("linearAlgebra");
    QVERIFY(choice);
    std::vector<Scene> ends;
    for (const char* name : {"dense", "sparse"}) {
        window_->runPanel()->setSettings(test::runSettings("projection", 0.03));
        choice->setCurrentIndex(choice->findText(name));
        QCOMPARE(QString(linearAlgebraName(window_->runPanel()->settings().constraints.linearAlgebra)),
                 QString(name));
        QVERIFY(runToEnd());
        const SimulationRecording& rec = window_->recording();
        QVERIFY(qAbs(rec.endTime() - 0.03) < 1e-9);
        for (int i = 0; i < rec.frameCount(); ++i) QVERIFY(rec.frame(i).violation.position < 1e-12);
        ends.push_back(rec.frameScene(rec.frameCount() - 1));
    }
    QCOMPARE(ends[0].bodies.size(), size_t(window_->document()->loaded().model->movingBodyCount()));
    QCOMPARE(ends[0].bodies.size(), ends[1].bodies.size());
    for (size_t b = 0; b < ends[0].bodies.size(); ++b)
        QVERIFY((ends[0].bodies[b].position - ends[1].bodies[b].position).norm() < 1e-9);
}

// The HHT α field shows only with the hht integrator (tlismni, hht-index3), Newmark β and γ
// only with newmark (tlismni), their labels with them; each tooltip gives the range.
void TestWorkbench::implicitParametersShowForTheirIntegrators()
{
    RunPanel* panel = window_->runPanel();
    auto* method = panel->findChild<QComboBox*>("method");
    auto* integrator = panel->findChild<QComboBox*>("integrator");
    auto* alpha = panel->findChild<QDoubleSpinBox*>("hhtAlpha");
    auto* beta = panel->findChild<QDoubleSpinBox*>("newmarkBeta");
    auto* gamma = panel->findChild<QDoubleSpinBox*>("newmarkGamma");
    auto* form = panel->findChild<QFormLayout*>();
    QVERIFY(method && integrator && alpha && beta && gamma && form);
    QVERIFY(alpha->toolTip().contains("[-1/3, 0]"));
    QVERIFY(beta->toolTip().contains("(0, 1/2]"));
    QVERIFY(gamma->toolTip().contains("[1/2, 1]"));
    struct Case {
        const char* method;
        const char* integrator;
        bool alpha, newmark;
    };
    const Case cases[] = {{"projection", "dopri5", false, false}, {"projection", "rk4", false, false},
                          {"baumgarte", "bdf", false, false},     {"penalty", "dopri5", false, false},
                          {"augmented-lagrangian", "rk4", false, false}, {"tlismni", "hht", true, false},
                          {"tlismni", "newmark", false, true},    {"hht-index3", "hht", true, false},
                          {"projection", "dopri5", false, false}};
    for (const Case& c : cases) {
        method->setCurrentIndex(method->findText(c.method));
        integrator->setCurrentIndex(integrator->findText(c.integrator));
        QCOMPARE(integrator->currentText(), QString(c.integrator));
        const QString pair = QString("%1/%2").arg(c.method, c.integrator);
        for (auto [field, shown] : {std::pair{alpha, c.alpha}, std::pair{beta, c.newmark}, std::pair{gamma, c.newmark}}) {
            QVERIFY2(field->isVisibleTo(panel) == shown, qPrintable(pair + " " + field->objectName()));
            QVERIFY2(form->labelForField(field)->isVisibleTo(panel) == shown, qPrintable(pair + " label"));
            QVERIFY2(field->isEnabled() == shown, qPrintable(pair + " " + field->objectName()));
        }
    }
}

// α typed into the run panel reaches the two-loop method: the workbench's run of the four-bar
// with α = −0.3 ends where a run straight through the core ends (the model read from the
// file again, the settings written out here, the Simulator on this thread), and α = −0.05
// ends elsewhere.
void TestWorkbench::hhtAlphaFromThePanelReachesTheSolver()
{
    const QString file = example("four-bar.json");
    QVERIFY(window_->openFile(file));
    RunPanel* panel = window_->runPanel();
    auto* alpha = panel->findChild<QDoubleSpinBox*>("hhtAlpha");
    QVERIFY(alpha);
    SimulationSettings s = test::runSettings("tlismni", 1.0);
    s.integrator = "hht";
    s.ode.rtol = 1e-6;
    s.ode.atol = 1e-8;
    panel->setSettings(s);
    panel->setPace(0.0);
    auto runWithAlpha = [&](const QString& typed, RecordedFrame& last) {
        typeInto(alpha, typed);
        if (!test::runToEnd(*window_, true))
            return false;
        last = window_->recording().frame(window_->recording().frameCount() - 1);
        return true;
    };
    RecordedFrame strong, weak;
    QVERIFY(runWithAlpha("-0.3", strong));
    QCOMPARE(panel->settings().constraints.hhtAlpha, -0.3);
    QVERIFY(runWithAlpha("-0.05", weak));
    QCOMPARE(panel->settings().constraints.hhtAlpha, -0.05);

    const LoadedModel lm = loadModel(file.toStdString());
    QVERIFY(lm.ok());
    SimulationSettings direct;
    direct.method = "tlismni";
    direct.integrator = "hht";
    direct.tEnd = 1.0;
    direct.outputStep = 0.01;
    direct.ode.rtol = 1e-6;
    direct.ode.atol = 1e-8;
    direct.ode.step = 0.0;  // the first step automatic, as for any adaptive integrator in the panel
    direct.constraints.hhtAlpha = -0.3;
    Simulator sim(lm.model, direct);
    State end;
    const SimulationResult r = sim.run(lm.initial, [&](const SimulationFrame& f) { end = f.state; });
    QVERIFY2(r.ok, r.message.c_str());
    QCOMPARE(end.t, strong.t);
    const double same = std::max((end.q - strong.q).cwiseAbs().maxCoeff(), (end.v - strong.v).cwiseAbs().maxCoeff());
    const double apart = std::max((weak.q - strong.q).cwiseAbs().maxCoeff(), (weak.v - strong.v).cwiseAbs().maxCoeff());
    qInfo("four-bar, tlismni/hht, t = %g s: workbench vs core at alpha -0.3 differ by %.3g; alpha -0.3 vs -0.05 by %.3g",
          strong.t, same, apart);
    // Measured: the two paths agree to the last bit (0), and α moves the end of the
    // 1 s run by 1.5e-3 (the HHT step's damping and its β(α), γ(α) weights).
    QVERIFY(same <= 1e-12);
    QVERIFY(apart > 1e-4);
}

// A value outside the core's range cannot be typed into the fields (the command line's
// --hht-alpha, --newmark-beta and --newmark-gamma refuse the same ones), values at the
// ends can, and hht-index3 with α = 0, which the range allows but the method cannot take
// with an adaptive step, fails at the start of the run with the core's reason.
void TestWorkbench::implicitParameterRangesAreEnforced()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    RunPanel* panel = window_->runPanel();
    auto* method = panel->findChild<QComboBox*>("method");
    auto* alpha = panel->findChild<QDoubleSpinBox*>("hhtAlpha");
    auto* beta = panel->findChild<QDoubleSpinBox*>("newmarkBeta");
    auto* gamma = panel->findChild<QDoubleSpinBox*>("newmarkGamma");
    QVERIFY(method && alpha && beta && gamma);
    SimulationSettings s = test::runSettings("tlismni", 0.05);
    s.integrator = "newmark";
    panel->setSettings(s);
    panel->setPace(0.0);
    // Out of range, the field keeps a value inside it; inside, it takes exactly what was typed.
    struct Typed {
        QDoubleSpinBox* field;
        const char* text;
        const ParameterRange& range;
        bool accepted;
    };
    const Typed typed[] = {{beta, "0", kNewmarkBetaRange, false},    {beta, "0.6", kNewmarkBetaRange, false},
                           {beta, "-0.1", kNewmarkBetaRange, false}, {beta, "0.5", kNewmarkBetaRange, true},
                           {gamma, "1", kNewmarkGammaRange, true},    {gamma, "0.4", kNewmarkGammaRange, false},
                           {gamma, "1.5", kNewmarkGammaRange, false}, {alpha, "0.1", kHhtAlphaRange, false},
                           {alpha, "-0.4", kHhtAlphaRange, false},    {alpha, "-1", kHhtAlphaRange, false},
                           {alpha, "-0.333333", kHhtAlphaRange, true}, {alpha, "0", kHhtAlphaRange, true}};
    for (const Typed& t : typed) {
        if (t.field == alpha && method->currentText() != "hht-index3")
            method->setCurrentIndex(method->findText("hht-index3"));
        QVERIFY(t.field->isVisibleTo(panel) && t.field->isEnabled());
        typeInto(t.field, t.text);
        const double typedValue = QString(t.text).toDouble();
        const QString what = QString("%1 typed %2: %3").arg(t.field->objectName(), t.text).arg(t.field->value(), 0, 'g', 17);
        QVERIFY2(t.range.contains(t.field->value()), qPrintable(what));
        QVERIFY2((t.field->value() == typedValue) == t.accepted, qPrintable(what));
    }
    // Set from code, a value is clamped into the range too.
    alpha->setValue(-1.0);
    QVERIFY(kHhtAlphaRange.contains(alpha->value()) && alpha->value() < -0.3333);
    beta->setValue(0.0);
    QVERIFY(kNewmarkBetaRange.contains(beta->value()));
    gamma->setValue(2.0);
    QCOMPARE(gamma->value(), 1.0);
    const SimulationSettings entered = panel->settings();
    QVERIFY(kHhtAlphaRange.contains(entered.constraints.hhtAlpha));
    QVERIFY(kNewmarkBetaRange.contains(entered.constraints.newmarkBeta));
    QVERIFY(kNewmarkGammaRange.contains(entered.constraints.newmarkGamma));

    typeInto(alpha, "0");
    QCOMPARE(panel->settings().method, std::string("hht-index3"));
    QCOMPARE(panel->settings().constraints.hhtAlpha, 0.0);
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    QVERIFY(window_->startRun());
    QVERIFY(test::waitForSignals(finished, "the undamped hht-index3 run to end"));
    const RunSummary summary = finished.front().front().value<RunSummary>();
    QVERIFY(!summary.ok);
    QVERIFY2(summary.message.contains("needs numerical damping"), qPrintable(summary.message));
}

// "Store Run Settings and View in Model" keeps Newmark β and γ in the file (and not the α
// the pair does not read); opening the file puts them back into the panel; a value outside
// the range in a file is refused with its JSON location.
void TestWorkbench::implicitParametersSavedWithTheModel()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    RunPanel* panel = window_->runPanel();
    auto* beta = panel->findChild<QDoubleSpinBox*>("newmarkBeta");
    auto* gamma = panel->findChild<QDoubleSpinBox*>("newmarkGamma");
    QVERIFY(beta && gamma);
    SimulationSettings s = test::runSettings("tlismni", 0.5);
    s.integrator = "newmark";
    panel->setSettings(s);
    typeInto(beta, "0.3");
    typeInto(gamma, "0.6");
    window_->presentation()->storeAction()->trigger();
    QTemporaryDir dir;
    const QString stored = dir.filePath("stored.json");
    QString error;
    QVERIFY2(window_->saveFile(stored, &error), qPrintable(error));

    QFile f(stored);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
    f.close();
    QJsonObject run = root.value("run").toObject();
    QCOMPARE(run.value("method").toString(), QString("tlismni"));
    QCOMPARE(run.value("integrator").toString(), QString("newmark"));
    QCOMPARE(run.value("newmark_beta").toDouble(), 0.3);
    QCOMPARE(run.value("newmark_gamma").toDouble(), 0.6);
    QVERIFY(!run.contains("hht_alpha"));
    QVERIFY(!run.contains("step"));  // newmark chooses its own; a step of 0 would not open again

    // Another model and the panel's defaults in between, so that only the file can bring
    // the values back.
    QVERIFY(window_->openFile(example("pendulum.json")));
    panel->setSettings(SimulationSettings{});
    QCOMPARE(beta->value(), 0.25);
    QVERIFY2(window_->openFile(stored, &error), qPrintable(error));
    QCOMPARE(panel->settings().method, std::string("tlismni"));
    QCOMPARE(panel->settings().integrator, std::string("newmark"));
    QCOMPARE(panel->settings().constraints.newmarkBeta, 0.3);
    QCOMPARE(panel->settings().constraints.newmarkGamma, 0.6);
    QVERIFY(beta->isVisibleTo(panel) && gamma->isVisibleTo(panel));

    run["newmark_gamma"] = 1.5;
    root["run"] = run;
    const QString bad = dir.filePath("bad.json");
    QFile out(bad);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QJsonDocument(root).toJson());
    out.close();
    error.clear();
    QVERIFY(!window_->openFile(bad, &error));
    QVERIFY2(error.contains("/run/newmark_gamma") && error.contains("must be a number in [1/2, 1] (got 1.5)"),
             qPrintable(error));
}

// Every method parameter has a row, made from the registry: a real one (the penalty
// factor, which spans decades: its arrows change it tenfold) and a count (the augmented
// Lagrangian's multiplier iterations, whole numbers only) show with the methods that read
// them, typed values reach the run's settings, "Store Run Settings" saves them, and the
// file brings them back after the panel was reset.
void TestWorkbench::methodParametersOfEachTypeEditSaveAndReopen()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    RunPanel* panel = window_->runPanel();
    auto* form = panel->findChild<QFormLayout*>();
    for (const ParameterInfo& p : methodParameters()) {
        if (p.runField)
            continue;
        QAbstractSpinBox* field = nullptr;
        for (QAbstractSpinBox* f : panel->findChildren<QAbstractSpinBox*>())
            if (f->toolTip().startsWith(QString::fromStdString(p.description)))
                field = f;
        QVERIFY2(field && form->labelForField(field), p.key.c_str());
        QVERIFY2(field->toolTip().contains(QString::fromLatin1(p.range.text)), p.key.c_str());
    }
    auto* factor = panel->findChild<QDoubleSpinBox*>("penaltyFactor");
    auto* iterations = panel->findChild<QSpinBox*>("augmentedIterations");
    QVERIFY(factor && iterations);
    auto* method = panel->findChild<QComboBox*>("method");
    method->setCurrentIndex(method->findText("projection"));
    QVERIFY(!factor->isVisibleTo(panel) && !iterations->isVisibleTo(panel));
    method->setCurrentIndex(method->findText("penalty"));
    QVERIFY(factor->isVisibleTo(panel) && factor->isEnabled() && !iterations->isVisibleTo(panel));
    method->setCurrentIndex(method->findText("augmented-lagrangian"));
    QVERIFY(iterations->isVisibleTo(panel) && iterations->isEnabled());
    QVERIFY(!factor->isVisibleTo(panel));  // the augmented Lagrangian has a factor of its own

    method->setCurrentIndex(method->findText("penalty"));
    factor->setValue(1e5);
    factor->stepBy(1);
    QCOMPARE(factor->value(), 1e6);
    typeInto(factor, "2.5e6");
    QCOMPARE(panel->settings().constraints.penaltyFactor, 2.5e6);
    window_->presentation()->storeAction()->trigger();
    QTemporaryDir dir;
    const QString penalty = dir.filePath("penalty.json");
    QString error;
    QVERIFY2(window_->saveFile(penalty, &error), qPrintable(error));

    method->setCurrentIndex(method->findText("augmented-lagrangian"));
    typeInto(iterations, "7");
    QCOMPARE(panel->settings().constraints.augmentedIterations, 7);
    typeInto(iterations, "0");  // below the range: the field keeps its value
    QCOMPARE(panel->settings().constraints.augmentedIterations, 7);
    window_->presentation()->storeAction()->trigger();
    const QString augmented = dir.filePath("augmented.json");
    QVERIFY2(window_->saveFile(augmented, &error), qPrintable(error));

    auto runBlock = [](const QString& path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object().value("run").toObject()
                                           : QJsonObject();
    };
    QCOMPARE(runBlock(penalty).value("penalty_factor").toDouble(), 2.5e6);
    QVERIFY(!runBlock(penalty).contains("augmented_iterations"));
    QCOMPARE(runBlock(augmented).value("augmented_iterations").toDouble(), 7.0);

    for (const auto& [path, methodName] : {std::pair{penalty, "penalty"}, std::pair{augmented, "augmented-lagrangian"}}) {
        QVERIFY(window_->openFile(example("pendulum.json")));
        panel->setSettings(SimulationSettings{});
        QCOMPARE(factor->value(), ConstraintMethodSettings{}.penaltyFactor);
        QVERIFY2(window_->openFile(path, &error), qPrintable(error));
        QCOMPARE(panel->settings().method, std::string(methodName));
    }
    // The second file opened last: its count, and the first file's factor stayed out of it.
    QCOMPARE(iterations->value(), 7);
    QCOMPARE(panel->settings().constraints.augmentedIterations, 7);
    QVERIFY2(window_->openFile(penalty, &error), qPrintable(error));
    QCOMPARE(panel->settings().constraints.penaltyFactor, 2.5e6);
}

// HHT α at the end of its range, −1/3, given to the panel (as a file would) or typed as the
// shortest text of that double, is −1.0/3.0 to the last bit in the panel's settings, in
// the saved file and in the panel after the file is opened again; the field shows the
// digits that read back to it. So is a value with more digits than any fixed number of
// decimals would keep.
void TestWorkbench::hhtAlphaKeepsEveryDigit()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    RunPanel* panel = window_->runPanel();
    auto* alpha = panel->findChild<QDoubleSpinBox*>("hhtAlpha");
    QVERIFY(alpha);
    const double third = -1.0 / 3.0;
    auto stored = [&] { return panel->settings().constraints.hhtAlpha; };
    SimulationSettings s = test::runSettings("tlismni", 0.5);
    s.integrator = "hht";
    s.constraints.hhtAlpha = third;
    panel->setSettings(s);
    QVERIFY2(exactlyEqual(alpha->value(), third), qPrintable(exactText(alpha->value())));
    QVERIFY2(exactlyEqual(stored(), third), qPrintable(exactText(stored())));
    QCOMPARE(alpha->text(), QString("-0.3333333333333333"));
    QVERIFY(exactlyEqual(alpha->text().toDouble(), third));

    typeInto(alpha, "-0.123456789012345");
    QVERIFY2(exactlyEqual(stored(), -0.123456789012345), qPrintable(exactText(stored())));
    typeInto(alpha, "-0.3333333333333333");
    QVERIFY2(exactlyEqual(stored(), third), qPrintable(exactText(stored())));
    // The arrows step by the single step from the exact value.
    alpha->stepUp();
    QVERIFY2(exactlyEqual(alpha->value(), third + 0.01), qPrintable(exactText(alpha->value())));
    typeInto(alpha, "-0.3333333333333333");

    window_->presentation()->storeAction()->trigger();
    QTemporaryDir dir;
    const QString file = dir.filePath("third.json");
    QString error;
    QVERIFY2(window_->saveFile(file, &error), qPrintable(error));
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject run = QJsonDocument::fromJson(f.readAll()).object().value("run").toObject();
    f.close();
    QCOMPARE(run.value("integrator").toString(), QString("hht"));
    const double written = run.value("hht_alpha").toDouble();
    QVERIFY2(exactlyEqual(written, third), qPrintable(exactText(written)));

    // Another model and the panel's defaults in between, so that only the file can bring
    // the value back.
    QVERIFY(window_->openFile(example("pendulum.json")));
    panel->setSettings(SimulationSettings{});
    QVERIFY(!exactlyEqual(stored(), third));
    QVERIFY2(window_->openFile(file, &error), qPrintable(error));
    QCOMPARE(panel->settings().integrator, std::string("hht"));
    QVERIFY2(exactlyEqual(stored(), third), qPrintable(exactText(stored())));
    QCOMPARE(alpha->text(), QString("-0.3333333333333333"));
}

// Andrews' crank turns about 2.4 rad between two frames 10 ms apart: the recording's
// crank angle must be the continuous one, as a run with frames 0.1 ms apart gives it.
void TestWorkbench::jointAnglesDoNotAliasBetweenFrames()
{
    QVERIFY(window_->openFile(example("andrews.json")));
    window_->runPanel()->setSettings(test::runSettings("projection", 0.03));
    QVERIFY(runToEnd());
    const auto model = window_->document()->loaded().model;
    const JointCoordinateTracker names(*model);
    size_t crank = names.coordinates().size();
    for (size_t i = 0; i < names.coordinates().size(); ++i)
        if (names.coordinates()[i].name == "O.angle")
            crank = i;
    QVERIFY(crank < names.coordinates().size());
    const SimulationRecording& rec = window_->recording();
    const double coarse = rec.frame(rec.frameCount() - 1).jointValues[crank];

    SimulationSettings fine = test::runSettings("projection", 0.03);
    fine.outputStep = 1e-4;
    Simulator sim(model, fine);
    JointCoordinateTracker tracker(*model);
    double reference = 0.0;
    QVERIFY(sim.run(window_->document()->loaded().initial,
                    [&](const SimulationFrame& f) { reference = tracker.update(f.state)[crank]; })
                .ok);
    qInfo("crank angle at 0.03 s: %.9f rad from 10 ms frames, %.9f rad from 0.1 ms frames", coarse, reference);
    QVERIFY(reference > 15.0);  // more than two turns
    QVERIFY(std::abs(coarse - reference) < 1e-6);
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
        QCOMPARE(int(f.q.size()), rec.frameModel()->positionSize());
        QCOMPARE(rec.frameScene(i).bodies.size(), size_t(3));
    }
    // Each label drawn on the violation axis reads as the power of ten at whose height
    // it sits, and the axis spans every plotted point.
    QValueAxis* axis = window_->plotPanel()->violationAxis();
    QChart* chart = window_->plotPanel()->chartView(PlotPanel::Chart::Violation)->chart();
    QTest::qWait(200);  // the charts take frames on a timer
    int labels = 0;
    for (QGraphicsItem* item : chart->scene()->items()) {
        auto* text = dynamic_cast<QGraphicsTextItem*>(item);
        // As many labels as the chart's height holds: none is elided to "...".
        QVERIFY(!text || !text->isVisible() || !text->toPlainText().endsWith("..."));
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
    QVERIFY(test::waitUntil([&] { return !window_->playbackBar()->isPlaying(); }, "playback to reach the last frame"));
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

// The penalty method folds a loop of the double parallelogram into the anti-parallelogram
// at its second flat posture (t = 0.334 s) after losing energy at the first (0.17 s); both
// are warnings in the panel under a readable label, not the run event's raw kind.
void TestWorkbench::warnsOfBranchChangeOfDoubleParallelogram()
{
    QVERIFY(window_->openFile(example("double-parallelogram.json")));
    window_->runPanel()->setSettings(test::runSettings("penalty", 0.5));
    QVERIFY(runToEnd());
    WarningsPanel* warnings = window_->warningsPanel();
    auto* tree = warnings->findChild<QTreeWidget*>("warnings");
    QVERIFY(tree);
    QCOMPARE(tree->topLevelItemCount(), warnings->count());
    int branch = -1, drift = -1;
    for (int i = 0; i < warnings->count(); ++i) {
        if (warnings->kindAt(i) == "branch_change" && branch < 0)
            branch = i;
        if (warnings->kindAt(i) == "energy_drift" && drift < 0)
            drift = i;
        // Every kind a run raises has a label of its own.
        QVERIFY2(tree->topLevelItem(i)->text(1) != warnings->kindAt(i), qPrintable(warnings->kindAt(i)));
    }
    QVERIFY2(branch >= 0, "no branch-change warning");
    QVERIFY2(drift >= 0, "no energy-drift warning");
    QCOMPARE(tree->topLevelItem(branch)->text(1), QString("Assembly branch change"));
    QCOMPARE(tree->topLevelItem(drift)->text(1), QString("Energy drift"));
    QVERIFY(!tree->topLevelItem(branch)->text(2).isEmpty());  // the joints of the loop
    const double t = warnings->timeAt(branch);
    QVERIFY2(t > 0.3 && t < 0.4, qPrintable(QString("branch change at t = %1").arg(t)));
}

// An explicit integrator on the flexible four-bar: within its first thousand steps the run
// warns that the model is stiff, naming a beam, and the warning's button stops the run and
// sets the run panel to the method it suggests with that method's integrator and tolerances.
void TestWorkbench::stiffWarningSwitchesToSuggestedMethod()
{
    QVERIFY(window_->openFile(example("flexible-four-bar.json")));
    RunPanel* panel = window_->runPanel();
    auto* method = panel->findChild<QComboBox*>("method");
    auto* integrator = panel->findChild<QComboBox*>("integrator");
    QVERIFY(method && integrator);
    QCOMPARE(method->currentText(), QString("tlismni"));  // the model's run block
    method->setCurrentIndex(method->findText("projection"));
    integrator->setCurrentIndex(integrator->findText("dopri5"));
    // The warning is delivered as found, before any frame after it: dopri5's steps are held
    // at 0.45 µs, so the next frame (every 0.5 ms) is a thousand steps away.
    double latestFrameWithWarning = -1.0, warningTime = -1.0;
    QMetaObject::Connection batches = connect(window_->runner(), &SimulationRunner::framesReceived, this,
                                              [&](const FrameBatch& batch) {
        for (const SimulationEvent& e : batch.events)
            if (e.kind == RunEventKind::Stiffness) {
                warningTime = e.t;
                for (const RecordedFrame& f : batch.frames)
                    latestFrameWithWarning = std::max(latestFrameWithWarning, f.t);
            }
    });
    QTest::mouseClick(panel->runButton(), Qt::LeftButton);
    QVERIFY(window_->isRunning());
    WarningsPanel* warnings = window_->warningsPanel();
    auto stiffEntry = [warnings] {
        for (int i = 0; i < warnings->count(); ++i)
            if (warnings->kindAt(i) == "stiffness")
                return i;
        return -1;
    };
    // dopri5 would need minutes for the model's 0.05 s: the warning comes long before (within
    // the first hundred steps), so the wait is for it, not for a time.
    QVERIFY(test::waitUntil([&] { return stiffEntry() >= 0; }, "the stiffness warning of a dopri5 run"));
    disconnect(batches);
    QVERIFY(warningTime > 0.0);
    QVERIFY2(latestFrameWithWarning <= warningTime, qPrintable(QString("warning at t = %1 s came with a frame at t = %2 s")
                                                                  .arg(warningTime).arg(latestFrameWithWarning)));
    const int entry = stiffEntry();
    auto* tree = warnings->findChild<QTreeWidget*>("warnings");
    QCOMPARE(tree->topLevelItem(entry)->text(1), QString("Stiff model"));
    const QString detail = tree->topLevelItem(entry)->text(3);
    QVERIFY2(detail.contains("coupler") || detail.contains("crank") || detail.contains("rocker"), qPrintable(detail));
    QPushButton* button = warnings->remedyButton(entry);
    QVERIFY(button);
    QVERIFY2(button->text().contains("tlismni/hht"), qPrintable(button->text()));
    QVERIFY(button->isVisible());
    QTest::mouseClick(button, Qt::LeftButton);
    QCOMPARE(method->currentText(), QString("tlismni"));
    QCOMPARE(integrator->currentText(), QString("hht"));
    const ConstraintMethodInfo* tlismni = findConstraintMethod("tlismni");
    QVERIFY(tlismni);
    const SimulationSettings chosen = panel->settings();
    QVERIFY(std::abs(chosen.ode.rtol / tlismni->defaults.rtol - 1.0) < 1e-12);
    QVERIFY(std::abs(chosen.ode.atol / tlismni->defaults.atol - 1.0) < 1e-12);
    QVERIFY(test::waitUntil([&] { return !window_->isRunning(); }, "the stopped run's end"));
    QVERIFY(panel->runButton()->isEnabled());
}

// An edit after a run keeps the recording for playback; beside the slider a label says,
// for as long as it is true, that the recording is of the model before the edit.
void TestWorkbench::editAfterRunSaysRecordingIsOfPreviousModel()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    window_->runPanel()->setSettings(fourBarSettings(0.2));
    QVERIFY(runToEnd());
    PlaybackBar* playback = window_->playbackBar();
    auto* label = playback->findChild<QLabel*>("previousModelLabel");
    QVERIFY(label);
    QVERIFY(label->isHidden());
    QVERIFY(!playback->recordingOfPreviousModel());
    const int frames = window_->recording().frameCount();
    QVERIFY(frames > 10);

    window_->document()->edit("heavier crank", [](ModelDocument& d) { d.bodies[0].mass = 0.3; });
    QVERIFY(playback->recordingOfPreviousModel());
    QVERIFY(label->isVisible());
    QCOMPARE(label->text(), QString("Recording of the previous model"));
    QCOMPARE(window_->recording().frameCount(), frames);
    // Not a status-bar message: the next message leaves it.
    window_->statusBar()->showMessage("something else");
    QVERIFY(label->isVisible());

    // A run of the edited model is its recording: the label goes.
    QVERIFY(runToEnd());
    QVERIFY(label->isHidden());
    // Opening a model drops the recording, and the label with it.
    window_->document()->edit("lighter crank", [](ModelDocument& d) { d.bodies[0].mass = 0.2; });
    QVERIFY(label->isVisible());
    QVERIFY2(window_->runPanel()->message().startsWith("Finished at"), qPrintable(window_->runPanel()->message()));
    // The edit drew the edited model: no arrow of the recording's frame over it, until
    // playback shows a frame of the recording again.
    window_->watch()->arrows()->setShown(ArrowKind::Velocity, true);
    QCOMPARE(window_->watch()->arrows()->overlay().arrowCount(ArrowKind::Velocity), 0);
    window_->playbackBar()->setCurrentFrame(frames / 2);
    QVERIFY(window_->watch()->arrows()->overlay().arrowCount(ArrowKind::Velocity) > 0);
    QVERIFY(window_->openFile(example("four-bar.json")));
    QVERIFY(label->isHidden());
    // Nothing of the last run is left over the new drawing: neither how it ended nor its arrows.
    QVERIFY2(window_->runPanel()->message().isEmpty(), qPrintable(window_->runPanel()->message()));
    QCOMPARE(window_->watch()->arrows()->overlay().arrowCount(ArrowKind::Velocity), 0);
    window_->watch()->arrows()->setShown(ArrowKind::Velocity, false);
}

void TestWorkbench::stopsRunHalfway()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    window_->runPanel()->setSettings(fourBarSettings(1000.0));
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    QVERIFY(window_->startRun());
    QVERIFY(test::waitUntil([&] { return window_->recording().frameCount() > 5; }, "six frames of the run"));
    QVERIFY(window_->isRunning());
    QVERIFY(window_->runPanel()->stopButton()->isEnabled());
    window_->stopRun();
    QVERIFY(test::waitForSignals(finished, "the stopped run to end"));
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
    QVERIFY(test::waitUntil([&] { return window_->recording().frameCount() > 2; }, "three frames of the run"));
    QSignalSpy holding(window_->runner(), &SimulationRunner::holding);
    window_->pauseRun();
    QVERIFY(window_->runner()->isPaused());
    QVERIFY(window_->runPanel()->resumeButton()->isEnabled());
    QVERIFY(!window_->runPanel()->pauseButton()->isEnabled());
    // Once the worker holds, the frames sent before have all arrived; no more may follow.
    QVERIFY(test::waitForSignals(holding, "the paused run to hold at a frame"));
    const int held = window_->recording().frameCount();
    QTest::qWait(400);
    QCOMPARE(window_->recording().frameCount(), held);
    QVERIFY(window_->isRunning());
    window_->resumeRun();
    QVERIFY(!window_->runner()->isPaused());
    QVERIFY(test::waitUntil([&] { return window_->recording().frameCount() > held + 5; },
                            "six more frames after the run resumed"));
    // Stop while paused must wake the worker too.
    window_->pauseRun();
    window_->stopRun();
    QVERIFY(test::waitForSignals(finished, "the run stopped while paused to end"));
    QVERIFY(finished.front().front().value<RunSummary>().stopped);
}

void TestWorkbench::closingDuringRunStopsWorker()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    window_->runPanel()->setSettings(fourBarSettings(1000.0));
    QVERIFY(window_->startRun());
    QVERIFY(test::waitUntil([&] { return window_->recording().frameCount() > 0; }, "a frame of the four-bar's run"));
    // Loading another model stops the run and clears its recording.
    QVERIFY(window_->openFile(example("slider-crank.json")));
    QVERIFY(window_->recording().isEmpty());
    QVERIFY(window_->startRun());
    QVERIFY(test::waitUntil([&] { return window_->recording().frameCount() > 0; },
                            "a frame of the slider-crank's run"));
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

// The view draws whatever frame of whatever source the playback bar shows.
void TestWorkbench::playbackDrawsFramesOfAnySource()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    window_->runPanel()->setSettings(fourBarSettings(0.5));
    QVERIFY(runToEnd());
    const SimulationRecording& rec = window_->recording();
    const int last = rec.frameCount() - 1;
    QVERIFY(last > 10);
    PlaybackBar* bar = window_->playbackBar();
    QCOMPARE(bar->source(), static_cast<const FrameSource*>(&rec));
    VtkViewport* view = window_->viewport();
    const QImage atEnd = view->grabFramebuffer();
    QVERIFY(!atEnd.isNull());

    bar->setCurrentFrame(0);
    const QImage atStart = view->grabFramebuffer();
    QVERIFY(atStart != atEnd);
    bar->setCurrentFrame(last);
    QCOMPARE(view->grabFramebuffer(), atEnd);
    // The scene of a frame is the core's scene of the recorded state.
    const Scene scene = rec.frameScene(last);
    const Scene expected = buildScene(*window_->document()->loaded().model, rec.frameState(last));
    QCOMPARE(scene.bodies.size(), expected.bodies.size());
    for (size_t b = 0; b < scene.bodies.size(); ++b)
        QCOMPARE(scene.bodies[b].position, expected.bodies[b].position);

    ReversedFrames reversed(rec);
    bar->setSource(&reversed);
    bar->setCurrentFrame(0);
    QCOMPARE(view->grabFramebuffer(), atEnd);
    bar->seekTime(0.5 * last);
    QCOMPARE(bar->currentFrame(), last);
    QCOMPARE(view->grabFramebuffer(), atStart);
    bar->setSource(&rec);
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

    // Dropped on the 3D view (a native window of its own) it opens the same way.
    QMimeData onView;
    onView.setUrls({QUrl::fromLocalFile(example("four-bar.json"))});
    QWindow* surface = window_->viewport()->renderSurface();
    QDragEnterEvent enterView(QPoint(10, 10), Qt::CopyAction, &onView, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(surface, &enterView);
    QVERIFY(enterView.isAccepted());
    QDropEvent dropOnView(QPointF(10, 10), Qt::CopyAction, &onView, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(surface, &dropOnView);
    QCOMPARE(QFileInfo(window_->document()->filePath()).fileName(), QString("four-bar.json"));
    QVERIFY(window_->document()->loaded().ok());
}

void TestWorkbench::importsRobotDescriptionsAsNewModels()
{
    const QString data = QStringLiteral(LOOPLAB_TEST_DATA_DIR) + "/exchange/";
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(data + "four-bar-connect.xml")});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(window_.get(), &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(window_.get(), &drop);
    const WorkbenchDocument* doc = window_->document();
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));
    // Not the XML file's model: a new one, to be saved in the model format.
    QVERIFY(doc->filePath().isEmpty());
    QVERIFY(doc->isModified());
    QCOMPARE(doc->dof(), 1);
    QCOMPARE(window_->treeModel()->rowCount(window_->treeModel()->groupIndex(ItemKind::Body)), 3);
    const QString status = window_->statusBar()->currentMessage();
    QVERIFY2(status.startsWith("Imported four-bar-connect.xml: 3 bodies, 4 joints; "), qPrintable(status));
    QVERIFY2(status.contains("note(s) in File → Import Notes"), qPrintable(status));
    QString error;
    QVERIFY2(window_->openFile(data + "serial-arm.urdf", &error), qPrintable(error));
    QCOMPARE(doc->dof(), 3);
    QVERIFY(!window_->openFile(data + "make_exchange_models.py", &error));
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

// The Help menu: Quick Start (F1), the keyboard map read from the window's own menus (so
// every shortcut a menu has is listed, and nothing else), the mouse in the 3D view, and the
// documents shipped with LoopLab, each an existing file.
void TestWorkbench::helpMenuListsKeysMouseAndDocuments()
{
    QMenu* help = nullptr;
    for (QAction* a : window_->menuBar()->actions())
        if (a->menu() && a->text() == "&Help") help = a->menu();
    QVERIFY(help);
    QCOMPARE(window_->menuBar()->actions().last()->menu(), help);  // the last menu, as on every desktop
    auto action = [](QMenu* menu, const QString& text) -> QAction* {
        for (QAction* a : menu->actions())
            if (a->text().remove('&') == text) return a;
        return nullptr;
    };
    QAction* quick = action(help, "Quick Start");
    QVERIFY(quick);
    QCOMPARE(quick->shortcut(), QKeySequence(QKeySequence::HelpContents));
    quick->trigger();
    auto* quickDialog = window_->findChild<QDialog*>("quickStart");
    QVERIFY(quickDialog && quickDialog->isVisible());
    const QString quickText = quickDialog->findChild<QTextBrowser*>("helpText")->toPlainText();
    QVERIFY2(quickText.contains("Add driver") && quickText.contains("F5"), qPrintable(quickText));

    QAction* keys = action(help, "Keyboard and Mouse");
    QVERIFY(keys);
    keys->trigger();
    auto* keysDialog = window_->findChild<QDialog*>("keyboardAndMouse");
    QVERIFY(keysDialog && keysDialog->isVisible());
    const QString keysText = keysDialog->findChild<QTextBrowser*>("helpText")->toPlainText();
    const auto shortcuts = menuShortcuts(*window_);
    QVERIFY(shortcuts.size() >= 10);
    bool run = false;
    for (const auto& [where, sequence] : shortcuts) {
        QVERIFY2(keysText.contains(where) && keysText.contains(sequence), qPrintable(where + " " + sequence));
        run = run || (where == "Simulation › Run" && sequence == QKeySequence(Qt::Key_F5).toString(QKeySequence::NativeText));
    }
    QVERIFY(run);
    QVERIFY(keysText.contains("pose the mechanism") && keysText.contains("zoom"));

    QAction* documents = action(help, "Documents");
    QVERIFY(documents && documents->menu() && documents->menu()->isEnabled());
    QStringList titles;
    for (QAction* a : documents->menu()->actions()) {
        titles << a->text();
        QVERIFY2(QFileInfo(a->toolTip()).isFile(), qPrintable(a->toolTip()));
    }
    for (const char* t : {"Model File Format", "Command-Line Tool", "Design Studies", "Methods and Equations"})
        QVERIFY2(titles.contains(t), qPrintable(titles.join(", ")));
}

void TestWorkbench::shortcutsWorkWithFocusInView()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    window_->selectItem({ItemKind::Body, 1});
    auto* mass = window_->propertyEditor()->findChild<QDoubleSpinBox*>("mass");
    QVERIFY(mass);
    mass->setValue(1.25);
    QCOMPARE(window_->document()->document().bodies[1].mass, 1.25);

    // The 3D view is a native window of its own: after a click into it, the keys go there,
    // and the main window's shortcuts must still work.
    QWindow* view = window_->viewport()->renderSurface();
    QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, QPoint(view->width() - 5, 5));
    view->requestActivate();
    QTRY_COMPARE_WITH_TIMEOUT(QGuiApplication::focusWindow(), view, test::safetyLimitMs());
    QTest::keyClick(view, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(window_->document()->document().bodies[1].mass, 0.8);
    QTest::keyClick(view, Qt::Key_F5);
    QVERIFY(window_->isRunning() || window_->recording().frameCount() > 0);
    QVERIFY(test::waitUntil([&] { return !window_->isRunning(); }, "the run F5 started to end"));
}

// A 1024 × 768 projector leaves about 1024 × 728 below a title bar. With the flexible
// four-bar open (the panels at their fullest), the window's least size fits that (it was
// 1067 × 912); made that size, every dock is either shown with room for some of its
// content, within the window, or a tab beside one that is shown.
void TestWorkbench::fitsASmallScreen()
{
    QString error;
    QVERIFY2(window_->openFile(test::example("flexible-four-bar.json"), &error), qPrintable(error));
    const QSize least = window_->minimumSizeHint().expandedTo(window_->minimumSize());
    qInfo("least window size %d x %d", least.width(), least.height());
    QVERIFY2(least.width() <= 1024 && least.height() <= 728,
             qPrintable(QString("%1 x %2").arg(least.width()).arg(least.height())));
    window_->resize(1024, 728);
    QVERIFY(test::waitUntil([&] { return window_->size() == QSize(1024, 728); }, "the window made 1024 x 728"));
    const QRect inside = window_->rect();
    int shown = 0, tabs = 0;
    // A dock behind a tab is parked outside the window, visible to Qt but not on screen.
    auto onScreen = [](QDockWidget* dock) { return dock->isVisible() && !dock->visibleRegion().isEmpty(); };
    for (QDockWidget* dock : window_->findChildren<QDockWidget*>()) {
        if (onScreen(dock)) {
            const QRect at(dock->mapTo(window_.get(), QPoint(0, 0)), dock->size());
            QVERIFY2(inside.contains(at), qPrintable(QString("%1 at %2,%3 %4 x %5")
                                                         .arg(dock->windowTitle())
                                                         .arg(at.x())
                                                         .arg(at.y())
                                                         .arg(at.width())
                                                         .arg(at.height())));
            QVERIFY2(dock->widget()->height() >= 40,
                     qPrintable(QString("%1: %2 px").arg(dock->windowTitle()).arg(dock->widget()->height())));
            ++shown;
            continue;
        }
        bool besideShown = false;
        for (QDockWidget* other : window_->tabifiedDockWidgets(dock))
            besideShown = besideShown || onScreen(other);
        QVERIFY2(besideShown, qPrintable(dock->windowTitle() + " cannot be reached"));
        ++tabs;
    }
    qInfo("%d docks shown, %d behind tabs", shown, tabs);
    QVERIFY(shown >= 4);
}

// View → Projector Mode (Ctrl+Shift+P): the application's text 1.5 times larger, a
// plain white 3D background where the shaded one was grey-blue at the top-left corner,
// the plots' curves twice as thick with larger axis labels, and the window still fits
// 1024 × 728; switched off, all of it as before. The switch is remembered for the next
// start.
void TestWorkbench::projectorModeIsOneSwitch()
{
    QString error;
    QVERIFY2(window_->openFile(test::example("four-bar.json"), &error), qPrintable(error));
    QAction* action = nullptr;
    for (QAction* a : window_->findChildren<QAction*>())
        if (a->text().remove('&') == "Projector Mode")
            action = a;
    QVERIFY(action);
    QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    const QFont normal = QApplication::font();
    QChart* chart = window_->plotPanel()->chartView(PlotPanel::Chart::Violation)->chart();
    QLineSeries* curve = window_->plotPanel()->positionViolationSeries();
    const double width = curve->pen().widthF();
    const double labels = chart->axes().front()->labelsFont().pointSizeF();
    auto corner = [&] { return window_->viewport()->grabFramebuffer().pixelColor(2, 2); };
    const QColor shaded = corner();
    QVERIFY2(shaded != QColor(Qt::white), qPrintable(shaded.name()));

    action->trigger();
    QVERIFY(window_->projectorMode()->isOn());
    QCOMPARE(QApplication::font().pointSizeF(), normal.pointSizeF() * ProjectorMode::kTextScale);
    QCOMPARE(corner(), QColor(Qt::white));
    QCOMPARE(curve->pen().widthF(), width * ProjectorMode::kLineScale);
    QCOMPARE(chart->axes().front()->labelsFont().pointSizeF(), labels * ProjectorMode::kTextScale);
    // The font change reaches the widgets as posted events; the layouts follow them.
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    window_->resize(1024, 728);
    QVERIFY(test::waitUntil([&] { return window_->size() == QSize(1024, 728); }, "the window made 1024 x 728"));
    const QSize least = window_->minimumSizeHint().expandedTo(window_->minimumSize());
    qInfo("projector mode: least window size %d x %d, text %.1f pt", least.width(), least.height(),
          QApplication::font().pointSizeF());
    QVERIFY2(least.width() <= 1024 && least.height() <= 728,
             qPrintable(QString("%1 x %2").arg(least.width()).arg(least.height())));
    QVERIFY(QSettings().value("view/projectorMode").toBool());  // the next window starts so

    action->trigger();
    QVERIFY(!window_->projectorMode()->isOn());
    QCOMPARE(QApplication::font(), normal);
    const QColor again = corner();  // shaded again (the window's height moves the gradient)
    QVERIFY2(again != QColor(Qt::white) && again.blue() > again.red(), qPrintable(again.name()));
    QCOMPARE(curve->pen().widthF(), width);
    QCOMPARE(chart->axes().front()->labelsFont().pointSizeF(), labels);
    QVERIFY(!QSettings().value("view/projectorMode").toBool());
}

// The status line under the view, after "dof, redundant equations", says what
// `looplab-cli check` says of a four-bar: the crank-rocker example (0.1 + 0.4 ≤ 0.4 + 0.3)
// turns its crank, the non-Grashof one (0.68 m > 0.65 m) turns no link fully; a model that
// is not a four-bar says nothing more.
void TestWorkbench::fourBarStatusSaysHowItMoves()
{
    // Coupler and ground are both 0.40 m long in the crank-rocker: either is the longest.
    const std::tuple<const char*, const char*, const char*> cases[] = {
        {"four-bar.json", "; Grashof four-bar: shortest + longest (crank + ",
         " = 0.50 m) ≤ the other two (0.70 m): crank-rocker, crank turns fully"},
        {"non-grashof-four-bar.json", "; non-Grashof four-bar: shortest + longest (crank + ground = 0.68 m) > ",
         "the other two (0.65 m): no link turns fully"},
    };
    for (const auto& [file, first, second] : cases) {
        QString error;
        QVERIFY2(window_->openFile(test::example(file), &error), qPrintable(error));
        const QString status = window_->document()->statusText();
        QVERIFY2(status.startsWith("dof 1, 3 redundant equations") && status.contains(QString::fromUtf8(first)) &&
                     status.contains(QString::fromUtf8(second)),
                 qPrintable(status));
        QCOMPARE(window_->statusBar()->currentMessage(), status);
    }
    QString error;
    QVERIFY2(window_->openFile(test::example("slider-crank.json"), &error), qPrintable(error));
    QVERIFY2(!window_->document()->statusText().contains("four-bar"), qPrintable(window_->document()->statusText()));
}

// The run panel's start list is the core's list of starts, each with its words as its
// tooltip, and shows the file's start (the example's: equilibrium). Choosing a start
// is an edit of the model (undoable): the run starts as chosen, the first row of the
// Warnings panel says what the start gave the members, and the saved file keeps the
// choice. The flexible slider-crank's rod at rest holds 7.2e-4 J of vibration energy
// (tst_startmotion finds it from the rigid slider-crank's closed-form velocities); the
// consistent start leaves rounding of its 0.05 J of kinetic energy (6e-18 J). The energy
// of the run's first recorded frame is computed again from its velocities, so the check
// is of what was run, not of the report.
void TestWorkbench::startOfFlexibleMembersChosenRunAndSaved()
{
    QVERIFY(window_->openFile(example("flexible-slider-crank.json")));
    RunPanel* panel = window_->runPanel();
    auto* start = panel->findChild<QComboBox*>("start");
    QVERIFY(start);
    const std::vector<StartMotionChoice>& choices = startMotionChoices();
    QCOMPARE(start->count(), static_cast<int>(choices.size()));
    for (int i = 0; i < start->count(); ++i) {
        QCOMPARE(start->itemText(i), QString::fromLatin1(choices[size_t(i)].name));
        QCOMPARE(start->itemData(i, Qt::ToolTipRole).toString(), QString::fromUtf8(choices[size_t(i)].description));
    }
    QCOMPARE(window_->document()->document().run.start.value_or(""), std::string("equilibrium"));
    QCOMPARE(start->currentText(), QString("equilibrium"));
    // Choosing the start the model has is no edit.
    chooseWithKeys(start, "rest");
    chooseWithKeys(start, "equilibrium");
    window_->document()->undoStack()->undo();
    window_->document()->undoStack()->undo();
    QVERIFY(!window_->document()->isModified());
    QCOMPARE(start->currentText(), QString("equilibrium"));

    // Short runs, as fast as they go: only the start is looked at.
    SimulationSettings settings = panel->settings();
    settings.tEnd = 0.005;
    panel->setSettings(settings);
    panel->setPace(0.0);
    WarningsPanel* warnings = window_->warningsPanel();
    for (const char* name : {"rest", "consistent"}) {
        chooseWithKeys(start, name);
        QCOMPARE(window_->document()->document().run.start.value_or(""), std::string(name));
        QVERIFY(window_->document()->isModified());
        QVERIFY(test::runToEnd(*window_, true));
        const SimulationRecording& recording = window_->recording();
        QVERIFY(recording.frameCount() > 1);
        QCOMPARE(recording.frame(0).t, 0.0);
        const StartReport run = memberVibration(*recording.frameModel(), recording.frameState(0));
        const StartReport reported = window_->document()->loaded().start;
        QCOMPARE(QString::fromStdString(run.member), QString("rod"));
        QVERIFY2(std::abs(run.vibrationEnergy - reported.vibrationEnergy) <= 1e-12 * 7.2e-4,
                 qPrintable(QString("run %1 J, reported %2 J").arg(run.vibrationEnergy).arg(reported.vibrationEnergy)));
        QVERIFY(warnings->count() >= 1);
        QCOMPARE(warnings->kindAt(0), QString("start"));
        QCOMPARE(warnings->timeAt(0), 0.0);
        const QString text = warnings->view()->topLevelItem(0)->text(3);
        QVERIFY2(text.startsWith(QString("The %1 start gave the members ").arg(name)) && text.contains("most in rod"),
                 qPrintable(text));
        if (std::string(name) == "rest") {
            QVERIFY2(std::abs(run.vibrationEnergy - 7.2e-4) <= 0.05e-4, qPrintable(QString::number(run.vibrationEnergy)));
            QVERIFY2(text.contains("7.2e-4 J of vibration energy") && text.contains("vibrate from the start"),
                     qPrintable(text));
        } else {
            QVERIFY2(run.vibrationEnergy <= 1e-15, qPrintable(QString::number(run.vibrationEnergy)));
            QVERIFY2(text.contains("without straining"), qPrintable(text));
        }
    }

    // Undo brings the rest start back into the list (twice: the keys passed over
    // equilibrium, and each choice is an edit); stored and saved with the run settings, it
    // opens again from the file.
    window_->document()->undoStack()->undo();
    QCOMPARE(start->currentText(), QString("equilibrium"));
    window_->document()->undoStack()->undo();
    QCOMPARE(start->currentText(), QString("rest"));
    window_->presentation()->storeAction()->trigger();
    QTemporaryDir dir;
    const QString saved = dir.filePath("rest-start.json");
    QString error;
    QVERIFY2(window_->saveFile(saved, &error), qPrintable(error));
    QFile f(saved);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject run = QJsonDocument::fromJson(f.readAll()).object().value("run").toObject();
    QCOMPARE(run.value("start").toString(), QString("rest"));
    QCOMPARE(run.value("t_end").toDouble(), 0.005);
    QVERIFY(window_->openFile(example("pendulum.json")));
    QCOMPARE(start->currentText(), QString("consistent"));
    QVERIFY2(window_->openFile(saved, &error), qPrintable(error));
    QCOMPARE(start->currentText(), QString("rest"));
    QVERIFY(!window_->document()->isModified());
    QVERIFY(std::abs(window_->document()->loaded().start.vibrationEnergy - 7.2e-4) <= 0.05e-4);
}

// A run block that names its method and leaves the tolerances out (the cantilever's) opens
// with that method's default tolerances, as `looplab-cli simulate MODEL` runs it, whatever
// the panel held before; tolerances the block gives are the block's. tlismni takes 1e-6 and
// 1e-8 (the panel's own 1e-8 and 1e-10 cost a flexible model ten times the steps, and the
// flexible slider-crank could not keep its pace of 1 in the workbench).
void TestWorkbench::openedModelRunsAsTheCommandLineRunsIt()
{
    RunPanel* panel = window_->runPanel();
    SimulationSettings tight = test::runSettings("projection");
    tight.ode.rtol = 1e-11;
    tight.ode.atol = 1e-13;
    panel->setSettings(tight);
    QVERIFY(window_->openFile(example("cantilever-beam.json")));
    const ModelDocument& doc = window_->document()->document();
    QVERIFY(doc.run.method && !doc.run.rtol && !doc.run.atol);
    const ConstraintMethodInfo* tlismni = findConstraintMethod("tlismni");
    QVERIFY(tlismni);
    QCOMPARE(panel->settings().method, std::string("tlismni"));
    QCOMPARE(panel->settings().integrator, std::string("hht"));
    QVERIFY(exactlyEqual(panel->settings().ode.rtol, tlismni->defaults.rtol));
    QVERIFY(exactlyEqual(panel->settings().ode.atol, tlismni->defaults.atol));
    QCOMPARE(panel->settings().tEnd, 0.2);
    QCOMPARE(panel->pace(), 0.25);

    panel->setSettings(tight);
    QVERIFY(window_->openFile(example("flexible-slider-crank.json")));
    QVERIFY(window_->document()->document().run.rtol);
    QVERIFY(exactlyEqual(panel->settings().ode.rtol, *window_->document()->document().run.rtol));
    panel->setSettings(tight);
    QVERIFY(window_->openFile(example("andrews.json")));
    QVERIFY(window_->document()->document().run.rtol);
    QVERIFY(exactlyEqual(panel->settings().ode.rtol, *window_->document()->document().run.rtol));
    QVERIFY(exactlyEqual(panel->settings().ode.atol, *window_->document()->document().run.atol));
}

QTEST_MAIN(TestWorkbench)
#include "tst_workbench.moc"
