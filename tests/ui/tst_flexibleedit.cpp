// Beams and solids created, edited and deleted in the workbench: the Edit menu's Add
// actions, the property editor's fields, undo, the loader's refusals, and joints that
// hold a beam by one of its nodes. Node sets made, edited, renamed and deleted the same
// way, with what holds them following; gear pairs and other couplers too.

#include "WorkbenchTestSupport.h"

#include "looplab/analysis/Statics.h"
#include "looplab/files/ModelFile.h"
#include "workbench/ModelTreeModel.h"
#include "workbench/PropertyEditor.h"
#include "document/WorkbenchDocument.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace looplab;
using namespace looplab::ui;

class TestFlexibleEdit : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::useThrowAwaySettings("tst_flexibleedit"); }
    void init();
    void cleanup() { window_.reset(); }

    void addedBeamIsEditedAndUndone();
    void clampedBeamDeflectsAsBeamTheory();
    void badValuesAreRefusedWithTheLoadersReason();
    void addedSolidIsEditedAndUndone();
    void deletingABeamTakesWhatHoldsIt();
    void nodeSetIsMadeEditedRenamedAndDeleted();
    void badNodeSetsAreRefusedWithTheLoadersReason();
    void gearPairIsAddedEditedAndUndone();
    void camIsEditedAndUndone();

private:
    void triggerAdd(const QString& text);
    // The current form's editor: a replaced form is hidden until it is deleted.
    template <typename T>
    T* field(const char* name) const
    {
        for (T* w : window_->propertyEditor()->findChildren<T*>(name))
            if (w->isVisible())
                return w;
        return nullptr;
    }
    void type(const char* name, const QString& text);
    std::string json() const { return serializeModelDocument(window_->document()->document()); }
    int coordinatesOf(const char* body) const;
    double tipDeflection(int elements) const;

    std::unique_ptr<MainWindow> window_;
};

void TestFlexibleEdit::init()
{
    window_ = test::shownWindow();
    QVERIFY(window_);
    window_->document()->newDocument();
}

void TestFlexibleEdit::triggerAdd(const QString& text)
{
    QAction* add = nullptr;
    for (QAction* action : window_->menuBar()->findChildren<QAction*>())
        if (action->text() == text)
            add = action;
    QVERIFY2(add, qPrintable(text));
    add->trigger();
}

void TestFlexibleEdit::type(const char* name, const QString& text)
{
    auto* edit = field<QLineEdit>(name);
    QVERIFY2(edit, name);
    edit->setText(text);
    emit edit->editingFinished();
}

int TestFlexibleEdit::coordinatesOf(const char* body) const
{
    const auto& model = window_->document()->loaded().model;
    if (!model)
        return -1;
    const auto b = model->findBody(body);
    return b ? model->velocitySliceSize(*b) : -1;
}

// The y of the tip node at static equilibrium; the node's 6 numbers are its position
// and its slope.
double TestFlexibleEdit::tipDeflection(int elements) const
{
    const LoadedModel& loaded = window_->document()->loaded();
    if (!loaded.ok())
        return NAN;
    State s = loaded.initial;
    const StaticsResult r = findEquilibrium(*loaded.model, s);
    if (!r.ok)
        return NAN;
    return s.q[loaded.model->positionOffset(*loaded.model->findBody("beam")) + 6 * elements + 1];
}

// Add beam gives 1 m of steel in 8 elements, 9 nodes of 6 numbers; 4 elements leave 5.
void TestFlexibleEdit::addedBeamIsEditedAndUndone()
{
    WorkbenchDocument* doc = window_->document();
    const std::string empty = json();
    triggerAdd("Add beam");
    QCOMPARE(doc->document().beams.size(), size_t(1));
    QCOMPARE(window_->selectedItem(), (ItemRef{ItemKind::Beam, 0}));
    QCOMPARE(window_->treeModel()->rowCount(window_->treeModel()->groupIndex(ItemKind::Beam)), 1);
    QCOMPARE(window_->treeModel()->itemIndex({ItemKind::Beam, 0}).data(Qt::ToolTipRole).toString(),
             QString("8 elements, 1 m; nodes beam.root … beam.tip"));
    QCOMPARE(window_->propertyEditor()->item(), (ItemRef{ItemKind::Beam, 0}));
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));
    QCOMPARE(coordinatesOf("beam"), 54);
    const std::string added = json();

    auto* elements = field<QSpinBox>("elements");
    QVERIFY(elements);
    QCOMPARE(elements->value(), 8);
    elements->setValue(4);
    QCOMPARE(doc->document().beams[0].elements, 4);
    QCOMPARE(coordinatesOf("beam"), 30);

    type("material.young_modulus", "7e10");
    QCOMPARE(doc->document().beams[0].material.youngModulus, 7e10);

    doc->undoStack()->undo();
    doc->undoStack()->undo();
    QCOMPARE(json(), added);
    QCOMPARE(coordinatesOf("beam"), 54);
    QCOMPARE(field<QSpinBox>("elements")->value(), 8);
    doc->undoStack()->undo();
    QCOMPARE(json(), empty);
    QCOMPARE(window_->treeModel()->rowCount(window_->treeModel()->groupIndex(ItemKind::Beam)), 0);
    doc->undoStack()->redo();
    QCOMPARE(json(), added);
}

