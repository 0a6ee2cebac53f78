// Flexible members in the scene against closed forms: the sampled centreline of a tip-
// loaded cantilever (solved by the statics) against the Euler–Bernoulli curve between the
// nodes, the axial strain of a stretched beam against the equilibrium of the cable
// element's Green strain, the von Mises stress of a uniaxially stretched block against the
// uniaxial Cauchy stress, the outer surface's faces against the box's counts, the
// exaggeration of the drawn displacement, and the marker of a hinge on a beam node.
#include "TestModels.h"

#include "looplab/analysis/Modes.h"
#include "looplab/analysis/Statics.h"
#include "looplab/scene/FlexibleScene.h"
#include "looplab/scene/ModeFields.h"
#include "looplab/scene/Scene.h"

#include <QtTest>
#include <cmath>

using namespace looplab;
using namespace looplab::test;

namespace {

constexpr double kE = 2.1e11, kSide = 0.02, kLength = 1.0;

// A straight beam along x, clamped at the origin, with a force at its tip.
ModelDocument cantilever(int elements, const Vec3& tipForce) {
    ModelDocument doc;
    doc.name = "cantilever";
    BeamDoc beam;
    beam.name = "beam";
    beam.from = Vec3::Zero();
    beam.to = Vec3(kLength, 0, 0);
    beam.elements = elements;
    beam.material = {kE, 0.3, 7850};
    beam.section.shape = SectionDoc::Shape::Rectangle;
    beam.section.width = kSide;
    beam.section.height = kSide;
    doc.beams.push_back(beam);
    JointDoc clamp;
    clamp.name = "clamp";
    clamp.type = JointType::Fixed;
    clamp.body1 = "ground";
    clamp.body2 = "beam.root";
    clamp.axis = Vec3::UnitX();
    doc.joints.push_back(clamp);
    ForceDoc load;
    load.name = "tip load";
    load.type = ForceType::BodyForce;
    load.body = "beam.tip";
    load.vector = tipForce;
    doc.forces.push_back(load);
    return doc;
}

// The equilibrium (into `s`) and the lowest mode about it; false with the reason printed.
bool firstMode(const Model& m, State& s, Mode& mode) {
    const StaticsResult st = findEquilibrium(m, s);
    if (!st.ok) {
        qWarning("%s", st.message.c_str());
        return false;
    }
    ModesOptions o;
    o.count = 1;
    const ModesResult r = computeModes(m, s, st.lambda, o);
    if (!r.ok) qWarning("%s", r.message.c_str());
    if (r.ok) mode = r.modes.front();
    return r.ok;
}

}  // namespace

