#include "viewport/FlexibleActors.h"
#include "viewport/ColorShade.h"
#include "viewport/FlatRange.h"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkDoubleArray.h>
#include <vtkLookupTable.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkPolyDataNormals.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkScalarBarActor.h>
#include <vtkTextProperty.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace looplab::ui {

namespace {

// The point arrays a member's mapper colours by.
constexpr const char* kAxialArray = "axial strain";
constexpr const char* kBendingArray = "bending strain";
constexpr const char* kStressArray = "von Mises stress";


using Color = std::array<double, 3>;
using looplab::SceneBeam;
using looplab::SceneSection;
using looplab::SceneSurface;

constexpr int kCircleSides = 16;

// A section as points around the centreline in (normal, binormal) coordinates: side
// points with their outward normals, the pieces of the side between consecutive
// points, and the outline of the end caps. A rectangle's sides get points of their own,
// so its edges stay sharp.
struct Profile {
    std::vector<Eigen::Vector2d> offsets, normals;
    std::vector<std::array<int, 2>> sides;
    std::vector<int> cap;  // counter-clockwise seen along +t
};

Profile profileOf(const SceneSection& section)
{
    Profile p;
    if (section.kind == SceneSection::Kind::Rectangle) {
        const double h = 0.5 * section.height, w = 0.5 * section.width;
        const Eigen::Vector2d c[4] = {{h, -w}, {h, w}, {-h, w}, {-h, -w}};
        const Eigen::Vector2d n[4] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
        for (int k = 0; k < 4; ++k) {
            p.offsets.push_back(c[k]);
            p.offsets.push_back(c[(k + 1) % 4]);
            p.normals.push_back(n[k]);
            p.normals.push_back(n[k]);
            p.sides.push_back({{2 * k, 2 * k + 1}});
            p.cap.push_back(2 * k);
        }
        return p;
    }
    for (int k = 0; k < kCircleSides; ++k) {
        const double a = 2.0 * M_PI * k / kCircleSides;
        const Eigen::Vector2d d(std::cos(a), std::sin(a));
        p.offsets.push_back(section.radius * d);
        p.normals.push_back(d);
        p.sides.push_back({{k, (k + 1) % kCircleSides}});
        p.cap.push_back(k);
    }
    return p;
}

// The section swept along the beam's samples: sides, and a cap at each end.
vtkSmartPointer<vtkPolyData> sweptBeam(const SceneBeam& beam)
{
    const Profile profile = profileOf(beam.section);
    const int m = static_cast<int>(profile.offsets.size());
    const int samples = static_cast<int>(std::min({beam.points.size(), beam.slopes.size(), beam.normals.size()}));
    auto points = vtkSmartPointer<vtkPoints>::New();
    points->SetDataTypeToDouble();  // the core's numbers, not rounded to float
    auto normals = vtkSmartPointer<vtkDoubleArray>::New();
    normals->SetNumberOfComponents(3);
    normals->SetName("Normals");
    auto scalars = vtkSmartPointer<vtkDoubleArray>::New();
    scalars->SetName(kAxialArray);
    auto bending = vtkSmartPointer<vtkDoubleArray>::New();
    bending->SetName(kBendingArray);
    auto polys = vtkSmartPointer<vtkCellArray>::New();
    auto frame = [&](int i, Eigen::Vector3d& t, Eigen::Vector3d& n, Eigen::Vector3d& b) {
        const Eigen::Vector3d& s = beam.slopes[size_t(i)];
        n = beam.normals[size_t(i)];
        t = s.norm() > 0.0 ? Eigen::Vector3d(s.normalized()) : n.unitOrthogonal();
        b = t.cross(n);
    };
    auto strain = [&](int i) { return size_t(i) < beam.axialStrain.size() ? beam.axialStrain[size_t(i)] : 0.0; };
    auto bent = [&](int i) { return size_t(i) < beam.bendingStrain.size() ? beam.bendingStrain[size_t(i)] : 0.0; };
    for (int i = 0; i < samples; ++i) {
        Eigen::Vector3d t, n, b;
        frame(i, t, n, b);
        for (int k = 0; k < m; ++k) {
            const Eigen::Vector3d x = beam.points[size_t(i)] + profile.offsets[size_t(k)].x() * n + profile.offsets[size_t(k)].y() * b;
            const Eigen::Vector3d d = profile.normals[size_t(k)].x() * n + profile.normals[size_t(k)].y() * b;
            points->InsertNextPoint(x.data());
            normals->InsertNextTuple(d.data());
            scalars->InsertNextValue(strain(i));
            bending->InsertNextValue(bent(i));
        }
    }
    for (int i = 0; i + 1 < samples; ++i) {
        // Counter-clockwise seen from outside: (n, b, t) is right-handed and the profile
        // runs counter-clockwise in (n, b), so along the profile, then along t. VTK's
        // two-sided lighting flips the normals of faces wound the other way.
        for (const auto& side : profile.sides) {
            const vtkIdType quad[4] = {i * m + side[0], i * m + side[1], (i + 1) * m + side[1], (i + 1) * m + side[0]};
            polys->InsertNextCell(4, quad);
        }
    }
    // End caps: points of their own, facing along the centreline.
    for (int end = 0; end < 2 && samples > 0; ++end) {
        const int i = end == 0 ? 0 : samples - 1;
        Eigen::Vector3d t, n, b;
        frame(i, t, n, b);
        const Eigen::Vector3d outward = end == 0 ? Eigen::Vector3d(-t) : t;
        std::vector<vtkIdType> ids;
        for (int k : profile.cap) {
            const Eigen::Vector3d x = beam.points[size_t(i)] + profile.offsets[size_t(k)].x() * n + profile.offsets[size_t(k)].y() * b;
            ids.push_back(points->InsertNextPoint(x.data()));
            normals->InsertNextTuple(outward.data());
            scalars->InsertNextValue(strain(i));
            bending->InsertNextValue(bent(i));
        }
        if (end == 0)
            std::reverse(ids.begin(), ids.end());
        polys->InsertNextCell(static_cast<vtkIdType>(ids.size()), ids.data());
    }
    auto poly = vtkSmartPointer<vtkPolyData>::New();
    poly->SetPoints(points);
    poly->SetPolys(polys);
    poly->GetPointData()->SetNormals(normals);
    poly->GetPointData()->AddArray(scalars);
    poly->GetPointData()->AddArray(bending);
    return poly;
}

// The outer surface with normals split at the box's edges, so faces stay flat.
vtkSmartPointer<vtkPolyData> surfaceOf(const SceneSurface& surface)
{
    auto points = vtkSmartPointer<vtkPoints>::New();
    points->SetDataTypeToDouble();  // the core's numbers, not rounded to float
    auto scalars = vtkSmartPointer<vtkDoubleArray>::New();
    scalars->SetName(kStressArray);
    for (size_t v = 0; v < surface.points.size(); ++v) {
        points->InsertNextPoint(surface.points[v].data());
        scalars->InsertNextValue(v < surface.vonMises.size() ? surface.vonMises[v] : 0.0);
    }
    auto polys = vtkSmartPointer<vtkCellArray>::New();
    for (const auto& q : surface.quads) {
        const vtkIdType ids[4] = {q[0], q[1], q[2], q[3]};
        polys->InsertNextCell(4, ids);
    }
    vtkNew<vtkPolyData> raw;
    raw->SetPoints(points);
    raw->SetPolys(polys);
    raw->GetPointData()->AddArray(scalars);
    vtkNew<vtkPolyDataNormals> normals;
    normals->SetInputData(raw);
    normals->SetFeatureAngle(30.0);
    normals->SplittingOn();
    normals->ConsistencyOff();  // the core orients every face outward
    normals->AutoOrientNormalsOff();
    normals->SetOutputPointsPrecision(vtkAlgorithm::DOUBLE_PRECISION);
    normals->Update();
    auto poly = vtkSmartPointer<vtkPolyData>::New();
    poly->DeepCopy(normals->GetOutput());
    return poly;
}

}  // namespace