// Clamped at its root by a fixed joint whose second body is the node "beam.root" (chosen
// in the joint's editor), loaded by 10 N at the tip: the cubic cable elements give beam
// theory's PL³/3EI = 10 N · 1 m³ / (3 · 210 GPa · (0.02 m)⁴/12) = 1.19 mm, and twice E
// halves it.
void TestFlexibleEdit::clampedBeamDeflectsAsBeamTheory()
{
    WorkbenchDocument* doc = window_->document();
    triggerAdd("Add beam");
    field<QSpinBox>("elements")->setValue(4);

    triggerAdd("Add joint");
    QCOMPARE(window_->selectedItem(), (ItemRef{ItemKind::Joint, 0}));
    field<QComboBox>("type")->setCurrentText("fixed");
    auto* body2 = field<QComboBox>("body2");
    QVERIFY(body2);
    QVERIFY(body2->findText("beam.root") >= 0);
    QVERIFY(body2->findText("beam.node3") >= 0);
    field<QComboBox>("body1")->setCurrentText("ground");
    field<QComboBox>("body2")->setCurrentText("beam.root");
    field<QDoubleSpinBox>("axis.x")->setValue(1.0);
    field<QDoubleSpinBox>("axis.z")->setValue(0.0);
    QCOMPARE(doc->document().joints[0].body2, std::string("beam.root"));

    doc->edit("Load the tip", [](ModelDocument& d) {
        d.gravity = Vec3::Zero();
        ForceDoc tip;
        tip.name = "tip load";
        tip.type = ForceType::BodyForce;
        tip.body = "beam.tip";
        tip.vector = Vec3(0, -10, 0);
        d.forces.push_back(tip);
    });
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));
    // 5 nodes of 6 numbers, 5 of them held by the clamp.
    QCOMPARE(doc->dof(), 25);

    const double a = 0.02, theory = 10.0 / (3.0 * 210e9 * a * a * a * a / 12.0);
    const double soft = tipDeflection(4);
    QVERIFY2(std::abs(-soft - theory) < 1e-2 * theory, qPrintable(QString("%1 against %2").arg(soft).arg(theory)));

    window_->selectItem({ItemKind::Beam, 0});
    type("material.young_modulus", "4.2e11");
    QCOMPARE(doc->document().beams[0].material.youngModulus, 4.2e11);
    const double stiff = tipDeflection(4);
    qInfo("tip deflection %.6e m (E = 210 GPa), %.6e m (E = 420 GPa); PL^3/3EI %.6e m", soft, stiff, theory);
    QVERIFY2(std::abs(soft / stiff - 2.0) < 1e-3, qPrintable(QString("%1 / %2").arg(soft).arg(stiff)));
}