class FlexibleSceneTest : public QObject {
    Q_OBJECT
private slots:
    // Between nodes the drawn centreline follows the element's cubic: under a tip load the
    // Euler–Bernoulli deflection is cubic in x, so 4 elements reproduce it at every sample
    // up to the geometric nonlinearity of a deflection of 1e-4 L (relative effect ~1e-8). A straight line between
    // the nodes would miss it by about 1 % of the tip deflection.
    void cantileverCentrelineIsEulerBernoulli() {
        const double P = 1.0, EI = kE * std::pow(kSide, 4) / 12.0;
        const Model m = buildOrStop(cantilever(4, Vec3(0, -P, 0)));
        State s = initialState(m);
        const StaticsResult r = findEquilibrium(m, s);
        QVERIFY2(r.ok, r.message.c_str());
        const Scene scene = buildScene(m, s);
        QCOMPARE(scene.beams.size(), size_t(1));
        const SceneBeam& beam = scene.beams.front();
        const int n = beam.samplesPerElement;
        QCOMPARE(int(beam.points.size()), 4 * n + 1);
        const double tip = P * std::pow(kLength, 3) / (3.0 * EI);
        double worstBetween = 0.0, worstNode = 0.0, worstChord = 0.0;
        for (size_t i = 0; i < beam.points.size(); ++i) {
            const Vec3& p = beam.points[i];
            const double x = p.x();
            const double w = P * x * x * (3.0 * kLength - x) / (6.0 * EI);
            const double error = std::abs(-p.y() - w) / tip;
            QVERIFY(std::abs(p.z()) < 1e-12);
            if (i % size_t(n) == 0) {
                worstNode = std::max(worstNode, error);
            } else {
                worstBetween = std::max(worstBetween, error);
                // What straight pieces between the nodes would draw.
                const size_t a = i - i % size_t(n), b = a + size_t(n);
                const double f = double(i - a) / n;
                const double chord = (1 - f) * beam.points[a].y() + f * beam.points[b].y();
                worstChord = std::max(worstChord, std::abs(-chord - w) / tip);
            }
        }
        qInfo("tip deflection %.6g m; largest error / tip: at nodes %.3g, between nodes %.3g (chords: %.3g)",
              tip, worstNode, worstBetween, worstChord);
        QVERIFY(worstNode < 1e-6);
        QVERIFY(worstBetween < 1e-6);
        QVERIFY(worstChord > 1e-3);  // the test can tell the cubic from the chords
        // The drawn slope is the derivative of the curve: w'(x) = P x (2L − x) / (2EI).
        const Vec3& end = beam.slopes.back();
        const double slope = P * kLength * kLength / (2.0 * EI);
        QVERIFY(std::abs(-end.y() / end.x() - slope) < 1e-4 * slope);
    }

    // The outer fibre's bending strain of the tip-loaded cantilever: κ = M/EI with
    // M = P (L − x), times half the 20 mm side, κ c = P (L − x) c / EI. The cubic elements
    // hold the cubic deflection exactly, so their curvature is the linear moment's.
    void bendingStrainIsTheMomentOverEI() {
        const double P = 1.0, EI = kE * std::pow(kSide, 4) / 12.0, c = 0.5 * kSide;
        const Model m = buildOrStop(cantilever(4, Vec3(0, -P, 0)));
        State s = initialState(m);
        const StaticsResult r = findEquilibrium(m, s);
        QVERIFY2(r.ok, r.message.c_str());
        const SceneBeam beam = buildScene(m, s).beams.front();
        QCOMPARE(beam.bendingStrain.size(), beam.points.size());
        const double root = P * kLength * c / EI;
        double worst = 0.0;
        for (size_t i = 0; i < beam.points.size(); ++i) {
            const double expected = P * (kLength - beam.points[i].x()) * c / EI;
            worst = std::max(worst, std::abs(beam.bendingStrain[i] - expected) / root);
        }
        qInfo("bending strain at the root %.6g (P L c / EI %.6g); largest error / root value %.3g",
              beam.bendingStrain.front(), root, worst);
        QVERIFY(worst < 1e-5);
        // The axial strain of pure bending is of second order: far below the bending strain.
        double axial = 0.0;
        for (double e : beam.axialStrain) axial = std::max(axial, std::abs(e));
        QVERIFY(axial < 1e-3 * root);
    }

