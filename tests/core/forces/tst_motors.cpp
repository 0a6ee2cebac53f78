// Motors on joints (DcMotorLaw.cpp, TableMotorLaw.cpp, methods.md "Motors") against closed
// forms:
//  - a DC motor through a gear (ratio n, efficiency η) on a pure inertia J from rest:
//      J ω̇ = n η k (V − k n ω)/R  ⇒  ω(t) = ω_∞ (1 − e^{−t/τ}),  ω_∞ = V/(k n),
//      τ = J R/(η n² k²);
//    a linear torque–speed table T(w) = T₀(1 − w/w₀) gives the same with ω_∞ = w₀/n and
//    τ = J w₀/(η n² T₀); the same motor on a prismatic joint moving a mass;
//  - the energy balance: the motor's work is the kinetic energy (E − E₀ − W at the
//    integrator's tolerance) and, with η = 1, the supply's energy ∫V i dt is the work plus
//    the resistive heat ∫i²R dt;
//  - a driver's effort equals the motor's torque where the motor holds the speed the driver
//    imposes: on an inertia with a viscous load c the motor settles at
//    ω_s = n η k V/(R c + η n² k²) with torque c ω_s; a driver at ω_s needs c ω_s;
//  - `check`'s no-load speed and stall torque, the file's round trip, and the refusals
//    (negative resistance, zero torque constant, a table not sorted in speed, a motor on a
//    spherical joint), each naming its place.
// The runs use dopri5 at rtol 1e-10, atol 1e-12: the equation is stable (errors decay with
// τ), so the global error of the speed stays within a few rtol·ω_∞; 100 rtol·ω_∞ = 1e-8 ω_∞
// is required (measured: 5e-11 at most), and τ off by 1e-6 already fails.
#include "TestModels.h"

#include "looplab/files/ModelFile.h"
#include "looplab/forces/MotorRating.h"
#include "looplab/simulation/Simulation.h"

#include <QtTest>

#include <cmath>
#include <functional>

using namespace looplab;

namespace {

// A rotor of inertia J about z on a revolute to the ground (or a block of mass m on a
// prismatic along x), no gravity, with the given force entries and drivers.
std::string rotorModel(const std::string& forces, const std::string& drivers = "[]", bool slider = false) {
    const std::string joint = slider ? R"({"name": "shaft", "type": "prismatic", "body1": "ground", "body2": "rotor",
                                           "point": [0, 0, 0], "axis": [1, 0, 0]})"
                                     : R"({"name": "shaft", "type": "revolute", "body1": "ground", "body2": "rotor",
                                           "point": [0, 0, 0], "axis": [0, 0, 1]})";
    return R"({"format": "looplab-model", "version": 1, "name": "rotor", "gravity": [0, 0, 0],
        "bodies": [{"name": "rotor", "mass": 2.0, "inertia": [0.02, 0.02, 0.01],
                    "position": [0, 0, 0], "orientation": [1, 0, 0, 0]}],
        "joints": [)" + joint + R"(], "drivers": )" + drivers + R"(, "forces": )" + forces + "}";
}

const char* kDcMotor = R"({"name": "m", "type": "dc_motor", "joint": "shaft",
    "voltage": {"type": "constant", "value": 12.0}, "torque_constant": 0.05, "resistance": 2.0,
    "gear_ratio": 4.0, "efficiency": 0.9})";
constexpr double kV = 12.0, kK = 0.05, kR = 2.0, kN = 4.0, kEta = 0.9, kJ = 0.01;

LoadedModel load(const std::string& text) {
    const DocumentResult d = parseModelDocument(text, "motor.json");
    if (!d.document) qFatal("%s", formatDiagnostics(d.diagnostics).c_str());
    LoadedModel lm = prepareModel(*d.document, "motor.json");
    if (!lm.ok()) qFatal("%s", formatDiagnostics(lm.diagnostics).c_str());
    return lm;
}

Diagnostics refusal(const std::string& text) {
    const DocumentResult d = parseModelDocument(text, "motor.json");
    if (!d.document) return d.diagnostics;
    return buildModel(*d.document, "motor.json").diagnostics;
}

SimulationSettings accurate(double tEnd) {
    SimulationSettings st;
    st.tEnd = tEnd;
    st.outputStep = 0.05;
    st.ode.rtol = 1e-10;
    st.ode.atol = 1e-12;
    return st;
}

SimulationResult run(const LoadedModel& lm, const SimulationSettings& st,
                     const std::function<void(const SimulationFrame&)>& frame) {
    Simulator sim(lm.model, st);
    return sim.run(lm.initial, frame);
}