void TestFlexibleEdit::badValuesAreRefusedWithTheLoadersReason()
{
    WorkbenchDocument* doc = window_->document();
    triggerAdd("Add beam");
    const std::string before = json();
    const int steps = doc->undoStack()->count();
    PropertyEditor* editor = window_->propertyEditor();

    type("material.young_modulus", "-5");
    QVERIFY2(editor->message().contains("/beams/0/material/young_modulus: Young's modulus must be positive (got -5)"),
             qPrintable(editor->message()));
    QCOMPARE(json(), before);
    QCOMPARE(field<QLineEdit>("material.young_modulus")->text(), QString("2.1e+11"));

    type("section.width", "abc");
    QVERIFY2(editor->message().startsWith("/beams/0/section/width: "), qPrintable(editor->message()));
    type("material.poisson_ratio", "0.5");
    QVERIFY2(editor->message().contains("Poisson's ratio must lie in"), qPrintable(editor->message()));

    // End B moved onto end A.
    field<QDoubleSpinBox>("to.x")->setValue(0.0);
    QVERIFY2(editor->message().contains("/beams/0/to: the beam's two end points coincide"),
             qPrintable(editor->message()));
    QCOMPARE(doc->document().beams[0].to, Vec3(Vec3::UnitX()));
    QCOMPARE(field<QDoubleSpinBox>("to.x")->value(), 1.0);
    QCOMPARE(json(), before);
    QCOMPARE(doc->undoStack()->count(), steps);
    QVERIFY(doc->loaded().ok());

    // A section switched to a circle keeps its area, so the beam still builds.
    field<QComboBox>("section.type")->setCurrentText("circle");
    QVERIFY2(editor->message().isEmpty(), qPrintable(editor->message()));
    const SectionDoc& sec = doc->document().beams[0].section;
    QCOMPARE(int(sec.shape), int(SectionDoc::Shape::Circle));
    QVERIFY(std::abs(M_PI * sec.radius * sec.radius - 4e-4) < 1e-15);
    QVERIFY(field<QLineEdit>("section.radius"));
    QVERIFY(doc->loaded().ok());
}

// Add solid gives an aluminium cube of 2 × 2 × 2 hexahedra: 27 nodes of 3 numbers; 3
// elements along x make 4 × 3 × 3 nodes.
void TestFlexibleEdit::addedSolidIsEditedAndUndone()
{
    WorkbenchDocument* doc = window_->document();
    triggerAdd("Add solid");
    QCOMPARE(doc->document().solids.size(), size_t(1));
    QCOMPARE(window_->selectedItem(), (ItemRef{ItemKind::Solid, 0}));
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));
    QCOMPARE(coordinatesOf("solid"), 81);
    const std::string added = json();

    field<QSpinBox>("elements.x")->setValue(3);
    QCOMPARE(coordinatesOf("solid"), 108);
    field<QDoubleSpinBox>("size.z")->setValue(0.3);
    QCOMPARE(doc->document().solids[0].size.z(), 0.3);
    type("material.density", "0");
    QVERIFY2(window_->propertyEditor()->message().contains("/solids/0/material/density: density must be positive"),
             qPrintable(window_->propertyEditor()->message()));
    QCOMPARE(doc->document().solids[0].material.density, 2700.0);

    doc->undoStack()->undo();
    doc->undoStack()->undo();
    QCOMPARE(json(), added);
    QCOMPARE(coordinatesOf("solid"), 81);

    // A joint holds the box by a face (a node set).
    triggerAdd("Add joint");
    auto* body2 = field<QComboBox>("body2");
    QVERIFY(body2);
    QVERIFY(body2->findText("solid.xmin") >= 0);
    QVERIFY(body2->findText("solid.zmax") >= 0);
    QVERIFY(body2->findText("solid") < 0);
}

// Deleting a beam deletes the joints and forces that hold its nodes, as deleting a rigid
// body deletes its joints; renaming it renames the nodes they name.
void TestFlexibleEdit::deletingABeamTakesWhatHoldsIt()
{
    WorkbenchDocument* doc = window_->document();
    triggerAdd("Add beam");
    triggerAdd("Add body");
    doc->edit("Hold the beam", [](ModelDocument& d) {
        JointDoc clamp;
        clamp.name = "clamp";
        clamp.type = JointType::Fixed;
        clamp.body1 = kGroundName;
        clamp.body2 = "beam.root";
        clamp.axis = Vec3::UnitX();
        d.joints.push_back(clamp);
        ForceDoc tip;
        tip.name = "tip load";
        tip.type = ForceType::BodyForce;
        tip.body = "beam.tip";
        tip.vector = Vec3(0, -1, 0);
        d.forces.push_back(tip);
        ForceDoc other;
        other.name = "on the body";
        other.type = ForceType::BodyForce;
        other.body = "body";
        d.forces.push_back(other);
    });
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));

    ModelTreeModel* tree = window_->treeModel();
    QVERIFY(tree->setData(tree->itemIndex({ItemKind::Beam, 0}), "girder"));
    QCOMPARE(doc->document().joints[0].body2, std::string("girder.root"));
    QCOMPARE(doc->document().forces[0].body, std::string("girder.tip"));
    QCOMPARE(doc->document().forces[1].body, std::string("body"));
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));
    // A rigid body may not take a beam's name.
    QVERIFY(!tree->setData(tree->itemIndex({ItemKind::Body, 0}), "girder"));

    const std::string before = json();
    const Dependants deps = dependantsOf(doc->document(), {ItemKind::Beam, 0});
    QCOMPARE(deps.joints, std::vector<std::string>{"clamp"});
    QCOMPARE(deps.forces, std::vector<std::string>{"tip load"});
    doc->edit("Delete girder", [](ModelDocument& d) { removeItem(d, {ItemKind::Beam, 0}); });
    QVERIFY(doc->document().beams.empty());
    QVERIFY(doc->document().joints.empty());
    QCOMPARE(doc->document().forces.size(), size_t(1));
    QCOMPARE(doc->document().forces[0].name, std::string("on the body"));
    doc->undoStack()->undo();
    QCOMPARE(json(), before);
}

