// Free and partly free structures in the eigenanalysis and statics (FreeDirections.h):
//  - the free–free beam (16 elements, no joint): five rigid-body modes at 0 Hz (the cable
//    element has no torsion coordinate, so the turn about its own axis moves nothing),
//    M-orthonormal rigid motions, then its first three elastic frequencies (each twice) against
//    Euler–Bernoulli's closed form, and all of them against the dense projected problem;
//  - a free rigid body: six rigid-body modes and nothing else;
//  - a block on a spring without joint: five free directions and ω² = k/m;
//  - twenty free beams at once: 100 rigid-body modes, the elastic ones the single beam's;
//  - a failed shifted factorisation (a density of 1e-300): an error with its reason;
//  - extreme materials: the modes, or the reason none can be resolved;
//  - statics: a free beam under gravity has no equilibrium (outcome "unbalanced"), a free beam
//    pulled at both ends by balanced forces stretches by PL/EA;
//  - the command-line tool: `modes` and `statics` on the free–free beam.
#include "CliRunner.h"
#include "ModesTestModels.h"

#include "looplab/analysis/FreeDirections.h"
#include "looplab/analysis/Modes.h"
#include "looplab/analysis/Statics.h"
#include "looplab/dynamics/Dynamics.h"
#include "looplab/files/ModelFile.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace looplab;

namespace {

ModesResult modesOf(const Model& model, int count) {
    const State s = initialState(model);
    ModesOptions o;
    o.count = count;
    return computeModes(model, s, VecX::Zero(model.equationCount()), o);
}

// Checks the first `rigid` modes are rigid-body modes: ω = 0, M-orthonormal shapes.
void checkRigidModes(const Model& model, const ModesResult& r, int rigid) {
    QCOMPARE(r.rigidBodyModes, rigid);
    QVERIFY(static_cast<int>(r.modes.size()) >= rigid);
    for (int i = 0; i < rigid; ++i) {
        const Mode& m = r.modes[static_cast<size_t>(i)];
        QVERIFY(m.rigidBody);
        QCOMPARE(m.frequencyHz, 0.0);
        QVERIFY2(m.residual <= 1e-10, qPrintable(QString::number(m.residual)));
        for (int j = 0; j < rigid; ++j) {
            const double mij = m.shape.dot(applyMass(model, r.modes[static_cast<size_t>(j)].shape));
            QVERIFY2(std::abs(mij - (i == j ? 1.0 : 0.0)) <= 1e-10, qPrintable(QString::number(mij)));
        }
    }
    for (size_t i = static_cast<size_t>(rigid); i < r.modes.size(); ++i) QVERIFY(!r.modes[i].rigidBody);
}

}  // namespace

class FreeStructuresTest : public QObject {
    Q_OBJECT

private slots:
    void freeFreeBeam() {
        const ModelDocument doc = test::freeFreeBeam(16);
        const Model model = test::buildOrStop(doc);
        const ModesResult r = modesOf(model, 6);
        QVERIFY2(r.ok, r.message.c_str());
        checkRigidModes(model, r, 5);
        QCOMPARE(r.modes.size(), size_t(11));
        // The first rigid-body modes are pure translations along x, y, z.
        for (int a = 0; a < 3; ++a) {
            const VecX& x = r.modes[static_cast<size_t>(a)].shape;
            QVERIFY(std::abs(x[a]) > 0.0);
            for (int node = 0; node < 17; ++node)
                QVERIFY(std::abs(x[6 * node + a] - x[a]) <= 1e-12 * std::abs(x[a]));
        }
        for (int n = 1; n <= 3; ++n) {
            const double expected = test::freeFreeBeamHz(doc, n);
            for (int copy = 0; copy < 2; ++copy) {
                const double f = r.modes[static_cast<size_t>(5 + 2 * (n - 1) + copy)].frequencyHz;
                qInfo("free-free beam mode %d (%d): %.6f Hz, closed form %.6f Hz, difference %.3e", n, copy + 1, f,
                      expected, (f - expected) / expected);
                QVERIFY2(std::abs(f - expected) <= 0.005 * expected, qPrintable(QString::number(f)));
            }
        }
        // The whole list against the dense problem on the tangent space (an independent path).
        QVERIFY(r.denseChecked);
        QVERIFY2(r.denseDifference <= 1e-6, qPrintable(QString::number(r.denseDifference)));
        for (int i = 0; i < 5; ++i)
            QVERIFY2(std::abs(r.denseEigenvalues[static_cast<size_t>(i)]) / (2 * M_PI) <= 1e-3,
                     qPrintable(QString::number(std::abs(r.denseEigenvalues[static_cast<size_t>(i)]))));
    }