struct FlexibleActors::Member {
    bool beam = true;
    int body = -1;  // index in Scene::bodies
    size_t size = 0;  // samples or vertices
    SceneSection::Kind section = SceneSection::Kind::Circle;
    Color color{{0.6, 0.6, 0.65}};
    vtkSmartPointer<vtkPolyDataMapper> mapper;
    vtkSmartPointer<vtkActor> actor;
    // The fields at the samples or vertices shown.
    std::vector<double> axial, bending, stress;
    const std::vector<double>& values(FlexibleField field) const
    {
        return field == FlexibleField::BendingStrain ? bending : field == FlexibleField::VonMises ? stress : axial;
    }
};

FlexibleActors::FlexibleActors(vtkRenderer* renderer)
    : renderer_(renderer),
      lookup_(vtkSmartPointer<vtkLookupTable>::New()),
      legend_(vtkSmartPointer<vtkScalarBarActor>::New())
{
    // Blue (low) to red (high), the usual reading of a stress plot.
    lookup_->SetHueRange(0.667, 0.0);
    lookup_->SetNumberOfTableValues(256);
    lookup_->Build();
    legend_->SetLookupTable(lookup_);
    legend_->SetNumberOfLabels(5);
    legend_->SetLabelFormat("%-#8.3g");
    legend_->SetPosition(0.88, 0.15);
    legend_->SetWidth(0.1);
    legend_->SetHeight(0.7);
    legend_->GetTitleTextProperty()->SetColor(0.1, 0.1, 0.12);
    legend_->GetLabelTextProperty()->SetColor(0.1, 0.1, 0.12);
    legend_->VisibilityOff();
    legend_->PickableOff();
    renderer_->AddActor2D(legend_);
}