double outputOf(const Model& m, const State& s, const char* name) {
    for (const ForceElement& e : m.forces)
        for (const ForceOutput& o : e.forceLaw->outputs(m, s))
            if (o.name == name) return o.value;
    return std::nan("");
}

bool hasDiagnostic(const Diagnostics& ds, const std::string& location, const QString& words) {
    for (const Diagnostic& d : ds)
        if (d.location == location && QString::fromStdString(d.message).contains(words)) return true;
    qWarning("%s", formatDiagnostics(ds).c_str());
    return false;
}

}  // namespace

class MotorsTest : public QObject {
    Q_OBJECT
private slots:
    void inertiaSpeedsUpExponentially_data() {
        QTest::addColumn<QString>("motor");
        QTest::addColumn<bool>("slider");
        QTest::addColumn<double>("speed");  // ω_∞
        QTest::addColumn<double>("tau");    // time constant [s]
        QTest::newRow("dc motor") << QString(kDcMotor) << false << kV / (kK * kN)
                                  << kJ * kR / (kEta * kN * kN * kK * kK);
        // T(w) = 0.5 (1 − w/80): ω_∞ = 80/n, τ = J w₀/(η n² T₀).
        QTest::newRow("table motor") << QString(R"({"name": "m", "type": "table_motor", "joint": "shaft",
            "table": [[-20, 0.625], [0, 0.5], [80, 0.0], [200, -0.75]], "gear_ratio": 4.0, "efficiency": 0.9})")
                                     << false << 80.0 / kN << kJ * 80.0 / (kEta * kN * kN * 0.5);
        // On a slide: a mass of 2 kg, n in rad/m.
        QTest::newRow("linear dc motor") << QString(kDcMotor) << true << kV / (kK * kN)
                                         << 2.0 * kR / (kEta * kN * kN * kK * kK);
    }

    void inertiaSpeedsUpExponentially() {
        QFETCH(QString, motor);
        QFETCH(bool, slider);
        QFETCH(double, speed);
        QFETCH(double, tau);
        const LoadedModel lm = load(rotorModel("[" + motor.toStdString() + "]", "[]", slider));
        double worst = 0.0, last = 0.0;
        const SimulationResult r = run(lm, accurate(3.0 * tau), [&](const SimulationFrame& f) {
            const double w = outputOf(*lm.model, f.state, "speed");
            const double exact = speed * (1.0 - std::exp(-f.state.t / tau));
            worst = std::max(worst, std::abs(w - exact));
            last = w;
        });
        QVERIFY2(r.ok, r.message.c_str());
        qInfo("ω_∞ %.4g, τ %.4g s: largest error of the speed %.3g (%.3g of ω_∞), final %.6g", speed, tau, worst,
              worst / speed, last);
        QVERIFY(last > 0.9 * speed);  // the run covered the rise
        QVERIFY2(worst < 100.0 * 1e-10 * speed, qPrintable(QString("speed off by %1").arg(worst)));
    }

    // E − E₀ − W (W the motor's work, counted by the run) stays at the tolerance; with
    // η = 1 the supply's energy is the work plus the heat, ∫V i = W + ∫i²R, both by
    // Simpson's rule on 4001 outputs (error ~ (Δt)⁴ |f''''| t_end / 180 < 1e-9 of W).
    void energyBalance() {
        std::string motor = kDcMotor;
        motor.replace(motor.find("0.9}"), 3, "1.0");
        const LoadedModel lm = load(rotorModel("[" + motor + "]"));
        SimulationSettings st = accurate(2.0);
        st.outputStep = 2.0 / 4000;
        std::vector<double> supply, heat;
        double worstBalance = 0.0, work = 0.0, kinetic = 0.0, E0 = std::nan("");
        const SimulationResult r = run(lm, st, [&](const SimulationFrame& f) {
            const double i = outputOf(*lm.model, f.state, "current");
            supply.push_back(kV * i);
            heat.push_back(outputOf(*lm.model, f.state, "heat"));
            if (std::isnan(E0)) E0 = f.energy.total();
            worstBalance = std::max(worstBalance, std::abs(f.energy.total() - E0 - f.work));
            work = f.work;
            kinetic = f.energy.kinetic;
        });
        QVERIFY2(r.ok, r.message.c_str());
        auto simpson = [&](const std::vector<double>& y) {
            double s = y.front() + y.back();
            for (size_t k = 1; k + 1 < y.size(); ++k) s += (k % 2 ? 4.0 : 2.0) * y[k];
            return s * st.outputStep / 3.0;
        };
        const double electrical = simpson(supply), lost = simpson(heat);
        qInfo("work %.9g J, kinetic %.9g J, |E - E0 - W| ≤ %.3g J; supply %.9g J = work + heat %.9g J (off by %.3g)",
              work, kinetic, worstBalance, electrical, lost, electrical - work - lost);
        QVERIFY(supply.size() == 4001);
        QVERIFY2(worstBalance < 1e-7 * kinetic, qPrintable(QString("balance %1").arg(worstBalance)));
        QVERIFY2(std::abs(electrical - work - lost) < 1e-7 * electrical,
                 qPrintable(QString("supply - work - heat = %1").arg(electrical - work - lost)));
        QVERIFY(lm.model->forces.front().forceLaw->putsInWork());
    }

    // The torque a driver needs at ω_s equals the motor's where the motor holds ω_s.
    void driverEffortEqualsMotorTorque() {
        const double c = 0.02;  // N·m·s/rad
        const std::string viscous = R"({"name": "load", "type": "rotational_spring_damper", "joint": "shaft",
                                     "stiffness": 0, "damping": 0.02})";
        const double omegaS = kN * kEta * kK * kV / (kR * c + kEta * kN * kN * kK * kK);
        const LoadedModel motorRun = load(rotorModel("[" + std::string(kDcMotor) + ", " + viscous + "]"));
        // τ' = J/(c + η n² k²/R) ≈ 0.26 s: 40 of them leave e^-40 of the start.
        double motorTorque = 0.0, motorSpeed = 0.0;
        SimulationResult r = run(motorRun, accurate(10.0), [&](const SimulationFrame& f) {
            motorTorque = outputOf(*motorRun.model, f.state, "torque");
            motorSpeed = outputOf(*motorRun.model, f.state, "speed");
        });
        QVERIFY2(r.ok, r.message.c_str());
        const LoadedModel driven = load(rotorModel("[" + viscous + "]", R"([{"name": "drive", "joint": "shaft",
            "law": {"type": "constant_velocity", "initial": 0.0, "rate": )" + QString::number(omegaS, 'g', 17).toStdString() + "}}]"));
        double effort = 0.0;
        r = run(driven, accurate(1.0), [&](const SimulationFrame& f) { effort = f.drivers.front().value; });
        QVERIFY2(r.ok, r.message.c_str());
        qInfo("ω_s %.9g rad/s (motor run %.9g): motor torque %.9g N·m, driver effort %.9g N·m, c ω_s %.9g", omegaS,
              motorSpeed, motorTorque, effort, c * omegaS);
        QVERIFY(std::abs(motorSpeed - omegaS) < 1e-7 * omegaS);
        QVERIFY(std::abs(motorTorque - c * omegaS) < 1e-7 * c * omegaS);
        // Both at the runs' tolerance (the motor run's transient has decayed to e^-38).
        QVERIFY2(std::abs(effort - motorTorque) < 1e-7 * motorTorque, qPrintable(QString("effort %1").arg(effort)));
    }

    // The example (demonstrations.md): from rest to 90 % of the no-load speed (30 rad/s) in
    // about a quarter of a second, with the energy balance at the run's tolerance (10 rtol
    // per step of the work, as the energy monitor allows; measured 1e-6 J of 2.3 J).
    void exampleSpeedsUp() {
        const LoadedModel lm = test::loadExample("slider-crank-dc-motor.json");
        QVERIFY(lm.ok());
        SimulationSettings st;
        st.tEnd = 0.5;
        double reached = std::nan(""), worstBalance = 0.0, work = 0.0, E0 = std::nan("");
        const SimulationResult r = run(lm, st, [&](const SimulationFrame& f) {
            if (std::isnan(reached) && outputOf(*lm.model, f.state, "speed") > 27.0) reached = f.state.t;
            if (std::isnan(E0)) E0 = f.energy.total();
            worstBalance = std::max(worstBalance, std::abs(f.energy.total() - E0 - f.work));
            work = f.work;
        });
        QVERIFY2(r.ok, r.message.c_str());
        qInfo("90 %% of the no-load speed at %.3f s; |E - E0 - W| ≤ %.3g J of W = %.4g J", reached, worstBalance, work);
        QVERIFY(reached > 0.2 && reached < 0.3);
        QVERIFY(worstBalance < 1e-5 * work);
    }

    void rating() {
        const LoadedModel lm = load(rotorModel("[" + std::string(kDcMotor) + "]"));
        const std::optional<MotorRating> r = motorRating(lm.model->forces.front(), 0.0);
        QVERIFY(r && r->noLoadRate && r->stallCurrent);
        QCOMPARE(*r->noLoadRate, kV / (kK * kN));
        QCOMPARE(r->stallEffort, kN * kEta * kK * kV / kR);
        QCOMPARE(*r->stallCurrent, kV / kR);
        const LoadedModel table = load(rotorModel(R"([{"name": "m", "type": "table_motor", "joint": "shaft",
            "table": [[0, 0.5], [80, 0.25], [120, -0.25]], "gear_ratio": 2.0, "efficiency": 0.8}])"));
        const std::optional<MotorRating> t = motorRating(table.model->forces.front(), 0.0);
        QVERIFY(t && t->noLoadRate && !t->stallCurrent);
        QCOMPARE(*t->noLoadRate, 100.0 / 2.0);  // the torque's zero at 100 rad/s of the motor
        QCOMPARE(t->stallEffort, 2.0 * 0.8 * 0.5);
    }

    void roundTrip() {
        const std::string text = rotorModel("[" + std::string(kDcMotor) + R"(, {"name": "t", "type": "table_motor",
            "joint": "shaft", "table": [[0, 0.5], [80, 0.25]], "gear_ratio": -2.0, "efficiency": 0.7}])");
        const DocumentResult a = parseModelDocument(text, "motor.json");
        QVERIFY(a.document);
        const DocumentResult b = parseModelDocument(serializeModelDocument(*a.document), "again.json");
        QVERIFY(b.document);
        QCOMPARE(b.document->forces.size(), size_t(2));
        const MotorDoc& dc = b.document->forces[0].motor;
        QCOMPARE(b.document->forces[0].type, ForceType::DcMotor);
        QCOMPARE(dc.voltage.initial, kV);
        QCOMPARE(dc.torqueConstant, kK);
        QCOMPARE(dc.resistance, kR);
        QCOMPARE(dc.gearRatio, kN);
        QCOMPARE(dc.efficiency, kEta);
        const MotorDoc& tm = b.document->forces[1].motor;
        QCOMPARE(b.document->forces[1].type, ForceType::TableMotor);
        QCOMPARE(tm.table, (std::vector<std::pair<double, double>>{{0, 0.5}, {80, 0.25}}));
        QCOMPARE(tm.gearRatio, -2.0);
        QCOMPARE(tm.efficiency, 0.7);
    }

    void refusals() {
        auto dc = [](const std::string& field, const std::string& value) {
            std::string m = kDcMotor;
            const size_t at = m.find("\"" + field + "\": ") + field.size() + 4;
            m.replace(at, m.find_first_of(",}", at) - at, value);
            return rotorModel("[" + m + "]");
        };
        QVERIFY(hasDiagnostic(refusal(dc("resistance", "-2.0")), "/forces/0/resistance", "resistance must be positive"));
        QVERIFY(hasDiagnostic(refusal(dc("torque_constant", "0")), "/forces/0/torque_constant",
                              "torque constant must be positive"));
        QVERIFY(hasDiagnostic(refusal(dc("efficiency", "1.5")), "/forces/0/efficiency", "(0, 1]"));
        QVERIFY(hasDiagnostic(refusal(dc("gear_ratio", "0")), "/forces/0/gear_ratio", "non-zero"));
        QVERIFY(hasDiagnostic(refusal(rotorModel(R"([{"name": "m", "type": "table_motor", "joint": "shaft",
            "table": [[0, 0.5], [80, 0.25], [60, 0.1]]}])")),
                              "/forces/0/table/2", "not sorted in speed"));
        QVERIFY(hasDiagnostic(refusal(rotorModel(R"([{"name": "m", "type": "table_motor", "joint": "shaft",
            "table": [[0, 0.5]]}])")),
                              "/forces/0/table", "two points"));
        std::string spherical = rotorModel("[" + std::string(kDcMotor) + "]");
        spherical.replace(spherical.find("\"revolute\""), 10, "\"spherical\"");
        QVERIFY(hasDiagnostic(refusal(spherical), "/forces/0/joint", "spherical"));
        QVERIFY(hasDiagnostic(refusal(rotorModel(R"([{"name": "m", "type": "dc_motor", "joint": "shaft",
            "torque_constant": 0.05, "resistance": 2.0}])")),
                              "/forces/0/voltage", "voltage"));
    }
};

QTEST_GUILESS_MAIN(MotorsTest)
#include "tst_motors.moc"
