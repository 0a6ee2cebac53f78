// The Cholesky-and-Schur-complement factorisation of the augmented matrix
// [A Cᵀ; C 0] (A positive definite) against a dense LU of the whole matrix, and the
// refusals that send a caller to the sparse LU.

#include "looplab/linalg/AugmentedCholesky.h"
#include "looplab/linalg/AugmentedFactorization.h"

#include <QtTest>

#include <random>

using namespace looplab;

namespace {

// The 5-point Laplacian of an m × m grid plus `shift` times the identity: eigenvalues in
// (shift, shift + 8), a stiffness-like pattern with fill under any ordering.
SparseColMatrix gridMatrix(int m, double shift) {
    const int n = m * m;
    std::vector<Eigen::Triplet<double>> t;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j) {
            const int k = i * m + j;
            t.emplace_back(k, k, 4.0 + shift);
            if (i > 0) t.emplace_back(k, k - m, -1.0);
            if (i + 1 < m) t.emplace_back(k, k + m, -1.0);
            if (j > 0) t.emplace_back(k, k - 1, -1.0);
            if (j + 1 < m) t.emplace_back(k, k + 1, -1.0);
        }
    SparseColMatrix A(n, n);
    A.setFromTriplets(t.begin(), t.end());
    A.makeCompressed();
    return A;
}

// r rows: half pin a coordinate (a clamp), half tie three coordinates (a joint).
SparseColMatrix constraintRows(int n, int r, double scale, unsigned seed) {
    std::mt19937 g(seed);
    std::uniform_int_distribution<int> pick(0, n - 1);
    std::uniform_real_distribution<double> value(-1.0, 1.0);
    std::vector<Eigen::Triplet<double>> t;
    for (int k = 0; k < r; ++k) {
        if (k % 2 == 0) {
            t.emplace_back(k, (k * 37) % n, scale);
        } else {
            for (int c = 0; c < 3; ++c) t.emplace_back(k, pick(g), scale * value(g));
        }
    }
    SparseColMatrix C(r, n);
    C.setFromTriplets(t.begin(), t.end());
    C.makeCompressed();
    return C;
}

MatX denseAugmented(const SparseColMatrix& A, const SparseColMatrix& C) {
    const int n = static_cast<int>(A.rows()), r = static_cast<int>(C.rows());
    MatX S = MatX::Zero(n + r, n + r);
    S.topLeftCorner(n, n) = MatX(A);
    S.bottomLeftCorner(r, n) = MatX(C);
    S.topRightCorner(n, r) = MatX(C).transpose();
    return S;
}

// Largest error of x and of μ, each relative to its own size, against a dense LU.
std::pair<double, double> solveErrors(const AugmentedCholesky& f, const MatX& S, int n, const VecX& b) {
    const VecX exact = S.fullPivLu().solve(b), x = f.solve(b);
    const int r = static_cast<int>(S.rows()) - n;
    return {(x - exact).head(n).norm() / exact.head(n).norm(), (x - exact).tail(r).norm() / exact.tail(r).norm()};
}

}  // namespace

class AugmentedCholeskyTest : public QObject {
    Q_OBJECT
private slots:
    // A 400-coordinate grid with 12 constraint rows, right-hand sides in both blocks, and the
    // same patterns factorised again with other values (the symbolic analysis kept).
    void solvesAsTheDenseLu() {
        const int m = 20, n = m * m, r = 12;
        for (const double shift : {0.05, 3.0}) {
            const SparseColMatrix A = gridMatrix(m, shift), C = constraintRows(n, r, 2.5, 7);
            AugmentedCholesky f;
            QVERIFY(f.factorize(A, C));
            QCOMPARE(f.size(), n + r);
            const MatX S = denseAugmented(A, C);
            std::mt19937 g(3);
            std::normal_distribution<double> nd;
            VecX b(n + r);
            for (int i = 0; i < n + r; ++i) b[i] = nd(g);
            const auto [ex, emu] = solveErrors(f, S, n, b);
            const VecX x = f.solve(b);
            const double violation = (C * x.head(n) - b.tail(r)).norm() / b.tail(r).norm();
            qInfo("shift %.2f: error of x %.2g, of mu %.2g, constraint rows met to %.2g", shift, ex, emu, violation);
            QVERIFY(ex < 1e-12 && emu < 1e-12);
            QVERIFY(violation < 1e-14);
        }
    }

