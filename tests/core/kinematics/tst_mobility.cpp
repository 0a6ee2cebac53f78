// Degrees of freedom and redundant equations of the shipped examples, against the
// values known from mechanism theory (and written in each file's "expected" block).
#include "TestModels.h"

#include "looplab/kinematics/Mobility.h"

#include <set>

using namespace looplab;

class MobilityTest : public QObject {
    Q_OBJECT
private slots:
    void examples_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("dof");
        QTest::addColumn<int>("redundant");
        QTest::addColumn<int>("gruebler");
        // Planar loops of spatial revolutes: 3 redundant equations each.
        QTest::newRow("four-bar") << "four-bar.json" << 1 << 3 << -2;
        QTest::newRow("slider-crank") << "slider-crank.json" << 0 << 3 << -3;
        QTest::newRow("parallelogram") << "parallelogram.json" << 1 << 3 << -2;
        // Bricard: Grübler 0, yet mobile: exactly one redundant equation.
        QTest::newRow("bricard") << "bricard.json" << 1 << 1 << 0;
        // RSSR: crank plus the coupler's idle spin; no redundancy.
        QTest::newRow("rssr") << "rssr.json" << 2 << 0 << 2;
    }

    void examples() {
        QFETCH(QString, file);
        QFETCH(int, dof);
        QFETCH(int, redundant);
        QFETCH(int, gruebler);
        const LoadedModel lm = test::loadExample(file.toUtf8().constData());
        QVERIFY(lm.ok());
        const MobilityReport r = analyzeMobility(*lm.model, lm.initial);
        QCOMPARE(r.dof, dof);
        QCOMPARE(int(r.redundant.size()), redundant);
        QCOMPARE(r.gruebler, gruebler);
        QCOMPARE(r.rank + int(r.redundant.size()), r.equations);
        QCOMPARE(lm.model->expected.dof.value_or(-1), dof);
        QCOMPARE(lm.model->expected.redundant.value_or(-1), redundant);
        QVERIFY(r.smallestSingularValue > 1e-3);
    }

    // In a planar loop only out-of-plane equations can be redundant; naming an in-plane
    // one would send the user to the wrong joint.
    void planarRedundancyIsOutOfPlane() {
        const LoadedModel lm = test::loadExample("four-bar.json");
        QVERIFY(lm.ok());
        const MobilityReport r = analyzeMobility(*lm.model, lm.initial);
        const std::set<std::string> outOfPlane{"point z", "axis z1.x2", "axis z1.y2"};
        const std::set<std::string> joints{"A", "B", "C", "D"};
        for (const auto& e : r.redundant) {
            QVERIFY2(outOfPlane.count(e.equation), e.equation.c_str());
            QVERIFY(joints.count(e.joint));
        }
    }

    // Removing the redundant rows leaves a Jacobian of full row rank with the same rank.
    void redundantRowsAreDependent() {
        const LoadedModel lm = test::loadExample("bricard.json");
        QVERIFY(lm.ok());
        ConstraintSpaces spaces;
        factorizeConstraints(*lm.model, lm.initial, spaces);
        ConstraintValues cv;
        evaluateConstraints(*lm.model, lm.initial, cv, kJacobian);
        const MatX J = cv.denseJacobian();
        MatX Jind(spaces.rank(), J.cols());
        for (int i = 0; i < spaces.rank(); ++i) Jind.row(i) = J.row(spaces.independentEquations()[size_t(i)]);
        Eigen::JacobiSVD<MatX> svd(J);
        Eigen::JacobiSVD<MatX> svdInd(Jind);
        const auto& s = svd.singularValues();
        QVERIFY(s[spaces.rank() - 1] > 1e-3);
        QVERIFY(s[spaces.rank()] < 1e-12);
        QVERIFY(svdInd.singularValues()[spaces.rank() - 1] > 1e-3);
    }
};

QTEST_APPLESS_MAIN(MobilityTest)
#include "tst_mobility.moc"
