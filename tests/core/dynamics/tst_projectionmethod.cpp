// The projection method's corrections: after correct(), the state is on the position and
// velocity constraint manifolds, and the factorisation the method offers for that state
// (factorizationAt) is the factorisation of the Jacobian at that very state, not one
// left over from an earlier Gauss–Newton iterate.

#include "TestModels.h"

#include "looplab/kinematics/Constraints.h"
#include "looplab/kinematics/Mobility.h"
#include "looplab/dynamics/ProjectionMethod.h"

#include <QtTest>

#include <random>

using namespace looplab;
using namespace looplab::test;

class TestProjectionMethod : public QObject {
    Q_OBJECT

private slots:
    void factorizationIsOfTheCorrectedState_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("linearAlgebra");
        for (const char* f : {"four-bar.json", "parallelogram.json", "bricard.json", "slider-crank.json"})
            for (const char* la : {"dense", "sparse"}) QTest::newRow((std::string(f) + " " + la).c_str()) << QString(f) << QString(la);
    }

    // Random perturbations of every size from far off the manifold to rounding level,
    // with random velocities: Gauss–Newton takes one to many iterations, with and
    // without Jacobian reuse and the QR fallback.
    void factorizationIsOfTheCorrectedState() {
        QFETCH(QString, file);
        QFETCH(QString, linearAlgebra);
        const LoadedModel lm = loadExample(file.toStdString().c_str());
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        ConstraintMethodSettings settings;
        QVERIFY(parseLinearAlgebra(linearAlgebra.toStdString(), settings.linearAlgebra));
        ProjectionMethod method(lm.model, settings);
        std::mt19937 rng(12345);
        std::uniform_real_distribution<double> unit(-1.0, 1.0);
        int corrected = 0, offered = 0;
        double worstVelocity = 0.0, worstSolve = 0.0;
        for (int trial = 0; trial < 400; ++trial) {
            State s = lm.initial;
            const double size = std::pow(10.0, -9.0 + 8.0 * (trial % 50) / 49.0) * m.lengthScale;
            VecX dq(m.velocitySize()), v(m.velocitySize());
            for (int i = 0; i < dq.size(); ++i) dq[i] = size * unit(rng);
            for (int i = 0; i < v.size(); ++i) v[i] = unit(rng);
            retract(m, s.q, dq);
            s.v = v;
            if (!method.correct(s).ok) continue;
            ++corrected;
            ConstraintValues cv;
            evaluateConstraints(m, s, cv, kAllParts);
            const double speed = s.v.cwiseAbs().maxCoeff() + 1.0;
            worstVelocity = std::max(worstVelocity, (cv.jacobian * s.v + cv.phiT).cwiseAbs().maxCoeff() / speed);
            const ConstraintSpaces* offeredSpaces = method.factorizationAt(s);
            if (!offeredSpaces) continue;
            ++offered;
            ConstraintSpaces fresh;
            fresh.factorize(cv.jacobian, equationScales(m), coordinateScales(m), settings.rankTolerance,
                            offeredSpaces->isSparse() ? LinearAlgebra::Sparse : LinearAlgebra::Dense);
            QCOMPARE(offeredSpaces->rank(), fresh.rank());
            const VecX b = cv.jacobian * VecX::Random(m.velocitySize());
            const VecX x1 = offeredSpaces->solveMinimumNorm(b), x2 = fresh.solveMinimumNorm(b);
            worstSolve = std::max(worstSolve, (x1 - x2).cwiseAbs().maxCoeff() / (x2.cwiseAbs().maxCoeff() + 1e-300));
        }
        qInfo("%d of 400 perturbed states corrected, %d with a factorisation offered; velocity "
              "constraints met to %.2e, offered and fresh factorisations agree to %.2e",
              corrected, offered, worstVelocity, worstSolve);
        QVERIFY(corrected >= 300);
        QVERIFY2(worstVelocity < 1e-12, qPrintable(QString("velocity constraints violated by %1").arg(worstVelocity)));
        QVERIFY2(worstSolve < 1e-9, qPrintable(QString("offered factorisation differs by %1").arg(worstSolve)));
    }
};

QTEST_APPLESS_MAIN(TestProjectionMethod)
#include "tst_projectionmethod.moc"