FlexibleActors::~FlexibleActors()
{
    for (const auto& m : members_)
        renderer_->RemoveActor(m->actor);
    for (const auto& g : ghosts_)
        renderer_->RemoveActor(g->actor);
    renderer_->RemoveActor2D(legend_);
}

bool FlexibleActors::sameMembers(const looplab::Scene& scene) const
{
    if (members_.size() != scene.beams.size() + scene.surfaces.size() ||
        ghosts_.size() != scene.ghostBeams.size() + scene.ghostSurfaces.size())
        return false;
    size_t i = 0;
    for (const SceneBeam& b : scene.beams) {
        const Member& m = *members_[i++];
        if (!m.beam || m.size != b.points.size() || m.section != b.section.kind)
            return false;
    }
    for (const SceneSurface& s : scene.surfaces) {
        const Member& m = *members_[i++];
        if (m.beam || m.size != s.points.size())
            return false;
    }
    return true;
}

bool FlexibleActors::setScene(const looplab::Scene& scene)
{
    const bool fresh = !sameMembers(scene);
    if (fresh)
        rebuild(scene);
    update(scene);
    return fresh;
}

void FlexibleActors::rebuild(const looplab::Scene& scene)
{
    for (const auto& m : members_)
        renderer_->RemoveActor(m->actor);
    for (const auto& g : ghosts_)
        renderer_->RemoveActor(g->actor);
    members_.clear();
    ghosts_.clear();
    rangeSet_ = false;
    auto make = [&](bool beam, looplab::BodyIndex body, size_t size, SceneSection::Kind section,
                    const Color& color, bool ghost) {
        auto m = std::make_unique<Member>();
        m->beam = beam;
        // Scene::bodies lists every body after the ground, in model order.
        m->body = body.valid() ? body.value() - 1 : -1;
        m->size = size;
        m->section = section;
        m->color = color;
        m->mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
        m->mapper->SetLookupTable(lookup_);
        m->mapper->SetScalarModeToUsePointFieldData();
        m->mapper->ScalarVisibilityOff();
        m->actor = vtkSmartPointer<vtkActor>::New();
        m->actor->SetMapper(m->mapper);
        vtkProperty* p = m->actor->GetProperty();
        p->SetAmbient(0.12);
        p->SetDiffuse(0.8);
        p->SetSpecular(0.25);
        p->SetSpecularPower(25.0);
        // Not picked: see SceneActors::bodyOf.
        m->actor->PickableOff();
        if (ghost) {
            // A pale, see-through copy.
            const Color c = brighter(color);
            p->SetColor(c[0], c[1], c[2]);
            p->SetOpacity(0.3);
        }
        renderer_->AddActor(m->actor);
        return m;
    };
    for (const SceneBeam& b : scene.beams)
        members_.push_back(make(true, b.body, b.points.size(), b.section.kind, b.color, false));
    for (const SceneSurface& s : scene.surfaces)
        members_.push_back(make(false, s.body, s.points.size(), SceneSection::Kind::Circle, s.color, false));
    for (const SceneBeam& b : scene.ghostBeams)
        ghosts_.push_back(make(true, b.body, b.points.size(), b.section.kind, b.color, true));
    for (const SceneSurface& s : scene.ghostSurfaces)
        ghosts_.push_back(make(false, s.body, s.points.size(), SceneSection::Kind::Circle, s.color, true));
}

void FlexibleActors::update(const looplab::Scene& scene)
{
    size_t i = 0;
    for (const SceneBeam& b : scene.beams) {
        Member& m = *members_[i++];
        m.mapper->SetInputData(sweptBeam(b));
        m.axial = b.axialStrain;
        m.bending = b.bendingStrain;
    }
    for (const SceneSurface& s : scene.surfaces) {
        Member& m = *members_[i++];
        m.mapper->SetInputData(surfaceOf(s));
        m.stress = s.vonMises;
    }
    if (scene.modeFields != modeFields_)
        rangeSet_ = false;
    modeFields_ = scene.modeFields;
    i = 0;
    for (const SceneBeam& b : scene.ghostBeams)
        ghosts_[i++]->mapper->SetInputData(sweptBeam(b));
    for (const SceneSurface& s : scene.ghostSurfaces)
        ghosts_[i++]->mapper->SetInputData(surfaceOf(s));
    applyColouring();
}