// A node set of three beam nodes, pinned to the ground by one spherical joint (one pin of
// 3 equations per node, model-format.md) and loaded by one body force: renaming the set
// renames what holds it, renaming the beam renames the set's nodes, deleting the set
// takes the joint and the force, every step undoable; the saved file reads back the same.
void TestFlexibleEdit::nodeSetIsMadeEditedRenamedAndDeleted()
{
    WorkbenchDocument* doc = window_->document();
    ModelTreeModel* tree = window_->treeModel();

    // Nothing to list yet: refused, and nothing changes.
    const std::string empty = json();
    triggerAdd("Add node set");
    QVERIFY2(window_->statusBar()->currentMessage().contains("add a beam or solid first"),
             qPrintable(window_->statusBar()->currentMessage()));
    QCOMPARE(json(), empty);
    QCOMPARE(doc->undoStack()->count(), 0);

    triggerAdd("Add beam");
    triggerAdd("Add node set");
    QCOMPARE(doc->document().nodeSets.size(), size_t(1));
    QCOMPARE(doc->document().nodeSets[0].name, std::string("nodes"));
    QCOMPARE(doc->document().nodeSets[0].nodes, std::vector<std::string>{"beam.tip"});
    QCOMPARE(window_->selectedItem(), (ItemRef{ItemKind::NodeSet, 0}));
    QCOMPARE(tree->rowCount(tree->groupIndex(ItemKind::NodeSet)), 1);
    QCOMPARE(tree->groupIndex(ItemKind::NodeSet).data().toString(), QString("Node sets (1)"));
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));
    QVERIFY(field<QLabel>("availableNodes"));
    QVERIFY(field<QLabel>("availableNodes")->text().contains("beam.root … beam.tip (beam.node0 … beam.node8)"));

    type("nodes", "beam.root, beam.node4 beam.tip");
    QCOMPARE(doc->document().nodeSets[0].nodes, (std::vector<std::string>{"beam.root", "beam.node4", "beam.tip"}));
    QCOMPARE(field<QLineEdit>("nodes")->text(), QString("beam.root, beam.node4, beam.tip"));
    QCOMPARE(tree->itemIndex({ItemKind::NodeSet, 0}).data(Qt::ToolTipRole).toString(),
             QString("3 nodes: beam.root, beam.node4, beam.tip"));
    type("name", "ends");
    QCOMPARE(doc->document().nodeSets[0].name, std::string("ends"));

    // The joint and the force choose the set where they would choose a body.
    triggerAdd("Add joint");
    field<QComboBox>("type")->setCurrentText("spherical");
    QVERIFY(field<QComboBox>("body2")->findText("ends") >= 0);
    field<QComboBox>("body1")->setCurrentText("ground");
    field<QComboBox>("body2")->setCurrentText("ends");
    QCOMPARE(doc->document().joints[0].body2, std::string("ends"));
    doc->edit("Load the set", [](ModelDocument& d) {
        ForceDoc load;
        load.name = "load";
        load.type = ForceType::BodyForce;
        load.body = "ends";
        load.vector = Vec3(0, -3, 0);
        d.forces.push_back(load);
    });
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));
    // 9 nodes of 6 numbers; three pins of 3 equations each.
    QCOMPARE(doc->dof(), 54 - 9);
    const auto& model = *doc->loaded().model;
    QVERIFY(model.findJoint("joint:beam.node4"));
    QVERIFY(model.findJoint("joint:beam.tip"));

    QVERIFY(tree->setData(tree->itemIndex({ItemKind::NodeSet, 0}), "held"));
    QCOMPARE(doc->document().nodeSets[0].name, std::string("held"));
    QCOMPARE(doc->document().joints[0].body2, std::string("held"));
    QCOMPARE(doc->document().forces[0].body, std::string("held"));
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));
    QCOMPARE(doc->dof(), 45);
    // A set may not take a body's name, nor a body a set's.
    QVERIFY(!tree->setData(tree->itemIndex({ItemKind::NodeSet, 0}), "beam"));
    QVERIFY(!tree->setData(tree->itemIndex({ItemKind::Beam, 0}), "held"));

    QVERIFY(tree->setData(tree->itemIndex({ItemKind::Beam, 0}), "girder"));
    QCOMPARE(doc->document().nodeSets[0].nodes,
             (std::vector<std::string>{"girder.root", "girder.node4", "girder.tip"}));
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));
    QCOMPARE(doc->dof(), 45);

    // The file reads back to the same document, and the loader builds it.
    QTemporaryDir dir;
    const QString path = dir.filePath("sets.json");
    QVERIFY(window_->saveFile(path));
    const DocumentResult read = readModelDocument(path.toStdString());
    QVERIFY(read.document);
    QCOMPARE(serializeModelDocument(*read.document), json());
    QCOMPARE(read.document->nodeSets.size(), size_t(1));
    QCOMPARE(read.document->nodeSets[0].nodes, doc->document().nodeSets[0].nodes);
    QVERIFY(prepareModel(*read.document).ok());

    // Deleting the set takes what holds it; deleting the beam takes the set.
    const std::string before = json();
    const int steps = doc->undoStack()->count();
    const Dependants deps = dependantsOf(doc->document(), {ItemKind::NodeSet, 0});
    QCOMPARE(deps.joints, std::vector<std::string>{"joint"});
    QCOMPARE(deps.forces, std::vector<std::string>{"load"});
    QCOMPARE(dependantsOf(doc->document(), {ItemKind::Beam, 0}).nodeSets, std::vector<std::string>{"held"});
    doc->edit("Delete held", [](ModelDocument& d) { removeItem(d, {ItemKind::NodeSet, 0}); });
    QVERIFY(doc->document().nodeSets.empty());
    QVERIFY(doc->document().joints.empty());
    QVERIFY(doc->document().forces.empty());
    QCOMPARE(tree->rowCount(tree->groupIndex(ItemKind::NodeSet)), 0);
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));
    doc->undoStack()->undo();
    QCOMPARE(json(), before);
    QCOMPARE(tree->rowCount(tree->groupIndex(ItemKind::NodeSet)), 1);
    doc->undoStack()->redo();
    QVERIFY(doc->document().nodeSets.empty());
    doc->undoStack()->undo();
    doc->edit("Delete girder", [](ModelDocument& d) { removeItem(d, {ItemKind::Beam, 0}); });
    QVERIFY(doc->document().nodeSets.empty());
    QVERIFY(doc->document().joints.empty());
    doc->undoStack()->undo();
    QCOMPARE(json(), before);
    QCOMPARE(doc->undoStack()->index(), steps);

    // Back to the empty document, step by step.
    while (doc->undoStack()->canUndo())
        doc->undoStack()->undo();
    QCOMPARE(json(), empty);
}

