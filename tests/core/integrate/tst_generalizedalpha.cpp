// The generalised-α scheme the implicit steppers share (GeneralizedAlpha.h), the modified
// Newton rule (ModifiedNewton.h) and the KLU factorisation with kept pivots
// (KluFactorization.h): the order of accuracy on the linear oscillator x'' = −ω²x against
// its closed form, the local error estimate against the true local error of one step (and
// its h³ scaling), the rule's decisions, the refactorisation's fallback to a pivot search,
// and the reason the step-size control gives when the step collapses.
#include "looplab/integrate/GeneralizedAlpha.h"
#include "looplab/integrate/ModifiedNewton.h"
#include "looplab/integrate/StepSizeController.h"
#include "looplab/linalg/KluFactorization.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace looplab;

namespace {

constexpr double kOmega = 2.0 * M_PI;  // period 1 s

// One step of the scheme in tlismni's form (ã = (1 + α)a_{n+1} − αa_n) on x'' = −ω²x: the
// implicit equation for a_{n+1} is linear and solved exactly.
struct OscillatorState {
    double x, v, a, aTilde;
};

OscillatorState stepOscillator(const GeneralizedAlpha& s, double h, const OscillatorState& n) {
    const double w2 = kOmega * kOmega;
    // a = −ω²(x_n + h v_n + h²(½ − β)ã_n + h²β((1 + α)a − αa_n))
    const double rest = n.x + h * n.v + h * h * (0.5 - s.beta) * n.aTilde - h * h * s.beta * s.alpha * n.a;
    const double a = -w2 * rest / (1.0 + w2 * h * h * s.beta * (1.0 + s.alpha));
    const double aTilde = (1.0 + s.alpha) * a - s.alpha * n.a;
    VecX v0(1), a0(1), a1(1);
    v0 << n.v;
    a0 << n.aTilde;
    a1 << aTilde;
    return {n.x + s.positionIncrement(h, v0, a0, a1)[0], s.velocity(h, v0, a0, a1)[0], a, aTilde};
}

// The distance of (x, v/ω) at T from the exact (cos ωT, −sin ωT) after T/h steps from
// x = 1, v = 0 (both components: at a whole period x alone sees the phase error only
// to second order).
double globalError(const GeneralizedAlpha& s, double h, double T) {
    OscillatorState st{1.0, 0.0, -kOmega * kOmega, -kOmega * kOmega};
    const int steps = static_cast<int>(std::lround(T / h));
    for (int i = 0; i < steps; ++i) st = stepOscillator(s, h, st);
    return std::hypot(st.x - std::cos(kOmega * T), st.v / kOmega + std::sin(kOmega * T));
}

}  // namespace

class TestGeneralizedAlpha : public QObject {
    Q_OBJECT
private slots:
    void constants() {
        const GeneralizedAlpha h = GeneralizedAlpha::hht(-0.1);
        QCOMPARE(h.beta, 0.25 * 1.1 * 1.1);
        QCOMPARE(h.gamma, 0.6);
        // β + α/2 − 1/6 = 1/12 + α²/4 for HHT.
        QVERIFY(std::abs(h.errorCoefficient() - (1.0 / 12.0 + 0.01 / 4.0)) < 1e-15);
        QVERIFY(std::abs(GeneralizedAlpha::newmark(0.25, 0.5).errorCoefficient() - 1.0 / 12.0) < 1e-15);
        // Fox–Goodwin (β = 1/12... here β = 1/6, the linear-acceleration method): c = 0, the
        // estimate falls back to the trapezoidal rule's coefficient.
        QCOMPARE(GeneralizedAlpha::newmark(1.0 / 6.0, 0.5).errorCoefficient(), 1.0 / 12.0);
    }

    // Second order for HHT (every α) and the trapezoidal rule; first order for Newmark with
    // γ ≠ ½ (its velocity error h²(γ − ½)ȧ per step).
    void orderOnTheLinearOscillator_data() {
        QTest::addColumn<double>("alpha");
        QTest::addColumn<double>("beta");
        QTest::addColumn<double>("gamma");
        QTest::addColumn<bool>("newmark");
        QTest::addColumn<double>("order");
        QTest::newRow("trapezoidal") << 0.0 << 0.25 << 0.5 << true << 2.0;
        QTest::newRow("hht -0.05") << -0.05 << 0.0 << 0.0 << false << 2.0;
        QTest::newRow("hht -0.3") << -0.3 << 0.0 << 0.0 << false << 2.0;
        QTest::newRow("newmark gamma 0.6") << 0.0 << 0.3025 << 0.6 << true << 1.0;
    }
    void orderOnTheLinearOscillator() {
        QFETCH(double, alpha);
        QFETCH(double, beta);
        QFETCH(double, gamma);
        QFETCH(bool, newmark);
        QFETCH(double, order);
        const GeneralizedAlpha s = newmark ? GeneralizedAlpha::newmark(beta, gamma) : GeneralizedAlpha::hht(alpha);
        const double e1 = globalError(s, 1.0 / 400.0, 1.25), e2 = globalError(s, 1.0 / 800.0, 1.25);
        const double observed = std::log2(e1 / e2);
        QVERIFY2(std::abs(observed - order) < 0.1, qPrintable(QString("observed order %1").arg(observed)));
    }