void FlexibleActors::setField(FlexibleField field)
{
    if (field != field_)
        rangeSet_ = false;
    field_ = field;
    applyColouring();
}

void FlexibleActors::applyColouring()
{
    const bool onBeams = field_ == FlexibleField::AxialStrain || field_ == FlexibleField::BendingStrain;
    auto coloured = [&](const Member& m) { return m.beam ? onBeams : field_ == FlexibleField::VonMises; };
    bool any = false;
    for (const auto& m : members_) {
        if (!coloured(*m))
            continue;
        for (double v : m->values(field_)) {
            if (!std::isfinite(v))
                continue;
            range_[0] = rangeSet_ ? std::min(range_[0], v) : v;
            range_[1] = rangeSet_ ? std::max(range_[1], v) : v;
            rangeSet_ = true;
        }
        any = true;
    }
    double lo = range_[0], hi = range_[1];
    uniform_ = false;
    if (modeFields_) {
        // A mode's fields are relative to their largest: the scale is fixed, so that the
        // colours say where the mode strains most, not how far it was drawn.
        lo = field_ == FlexibleField::AxialStrain ? -1.0 : 0.0;
        hi = 1.0;
    } else if (isFlatRange(lo, hi)) {
        // The charts' flat-axis rule (PlotAxisRange.h): a field that varies by less than
        // rounding is one colour, the middle of a range sized by its value.
        uniform_ = rangeSet_;
        const double value = 0.5 * (lo + hi), pad = 0.1 * std::max(std::abs(value), 1.0);
        uniformValue_ = value;
        lo = value - pad;
        hi = value + pad;
    }
    lookup_->SetTableRange(lo, hi);
    const char* array = field_ == FlexibleField::BendingStrain ? kBendingArray
                        : field_ == FlexibleField::VonMises   ? kStressArray
                                                              : kAxialArray;
    for (size_t i = 0; i < members_.size(); ++i) {
        Member& m = *members_[i];
        vtkProperty* p = m.actor->GetProperty();
        const Color c = m.body == highlighted_ ? brighter(m.color) : m.color;
        p->SetColor(c[0], c[1], c[2]);
        if (coloured(m)) {
            m.mapper->SelectColorArray(array);
            m.mapper->ScalarVisibilityOn();
            m.mapper->SetScalarRange(lo, hi);
        } else {
            m.mapper->ScalarVisibilityOff();
        }
    }
    legend_->SetTitle(legendTitle().c_str());
    legend_->SetVisibility(any && field_ != FlexibleField::None);
}

std::string FlexibleActors::legendTitle() const
{
    std::string title = field_ == FlexibleField::VonMises        ? (modeFields_ ? "von Mises\nstress" : "von Mises\nstress [Pa]")
                        : field_ == FlexibleField::BendingStrain ? "bending\nstrain"
                                                                 : "axial\nstrain";
    if (modeFields_)
        return title + "\nof the mode,\nrelative";
    if (uniform_) {
        char value[48];
        std::snprintf(value, sizeof value, "\nuniform\n%.3g", uniformValue_);
        return title + value;
    }
    return title;
}

void FlexibleActors::fieldRange(double range[2]) const
{
    range[0] = rangeSet_ ? range_[0] : 0.0;
    range[1] = rangeSet_ ? range_[1] : 0.0;
}

bool FlexibleActors::legendVisible() const { return legend_->GetVisibility() != 0; }

void FlexibleActors::setHighlightedBody(int body)
{
    highlighted_ = body;
    applyColouring();
}

void FlexibleActors::mergeBounds(double out[6], bool& any) const
{
    for (const auto& m : members_) {
        vtkPolyData* poly = m->mapper->GetInput();
        if (!poly || poly->GetNumberOfPoints() == 0)
            continue;
        double b[6];
        poly->GetBounds(b);
        for (int i = 0; i < 3; ++i) {
            out[2 * i] = any ? std::min(out[2 * i], b[2 * i]) : b[2 * i];
            out[2 * i + 1] = any ? std::max(out[2 * i + 1], b[2 * i + 1]) : b[2 * i + 1];
        }
        any = true;
    }
}

}  // namespace looplab::ui