// Unknown nodes, an empty list, a node listed twice and taken names are refused with the
// loader's reason and location; the document and the undo stack stay as they were.
void TestFlexibleEdit::badNodeSetsAreRefusedWithTheLoadersReason()
{
    WorkbenchDocument* doc = window_->document();
    triggerAdd("Add body");
    triggerAdd("Add beam");
    triggerAdd("Add node set");
    triggerAdd("Add node set");
    QCOMPARE(doc->document().nodeSets[1].name, std::string("nodes_2"));
    QCOMPARE(window_->selectedItem(), (ItemRef{ItemKind::NodeSet, 1}));
    const std::string before = json();
    const int steps = doc->undoStack()->count();
    PropertyEditor* editor = window_->propertyEditor();
    auto unchanged = [&] {
        QCOMPARE(json(), before);
        QCOMPARE(doc->undoStack()->count(), steps);
        QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));
    };

    type("nodes", "beam.root, beam.node9");
    QVERIFY2(editor->message().startsWith("/node_sets/1/nodes/1: unknown node 'beam.node9'"),
             qPrintable(editor->message()));
    QVERIFY(editor->message().endsWith("; the node set is unchanged"));
    unchanged();
    type("nodes", " , ");
    QVERIFY2(editor->message().startsWith("/node_sets/1/nodes: node set 'nodes_2' has no nodes: list at least one"),
             qPrintable(editor->message()));
    unchanged();
    type("nodes", "beam.tip beam.node8");
    QVERIFY2(editor->message().startsWith("/node_sets/1/nodes/1: node 'beam.node8' is listed twice in node set 'nodes_2'"),
             qPrintable(editor->message()));
    unchanged();
    type("nodes", "beam.xmin");
    QVERIFY2(editor->message().startsWith("/node_sets/1/nodes/0: unknown node 'beam.xmin'"), qPrintable(editor->message()));
    unchanged();

    type("name", "nodes");
    QVERIFY2(editor->message().startsWith("/node_sets/1/name: duplicate node set name 'nodes'"),
             qPrintable(editor->message()));
    QCOMPARE(field<QLineEdit>("name")->text(), QString("nodes_2"));
    unchanged();
    type("name", "body");
    QVERIFY2(editor->message().startsWith("/node_sets/1/name: node set name 'body' is the name of a body"),
             qPrintable(editor->message()));
    unchanged();
    type("name", "beam.node3");
    QVERIFY2(editor->message().startsWith("/node_sets/1/name: node set name 'beam.node3' is the name of a node"),
             qPrintable(editor->message()));
    unchanged();
    type("name", "  ");
    QVERIFY2(editor->message().startsWith("/node_sets/1/name: node set has an empty name"), qPrintable(editor->message()));
    unchanged();

    // A good list after the bad ones is taken, and clears the message.
    type("nodes", "beam.node2");
    QVERIFY(editor->message().isEmpty());
    QCOMPARE(doc->document().nodeSets[1].nodes, std::vector<std::string>{"beam.node2"});
    QCOMPARE(doc->undoStack()->count(), steps + 1);
}

