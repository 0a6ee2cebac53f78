// The sparse linear-algebra path (SuiteSparseQR, sparse Cholesky) against the dense one:
// rank, minimum-norm solves and least-norm multipliers are unique, so both must agree to
// rounding on every example; simulations agree to the integrator's tolerance; and the
// relative singular threshold leaves a regular chain of loops alone. The augmented matrices
// of statics and eigenanalysis: their sparse LU against a dense one.

#include "TestModels.h"

#include "looplab/kinematics/Constraints.h"
#include "looplab/dynamics/Dynamics.h"
#include "looplab/kinematics/Mobility.h"
#include "looplab/simulation/Simulation.h"
#include "looplab/dynamics/BaumgarteMethod.h"
#include "looplab/dynamics/PenaltyMethod.h"
#include "looplab/model/State.h"
#include "looplab/linalg/AugmentedMatrix.h"

#include <cmath>
#include <cstdlib>
#include <memory>
#include <random>

#include <QtTest>

using namespace looplab;
using namespace looplab::test;

class TestSparsePath : public QObject {
    Q_OBJECT

private slots:
    void spacesAgree_data() {
        QTest::addColumn<QString>("file");
        for (const char* f : {"four-bar.json", "slider-crank.json", "parallelogram.json", "bricard.json",
                              "rssr.json", "pendulum.json", "andrews.json", "chain-20-loops.json"})
            QTest::newRow(f) << QString(f);
    }

    // The two factorisations of the same Jacobian: same rank; the minimum-norm solution
    // of Φ_q x = b and the least-norm multipliers of Φ_qᵀλ = g are unique, so they agree.
    void spacesAgree() {
        QFETCH(QString, file);
        const LoadedModel lm = loadExample(file.toStdString().c_str());
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        ConstraintValues cv;
        evaluateConstraints(m, lm.initial, cv, kAllParts);
        ConstraintSpaces dense, sparse;
        dense.factorize(cv.jacobian, equationScales(m), coordinateScales(m), kDefaultRankTolerance,
                        LinearAlgebra::Dense);
        sparse.factorize(cv.jacobian, equationScales(m), coordinateScales(m), kDefaultRankTolerance,
                         LinearAlgebra::Sparse);
        QVERIFY(!dense.isSparse());
        QVERIFY(sparse.isSparse());
        QCOMPARE(sparse.rank(), dense.rank());
        QCOMPARE(sparse.redundantEquations().size(), dense.redundantEquations().size());

        // A consistent right-hand side: Φ_q times a random velocity.
        const VecX x0 = VecX::Random(m.velocitySize());
        const VecX b = cv.jacobian * x0;
        double resDense = 1, resSparse = 1;
        const VecX xd = dense.solveMinimumNorm(b, &resDense);
        const VecX xs = sparse.solveMinimumNorm(b, &resSparse);
        const double scale = xd.cwiseAbs().maxCoeff();
        QVERIFY2((xd - xs).cwiseAbs().maxCoeff() <= 1e-11 * scale,
                 qPrintable(QString("minimum-norm solutions differ by %1").arg((xd - xs).cwiseAbs().maxCoeff())));
        QVERIFY(resSparse <= 1e-12 * std::max(1.0, b.cwiseAbs().maxCoeff()));
        QVERIFY((cv.jacobian * xs - b).cwiseAbs().maxCoeff() <= 1e-12 * std::max(1.0, b.cwiseAbs().maxCoeff()));

        // Multipliers for a generalised force in the range of Φ_qᵀ.
        const VecX l0 = VecX::Random(m.equationCount());
        const VecX g = cv.jacobian.transpose() * l0;
        const VecX ld = dense.solveTransposed(g);
        const VecX ls = sparse.solveTransposed(g);
        const double lscale = ld.cwiseAbs().maxCoeff();
        QVERIFY2((ld - ls).cwiseAbs().maxCoeff() <= 1e-10 * lscale,
                 qPrintable(QString("least-norm multipliers differ by %1 of %2")
                                .arg((ld - ls).cwiseAbs().maxCoeff())
                                .arg(lscale)));
        QVERIFY((cv.jacobian.transpose() * ls - g).cwiseAbs().maxCoeff() <= 1e-10 * g.cwiseAbs().maxCoeff());

        // Statically indeterminate equations: a property of the left null space, not of the
        // factorisation.
        QCOMPARE(sparse.indeterminateEquations(), dense.indeterminateEquations());
        // Where no equation is redundant the independent rows are all rows, and σ_min too
        // is unique.
        if (dense.redundantEquations().empty())
            QVERIFY(std::abs(sparse.smallestSingularValue() - dense.smallestSingularValue()) <=
                    1e-9 * dense.smallestSingularValue());
    }