    // A mode's fields are its own, relative to their largest, and free of rotation. The
    // cantilever's first bending mode against Euler–Bernoulli: its curvature
    // φ''(x) ∝ cosh βx + cos βx − σ (sinh βx + sin βx), βL = 1.8751, σ = 0.7341, is
    // largest at the root and zero at the free tip, although the tip turns most.
    void beamModeFieldsAreTheModesCurvature() {
        const Model m = buildOrStop(cantilever(8, Vec3::Zero()));
        State s = initialState(m);
        Mode mode;
        QVERIFY(firstMode(m, s, mode));
        const ModeFields f = modeFields(m, s, mode.shape);
        QCOMPARE(f.bendingStrain.size(), size_t(1));
        QVERIFY(f.largestBendingStrain > 0.0);
        // A bending mode strains the axis to second order only.
        QCOMPARE(f.largestAxialStrain, 0.0);
        const SceneBeam beam = buildScene(m, s).beams.front();
        const double bL = 1.8751040687, sigma = (std::cosh(bL) + std::cos(bL)) / (std::sinh(bL) + std::sin(bL));
        auto curvature = [&](double x) {
            const double b = bL * x / kLength;
            return std::cosh(b) + std::cos(b) - sigma * (std::sinh(b) + std::sin(b));
        };
        double worst = 0.0;
        for (size_t i = 0; i < beam.points.size(); ++i) {
            const double expected = std::abs(curvature(beam.points[i].x()) / curvature(0.0));
            worst = std::max(worst, std::abs(f.bendingStrain.front()[i] - expected));
        }
        qInfo("first mode: bending field at the root %.6f, at the tip %.3g; largest difference from Euler-Bernoulli's "
              "|phi''| / |phi''(0)| %.3g", f.bendingStrain.front().front(), f.bendingStrain.front().back(), worst);
        QVERIFY(std::abs(f.bendingStrain.front().front() - 1.0) < 1e-9);
        QVERIFY(f.bendingStrain.front().back() < 0.02);
        QVERIFY(worst < 0.02);
        // A rigid turn of the whole beam about its root strains nothing: both fields zero.
        const Body& body = m.body(BodyIndex(1));
        VecX turn = VecX::Zero(m.velocitySize());
        for (int n = 0; n < body.beam()->nodeCount(); ++n) {
            const int at = body.slice.velocityOffset + 6 * n;
            turn.segment<3>(at) = Vec3::UnitZ().cross(Vec3(s.q.segment<3>(body.slice.positionOffset + 6 * n)));
            turn.segment<3>(at + 3) = Vec3::UnitZ().cross(Vec3(s.q.segment<3>(body.slice.positionOffset + 6 * n + 3)));
        }
        const ModeFields rigid = modeFields(m, s, turn);
        QCOMPARE(rigid.largestAxialStrain, 0.0);
        QCOMPARE(rigid.largestBendingStrain, 0.0);
        // A frame of the swing carries them, signed by the phase for strain.
        Scene frame = buildScene(m, s);
        applyModeFields(frame, f, -0.5);
        QVERIFY(frame.modeFields);
        QCOMPARE(frame.beams.front().bendingStrain.front(), 0.5 * f.bendingStrain.front().front());
    }

    // The hexahedral cantilever's first mode (12 × 2 × 2 elements): the von Mises field of the mode's stress is
    // largest at the clamped root and nearly nothing at the free tip, which moves and
    // turns most; a rigid turn of the whole bar strains nothing and colours nothing.
    void solidModeFieldsAreFreeOfRotation() {
        // The example's bar with fewer elements along it, for a sanitizer build's pace.
        ModelDocument doc = exampleDocument("cantilever-hex.json");
        doc.solids.front().elements[0] = 12;
        const LoadedModel lm = prepareModel(doc);
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        State s = lm.initial;
        Mode mode;
        QVERIFY(firstMode(m, s, mode));
        const ModeFields f = modeFields(m, s, mode.shape);
        QCOMPARE(f.vonMises.size(), size_t(1));
        QVERIFY(f.largestVonMises > 0.0);
        const SceneSurface surface = buildScene(m, s).surfaces.front();
        double rootMean = 0.0, tipMean = 0.0, largestAt = 0.0, largest = -1.0;
        int root = 0, tip = 0;
        for (size_t v = 0; v < surface.points.size(); ++v) {
            const double x = surface.referencePoints[v].x(), value = f.vonMises.front()[v];
            if (x < 1e-9) rootMean += value, ++root;
            if (x > 1.0 - 1e-9) tipMean += value, ++tip;
            if (value > largest) largest = value, largestAt = x;
        }
        rootMean /= std::max(root, 1);
        tipMean /= std::max(tip, 1);
        qInfo("first mode %.4g Hz: von Mises field mean %.3f at the root face, %.3g at the tip face; largest at "
              "x = %.3f m", mode.frequencyHz, rootMean, tipMean, largestAt);
        QVERIFY(largest <= 1.0 + 1e-12);
        QVERIFY(largestAt < 0.1);
        QVERIFY(rootMean > 0.5);
        QVERIFY(tipMean < 0.02);

        // A turn of the whole bar about z through the root: δx = ω × x at every node.
        const Body& bar = m.body(BodyIndex(1));
        QVERIFY(bar.solid());
        VecX turn = VecX::Zero(m.velocitySize());
        for (int n = 0; n < bar.solid()->nodeCount(); ++n) {
            const Vec3 x = s.q.segment<3>(bar.slice.positionOffset + 3 * n);
            turn.segment<3>(bar.slice.velocityOffset + 3 * n) = Vec3::UnitZ().cross(x);
        }
        const ModeFields rigid = modeFields(m, s, turn);
        qInfo("a rigid turn: largest von Mises field %.3g (zero: below the differences' rounding)",
              rigid.largestVonMises);
        QCOMPARE(rigid.largestVonMises, 0.0);
        for (double v : rigid.vonMises.front()) QCOMPARE(v, 0.0);
    }