    // One step from the exact motion at t = 0, with ã started as the scheme carries it
    // (ã_0 = a(0) + αhȧ(0)): the estimate c h²(ã_1 − ã_0) of the positions' local error
    // against the true one, x_1 − x(h), on x = sin ωt (ȧ ≠ 0 at the start).
    void localErrorEstimateMatchesTheTrueError_data() {
        QTest::addColumn<double>("alpha");
        QTest::addColumn<bool>("newmark");
        QTest::newRow("trapezoidal") << 0.0 << true;
        QTest::newRow("hht -0.05") << -0.05 << false;
        QTest::newRow("hht -0.3") << -0.3 << false;
    }
    void localErrorEstimateMatchesTheTrueError() {
        QFETCH(double, alpha);
        QFETCH(bool, newmark);
        const GeneralizedAlpha s = newmark ? GeneralizedAlpha::newmark(0.25, 0.5) : GeneralizedAlpha::hht(alpha);
        double previousEstimate = 0.0;
        for (double h : {1e-3, 5e-4}) {
            const double w = kOmega, w3 = w * w * w;
            // x = sin ωt: a(0) = 0, ȧ(0) = −ω³.
            OscillatorState start{0.0, w, 0.0, s.alpha * h * -w3};
            const OscillatorState end = stepOscillator(s, h, start);
            const double trueError = end.x - std::sin(w * h);
            VecX a0(1), a1(1);
            a0 << start.aTilde;
            a1 << end.aTilde;
            const double estimate = s.localError(h, a0, a1)[0];
            // Same size and sign to a few per cent (the next term is O(h) relative).
            QVERIFY2(std::abs(estimate / trueError - 1.0) < 0.05,
                     qPrintable(QString("h %1: estimate %2, true %3").arg(h).arg(estimate).arg(trueError)));
            if (previousEstimate != 0.0) {
                // Halving h divides it by 8: O(h³).
                const double ratio = previousEstimate / estimate;
                QVERIFY2(std::abs(ratio - 8.0) < 0.2, qPrintable(QString("ratio %1").arg(ratio)));
            }
            previousEstimate = estimate;
        }
    }

    void weightedNorm() {
        VecX e(3), scales(3);
        e << 1e-6, -4e-6, 0.0;
        scales << 1.0, 2.0, 1.0;
        // tol_k = 1e-8 + 1e-6 scale_k: 1e-6/1.01e-6 and 4e-6/2.01e-6.
        QVERIFY(std::abs(weightedErrorNorm(e, scales, 1e-6, 1e-8) - 4e-6 / 2.01e-6) < 1e-12);
    }

    void modifiedNewtonRule() {
        ModifiedNewton rule;
        QVERIFY(rule.needsFactorization(1e-3));
        rule.factorized(1e-3);
        QCOMPARE(rule.count(), 1L);
        QVERIFY(!rule.needsFactorization(1e-3));
        QVERIFY(!rule.needsFactorization(1.1e-3));
        QVERIFY(!rule.needsFactorization(0.85e-3));
        // Outside [0.8, 1.15] h_f: a stiff mode's contraction |1 − (h/h_f)²| would pass 0.36.
        QVERIFY(rule.needsFactorization(1.2e-3));
        QVERIFY(rule.needsFactorization(0.7e-3));
        // The contraction factor of the iteration at which it is formed again.
        QVERIFY(!ModifiedNewton::slowed(1.0, 0.2));
        QVERIFY(ModifiedNewton::slowed(1.0, 0.4));
        QVERIFY(ModifiedNewton::slowed(1.0, 2.0));
        QVERIFY(!ModifiedNewton::slowed(std::numeric_limits<double>::infinity(), 1.0));
        rule.invalidate();
        QVERIFY(rule.needsFactorization(1e-3));
    }

    // A step that collapses names why: the last trial's Newton failure, or, rejected on its
    // error estimate alone, that estimate against the tolerance and the remedy (an estimate
    // that does not fall as h³ down to the smallest step is rounding).
    void stepCollapseNamesItsReason() {
        OdeSettings ode;
        ode.rtol = 1e-12;
        ode.atol = 1e-14;
        ode.minStep = 1e-14;
        StepSizeController steps;
        steps.start(ode, false);
        double h = 2e-14;
        QVERIFY(steps.rejected(h, Status{}, 1.5, "t = 0.1 s").ok);
        QVERIFY(h < 2e-14 && h >= 0.2 * 2e-14);
        h = 1.2e-14;
        Status st = steps.rejected(h, Status{}, 3.0, "t = 0.1 s");
        QVERIFY(!st.ok);
        QVERIFY2(st.message.find("below the smallest allowed 1e-14 s at t = 0.1 s") != std::string::npos,
                 st.message.c_str());
        QVERIFY2(st.message.find("still 3 times the tolerance (rtol 1e-12, atol 1e-14)") != std::string::npos,
                 st.message.c_str());
        QVERIFY2(st.message.find("loosen rtol and atol") != std::string::npos, st.message.c_str());
        h = 1.2e-14;
        st = steps.rejected(h, Status::failure("the Newton iteration did not converge"), 0.0, "t = 0.1 s");
        QVERIFY(!st.ok);
        QVERIFY2(st.message.find("last failure: the Newton iteration did not converge") != std::string::npos,
                 st.message.c_str());
        QVERIFY2(st.message.find("loosen") == std::string::npos, st.message.c_str());
    }

