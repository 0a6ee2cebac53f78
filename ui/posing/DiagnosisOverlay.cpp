#include "posing/DiagnosisOverlay.h"

#include <vtkActor.h>
#include <vtkBillboardTextActor3D.h>
#include <vtkLineSource.h>
#include <vtkNew.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>
#include <vtkTextProperty.h>

namespace looplab::ui {
namespace {

constexpr double kGapColor[3] = {0.9, 0.1, 0.1};
constexpr double kDetachedColor[3] = {1.0, 0.55, 0.0};
constexpr double kSingularColor[3] = {0.8, 0.1, 0.8};

}  // namespace

DiagnosisOverlay::DiagnosisOverlay(vtkRenderer* renderer) : renderer_(renderer) {}

DiagnosisOverlay::~DiagnosisOverlay() { clear(); }

void DiagnosisOverlay::clear()
{
    for (vtkProp* p : props_) {
        renderer_->RemoveViewProp(p);
        p->Delete();
    }
    props_.clear();
    labels_.clear();
    ends_.clear();
    segments_ = 0;
}

void DiagnosisOverlay::addSegment(const Vec3& a, const Vec3& b, const double color[3], const std::string& label)
{
    vtkNew<vtkLineSource> line;
    line->SetPoint1(a.data());
    line->SetPoint2(b.data());
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputConnection(line->GetOutputPort());
    vtkActor* actor = vtkActor::New();
    actor->SetMapper(mapper);
    actor->GetProperty()->SetColor(color[0], color[1], color[2]);
    actor->GetProperty()->SetLineWidth(4.0);
    actor->GetProperty()->SetLighting(false);
    actor->PickableOff();
    renderer_->AddActor(actor);
    props_.push_back(actor);
    // The ends, so that a gap along the view direction still shows.
    for (const Vec3* p : {&a, &b}) {
        vtkNew<vtkSphereSource> dot;
        dot->SetCenter(p->data());
        dot->SetRadius(std::max(1e-3, 0.04 * (b - a).norm()));
        vtkNew<vtkPolyDataMapper> m;
        m->SetInputConnection(dot->GetOutputPort());
        vtkActor* d = vtkActor::New();
        d->SetMapper(m);
        d->GetProperty()->SetColor(color[0], color[1], color[2]);
        d->PickableOff();
        renderer_->AddActor(d);
        props_.push_back(d);
    }
    vtkBillboardTextActor3D* text = vtkBillboardTextActor3D::New();
    text->SetInput(label.c_str());
    const Vec3 mid = 0.5 * (a + b);
    text->SetPosition(mid.x(), mid.y(), mid.z());
    text->GetTextProperty()->SetColor(color[0], color[1], color[2]);
    text->GetTextProperty()->SetFontSize(16);
    text->GetTextProperty()->SetBold(true);
    // Beside the segment rather than on it, where a joint glyph would hide the text.
    text->SetDisplayOffset(12, 12);
    text->PickableOff();
    renderer_->AddViewProp(text);
    props_.push_back(text);
    labels_.push_back(label);
    ends_.emplace_back(a, b);
    ++segments_;
}

void DiagnosisOverlay::show(const Model& model, const AssemblyExplanation& e)
{
    clear();
    for (const JointGap& g : e.gaps)
        addSegment(g.point1, g.point2, kGapColor, g.label());
    for (const DetachedJoint& d : e.detached) {
        const Joint& j = model.joint(d.joint);
        const Vec3 p = pointPosition(model, e.pose, j.frame1.body, j.frame1.origin);
        addSegment(p, p, kDetachedColor, d.name + ": away from its links");
    }
    if (e.singular) {
        const Vec3 tip = e.singular->point + 0.25 * model.lengthScale * e.singular->direction;
        addSegment(e.singular->point, tip, kSingularColor,
                   e.singular->link1 + " and " + e.singular->link2 + " line up: cannot move this way");
    }
}

}  // namespace looplab::ui