    // A tip force P along the axis: the cable element's energy ½EAε² with Green's strain
    // ε = ½(λ² − 1) gives the equilibrium EA ε λ = P, λ = √(1 + 2ε), the same at every point.
    void axialStrainOfStretchedBeam() {
        const double EA = kE * kSide * kSide, P = 1e-3 * EA;
        const Model m = buildOrStop(cantilever(3, Vec3(P, 0, 0)));
        State s = initialState(m);
        const StaticsResult r = findEquilibrium(m, s);
        QVERIFY2(r.ok, r.message.c_str());
        // Solve EA ε √(1 + 2ε) = P by Newton's method.
        double eps = P / EA;
        for (int i = 0; i < 50; ++i) {
            const double g = EA * eps * std::sqrt(1 + 2 * eps) - P;
            const double dg = EA * (std::sqrt(1 + 2 * eps) + eps / std::sqrt(1 + 2 * eps));
            eps -= g / dg;
        }
        const SceneBeam beam = buildScene(m, s).beams.front();
        double worst = 0.0;
        for (double e : beam.axialStrain) worst = std::max(worst, std::abs(e - eps) / eps);
        qInfo("axial strain %.9g, largest relative error %.3g", eps, worst);
        QVERIFY(worst < 1e-8);
        QVERIFY(std::abs(beam.points.back().x() - kLength * std::sqrt(1 + 2 * eps)) < 1e-8 * kLength * eps);
    }