    // Same pattern: the pivots are kept (a refactorisation), unless they have degraded; a
    // singular matrix is refused.
    void kluKeepsPivotsWhileTheyServe() {
        auto matrix = [](double a00, double a11) {
            SparseColMatrix m(3, 3);
            std::vector<Eigen::Triplet<double>> t{{0, 0, a00}, {0, 1, 1.0}, {1, 0, 1.0}, {1, 1, a11}, {2, 2, 2.0},
                                                  {1, 2, 0.5}};
            m.setFromTriplets(t.begin(), t.end());
            m.makeCompressed();
            return m;
        };
        KluFactorization lu;
        VecX b(3);
        b << 1.0, 2.0, 3.0;
        for (double a00 : {4.0, 4.1, 1e-13}) {
            const SparseColMatrix m = matrix(a00, 0.0);
            QVERIFY(lu.factorize(m));
            const VecX x = lu.solve(b);
            QVERIFY((m * x - b).norm() < 1e-12 * b.norm());
        }
        QCOMPARE(lu.analyses(), 1L);
        // 4 → 4.1 reuses the pivots; 1e-13 on the first pivot makes the kept order useless
        // (pivot ratio ~1e-26), so the last one searched again.
        QCOMPARE(lu.refactorizations(), 1L);
        QCOMPARE(lu.factorizations(), 2L);
        SparseColMatrix singular(2, 2);
        std::vector<Eigen::Triplet<double>> t{{0, 0, 1.0}, {0, 1, 1.0}, {1, 0, 1.0}, {1, 1, 1.0}};
        singular.setFromTriplets(t.begin(), t.end());
        singular.makeCompressed();
        KluFactorization other;
        QVERIFY(!other.factorize(singular));
    }

    // Entries that are exactly zero in one matrix and not in the next (an iteration matrix's
    // curvature term with a multiplier through zero) keep the analysis: a matrix within the
    // pattern analysed is factorised on it, one with new entries is analysed on the union,
    // which then serves both. Each solve against the matrix itself.
    void kluPatternThatComesAndGoes() {
        // 4 × 4, diagonally dominant; `extra` adds (3, 0) and (0, 3), `drop` removes (1, 2).
        auto matrix = [](bool drop, bool extra, double scale) {
            std::vector<Eigen::Triplet<double>> t{{0, 0, 5.0 * scale}, {1, 1, 4.0}, {2, 2, 3.0}, {3, 3, 6.0},
                                                  {0, 1, 1.0},         {1, 0, -1.0}, {2, 3, 0.5}, {3, 2, 0.25}};
            if (!drop) t.emplace_back(1, 2, 0.75);
            if (extra) {
                t.emplace_back(3, 0, 1.5);
                t.emplace_back(0, 3, -0.5);
            }
            SparseColMatrix m(4, 4);
            m.setFromTriplets(t.begin(), t.end());
            m.makeCompressed();
            return m;
        };
        KluFactorization lu;
        VecX b(4);
        b << 1.0, -2.0, 3.0, 0.5;
        const auto solves = [&](const SparseColMatrix& m) {
            if (!lu.factorize(m)) return false;
            for (const VecX& x : {lu.solve(b), lu.solveWithoutRefinement(b)})
                if (!((m * x - b).norm() <= 1e-14 * b.norm())) return false;
            return true;
        };
        QVERIFY(solves(matrix(false, false, 1.0)));
        QVERIFY(solves(matrix(true, false, 1.1)));   // a subset: no analysis
        QCOMPARE(lu.analyses(), 1L);
        QVERIFY(solves(matrix(true, true, 1.2)));    // new entries: the union analysed
        QCOMPARE(lu.analyses(), 2L);
        QVERIFY(solves(matrix(false, false, 1.3)));  // within the union
        QVERIFY(solves(matrix(false, true, 1.4)));   // the union itself
        QVERIFY(solves(matrix(true, false, 1.5)));
        QCOMPARE(lu.analyses(), 2L);
        QCOMPARE(lu.factorizations(), 2L);  // one pivot search per analysis, the rest kept
        QCOMPARE(lu.refactorizations(), 4L);
    }
};

QTEST_GUILESS_MAIN(TestGeneralizedAlpha)
#include "tst_generalizedalpha.moc"
