// The property editor's fields of couplers (PropertyEditor.h): gear pairs, racks and
// pinions, belts and linear couplers (a cam's own fields: CamFields.cpp). Which fields show depends on the type, on whether a
// gear is sized by its teeth or its radii, and on how many joints a linear coupler ties
// (couplerSignature()).

#include "workbench/PropertyEditor.h"

#include "workbench/CamFields.h"
#include "document/WorkbenchDocument.h"

#include <QFormLayout>

namespace looplab::ui {

namespace {

QString text(const std::string& s) { return QString::fromStdString(s); }

QStringList couplerTypeNames()
{
    QStringList names;
    for (CouplerType t : {CouplerType::Gear, CouplerType::RackAndPinion, CouplerType::Belt, CouplerType::Linear,
                          CouplerType::Cam})
        names << couplerTypeName(t);
    return names;
}

bool sizedByTeeth(const CouplerDoc& c) { return c.teeth1 || c.teeth2 || !(c.radius1 || c.radius2); }

// A new type keeps the joints and gets what it needs to build (teeth, radii, coefficients);
// what belongs to the old type only goes, as the file reader would refuse it.
void setCouplerType(CouplerDoc& c, CouplerType type)
{
    if (c.type == type)
        return;
    c.type = type;
    c.internal = false;
    c.crossed = false;
    if (type != CouplerType::Gear && type != CouplerType::RackAndPinion)
        c.pressureAngle.reset();
    if (type != CouplerType::Gear) {
        c.teeth1.reset();
        c.teeth2.reset();
    }
    if (type != CouplerType::Linear) {
        c.coefficients.clear();
        if (c.joints.size() > 2)
            c.joints.resize(2);
    }
    switch (type) {
    case CouplerType::Gear:
        c.radius1.reset();
        c.radius2.reset();
        c.teeth1 = 20;
        c.teeth2 = 40;
        break;
    case CouplerType::RackAndPinion:
        c.radius2.reset();
        if (!c.radius1)
            c.radius1 = 0.02;
        break;
    case CouplerType::Belt:
        if (!c.radius1)
            c.radius1 = 0.05;
        if (!c.radius2)
            c.radius2 = 0.1;
        break;
    case CouplerType::Linear:
        c.radius1.reset();
        c.radius2.reset();
        if (c.joints.size() < 2)
            c.joints.resize(2);
        c.coefficients = {1.0, -1.0};
        c.coefficients.resize(c.joints.size(), 1.0);
        break;
    case CouplerType::Cam:
        c.radius1.reset();
        c.radius2.reset();
        c.joints.resize(2);
        c.cam = defaultCam();
        break;
    }
    if (type != CouplerType::Cam)
        c.cam = CamDoc();
}

std::string coefficientPointer(size_t coupler, size_t k)
{
    return "/couplers/" + std::to_string(coupler) + "/coefficients/" + std::to_string(k);
}

}  // namespace

QString PropertyEditor::couplerSignature(const CouplerDoc& c)
{
    const QString kind = QString("%1/%2/%3").arg(couplerTypeName(c.type), sizedByTeeth(c) ? "teeth" : "radii").arg(c.joints.size());
    return c.type == CouplerType::Cam ? kind + "/" + camSignature(c.cam) : kind;
}

void PropertyEditor::addCouplerFields()
{
    const auto i = static_cast<size_t>(item_.index);
    const CouplerDoc& c = document_->document().couplers[i];
    addChoice(tr("Type"), "type", couplerTypeNames(),
              [i](const ModelDocument& d) { return QString(couplerTypeName(d.couplers[i].type)); },
              [i](ModelDocument& d, const QString& v) {
                  CouplerType type = CouplerType::Gear;
                  if (couplerTypeFromName(v.toStdString(), type))
                      setCouplerType(d.couplers[i], type);
              });

    const bool linear = c.type == CouplerType::Linear;
    QStringList labels{tr("Wheel 1 joint"), tr("Wheel 2 joint")};
    if (c.type == CouplerType::RackAndPinion)
        labels = {tr("Pinion joint"), tr("Rack joint")};
    if (c.type == CouplerType::Cam)
        labels = {tr("Cam joint"), tr("Follower joint")};
    if (linear)
        labels = {tr("Joint 1"), tr("Joint 2"), tr("Joint 3")};
    for (int k = 0; k < labels.size(); ++k) {
        const auto slot = static_cast<size_t>(k);
        QStringList options = jointChoices();
        if (k == 2)
            options.prepend(QString());  // a linear coupler of two joints
        addChoice(labels[k], QString("joint%1").arg(k + 1), options,
                  [i, slot](const ModelDocument& d) {
                      const std::vector<std::string>& joints = d.couplers[i].joints;
                      return slot < joints.size() ? text(joints[slot]) : QString();
                  },
                  [i, slot](ModelDocument& d, const QString& v) {
                      CouplerDoc& coupler = d.couplers[i];
                      if (v.isEmpty()) {
                          if (slot >= 2 && coupler.joints.size() > 2) {
                              coupler.joints.resize(2);
                              if (coupler.coefficients.size() > 2)
                                  coupler.coefficients.resize(2);
                          }
                          return;
                      }
                      if (coupler.joints.size() <= slot)
                          coupler.joints.resize(slot + 1);
                      coupler.joints[slot] = v.toStdString();
                      if (coupler.type == CouplerType::Linear && coupler.coefficients.size() < coupler.joints.size())
                          coupler.coefficients.resize(coupler.joints.size(), 1.0);
                  });
    }

    auto radius = [this, i](const QString& label, const QString& key, std::optional<double> CouplerDoc::*field) {
        addNumber(label, key, "m", [i, field](const ModelDocument& d) { return (d.couplers[i].*field).value_or(0.0); },
                  [i, field](ModelDocument& d, double v) { d.couplers[i].*field = v; }, 0.0, 1e9, 6);
    };
    // The teeth's pressure angle: the tooth force acts along the line of action.
    auto pressureAngle = [this, i] {
        addNumber(tr("Pressure angle"), "pressureAngle", "°",
                  [i](const ModelDocument& d) { return d.couplers[i].pressureAngle.value_or(20.0); },
                  [i](ModelDocument& d, double v) { d.couplers[i].pressureAngle = v; }, 0.0, 44.9, 3);
    };
    switch (c.type) {
    case CouplerType::Gear: {
        // Switching to radii starts from the pitch radii the tooth counts gave (the axes'
        // distance shared in their ratio), so the pair still builds.
        addChoice(tr("Sized by"), "sizedBy", {tr("tooth counts"), tr("pitch radii")},
                  [i](const ModelDocument& d) { return sizedByTeeth(d.couplers[i]) ? tr("tooth counts") : tr("pitch radii"); },
                  [i, document = document_](ModelDocument& d, const QString& v) {
                      CouplerDoc& coupler = d.couplers[i];
                      const bool teeth = v == tr("tooth counts");
                      if (teeth == sizedByTeeth(coupler))
                          return;
                      if (teeth) {
                          coupler.radius1.reset();
                          coupler.radius2.reset();
                          coupler.teeth1 = 20;
                          coupler.teeth2 = 40;
                          return;
                      }
                      double r1 = 0.02, r2 = 0.04;
                      const LoadedModel& loaded = document->loaded();
                      if (loaded.ok())
                          for (const Coupler& built : loaded.model->couplers)
                              if (built.name == coupler.name && built.radius1 > 0.0) {
                                  r1 = built.radius1;
                                  r2 = built.radius2;
                              }
                      coupler.teeth1.reset();
                      coupler.teeth2.reset();
                      coupler.radius1 = r1;
                      coupler.radius2 = r2;
                  });
        if (sizedByTeeth(c)) {
            addCount(tr("Teeth 1"), "teeth1", 1000000, [i](const ModelDocument& d) { return d.couplers[i].teeth1.value_or(20); },
                     [i](ModelDocument& d, int v) { d.couplers[i].teeth1 = v; });
            addCount(tr("Teeth 2"), "teeth2", 1000000, [i](const ModelDocument& d) { return d.couplers[i].teeth2.value_or(40); },
                     [i](ModelDocument& d, int v) { d.couplers[i].teeth2 = v; });
        } else {
            radius(tr("Pitch radius 1"), "radius1", &CouplerDoc::radius1);
            radius(tr("Pitch radius 2"), "radius2", &CouplerDoc::radius2);
        }
        addChoice(tr("Mesh"), "internal", {tr("external"), tr("internal (wheel 2 a ring)")},
                  [i](const ModelDocument& d) { return d.couplers[i].internal ? tr("internal (wheel 2 a ring)") : tr("external"); },
                  [i](ModelDocument& d, const QString& v) { d.couplers[i].internal = v != tr("external"); });
        pressureAngle();
        break;
    }
    case CouplerType::RackAndPinion:
        radius(tr("Pinion pitch radius"), "radius1", &CouplerDoc::radius1);
        pressureAngle();
        break;
    case CouplerType::Belt:
        radius(tr("Pulley radius 1"), "radius1", &CouplerDoc::radius1);
        radius(tr("Pulley radius 2"), "radius2", &CouplerDoc::radius2);
        addChoice(tr("Belt"), "crossed", {tr("open"), tr("crossed")},
                  [i](const ModelDocument& d) { return d.couplers[i].crossed ? tr("crossed") : tr("open"); },
                  [i](ModelDocument& d, const QString& v) { d.couplers[i].crossed = v == tr("crossed"); });
        break;
    case CouplerType::Linear:
        for (size_t k = 0; k < c.joints.size(); ++k)
            addExactNumber(tr("Coefficient %1").arg(k + 1), QString("coefficient%1").arg(k + 1), "",
                           coefficientPointer(i, k),
                           [i, k](const ModelDocument& d) {
                               const std::vector<double>& x = d.couplers[i].coefficients;
                               return k < x.size() ? x[k] : 0.0;
                           },
                           [i, k](ModelDocument& d, double v) {
                               std::vector<double>& x = d.couplers[i].coefficients;
                               if (x.size() <= k)
                                   x.resize(k + 1, 1.0);
                               x[k] = v;
                           });
        break;
    case CouplerType::Cam: addCamFields(); break;
    }
}

}  // namespace looplab::ui