    void freeRigidBody() {
        const Model model = test::buildOrStop(test::freeRigidBody());
        const ModesResult r = modesOf(model, 6);
        QVERIFY2(r.ok, r.message.c_str());
        checkRigidModes(model, r, 6);
        QCOMPARE(r.modes.size(), size_t(6));
        QCOMPARE(r.freeStructures.size(), size_t(1));
        QCOMPARE(r.freeStructures[0].front(), std::string("block"));
    }

    void springOnly() {
        const test::SpringOnly spring;
        const Model model = test::buildOrStop(spring.document());
        const ModesResult r = modesOf(model, 1);
        QVERIFY2(r.ok, r.message.c_str());
        checkRigidModes(model, r, 5);
        QCOMPARE(r.modes.size(), size_t(6));
        const double w2 = r.modes[5].squaredFrequency;
        qInfo("block on a spring: omega^2 = %.12g, k/m = %.12g", w2, spring.omega2());
        QVERIFY(std::abs(w2 - spring.omega2()) <= 1e-9 * spring.omega2());
        // The elastic shape is the translation along the spring.
        const VecX& x = r.modes[5].shape;
        QVERIFY(std::abs(x[1]) > 0.99 * x.norm());
    }

    void manyFreeBeams() {
        ModelDocument doc = test::freeFreeBeam(2);
        const BeamDoc beam = doc.beams[0];
        doc.beams.clear();
        for (int i = 0; i < 20; ++i) {
            BeamDoc b = beam;
            b.name = "beam" + std::to_string(i);
            b.from += Vec3(0, 0.1 * i, 0);
            b.to += Vec3(0, 0.1 * i, 0);
            doc.beams.push_back(b);
        }
        const Model model = test::buildOrStop(doc);
        const ModesResult r = modesOf(model, 4);
        QVERIFY2(r.ok, r.message.c_str());
        QCOMPARE(r.rigidBodyModes, 100);
        QCOMPARE(r.freeStructures.size(), size_t(20));
        QCOMPARE(r.modes.size(), size_t(104));
        // The lowest elastic frequency of one two-element beam, 20 times over.
        const ModesResult one = modesOf(test::buildOrStop(test::freeFreeBeam(2)), 1);
        QVERIFY(one.ok);
        const double f1 = one.modes.back().frequencyHz;
        for (size_t i = 100; i < 104; ++i)
            QVERIFY2(std::abs(r.modes[i].frequencyHz - f1) <= 1e-8 * f1, qPrintable(QString::number(r.modes[i].frequencyHz)));
    }

    void failedFactorizationIsAnError() {
        ModelDocument doc = test::freeFreeBeam(4);
        doc.beams[0].material.density = 1e-300;
        const BuildResult built = buildModel(doc);
        if (!built.ok()) {  // refused by the model checks: also a reason
            qInfo("density 1e-300: %s", formatDiagnostics(built.diagnostics).c_str());
            QVERIFY(!built.diagnostics.empty());
            return;
        }
        const ModesResult r = modesOf(*built.model, 3);
        qInfo("density 1e-300: ok %d, %s", int(r.ok), r.message.c_str());
        QVERIFY(!r.ok);
        QVERIFY(!r.message.empty());
        QVERIFY2(r.message.find("mass") != std::string::npos, r.message.c_str());
    }