    // A homogeneous deformation x = R F X with F = diag(λ₁, λ₂, λ₂) whose Green strains
    // e₂ = −ν e₁ leave the lateral faces free (uniaxial stress for St. Venant–Kirchhoff):
    // S₁₁ = E e₁, the Cauchy stress σ₁₁ = J⁻¹ λ₁² S₁₁ = λ₁ E e₁ / λ₂², and its von Mises
    // equivalent |σ₁₁|. The rotation R must not change it.
    void vonMisesOfUniaxiallyStretchedBlock() {
        ModelDocument doc;
        doc.name = "block";
        SolidDoc block;
        block.name = "block";
        block.origin = Vec3(0.1, -0.2, 0.05);
        block.size = Vec3(1.0, 0.3, 0.2);
        block.elements[0] = 3;
        block.elements[1] = 2;
        block.elements[2] = 2;
        block.material = {7e10, 0.3, 2700};
        doc.solids.push_back(block);
        const Model m = buildOrStop(doc);
        const BodyIndex b(1);
        const SolidMesh& mesh = *m.body(b).solid();

        const double e1 = 0.02, nu = 0.3, e2 = -nu * e1;
        const double l1 = std::sqrt(1 + 2 * e1), l2 = std::sqrt(1 + 2 * e2);
        const double expected = l1 * 7e10 * e1 / (l2 * l2);
        const Mat3 R = Eigen::AngleAxisd(0.7, Vec3(1, 2, -0.5).normalized()).toRotationMatrix();
        const Mat3 F = R * Vec3(l1, l2, l2).asDiagonal();
        State s = initialState(m);
        for (int k = 0; k < mesh.nodeCount(); ++k)
            s.q.segment<3>(m.body(b).slice.positionOffset + 3 * k) = F * mesh.initialNodePosition(k) + Vec3(0.3, 0.1, -2);

        const Scene scene = buildScene(m, s);
        QCOMPARE(scene.surfaces.size(), size_t(1));
        const SceneSurface& surface = scene.surfaces.front();
        // A box of nx × ny × nz elements shows 2(nx ny + ny nz + nz nx) faces and all its
        // nodes but the (nx − 1)(ny − 1)(nz − 1) inside.
        QCOMPARE(int(surface.quads.size()), 2 * (3 * 2 + 2 * 2 + 2 * 3));
        QCOMPARE(int(surface.points.size()), mesh.nodeCount() - 2 * 1 * 1);
        double worst = 0.0;
        for (double v : surface.vonMises) worst = std::max(worst, std::abs(v - expected) / expected);
        qInfo("von Mises %.9g Pa, largest relative error %.3g", expected, worst);
        QVERIFY(worst < 1e-10);
        // Every face points out of the box: its normal away from the box's centre.
        Vec3 centre = Vec3::Zero();
        for (const Vec3& p : surface.points) centre += p;
        centre /= double(surface.points.size());
        for (const auto& q : surface.quads) {
            const Vec3 a = surface.points[size_t(q[0])], c = surface.points[size_t(q[2])];
            const Vec3 normal = (surface.points[size_t(q[1])] - a).cross(surface.points[size_t(q[3])] - a);
            QVERIFY(normal.dot(0.5 * (a + c) - centre) > 0.0);
        }
    }

    // x = X + k (x − X) for every drawn point and slope of the beam; strains unchanged.
    void exaggerationScalesDisplacement() {
        const Model m = buildOrStop(cantilever(2, Vec3(0, -1, 0)));
        State s = initialState(m);
        QVERIFY(findEquilibrium(m, s).ok);
        const Scene scene = buildScene(m, s);
        const Scene big = withExaggeratedDeformation(scene, 250.0);
        const SceneBeam& a = scene.beams.front();
        const SceneBeam& b = big.beams.front();
        for (size_t i = 0; i < a.points.size(); ++i) {
            const Vec3 u = a.points[i] - a.referencePoints[i], U = b.points[i] - b.referencePoints[i];
            QVERIFY((U - 250.0 * u).norm() <= 1e-12 * (1 + U.norm()));
            QCOMPARE(b.axialStrain[i], a.axialStrain[i]);
        }
        QVERIFY(std::abs(b.points.back().y()) > 200.0 * std::abs(a.points.back().y()));
    }

    // The section's normal stays perpendicular to the bent centreline and, for bending in
    // the x–y plane, in that plane (no twist).
    void sweepNormalsFollowTheCentreline() {
        const Model m = buildOrStop(cantilever(4, Vec3(0, -400, 0)));
        State s = initialState(m);
        QVERIFY(findEquilibrium(m, s).ok);
        const SceneBeam beam = buildScene(m, s).beams.front();
        const std::vector<Vec3>& normals = beam.normals;
        QCOMPARE(normals.size(), beam.slopes.size());
        for (size_t i = 0; i < normals.size(); ++i) {
            QVERIFY(std::abs(normals[i].norm() - 1.0) < 1e-12);
            QVERIFY(std::abs(normals[i].dot(beam.slopes[i].normalized())) < 1e-12);
            QVERIFY(std::abs(normals[i].z()) < 1e-12);
        }
        QVERIFY(normals.back().x() > 0.05);  // turned with the tip
    }