// The gear train's first stage: the tree lists it, its teeth are edited (the model
// rebuilds with the new ratio: 20:60 becomes 20:40 only if the axes' distance allows, so
// the test sizes it by radii the loader accepts), renaming a joint follows into it,
// deleting a joint takes it, and undo brings everything back. "Add coupler" makes a gear
// pair between the first two revolutes that share a body.
void TestFlexibleEdit::gearPairIsAddedEditedAndUndone()
{
    WorkbenchDocument* doc = window_->document();
    QString error;
    QVERIFY2(doc->open(test::example("gear-train.json"), &error), qPrintable(error));
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));
    const std::string opened = json();
    QCOMPARE(window_->treeModel()->rowCount(window_->treeModel()->groupIndex(ItemKind::Coupler)), 2);
    QCOMPARE(window_->treeModel()->itemIndex({ItemKind::Coupler, 0}).data(Qt::ToolTipRole).toString(),
             QString("gear: input shaft – compound shaft"));
    window_->selectItem({ItemKind::Coupler, 0});
    QCOMPARE(window_->propertyEditor()->item(), (ItemRef{ItemKind::Coupler, 0}));
    QCOMPARE(field<QSpinBox>("teeth2")->value(), 60);

    // 20:60 about axes 0.08 m apart; 30:90 keeps the distance (pitch radii from it).
    field<QSpinBox>("teeth1")->setValue(30);
    field<QSpinBox>("teeth2")->setValue(90);
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));
    QCOMPARE(*doc->document().couplers[0].teeth2, 90);

    // Sized by radii: the radii the teeth gave, so the pair still builds.
    field<QComboBox>("sizedBy")->setCurrentText("pitch radii");
    QVERIFY(!doc->document().couplers[0].teeth1);
    QVERIFY(std::abs(*doc->document().couplers[0].radius1 - 0.02) < 1e-15);
    QVERIFY(std::abs(*doc->document().couplers[0].radius2 - 0.06) < 1e-15);
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));
    // A radius that leaves the pitch circles apart: the loader says so, naming the coupler.
    field<QDoubleSpinBox>("radius2")->setValue(0.05);
    QVERIFY(!doc->loaded().ok());
    QVERIFY2(doc->statusText().contains("do not touch"), qPrintable(doc->statusText()));

    // Renaming a joint follows into both stages; deleting it takes them.
    doc->edit("Rename", [](ModelDocument& d) { renameItem(d, {ItemKind::Joint, 1}, "middle shaft"); });
    QCOMPARE(doc->document().couplers[0].joints[1], std::string("middle shaft"));
    QCOMPARE(doc->document().couplers[1].joints[0], std::string("middle shaft"));
    const Dependants deps = dependantsOf(doc->document(), {ItemKind::Joint, 1});
    QCOMPARE(deps.couplers, (std::vector<std::string>{"first stage", "second stage"}));
    doc->edit("Delete", [](ModelDocument& d) { removeItem(d, {ItemKind::Joint, 1}); });
    QCOMPARE(doc->document().couplers.size(), size_t(0));
    while (doc->undoStack()->canUndo())
        doc->undoStack()->undo();
    QCOMPARE(json(), opened);

    triggerAdd("Add coupler");
    QCOMPARE(window_->selectedItem(), (ItemRef{ItemKind::Coupler, 2}));
    const CouplerDoc& added = doc->document().couplers[2];
    QCOMPARE(added.joints, (std::vector<std::string>{"input shaft", "compound shaft"}));
    QCOMPARE(*added.teeth1, 20);
    QCOMPARE(*added.teeth2, 40);
    field<QComboBox>("type")->setCurrentText("linear");
    QCOMPARE(doc->document().couplers[2].coefficients, (std::vector<double>{1.0, -1.0}));
    QVERIFY(field<QLineEdit>("coefficient2"));
    doc->undoStack()->undo();
    doc->undoStack()->undo();
    QCOMPARE(json(), opened);
}

