// The property editor's fields of beams and solids (PropertyEditor.h): kept apart from
// the rigid items' fields because their numbers span many decades (moduli of 1e11 Pa,
// second moments of 1e-8 m⁴) and are typed in full rather than stepped.

#include "workbench/PropertyEditor.h"

#include "document/WorkbenchDocument.h"

#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>

#include <cmath>

namespace looplab::ui {

namespace {

QString memberText(const std::string& s) { return QString::fromStdString(s); }

std::string memberPointer(const char* list, size_t index, const char* field)
{
    return std::string("/") + list + "/" + std::to_string(index) + "/" + field;
}

const char* sectionShapeName(SectionDoc::Shape shape)
{
    switch (shape) {
    case SectionDoc::Shape::Rectangle: return "rectangle";
    case SectionDoc::Shape::Circle: return "circle";
    case SectionDoc::Shape::Direct: return "direct";
    }
    return "rectangle";
}

// A section of a new shape starts with the area (and, given directly, the second moment)
// of the old one, so that switching the shape alone never leaves a section that does
// not build.
void setSectionShape(SectionDoc& sec, SectionDoc::Shape shape)
{
    constexpr double kPi = 3.14159265358979323846;
    double area = 0.0, inertia = 0.0;
    switch (sec.shape) {
    case SectionDoc::Shape::Rectangle:
        area = sec.width * sec.height;
        inertia = sec.width * std::pow(sec.height, 3) / 12.0;
        break;
    case SectionDoc::Shape::Circle:
        area = kPi * sec.radius * sec.radius;
        inertia = kPi * std::pow(sec.radius, 4) / 4.0;
        break;
    case SectionDoc::Shape::Direct:
        area = sec.area;
        inertia = sec.inertia;
        break;
    }
    sec.shape = shape;
    const bool known = std::isfinite(area) && area > 0.0;
    switch (shape) {
    case SectionDoc::Shape::Rectangle:
        if (known && !(sec.width > 0.0 && sec.height > 0.0))
            sec.width = sec.height = std::sqrt(area);
        break;
    case SectionDoc::Shape::Circle:
        if (known && !(sec.radius > 0.0))
            sec.radius = std::sqrt(area / kPi);
        break;
    case SectionDoc::Shape::Direct:
        if (known && !(sec.area > 0.0 && sec.inertia > 0.0)) {
            sec.area = area;
            sec.inertia = inertia;
        }
        break;
    }
}

template <typename Document>
auto& materialOf(Document& d, ItemKind kind, size_t i)
{
    return kind == ItemKind::Beam ? d.beams[i].material : d.solids[i].material;
}

}  // namespace

void PropertyEditor::addExactNumber(const QString& label, const QString& key, const QString& unit,
                                    const std::string& location, Getter get, Setter set)
{
    auto* edit = new QLineEdit;
    edit->setObjectName(key);
    layout_->addRow(unit.isEmpty() ? label : QString("%1 [%2]").arg(label, unit), edit);
    refreshers_.push_back([this, edit, get] {
        QSignalBlocker block(edit);
        edit->setText(memberText(formatNumberList({get(document_->document())})));
        edit->setCursorPosition(0);
    });
    connect(edit, &QLineEdit::editingFinished, this, [this, edit, key, location, get, set] {
        // A form being replaced loses the focus as it hides: its text may be older than
        // the document and must not be written back.
        if (!form_ || !form_->isAncestorOf(edit))
            return;
        std::vector<double> values;
        Diagnostic problem;
        const bool parsed = parseCoefficients(edit->text().toStdString(), values, problem);
        if (!parsed || values.size() != 1) {
            refuse(location, parsed ? tr("expected one number; the value is unchanged")
                                    : tr("%1; the value is unchanged").arg(memberText(problem.message)));
            return;
        }
        const double value = values.front();
        if (value == get(document_->document()))
            return;
        commit(key, [set, value](ModelDocument& d) { set(d, value); });
    });
}

void PropertyEditor::addCount(const QString& label, const QString& key, int maximum,
                              std::function<int(const ModelDocument&)> get, std::function<void(ModelDocument&, int)> set)
{
    auto* spin = new QSpinBox;
    spin->setObjectName(key);
    spin->setRange(1, maximum);
    // A typed count of 1000 would otherwise rebuild the model at 1, 10 and 100 on the way.
    spin->setKeyboardTracking(false);
    layout_->addRow(label, spin);
    refreshers_.push_back([this, spin, get] {
        QSignalBlocker block(spin);
        spin->setValue(get(document_->document()));
    });
    connect(spin, &QSpinBox::valueChanged, this,
            [this, key, set](int value) { commit(key, [set, value](ModelDocument& d) { set(d, value); }); });
}

void PropertyEditor::addMaterialFields()
{
    const auto i = static_cast<size_t>(item_.index);
    const ItemKind kind = item_.kind;
    const char* list = describe(kind).fileList;
    auto field = [this, i, kind, list](const QString& label, const QString& key, const QString& unit,
                                       const char* pointerField, double MaterialDoc::*member) {
        addExactNumber(label, key, unit, memberPointer(list, i, pointerField),
                       [i, kind, member](const ModelDocument& d) { return materialOf(d, kind, i).*member; },
                       [i, kind, member](ModelDocument& d, double v) { materialOf(d, kind, i).*member = v; });
    };
    field(tr("Young's modulus E"), "material.young_modulus", "Pa", "material/young_modulus", &MaterialDoc::youngModulus);
    field(tr("Poisson's ratio ν"), "material.poisson_ratio", "", "material/poisson_ratio", &MaterialDoc::poissonRatio);
    field(tr("Density ρ"), "material.density", "kg/m³", "material/density", &MaterialDoc::density);
    field(tr("Stiffness damping β"), "material.stiffness_damping", "s", "material/stiffness_damping",
          &MaterialDoc::stiffnessDamping);
}

void PropertyEditor::addBeamFields()
{
    const auto i = static_cast<size_t>(item_.index);
    addVector(tr("End A (from)"), "from", "m", [i](const ModelDocument& d) { return d.beams[i].from; },
              [i](ModelDocument& d, const Vec3& v) { d.beams[i].from = v; });
    addVector(tr("End B (to)"), "to", "m", [i](const ModelDocument& d) { return d.beams[i].to; },
              [i](ModelDocument& d, const Vec3& v) { d.beams[i].to = v; });
    addCount(tr("Elements"), "elements", kMaxBeamElements, [i](const ModelDocument& d) { return d.beams[i].elements; },
             [i](ModelDocument& d, int n) { d.beams[i].elements = n; });
    addChoice(tr("Section"), "section.type", {"rectangle", "circle", "direct"},
              [i](const ModelDocument& d) { return QString(sectionShapeName(d.beams[i].section.shape)); },
              [i](ModelDocument& d, const QString& v) {
                  SectionDoc::Shape shape = SectionDoc::Shape::Rectangle;
                  if (v == "circle")
                      shape = SectionDoc::Shape::Circle;
                  else if (v == "direct")
                      shape = SectionDoc::Shape::Direct;
                  setSectionShape(d.beams[i].section, shape);
              });
    auto section = [this, i](const QString& label, const QString& key, const QString& unit, const char* pointerField,
                             double SectionDoc::*member) {
        addExactNumber(label, key, unit, memberPointer("beams", i, pointerField),
                       [i, member](const ModelDocument& d) { return d.beams[i].section.*member; },
                       [i, member](ModelDocument& d, double v) { d.beams[i].section.*member = v; });
    };
    switch (document_->document().beams[i].section.shape) {
    case SectionDoc::Shape::Rectangle:
        section(tr("Width"), "section.width", "m", "section/width", &SectionDoc::width);
        section(tr("Height"), "section.height", "m", "section/height", &SectionDoc::height);
        break;
    case SectionDoc::Shape::Circle: section(tr("Radius"), "section.radius", "m", "section/radius", &SectionDoc::radius); break;
    case SectionDoc::Shape::Direct:
        section(tr("Area A"), "section.area", "m²", "section/area", &SectionDoc::area);
        section(tr("Second moment I"), "section.inertia", "m⁴", "section/inertia", &SectionDoc::inertia);
        break;
    }
    addMaterialFields();
    addExactNumber(tr("Preload (tension)"), "preload", "N", memberPointer("beams", i, "preload"),
                   [i](const ModelDocument& d) { return d.beams[i].preload; },
                   [i](ModelDocument& d, double v) { d.beams[i].preload = v; });
}

void PropertyEditor::addSolidFields()
{
    const auto i = static_cast<size_t>(item_.index);
    addVector(tr("Corner (origin)"), "origin", "m", [i](const ModelDocument& d) { return d.solids[i].origin; },
              [i](ModelDocument& d, const Vec3& v) { d.solids[i].origin = v; });
    addVector(tr("Size"), "size", "m", [i](const ModelDocument& d) { return d.solids[i].size; },
              [i](ModelDocument& d, const Vec3& v) { d.solids[i].size = v; });
    static const char* axes[3] = {"x", "y", "z"};
    for (int a = 0; a < 3; ++a)
        addCount(tr("Elements along %1").arg(axes[a]), QString("elements.%1").arg(axes[a]), kMaxSolidElements,
                 [i, a](const ModelDocument& d) { return d.solids[i].elements[a]; },
                 [i, a](ModelDocument& d, int n) { d.solids[i].elements[a] = n; });
    addMaterialFields();
}

void PropertyEditor::addNodeSetFields()
{
    const auto i = static_cast<size_t>(item_.index);
    auto* edit = new QLineEdit;
    edit->setObjectName("nodes");
    edit->setPlaceholderText(tr("beam.tip, box.node0_0_0, …"));
    edit->setToolTip(tr("Node names separated by commas or spaces: <beam>.node<k>, <beam>.root, <beam>.tip, "
                        "<solid>.node<i>_<j>_<k>"));
    layout_->addRow(tr("Nodes"), edit);
    refreshers_.push_back([this, edit, i] {
        QSignalBlocker block(edit);
        edit->setText(memberText(formatNodeNames(document_->document().nodeSets[i].nodes)));
        edit->setCursorPosition(0);
    });
    connect(edit, &QLineEdit::editingFinished, this, [this, edit, i] {
        // A form being replaced may hold text older than the document (see addExactNumber).
        if (!form_ || !form_->isAncestorOf(edit))
            return;
        const std::vector<std::string> nodes = parseNodeNames(edit->text().toStdString());
        if (nodes == document_->document().nodeSets[i].nodes)
            return;
        // A refused list stays as typed so that it can be corrected in place.
        commit("nodes", [i, nodes](ModelDocument& d) { d.nodeSets[i].nodes = nodes; });
    });
    // What may be listed, so that names need not be guessed.
    QStringList meshes;
    for (const BeamDoc& b : document_->document().beams)
        meshes << tr("%1.root … %1.tip (%1.node0 … %1.node%2)").arg(memberText(b.name)).arg(b.elements);
    for (const SolidDoc& b : document_->document().solids)
        meshes << tr("%1.node0_0_0 … %1.node%2_%3_%4")
                      .arg(memberText(b.name))
                      .arg(b.elements[0])
                      .arg(b.elements[1])
                      .arg(b.elements[2]);
    auto* available = new QLabel(meshes.isEmpty() ? tr("The model has no beam or solid.") : meshes.join("\n"));
    available->setObjectName("availableNodes");
    available->setTextFormat(Qt::PlainText);
    available->setWordWrap(true);
    layout_->addRow(tr("Nodes of the model"), available);
}

}  // namespace looplab::ui