    // A hinge (revolute joint) holding a beam node is drawn at the node's current position,
    // along the hinge axis as its rigid side carries it: frame 1's z turned with body 1. The
    // state is made by hand (the scene reads positions, not whether they assemble): the arm
    // turned 30° about x, the tip node moved off its place. The axis is y, not the z that an
    // identity frame would give.
    void hingeOnBeamNodeIsDrawnAlongTheRigidSidesAxis() {
        ModelDocument doc;
        BeamDoc beam;
        beam.name = "beam";
        beam.from = Vec3::Zero();
        beam.to = Vec3(kLength, 0, 0);
        beam.elements = 2;
        beam.material = {kE, 0.3, 7850};
        beam.section.shape = SectionDoc::Shape::Rectangle;
        beam.section.width = kSide;
        beam.section.height = kSide;
        doc.beams.push_back(beam);
        BodyDoc arm;
        arm.name = "arm";
        arm.mass = 1.0;
        arm.inertia = Mat3::Identity() * 0.01;
        arm.position = Vec3(kLength, 0, 0);
        doc.bodies.push_back(arm);
        JointDoc root;
        root.name = "root hinge";
        root.type = JointType::Revolute;
        root.body1 = "ground";
        root.body2 = "beam.root";
        root.axis = Vec3(0, 2, 0);  // any length
        doc.joints.push_back(root);
        JointDoc tip = root;
        tip.name = "tip hinge";
        tip.body1 = "arm";
        tip.body2 = "beam.tip";
        tip.point = Vec3(kLength, 0, 0);
        doc.joints.push_back(tip);
        const Model m = buildOrStop(doc);

        State s = initialState(m);
        const Eigen::AngleAxisd turn(30.0 * M_PI / 180.0, Vec3::UnitX());
        const Quat q(turn);
        const int armAt = m.positionOffset(*m.findBody("arm"));
        s.q.segment<4>(armAt + 3) << q.w(), q.x(), q.y(), q.z();
        const Vec3 tipNode(0.9, 0.1, 0.2), rootNode(1e-3, -2e-3, 0.0);
        const int beamAt = m.positionOffset(*m.findBody("beam"));
        s.q.segment<3>(beamAt + 6 * 2) = tipNode;
        s.q.segment<3>(beamAt) = rootNode;

        const Scene scene = buildScene(m, s);
        QCOMPARE(scene.joints.size(), size_t(2));
        const SceneJoint& atRoot = scene.joints[0];
        const SceneJoint& atTip = scene.joints[1];
        QCOMPARE(atTip.name, std::string("tip hinge"));
        QCOMPARE(int(atTip.kind), int(SceneJoint::Kind::Revolute));
        QVERIFY(atTip.body == *m.findBody("beam"));
        QCOMPARE(atTip.point, tipNode);
        const Vec3 turnedAxis = turn * Vec3::UnitY();
        qInfo("tip hinge axis (%.15f, %.15f, %.15f), the arm's y (%.15f, %.15f, %.15f)", atTip.axis().x(), atTip.axis().y(),
              atTip.axis().z(), turnedAxis.x(), turnedAxis.y(), turnedAxis.z());
        QVERIFY((atTip.axis() - turnedAxis).norm() < 1e-12);
        // The ground side does not turn.
        QCOMPARE(int(atRoot.kind), int(SceneJoint::Kind::Revolute));
        QCOMPARE(atRoot.point, rootNode);
        QVERIFY((atRoot.axis() - Vec3::UnitY()).norm() < 1e-12);
    }
};

QTEST_APPLESS_MAIN(FlexibleSceneTest)
#include "tst_flexiblescene.moc"
