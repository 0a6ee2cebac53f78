// QR with column pivoting against its defining properties: A P = Q R with Q orthogonal,
// R upper triangular with non-increasing diagonal magnitudes, and the numerical rank of
// matrices built with a known rank; the reflector products against Q formed explicitly.
#include "looplab/linalg/PivotedQR.h"

#include <Eigen/SVD>
#include <QtTest>

#include <random>

using namespace looplab;

namespace {

MatX randomMatrix(int rows, int cols, int rank, unsigned seed) {
    std::mt19937 g(seed);
    std::normal_distribution<double> n;
    MatX a(rows, rank), b(rank, cols);
    for (int i = 0; i < a.size(); ++i) a.data()[i] = n(g);
    for (int i = 0; i < b.size(); ++i) b.data()[i] = n(g);
    return a * b;
}

}  // namespace

class PivotedQRTest : public QObject {
    Q_OBJECT
private slots:
    void factorisation_data() {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("cols");
        QTest::addColumn<int>("rank");
        QTest::newRow("tall, full rank") << 18 << 12 << 12;
        QTest::newRow("wide, rank 17 (a planar loop's Φ_qᵀ)") << 18 << 20 << 17;
        QTest::newRow("square, rank 5") << 30 << 30 << 5;
        QTest::newRow("one column") << 7 << 1 << 1;
    }

    void factorisation() {
        QFETCH(int, rows);
        QFETCH(int, cols);
        QFETCH(int, rank);
        const MatX A = randomMatrix(rows, cols, rank, unsigned(rows * 100 + cols));
        PivotedQR qr;
        qr.compute(A);
        const int p = std::min(rows, cols);
        QCOMPARE(qr.reflectorCount(), p);
        const MatX Q = qr.columnsOfQ(0, rows);
        QVERIFY((Q.transpose() * Q - MatX::Identity(rows, rows)).cwiseAbs().maxCoeff() < 1e-14);
        const MatX R = qr.factors().triangularView<Eigen::Upper>();
        MatX AP(rows, cols);
        for (int j = 0; j < cols; ++j) AP.col(j) = A.col(qr.permutation()[size_t(j)]);
        const double scale = A.cwiseAbs().maxCoeff();
        QVERIFY2((Q * R - AP).cwiseAbs().maxCoeff() < 1e-13 * scale,
                 qPrintable(QString::number((Q * R - AP).cwiseAbs().maxCoeff())));
        for (int k = 1; k < p; ++k)
            QVERIFY(std::abs(qr.diagonal(k)) <= std::abs(qr.diagonal(k - 1)) * (1 + 1e-12));
        // Rank: the pivots past it are at rounding level, the last one inside it is not.
        const double r00 = std::abs(qr.diagonal(0));
        QVERIFY(std::abs(qr.diagonal(rank - 1)) > 1e-6 * r00);
        if (rank < p) QVERIFY(std::abs(qr.diagonal(rank)) < 1e-12 * r00);
        // Qᵀ applied by reflectors equals the explicit transpose.
        VecX x = VecX::LinSpaced(rows, -1.0, 2.0), y = x;
        qr.applyQTransposed(y, p);
        QVERIFY((y - Q.transpose() * x).cwiseAbs().maxCoeff() < 1e-14 * x.cwiseAbs().maxCoeff() * rows);
    }

    // Pivoting orders the columns by size: a dominant column is taken first.
    void largestColumnFirst() {
        MatX A = randomMatrix(6, 4, 4, 7u);
        A.col(2) *= 1e3;
        PivotedQR qr;
        qr.compute(A);
        QCOMPARE(qr.permutation()[0], 2);
        QVERIFY(std::abs(std::abs(qr.diagonal(0)) - A.col(2).norm()) < 1e-12 * A.col(2).norm());
    }

    // No columns: nothing to reflect, Q = I.
    void empty() {
        PivotedQR qr;
        qr.compute(MatX(5, 0));
        QCOMPARE(qr.reflectorCount(), 0);
        VecX x = VecX::Ones(5);
        qr.applyQ(x, 0);
        QCOMPARE(x, VecX(VecX::Ones(5)));
    }
};

QTEST_APPLESS_MAIN(PivotedQRTest)
#include "tst_pivotedqr.moc"