    void extremeMaterial() {
        ModelDocument doc = test::unloadedCantilever(8);
        doc.beams[0].material.density = 0.001;
        doc.beams[0].material.youngModulus = 1e20;
        const BuildResult built = buildModel(doc);
        if (!built.ok()) {
            qInfo("rho 0.001, E 1e20: %s", formatDiagnostics(built.diagnostics).c_str());
            return;
        }
        State s = initialState(*built.model);
        const StaticsResult st = findEquilibrium(*built.model, s);
        ModesOptions o;
        o.count = 2;
        const ModesResult r = computeModes(*built.model, s, st.lambda, o);
        qInfo("rho 0.001, E 1e20: ok %d, %s", int(r.ok), r.message.c_str());
        if (r.ok) {
            // The cantilever's first frequency, 1.8751² √(EI/ρA) / 2π L².
            const BeamDoc& b = doc.beams[0];
            const double EI = b.material.youngModulus * b.section.width * std::pow(b.section.height, 3) / 12.0;
            const double rhoA = b.material.density * b.section.width * b.section.height;
            const double f1 = 1.875104069 * 1.875104069 * std::sqrt(EI / rhoA) / (2.0 * M_PI);
            qInfo("f1 = %.6g Hz, closed form %.6g Hz", r.modes[0].frequencyHz, f1);
            QVERIFY(std::abs(r.modes[0].frequencyHz - f1) <= 0.005 * f1);
        } else {
            // Not resolved: the message names the pairs' frequency and residual and why.
            QVERIFY2(r.message.find("not resolved in double precision") != std::string::npos, r.message.c_str());
            QVERIFY2(r.message.find("omega^2 =") != std::string::npos, r.message.c_str());
        }
    }

    // A material far from any real one (modulus over density 1e16 m²/s², 4e8 times
    // steel's): the modes may not be found, but a shift the message advises must find them
    // (it advised one at which the same pairs were rejected again).
    void adviceForUnresolvedModesHolds() {
        ModelDocument doc = test::unloadedCantilever(8);
        doc.beams[0].material.density = doc.beams[0].material.youngModulus / 1e16;
        const Model model = test::buildOrStop(doc);
        State s = initialState(model);
        const StaticsResult st = findEquilibrium(model, s);
        ModesOptions o;
        o.count = 3;
        const ModesResult r = computeModes(model, s, st.lambda, o);
        qInfo("E/rho 1e16: ok %d, %s", int(r.ok), r.message.c_str());
        if (r.ok) return;
        const std::string advice = "a --shift nearer omega^2 = ";
        const size_t at = r.message.find(advice);
        if (at == std::string::npos) {
            QVERIFY2(r.message.find("was tried as well") != std::string::npos, r.message.c_str());
            return;
        }
        ModesOptions advised = o;
        advised.shift = std::stod(r.message.substr(at + advice.size()));
        const ModesResult again = computeModes(model, s, st.lambda, advised);
        QVERIFY2(again.ok, again.message.c_str());
    }

