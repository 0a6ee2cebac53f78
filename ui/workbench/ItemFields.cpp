// The property editor's fields of the model, rigid bodies, joints, drivers and forces
// (PropertyEditor.h; beams, solids and node sets: FlexibleMemberFields.cpp; couplers:
// CouplerFields.cpp; cams: CamFields.cpp).
#include "workbench/PropertyEditor.h"

#include "plotting/DisplayUnits.h"
#include "looplab/model/ForceLaw.h"
#include "looplab/model/ShapeMassProperties.h"

#include "document/WorkbenchDocument.h"
#include "workbench/FieldText.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>

namespace looplab::ui {

namespace {

QStringList jointTypeNames()
{
    QStringList names;
    for (JointType type : jointTypes())
        names << jointTypeName(type);
    return names;
}

QStringList forceTypeNames()
{
    QStringList names;
    for (ForceType type : forceLawTypes())
        names << forceTypeName(type);
    return names;
}

QStringList lawKindNames()
{
    QStringList names;
    for (int k = 0; k <= static_cast<int>(TimeLaw::Kind::SmoothStep); ++k)
        names << timeLawKindName(static_cast<TimeLaw::Kind>(k));
    return names;
}

QStringList shapeKindNames()
{
    QStringList names;
    for (int k = 0; k <= static_cast<int>(VisualShape::Kind::Mesh); ++k)
        names << visualShapeKindName(static_cast<VisualShape::Kind>(k));
    return names;
}

}  // namespace

void PropertyEditor::addModelFields()
{
    auto* edit = new QLineEdit;
    edit->setObjectName("modelName");
    layout_->addRow(tr("Name"), edit);
    refreshers_.push_back([this, edit] {
        QSignalBlocker block(edit);
        edit->setText(str(document_->document().name));
    });
    connect(edit, &QLineEdit::editingFinished, this, [this, edit] {
        const std::string name = edit->text().toStdString();
        commit("name", [name](ModelDocument& doc) { doc.name = name; });
    });
    addVector(tr("Gravity"), "gravity", "m/s²", [](const ModelDocument& d) { return d.gravity; },
              [](ModelDocument& d, const Vec3& v) { d.gravity = v; });
}

void PropertyEditor::addBodyFields()
{
    const auto i = static_cast<size_t>(item_.index);
    // With a density, mass and inertia follow from the shape; typing either is the
    // user's override and drops the density.
    addNumber(tr("Density"), "density", "kg/m³", [i](const ModelDocument& d) { return d.bodies[i].density.value_or(0.0); },
              [i](ModelDocument& d, double v) {
                  if (v > 0.0)
                      d.bodies[i].density = v;
                  else
                      d.bodies[i].density.reset();
                  applyShapeMassProperties(d.bodies[i]);
              },
              0.0, 1e6, 1);
    addNumber(tr("Mass"), "mass", "kg", [i](const ModelDocument& d) { return d.bodies[i].mass; },
              [i](ModelDocument& d, double v) {
                  d.bodies[i].mass = v;
                  d.bodies[i].density.reset();
              },
              0.0, 1e9);
    addVector(tr("Inertia (diagonal)"), "inertia", "kg·m²",
              [i](const ModelDocument& d) { return Vec3(d.bodies[i].inertia.diagonal()); },
              [i](ModelDocument& d, const Vec3& v) {
                  d.bodies[i].inertia.diagonal() = v;
                  d.bodies[i].density.reset();
              });
    addVector(tr("Position"), "position", "m", [i](const ModelDocument& d) { return d.bodies[i].position; },
              [i](ModelDocument& d, const Vec3& v) { d.bodies[i].position = v; });
    addOrientation(tr("Orientation"), "orientation",
                   [i](const ModelDocument&) { return pointer("bodies", i, "orientation"); },
                   [i](const ModelDocument& d) { return d.bodies[i].orientation; },
                   [i](ModelDocument& d, const Quat& q) { d.bodies[i].orientation = q; });
    addVector(tr("Velocity"), "velocity", "m/s", [i](const ModelDocument& d) { return d.bodies[i].velocity; },
              [i](ModelDocument& d, const Vec3& v) { d.bodies[i].velocity = v; });
    addVector(tr("Angular velocity"), "angularVelocity", "rad/s",
              [i](const ModelDocument& d) { return d.bodies[i].angularVelocity; },
              [i](ModelDocument& d, const Vec3& v) { d.bodies[i].angularVelocity = v; });
    addChoice(tr("Shape"), "shape", shapeKindNames(),
              [i](const ModelDocument& d) { return QString(visualShapeKindName(d.bodies[i].shape.kind)); },
              [i](ModelDocument& d, const QString& v) {
                  visualShapeKindFromName(v.toStdString(), d.bodies[i].shape.kind);
                  applyShapeMassProperties(d.bodies[i]);
              });
    const VisualShape::Kind shape = document_->document().bodies[i].shape.kind;
    if (shape == VisualShape::Kind::Box)
        addVector(tr("Box size"), "shape.size", "m", [i](const ModelDocument& d) { return d.bodies[i].shape.size; },
                  [i](ModelDocument& d, const Vec3& v) {
                      d.bodies[i].shape.size = v;
                      applyShapeMassProperties(d.bodies[i]);
                  });
    if (shape == VisualShape::Kind::Cylinder || shape == VisualShape::Kind::Sphere)
        addNumber(tr("Radius"), "shape.radius", "m", [i](const ModelDocument& d) { return d.bodies[i].shape.radius; },
                  [i](ModelDocument& d, double v) {
                      d.bodies[i].shape.radius = v;
                      applyShapeMassProperties(d.bodies[i]);
                  },
                  0.0);
    if (shape == VisualShape::Kind::Cylinder)
        addNumber(tr("Length"), "shape.length", "m", [i](const ModelDocument& d) { return d.bodies[i].shape.length; },
                  [i](ModelDocument& d, double v) {
                      d.bodies[i].shape.length = v;
                      applyShapeMassProperties(d.bodies[i]);
                  },
                  0.0);
    if (shape == VisualShape::Kind::Mesh) {
        addText(tr("Mesh file (STL, OBJ)"), "shape.file", [i](const ModelDocument& d) { return str(d.bodies[i].shape.file); },
                [i](ModelDocument& d, const QString& v) { d.bodies[i].shape.file = v.toStdString(); });
        addVector(tr("Mesh scale"), "shape.scale", "", [i](const ModelDocument& d) { return d.bodies[i].shape.scale; },
                  [i](ModelDocument& d, const Vec3& v) { d.bodies[i].shape.scale = v; });
    }
    if (shape != VisualShape::Kind::None)
        addVector(tr("Colour (RGB)"), "shape.color", "",
                  [i](const ModelDocument& d) {
                      const auto& c = d.bodies[i].shape.color;
                      return Vec3(c[0], c[1], c[2]);
                  },
                  [i](ModelDocument& d, const Vec3& v) {
                      for (int c = 0; c < 3; ++c)
                          d.bodies[i].shape.color[static_cast<size_t>(c)] = std::clamp(v[c], 0.0, 1.0);
                  });
}

void PropertyEditor::addJointFields()
{
    const auto i = static_cast<size_t>(item_.index);
    addChoice(tr("Type"), "type", jointTypeNames(),
              [i](const ModelDocument& d) { return QString(jointTypeName(d.joints[i].type)); },
              [i](ModelDocument& d, const QString& v) {
                  JointDoc& j = d.joints[i];
                  if (!jointTypeFromName(v.toStdString(), j.type))
                      return;
                  // Only a screw has a lead (the file refuses it on other joints); a new
                  // screw starts with 10 mm a turn.
                  if (j.type != JointType::Screw)
                      j.lead.reset();
                  else if (!j.lead)
                      j.lead = 0.01;
              });
    if (document_->document().joints[i].byMarkers) {
        addMarkerFields(tr("Marker 1"), "marker1", &JointDoc::marker1);
        addMarkerFields(tr("Marker 2"), "marker2", &JointDoc::marker2);
        return;
    }
    addChoice(tr("Body 1"), "body1", bodyChoices(), [i](const ModelDocument& d) { return str(d.joints[i].body1); },
              [i](ModelDocument& d, const QString& v) { d.joints[i].body1 = v.toStdString(); });
    addChoice(tr("Body 2"), "body2", bodyChoices(), [i](const ModelDocument& d) { return str(d.joints[i].body2); },
              [i](ModelDocument& d, const QString& v) { d.joints[i].body2 = v.toStdString(); });
    addVector(tr("Point"), "point", "m", [i](const ModelDocument& d) { return d.joints[i].point; },
              [i](ModelDocument& d, const Vec3& v) { d.joints[i].point = v; });
    const JointType type = document_->document().joints[i].type;
    if (type == JointType::Distance) {
        addVector(tr("Point 2"), "point2", "m", [i](const ModelDocument& d) { return d.joints[i].point2; },
                  [i](ModelDocument& d, const Vec3& v) { d.joints[i].point2 = v; });
        // Shown as the initial distance until the user sets one.
        addNumber(tr("Length"), "length", "m",
                  [i](const ModelDocument& d) {
                      const JointDoc& j = d.joints[i];
                      return j.length.value_or((j.point2 - j.point).norm());
                  },
                  [i](ModelDocument& d, double v) { d.joints[i].length = v; }, 0.0, 1e9);
        return;
    }
    if (type != JointType::Spherical)
        addVector(tr("Axis"), "axis", "", [i](const ModelDocument& d) { return d.joints[i].axis; },
                  [i](ModelDocument& d, const Vec3& v) { d.joints[i].axis = v; });
    if (type == JointType::Universal)
        addVector(tr("Axis 2"), "axis2", "", [i](const ModelDocument& d) { return d.joints[i].axis2; },
                  [i](ModelDocument& d, const Vec3& v) { d.joints[i].axis2 = v; });
    if (type == JointType::Screw)
        addNumber(tr("Lead"), "lead", "m", [i](const ModelDocument& d) { return d.joints[i].lead.value_or(0.0); },
                  [i](ModelDocument& d, double v) { d.joints[i].lead = v; }, -1e9, 1e9, 6);
}

void PropertyEditor::addDriverFields()
{
    const auto i = static_cast<size_t>(item_.index);
    addChoice(tr("Joint"), "joint", jointChoices(), [i](const ModelDocument& d) { return str(d.drivers[i].joint); },
              [i](ModelDocument& d, const QString& v) { d.drivers[i].joint = v.toStdString(); });
    addChoice(tr("Law"), "law", lawKindNames(),
              [i](const ModelDocument& d) { return QString(timeLawKindName(d.drivers[i].law.kind)); },
              [i](ModelDocument& d, const QString& v) {
                  TimeLaw::Kind kind = TimeLaw::Kind::Constant;
                  if (timeLawKindFromName(v.toStdString(), kind))
                      setTimeLawKind(d.drivers[i].law, kind);
              });
    addLawFields(pointer("drivers", i, "law"), [i](const ModelDocument& d) { return &d.drivers[i].law; },
                 [i](ModelDocument& d) { return &d.drivers[i].law; });
}

void PropertyEditor::addForceFields()
{
    const auto i = static_cast<size_t>(item_.index);
    addChoice(tr("Type"), "type", forceTypeNames(),
              [i](const ModelDocument& d) { return QString(forceTypeName(d.forces[i].type)); },
              [i](ModelDocument& d, const QString& v) { forceTypeFromName(v.toStdString(), d.forces[i].type); });
    const ForceType type = document_->document().forces[i].type;
    auto number = [this, i](const QString& label, const QString& key, const QString& unit, double ForceDoc::*field) {
        addNumber(label, key, unit, [i, field](const ModelDocument& d) { return d.forces[i].*field; },
                  [i, field](ModelDocument& d, double v) { d.forces[i].*field = v; });
    };
    auto vector = [this, i](const QString& label, const QString& key, const QString& unit, Vec3 ForceDoc::*field) {
        addVector(label, key, unit, [i, field](const ModelDocument& d) { return d.forces[i].*field; },
                  [i, field](ModelDocument& d, const Vec3& v) { d.forces[i].*field = v; });
    };
    switch (type) {
    case ForceType::SpringDamper:
        addChoice(tr("Body 1"), "body1", bodyChoices(), [i](const ModelDocument& d) { return str(d.forces[i].body1); },
                  [i](ModelDocument& d, const QString& v) { d.forces[i].body1 = v.toStdString(); });
        addChoice(tr("Body 2"), "body2", bodyChoices(), [i](const ModelDocument& d) { return str(d.forces[i].body2); },
                  [i](ModelDocument& d, const QString& v) { d.forces[i].body2 = v.toStdString(); });
        vector(tr("Point 1"), "point1", "m", &ForceDoc::point1);
        vector(tr("Point 2"), "point2", "m", &ForceDoc::point2);
        number(tr("Stiffness"), "stiffness", "N/m", &ForceDoc::stiffness);
        number(tr("Damping"), "damping", "N·s/m", &ForceDoc::damping);
        number(tr("Preload"), "preload", "N", &ForceDoc::preload);
        break;
    case ForceType::RotationalSpringDamper:
        addChoice(tr("Joint"), "joint", jointChoices(), [i](const ModelDocument& d) { return str(d.forces[i].joint); },
                  [i](ModelDocument& d, const QString& v) { d.forces[i].joint = v.toStdString(); });
        number(tr("Stiffness"), "stiffness", "N·m/rad", &ForceDoc::stiffness);
        number(tr("Damping"), "damping", "N·m·s/rad", &ForceDoc::damping);
        number(tr("Free angle"), "freeAngle", "rad", &ForceDoc::freeAngle);
        break;
    case ForceType::BodyForce:
    case ForceType::BodyTorque:
        addChoice(tr("Body"), "body", bodyChoices(), [i](const ModelDocument& d) { return str(d.forces[i].body); },
                  [i](ModelDocument& d, const QString& v) { d.forces[i].body = v.toStdString(); });
        if (type == ForceType::BodyForce)
            vector(tr("Local point"), "localPoint", "m", &ForceDoc::localPoint);
        vector(type == ForceType::BodyForce ? tr("Force") : tr("Torque"), "vector",
               type == ForceType::BodyForce ? "N" : "N·m", &ForceDoc::vector);
        addChoice(tr("Scaled by law"), "law", QStringList{kNoLaw} + lawKindNames(),
                  [i](const ModelDocument& d) {
                      const auto& law = d.forces[i].law;
                      return QString(law ? timeLawKindName(law->kind) : kNoLaw);
                  },
                  [i](ModelDocument& d, const QString& v) {
                      auto& law = d.forces[i].law;
                      TimeLaw::Kind kind = TimeLaw::Kind::Constant;
                      if (!timeLawKindFromName(v.toStdString(), kind)) {
                          law.reset();
                          return;
                      }
                      if (!law) {
                          // The factor 1 at first, so that choosing a law does not change
                          // the force until its parameters are set.
                          law.emplace();
                          law->initial = 1.0;
                      }
                      setTimeLawKind(*law, kind);
                  });
        addLawFields(pointer("forces", i, "law"),
                     [i](const ModelDocument& d) { return d.forces[i].law ? &*d.forces[i].law : nullptr; },
                     [i](ModelDocument& d) { return d.forces[i].law ? &*d.forces[i].law : nullptr; });
        break;
    case ForceType::DcMotor:
    case ForceType::TableMotor: {
        addChoice(tr("Joint"), "joint", jointChoices(), [i](const ModelDocument& d) { return str(d.forces[i].joint); },
                  [i](ModelDocument& d, const QString& v) { d.forces[i].joint = v.toStdString(); });
        auto motorNumber = [this, i](const QString& label, const QString& key, const QString& unit,
                                     double MotorDoc::*field) {
            addNumber(label, key, unit, [i, field](const ModelDocument& d) { return d.forces[i].motor.*field; },
                      [i, field](ModelDocument& d, double v) { d.forces[i].motor.*field = v; });
        };
        if (type == ForceType::DcMotor) {
            motorNumber(tr("Torque constant"), "torqueConstant", "N·m/A", &MotorDoc::torqueConstant);
            motorNumber(tr("Resistance"), "resistance", "Ω", &MotorDoc::resistance);
            addLawFields(pointer("forces", i, "voltage"),
                         [i](const ModelDocument& d) { return &d.forces[i].motor.voltage; },
                         [i](ModelDocument& d) { return &d.forces[i].motor.voltage; });
        }
        motorNumber(tr("Gear ratio"), "gearRatio", "", &MotorDoc::gearRatio);
        motorNumber(tr("Efficiency"), "efficiency", "", &MotorDoc::efficiency);
        break;
    }
    }
}

}  // namespace looplab::ui
