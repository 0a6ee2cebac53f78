#include "workbench/CamFields.h"

#include "workbench/PropertyEditor.h"
#include "document/WorkbenchDocument.h"

namespace looplab::ui {

CamDoc defaultCam()
{
    CamDoc cam;
    cam.follower = CamFollower::Roller;
    cam.rollerRadius = 0.01;
    cam.segments = {{CamMotion::Cycloidal, 120.0, 0.01},
                    {CamMotion::Dwell, 60.0, 0.0},
                    {CamMotion::Cycloidal, 120.0, -0.01},
                    {CamMotion::Dwell, 60.0, 0.0}};
    return cam;
}

QString camSignature(const CamDoc& cam)
{
    QString s = QString("%1/%2/%3/").arg(camFollowerName(cam.follower)).arg(cam.table.size()).arg(cam.profile.size());
    for (const CamSegment& segment : cam.segments)
        s += segment.motion == CamMotion::Dwell ? "d" : "m";
    return s;
}

namespace {

QStringList followerNames()
{
    QStringList names;
    for (CamFollower f : {CamFollower::Roller, CamFollower::KnifeEdge, CamFollower::FlatFace})
        names << camFollowerName(f);
    return names;
}

QStringList motionNames()
{
    QStringList names;
    for (CamMotion m : {CamMotion::Dwell, CamMotion::Cycloidal, CamMotion::Harmonic, CamMotion::Polynomial345})
        names << camMotionName(m);
    return names;
}

}  // namespace

// The law's segments are edited in place (motion, angle, lift); a table law or a profile
// is edited in the model file (it has no segments to show).
void PropertyEditor::addCamFields()
{
    const auto i = static_cast<size_t>(item_.index);
    const CamDoc& cam = document_->document().couplers[i].cam;
    addChoice(tr("Follower"), "follower", followerNames(),
              [i](const ModelDocument& d) { return QString(camFollowerName(d.couplers[i].cam.follower)); },
              [i](ModelDocument& d, const QString& v) {
                  CamDoc& c = d.couplers[i].cam;
                  if (!camFollowerFromName(v.toStdString(), c.follower))
                      return;
                  if (c.follower == CamFollower::Roller && !(c.rollerRadius > 0.0))
                      c.rollerRadius = 0.01;
              });
    if (cam.follower == CamFollower::Roller)
        addNumber(tr("Roller radius"), "rollerRadius", "m", [i](const ModelDocument& d) { return d.couplers[i].cam.rollerRadius; },
                  [i](ModelDocument& d, double v) { d.couplers[i].cam.rollerRadius = v; }, 0.0, 1e9, 6);
    addVector(tr("Follower point"), "followerPoint", "m", [i](const ModelDocument& d) { return d.couplers[i].cam.followerPoint; },
              [i](ModelDocument& d, const Vec3& v) { d.couplers[i].cam.followerPoint = v; });
    addNumber(tr("Start angle"), "startAngle", "°", [i](const ModelDocument& d) { return d.couplers[i].cam.startAngle; },
              [i](ModelDocument& d, double v) { d.couplers[i].cam.startAngle = v; }, -360.0, 360.0, 6);
    for (size_t k = 0; k < cam.segments.size(); ++k) {
        const QString n = QString::number(k + 1);
        addChoice(tr("Segment %1").arg(n), "motion" + n, motionNames(),
                  [i, k](const ModelDocument& d) { return QString(camMotionName(d.couplers[i].cam.segments[k].motion)); },
                  [i, k](ModelDocument& d, const QString& v) {
                      CamSegment& s = d.couplers[i].cam.segments[k];
                      if (camMotionFromName(v.toStdString(), s.motion) && s.motion == CamMotion::Dwell)
                          s.lift = 0.0;
                  });
        addNumber(tr("  angle"), "angle" + n, "°", [i, k](const ModelDocument& d) { return d.couplers[i].cam.segments[k].angle; },
                  [i, k](ModelDocument& d, double v) { d.couplers[i].cam.segments[k].angle = v; }, 0.0, 360.0, 6);
        if (cam.segments[k].motion != CamMotion::Dwell)
            addNumber(tr("  lift (m; ° if it swings)"), "lift" + n, "", [i, k](const ModelDocument& d) { return d.couplers[i].cam.segments[k].lift; },
                      [i, k](ModelDocument& d, double v) { d.couplers[i].cam.segments[k].lift = v; });
    }
}

}  // namespace looplab::ui
