// Each time law's derivatives against central differences of its value.
#include "looplab/model/TimeLaw.h"

#include <QtTest>
#include <cmath>

using namespace looplab;

class TimeLawTest : public QObject {
    Q_OBJECT
private slots:
    void derivatives_data() {
        QTest::addColumn<int>("kind");
        QTest::newRow("constant_velocity") << int(TimeLaw::Kind::ConstantVelocity);
        QTest::newRow("polynomial") << int(TimeLaw::Kind::Polynomial);
        QTest::newRow("harmonic") << int(TimeLaw::Kind::Harmonic);
        QTest::newRow("smooth_step") << int(TimeLaw::Kind::SmoothStep);
    }
    void derivatives() {
        QFETCH(int, kind);
        TimeLaw law;
        law.kind = static_cast<TimeLaw::Kind>(kind);
        law.initial = 0.3;
        law.rate = -1.7;
        law.coefficients = {0.5, -1.0, 2.5, 0.75};
        law.amplitude = 0.8;
        law.frequency = 3.0;
        law.phase = 0.2;
        law.offset = -0.1;
        law.t0 = 0.2;
        law.h0 = -1.0;
        law.t1 = 1.1;
        law.h1 = 2.0;
        const double h = 1e-5;
        for (double t : {0.35, 0.5, 0.9, 1.05}) {
            const TimeLawValue v = law.evaluate(t);
            const double fd1 = (law.evaluate(t + h).value - law.evaluate(t - h).value) / (2 * h);
            const double fd2 = (law.evaluate(t + h).rate - law.evaluate(t - h).rate) / (2 * h);
            QVERIFY2(std::abs(v.rate - fd1) < 1e-8 * std::max(1.0, std::abs(v.rate)),
                     qPrintable(QString("rate %1 vs %2").arg(v.rate).arg(fd1)));
            QVERIFY2(std::abs(v.acceleration - fd2) < 1e-7 * std::max(1.0, std::abs(v.acceleration)),
                     qPrintable(QString("acceleration %1 vs %2").arg(v.acceleration).arg(fd2)));
        }
    }
    void smoothStepEnds() {
        TimeLaw law;
        law.kind = TimeLaw::Kind::SmoothStep;
        law.t0 = 1.0;
        law.h0 = 2.0;
        law.t1 = 3.0;
        law.h1 = 5.0;
        QCOMPARE(law.evaluate(0.0).value, 2.0);
        QCOMPARE(law.evaluate(4.0).value, 5.0);
        QCOMPARE(law.evaluate(2.0).value, 3.5);
        QCOMPARE(law.evaluate(1.0).rate, 0.0);
        QCOMPARE(law.evaluate(3.0).rate, 0.0);
    }
};

QTEST_APPLESS_MAIN(TimeLawTest)
#include "tst_timelaw.moc"