    void staticsOfFreeBeams() {
        // Under gravity: no equilibrium, and the reason.
        ModelDocument doc = test::freeFreeBeam(8);
        doc.gravity = Vec3(0, -9.81, 0);
        {
            const Model model = test::buildOrStop(doc);
            State s = initialState(model);
            const StaticsResult r = findEquilibrium(model, s);
            QVERIFY(!r.ok);
            QCOMPARE(r.outcome, StaticsOutcome::Unbalanced);
            QCOMPARE(r.freeDirections, 5);
            QVERIFY2(r.message.find("resultant along a free direction") != std::string::npos, r.message.c_str());
        }
        // Pulled at both ends by P: balanced, the beam stretches uniformly. The cable element's
        // Green strain ε = (λ² − 1)/2 with S = Eε and the force P = S A λ in the stretched
        // beam: P / EA = λ(λ² − 1)/2 for the stretch λ (solved by Newton here).
        doc.gravity = Vec3::Zero();
        const double P = 1e4;
        for (int end = 0; end < 2; ++end) {
            ForceDoc f;
            f.name = end ? "pull tip" : "pull root";
            f.type = ForceType::BodyForce;
            f.body = end ? "beam.tip" : "beam.root";
            f.vector = Vec3(end ? P : -P, 0, 0);
            doc.forces.push_back(f);
        }
        const Model model = test::buildOrStop(doc);
        State s = initialState(model);
        const StaticsResult r = findEquilibrium(model, s);
        QVERIFY2(r.ok, r.message.c_str());
        QCOMPARE(r.freeDirections, 5);
        const BeamDoc& b = doc.beams[0];
        const double EA = b.material.youngModulus * b.section.width * b.section.height;
        const int tip = model.bodies.back().slice.positionOffset + 6 * 8;
        const int root = model.bodies.back().slice.positionOffset;
        const double stretch = (s.q.segment<3>(tip) - s.q.segment<3>(root)).norm() - 1.0;
        double lambda = 1.0 + P / EA;
        for (int it = 0; it < 20; ++it)
            lambda -= (0.5 * lambda * (lambda * lambda - 1.0) - P / EA) / (1.5 * lambda * lambda - 0.5);
        qInfo("free beam pulled by %g N: stretch %.12g m, closed form %.12g m (PL/EA %.9g m)", P, stretch,
              lambda - 1.0, P / EA);
        QVERIFY(std::abs(stretch - (lambda - 1.0)) <= 1e-6 * (lambda - 1.0));
        // Held at their start: the centre of the beam did not drift.
        const double mid = 0.5 * (s.q[tip] + s.q[root]);
        QVERIFY2(std::abs(mid - 0.5) <= 1e-9, qPrintable(QString::number(mid, 'g', 17)));
    }

    void commandLine() {
        QTemporaryDir dir;
        const QString file = dir.filePath("free-free.json");
        ModelDocument doc = test::freeFreeBeam(16);
        QVERIFY(writeModelDocument(doc, file.toStdString(), nullptr));
        test::CliResult r = test::runCli({"modes", file, "--count", "6", "--json"});
        QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QVERIFY(j["ok"].toBool());
        QCOMPARE(j["rigid_body_modes"].toInt(), 5);
        const QJsonArray modes = j["modes"].toArray();
        QCOMPARE(modes.size(), 11);
        for (int i = 0; i < 11; ++i) {
            const QJsonObject m = modes[i].toObject();
            QCOMPARE(m["rigid_body"].toBool(), i < 5);
            if (i < 5) QCOMPARE(m["frequency_hz"].toDouble(), 0.0);
        }
        const double f1 = test::freeFreeBeamHz(doc, 1);
        QVERIFY(std::abs(modes[5].toObject()["frequency_hz"].toDouble() - f1) <= 0.005 * f1);

        r = test::runCli({"modes", file, "--count", "2"});
        QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out.count("rigid body"), 5);
        QVERIFY(r.out.contains("rigid-body:   5 mode(s) at 0 Hz"));

        doc.gravity = Vec3(0, -9.81, 0);
        QVERIFY(writeModelDocument(doc, file.toStdString(), nullptr));
        r = test::runCli({"statics", file, "--json"});
        QCOMPARE(r.exitCode, 3);
        const QJsonObject s = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(s["outcome"].toString(), QString("unbalanced"));
        QCOMPARE(s["free_directions"].toInt(), 5);
        r = test::runCli({"modes", file});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains("resultant along a free direction"), r.err.constData());
    }
};

QTEST_APPLESS_MAIN(FreeStructuresTest)
#include "tst_freestructures.moc"