    // Every coordinate in a constraint row (a pendulum: 6 coordinates, 5 rows, the matrix
    // of tst_modes's compound pendulum at its reference shift), where y and Wμ cancel to one
    // direction: the last projection keeps C x = 0 to rounding, which the eigenvalue
    // iteration needs (without it the pendulum's one mode violated the constraints by 1e-3).
    void everyCoordinateConstrained() {
        MatX Ad = MatX::Zero(6, 6);
        Ad.diagonal() << 0.13734, 0.13734, 0.13734, 13.7374, 0.0054936, 13.7416;
        MatX Cd(5, 6);
        Cd << 13.734, 0, 0, 0, 0, -9.6138, 0, 0, 13.734, 9.6138, 0, 0, 0, 13.734, 0, 0, 0, 0, 0, 0, 0, 5.34827, 12.6499,
            0, 0, 0, 0, 12.6499, -5.34827, 0;
        const SparseColMatrix A = Ad.sparseView(), C = Cd.sparseView();
        AugmentedCholesky f;
        QVERIFY(f.factorize(A, C));
        const MatX S = denseAugmented(A, C);
        std::mt19937 g(11);
        std::normal_distribution<double> nd;
        double worst = 0.0, violation = 0.0;
        for (int k = 0; k < 5; ++k) {
            VecX b = VecX::Zero(11);
            for (int i = 0; i < 6; ++i) b[i] = nd(g);
            worst = std::max(worst, solveErrors(f, S, 6, b).first);
            violation = std::max(violation, (Cd * f.solve(b).head(6)).norm() / (Cd.norm() * f.solve(b).head(6).norm()));
        }
        qInfo("pendulum: error of x %.2g, constraint rows met to %.2g", worst, violation);
        QVERIFY(worst < 1e-12);
        QVERIFY(violation < 1e-15);
    }

    // κ₁ of the matrix and of D S D (the multiplier rows and columns scaled by 1/β): the
    // estimate is a lower bound, within a factor 3 of the exact value from the dense inverse.
    void conditionEstimateBracketsTheExactValue() {
        const int m = 8, n = m * m, r = 6;
        const SparseColMatrix A = gridMatrix(m, 0.2), C = constraintRows(n, r, 40.0, 5);
        AugmentedCholesky f;
        QVERIFY(f.factorize(A, C));
        const MatX S = denseAugmented(A, C);
        for (const double beta : {1.0, 40.0}) {
            VecX d = VecX::Ones(n + r);
            d.tail(r).setConstant(1.0 / beta);
            const MatX T = d.asDiagonal() * S * d.asDiagonal();
            const double exact = T.cwiseAbs().colwise().sum().maxCoeff() * T.inverse().cwiseAbs().colwise().sum().maxCoeff();
            const double estimate = f.conditionEstimate(d);
            qInfo("beta %.0f: estimate %.4g, exact %.4g", beta, estimate, exact);
            QVERIFY(estimate <= exact * (1.0 + 1e-10));
            QVERIFY(estimate >= exact / 3.0);
        }
    }

    // Refusals: an indefinite stiffness block (the grid shifted by −5: eigenvalues from −5
    // to 3), and dependent constraint rows. The combined factorisation then falls back to
    // LU, which solves the indefinite case and refuses the singular one.
    void refusesWhatItCannotFactorise() {
        const int m = 10, n = m * m, r = 4;
        const SparseColMatrix indefinite = gridMatrix(m, -5.0), C = constraintRows(n, r, 1.0, 9);
        AugmentedCholesky f;
        QVERIFY(!f.factorize(indefinite, C));
        QVERIFY(!f.ok());
        QVERIFY(std::isnan(f.solve(VecX::Ones(n + r))[0]));

        std::vector<int> rows(static_cast<size_t>(r));
        for (int k = 0; k < r; ++k) rows[static_cast<size_t>(k)] = k;
        AugmentedFactorization combined;
        QVERIFY(combined.factorizeAugmented(indefinite, SparseMatrix(C), rows, 1.0, true));
        QVERIFY(combined.method() == AugmentedFactorization::Method::LU);
        const VecX b = VecX::LinSpaced(n + r, -1.0, 2.0);
        const MatX S = denseAugmented(indefinite, C);
        QVERIFY((S * combined.solve(b) - b).norm() < 1e-12 * b.norm() * S.norm());
        QVERIFY(combined.factorizeAugmented(gridMatrix(m, 1.0), SparseMatrix(C), rows, 1.0, true));
        QVERIFY(combined.method() == AugmentedFactorization::Method::Cholesky);

        MatX Cd = MatX(C);
        Cd.row(3) = 2.0 * Cd.row(1);
        const SparseColMatrix dependent = Cd.sparseView();
        QVERIFY(!f.factorize(gridMatrix(m, 1.0), dependent));
        QVERIFY(!combined.factorizeAugmented(gridMatrix(m, 1.0), SparseMatrix(dependent), rows, 1.0, true));
        QVERIFY(!combined.ok());
    }
};

QTEST_APPLESS_MAIN(AugmentedCholeskyTest)
#include "tst_augmentedcholesky.moc"