// A cam's follower, roller and law segments in the property editor, each edit rebuilding
// the model (a roller too large is refused with its reason) and undone in the end.
void TestFlexibleEdit::camIsEditedAndUndone()
{
    WorkbenchDocument* doc = window_->document();
    QString error;
    QVERIFY2(doc->open(test::example("cam-roller-follower.json"), &error), qPrintable(error));
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));
    const std::string opened = json();
    window_->selectItem({ItemKind::Coupler, 0});
    QCOMPARE(field<QComboBox>("type")->currentText(), QString("cam"));
    QCOMPARE(field<QComboBox>("follower")->currentText(), QString("roller"));
    QCOMPARE(field<QComboBox>("motion3")->currentText(), QString("cycloidal"));
    QVERIFY(!field<QDoubleSpinBox>("lift2"));  // a dwell has no lift

    // A roller wider than the pitch curve's reach from the axis: refused, with the reason.
    field<QDoubleSpinBox>("rollerRadius")->setValue(0.06);
    QVERIFY(!doc->loaded().ok());
    QVERIFY2(doc->statusText().contains("reaches the cam's axis"), qPrintable(doc->statusText()));
    field<QDoubleSpinBox>("rollerRadius")->setValue(0.015);
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));
    QCOMPARE(doc->loaded().model->couplers[0].cam->rollerRadius, 0.015);

    // The rise as a 3-4-5 polynomial: at a quarter of it the lift is h(10/64 − 15/256 + 6/1024).
    field<QComboBox>("motion1")->setCurrentText("polynomial345");
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));
    const double x = 0.25, h = 0.025;
    const double lift = doc->loaded().model->couplers[0].cam->law.evaluate(x * 2.0 * M_PI / 3.0).lift;
    QVERIFY(std::abs(lift - h * (10 * x * x * x - 15 * x * x * x * x + 6 * std::pow(x, 5))) < 1e-15);

    // A knife edge has no roller.
    field<QComboBox>("follower")->setCurrentText("knife_edge");
    QVERIFY2(doc->loaded().ok(), qPrintable(doc->statusText()));
    QVERIFY(!field<QDoubleSpinBox>("rollerRadius"));
    while (doc->undoStack()->canUndo())
        doc->undoStack()->undo();
    QCOMPARE(json(), opened);
}

QTEST_MAIN(TestFlexibleEdit)
#include "tst_flexibleedit.moc"