    // The chain of 20 loops by the automatic choice (sparse, 246 coordinates) against the
    // expected mobility written in its file.
    void chainMobility() {
        const LoadedModel lm = loadExample("chain-20-loops.json");
        QVERIFY(lm.ok());
        const MobilityReport r = analyzeMobility(*lm.model, lm.initial);
        QVERIFY(r.sparse);
        QCOMPARE(r.rank, 245);
        QCOMPARE(r.dof, 1);
        QCOMPARE(int(r.redundant.size()), 60);
        QCOMPARE(r.dof, *lm.model->expected.dof);
    }

    // Simulations on the two paths: the right-hand sides agree to rounding, so the runs
    // agree to well within the integrator's tolerance, with constraints held to rounding.
    void simulationsAgree_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<double>("tEnd");
        // Short spans: the dense chain costs 23 ms a step, and the suite also runs under
        // AddressSanitizer.
        QTest::newRow("four-bar") << QString("four-bar.json") << 0.5;
        QTest::newRow("bricard") << QString("bricard.json") << 0.25;
        QTest::newRow("chain-20-loops") << QString("chain-20-loops.json") << 0.05;
    }

    void simulationsAgree() {
        QFETCH(QString, file);
        QFETCH(double, tEnd);
        const LoadedModel lm = loadExample(file.toStdString().c_str());
        QVERIFY(lm.ok());
        auto run = [&](LinearAlgebra la, SimulationResult& result) {
            SimulationSettings s;
            s.tEnd = tEnd;
            s.outputStep = tEnd;
            s.ode.rtol = 1e-10;
            s.ode.atol = 1e-12;
            s.constraints.linearAlgebra = la;
            Simulator sim(lm.model, s);
            SimulationFrame last;
            result = sim.run(lm.initial, [&](const SimulationFrame& f) { last = f; });
            return last;
        };
        SimulationResult rd, rs;
        const SimulationFrame fd = run(LinearAlgebra::Dense, rd);
        const SimulationFrame fs = run(LinearAlgebra::Sparse, rs);
        QVERIFY2(rd.ok && rs.ok, (rd.message + " / " + rs.message).c_str());
        QCOMPARE(fs.state.t, tEnd);
        const double dq = (fd.state.q - fs.state.q).cwiseAbs().maxCoeff();
        const double dv = (fd.state.v - fs.state.v).cwiseAbs().maxCoeff();
        qInfo("%s: dense and sparse paths differ by %.2e in q, %.2e in v; violation %.2e (sparse)",
              qPrintable(file), dq, dv, rs.maxViolation.position);
        QVERIFY(dq < 1e-7);
        QVERIFY(dv < 1e-6);
        QVERIFY(rs.maxViolation.position < 1e-12 * lm.model->lengthScale + 1e-14);
        // Conservative models: energy holds to the integrator's tolerance on both paths.
        QVERIFY(std::abs(rs.energyMaxDrift - rd.energyMaxDrift) <= 1e-6 * std::max(1.0, std::abs(rd.energyInitial)));
    }

    // Baumgarte, penalty and the augmented Lagrangian on the two paths: the accelerations
    // and multipliers are unique (the minimum-norm ones where equations are redundant), so
    // the dense and the sparse factorisations must give the same numbers. The state is
    // given other velocities. It stays on the manifold: off it, the targets of redundant
    // equations (Bricard's, the chain's) disagree by the drift, and the answer depends on
    // which of them the rank decision keeps, on either path.
    void stabilisedMethodsAgree_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("method");
        for (const char* f : {"four-bar.json", "bricard.json", "chain-20-loops.json", "flexible-slider-crank.json",
                              "flexible-four-bar.json"})
            for (const char* method : {"baumgarte", "penalty", "augmented-lagrangian"})
                // The penalty matrix M + αΦ_qᵀΦ_q (α = 1e7) of the four-bar's clamped beams
                // leaves the two factorisations 6.4e-7 apart: its own rounding, not a path's.
                if (std::string(f) != "flexible-four-bar.json" || std::string(method) != "penalty")
                    QTest::newRow((std::string(f) + " " + method).c_str()) << QString(f) << QString(method);
    }

    void stabilisedMethodsAgree() {
        QFETCH(QString, file);
        QFETCH(QString, method);
        // The flexible examples from their own start (equilibrium): at the rod's quasi-static
        // deflection the sparse path's Schur complement needs more than three refinements
        // (three missed the 1e-6 residual check at joints A and B), and on the four-bar's clamped
        // beams it cannot be refined at all and the augmented system is solved instead.
        const LoadedModel lm = test::loadExample(file.toStdString().c_str());
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        State s = lm.initial;
        std::srand(7);
        // Random velocities projected on the tangent space: off it, the curvature terms γ
        // of redundant equations are inconsistent with each other for the same reason.
        // The flexible model keeps its own velocities (random nodal slope rates would
        // make it a different, much stiffer, problem than the one shipped).
        if (!file.startsWith("flexible-")) {
            s.v += 0.01 * VecX::Random(s.v.size());
            ConstraintValues cv;
            evaluateConstraints(m, s, cv, kJacobian | kPhiT);
            ConstraintSpaces spaces;
            spaces.factorize(cv.jacobian, equationScales(m), coordinateScales(m), kDefaultRankTolerance,
                             LinearAlgebra::Dense);
            s.v -= spaces.solveMinimumNorm(cv.jacobian * s.v + cv.phiT);
        }
        auto evaluate = [&](LinearAlgebra la, MotionEvaluation& out) {
            ConstraintMethodSettings settings;
            settings.linearAlgebra = la;
            std::unique_ptr<ConstraintMethod> cm;
            if (method == "baumgarte")
                cm = std::make_unique<BaumgarteMethod>(lm.model, settings);
            else
                cm = std::make_unique<PenaltyMethod>(lm.model, settings, method == "augmented-lagrangian");
            out.computeMultipliers = true;
            return cm->evaluate(s, out);
        };
        MotionEvaluation dense, sparse;
        const Status sd = evaluate(LinearAlgebra::Dense, dense);
        const Status ss = evaluate(LinearAlgebra::Sparse, sparse);
        QVERIFY2(sd.ok && ss.ok, (sd.message + " / " + ss.message).c_str());
        const double aScale = dense.acceleration.cwiseAbs().maxCoeff();
        const double lScale = dense.multipliers.cwiseAbs().maxCoeff();
        const double da = (dense.acceleration - sparse.acceleration).cwiseAbs().maxCoeff() / aScale;
        const double dl = (dense.multipliers - sparse.multipliers).cwiseAbs().maxCoeff() / lScale;
        qInfo("%s %s: relative differences %.2e (accelerations), %.2e (multipliers)", qPrintable(file),
              qPrintable(method), da, dl);
        // Rounding amplified by the condition of the system each path solves: about 1e-16
        // times the penalty factor (1e7, 1e4) for the penalty matrix M + αΦ_qᵀΦ_q, and the
        // condition of M̃^{-1/2}J̃_Iᵀ for Baumgarte (far larger for the beam
        // coordinates of the flexible slider-crank than for the rigid models).
        const double tolerance = method == "penalty" ? 1e-7 : 1e-8;
        QVERIFY2(da <= tolerance, qPrintable(QString("accelerations differ by %1").arg(da)));
        QVERIFY2(dl <= tolerance, qPrintable(QString("multipliers differ by %1").arg(dl)));
    }

    // A regular chain of loops has a small σ_min by its size alone; the relative threshold
    // must not call it singular (the absolute one did, for the whole run).
    void regularChainIsNotSingular() {
        const LoadedModel lm = loadExample("chain-20-loops.json");
        QVERIFY(lm.ok());
        SimulationSettings s;
        s.tEnd = 0.2;
        s.outputStep = 0.05;
        Simulator sim(lm.model, s);
        double sigmaMin = 1e300;
        const SimulationResult r =
            sim.run(lm.initial, [&](const SimulationFrame& f) { sigmaMin = std::min(sigmaMin, f.smallestSingularValue); });
        QVERIFY(r.ok);
        QVERIFY(sigmaMin < s.singularThreshold);  // below the old absolute threshold ...
        for (const SimulationEvent& e : r.events) QVERIFY2(e.kind != RunEventKind::SingularConfiguration, e.detail.c_str());
    }

    // The statics' and eigenanalysis' sparse LU (UMFPACK) of the augmented matrices
    // [A βBᵀ; βB 0] against a dense LU of the same matrices: solves with S and Sᵀ, the sign
    // of the determinant, Hager–Higham's κ₁ estimate (a lower bound, usually within a
    // factor 3), and the estimate for the unscaled matrix D⁻¹ S D⁻¹ read from the factors of
    // the scaled one against the exact κ₁ of the unscaled matrix built on its own.
    void augmentedLU() {
        std::mt19937 g(11);
        std::normal_distribution<double> nd;
        const int n = 40, m = 14;
        // A stiffness of 1e6 N/m springs in a chain, and unit-sized constraint rows.
        std::vector<Eigen::Triplet<double>> ta;
        for (int i = 0; i < n; ++i) {
            ta.emplace_back(i, i, 2e6 + 1e5 * i);
            if (i + 1 < n) {
                ta.emplace_back(i, i + 1, -1e6);
                ta.emplace_back(i + 1, i, -1e6);
            }
        }
        SparseColMatrix A(n, n);
        A.setFromTriplets(ta.begin(), ta.end());
        std::vector<Eigen::Triplet<double>> tj;
        std::uniform_int_distribution<int> col(0, n - 1);
        for (int k = 0; k < m - 1; ++k)
            for (int e = 0; e < 3; ++e) tj.emplace_back(k, col(g), nd(g));
        SparseMatrix J(m, n);  // its last row is empty
        J.setFromTriplets(tj.begin(), tj.end());
        const std::vector<int> rows = {0, 2, 3, 5, 6, 7, 9, 11};
        const int r = static_cast<int>(rows.size());

        const auto norm1 = [](const MatX& X) { return X.cwiseAbs().colwise().sum().maxCoeff(); };
        const auto exactCondition = [&](const MatX& X) { return norm1(X) * norm1(X.partialPivLu().inverse()); };
        const double beta = 1e6;
        const SparseColMatrix S = augmentedMatrix(A, J, rows, beta);
        const SparseColMatrix S1 = augmentedMatrix(A, J, rows, 1.0);
        const MatX Sd(S), S1d(S1);
        SparseLUFactorization lu, lu1;
        QVERIFY(lu.factorize(S));
        QVERIFY(lu1.factorize(S1));
        QCOMPARE(lu.size(), n + r);

        VecX b(n + r);
        for (int i = 0; i < b.size(); ++i) b[i] = nd(g);
        const VecX x = lu.solve(b), xt = lu.solveTransposed(b);
        const double scale = norm1(Sd);
        QVERIFY((Sd * x - b).norm() <= 1e-12 * scale * x.norm());
        QVERIFY((Sd.transpose() * xt - b).norm() <= 1e-12 * scale * xt.norm());

        // The sign of det S from the dense LU: the permutation's sign times the signs of
        // U's diagonal (the determinant itself is 1e300 and beyond).
        const Eigen::PartialPivLU<MatX> plu(Sd);
        int sign = static_cast<int>(plu.permutationP().determinant());
        for (int i = 0; i < plu.matrixLU().rows(); ++i) sign *= plu.matrixLU()(i, i) < 0 ? -1 : 1;
        QCOMPARE(lu.signDeterminant(), sign);
        // A symmetric saddle matrix with A positive definite has n positive and r negative
        // eigenvalues: the sign is (−1)^r.
        QCOMPARE(sign, r % 2 ? -1 : 1);

        const double kappa = exactCondition(Sd), kappa1 = exactCondition(S1d);
        const double est = lu.conditionEstimate();
        VecX d = VecX::Ones(n + r);
        d.tail(r).setConstant(1.0 / beta);
        const double est1 = lu.conditionEstimate(d), est1Own = lu1.conditionEstimate();
        qInfo("kappa_1 scaled: exact %.4g, estimate %.4g; unscaled: exact %.4g, from the scaled factors %.4g, "
              "from its own %.4g",
              kappa, est, kappa1, est1, est1Own);
        QVERIFY(est <= kappa * (1 + 1e-8) && est >= kappa / 3);
        QVERIFY(est1 <= kappa1 * (1 + 1e-6) && est1 >= kappa1 / 3);
        QVERIFY(est1Own <= kappa1 * (1 + 1e-6) && est1Own >= kappa1 / 3);
        // The point of β: the unscaled matrix is worse by orders of magnitude.
        QVERIFY(kappa1 > 1e4 * kappa);

        // A constraint row with no entries makes S structurally singular: refused, and
        // every query says so instead of returning numbers.
        std::vector<int> withEmpty = rows;
        withEmpty.push_back(m - 1);
        SparseLUFactorization singular;
        QVERIFY(!singular.factorize(augmentedMatrix(A, J, withEmpty, beta)));
        QVERIFY(!singular.ok());
        QCOMPARE(singular.signDeterminant(), 0);
        QVERIFY(std::isinf(singular.conditionEstimate()));
    }
};

QTEST_APPLESS_MAIN(TestSparsePath)
#include "tst_sparsepath.moc"
