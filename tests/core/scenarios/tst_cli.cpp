// The command-line tool's `simulate` and `kinematics` commands, end to end: the JSON
// summary and the CSV columns checked against closed-form solutions (the exact pendulum,
// the slider-crank's slider position), the columns of named beam and solid nodes, and the
// exit status of every kind of failure.
#include "CliRunner.h"
#include "EllipticFunctions.h"

#include "looplab/kinematics/NodalOutputs.h"
#include "looplab/files/ModelFile.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <csignal>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

using looplab::test::ellipticK;
using looplab::test::jacobiSn;

namespace {

QString example(const char* name) {
    return QStringLiteral(LOOPLAB_EXAMPLES_DIR "/") + QLatin1String(name);
}

using looplab::test::CliResult;
using looplab::test::runCli;

QJsonObject parseObject(const QByteArray& text, QString* error) {
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &pe);
    if (pe.error != QJsonParseError::NoError) *error = pe.errorString();
    else if (!doc.isObject()) *error = QStringLiteral("not a JSON object");
    return doc.object();
}

// A CSV written by the tool: header names and rows of numbers.
struct Table {
    QStringList header;
    QVector<QVector<double>> rows;
    QString error;

    int column(const QString& name) const { return int(header.indexOf(name)); }
};

Table readCsv(const QString& path) {
    Table t;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) {
        t.error = "cannot open " + path;
        return t;
    }
    // The column names are the first line (a number in every other cell below).
    const QString first = QString::fromUtf8(f.readLine());
    int line = 1;
    t.header = first.trimmed().split(',');
    while (!f.atEnd()) {
        ++line;
        const QStringList cells = QString::fromUtf8(f.readLine()).trimmed().split(',');
        if (cells.size() != t.header.size()) {
            t.error = QStringLiteral("line %1 has %2 cells, the header %3").arg(line).arg(cells.size()).arg(t.header.size());
            return t;
        }
        QVector<double> row;
        for (const QString& c : cells) {
            bool ok = false;
            row << c.toDouble(&ok);
            if (!ok || !std::isfinite(row.back())) {
                t.error = QStringLiteral("line %1: '%2' is not a finite number").arg(line).arg(c);
                return t;
            }
        }
        t.rows << row;
    }
    return t;
}

QByteArray fileBytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

// Files in a directory other than the ones named: a temporary file left behind.
QStringList strayFiles(const QString& dir, const QStringList& expected) {
    QStringList out;
    for (const QString& f : QDir(dir).entryList(QDir::Files | QDir::Hidden))
        if (!expected.contains(f)) out << f;
    return out;
}

QVector<double> numbers(const QJsonValue& v) {
    QVector<double> out;
    for (const QJsonValue& x : v.toArray()) out << x.toDouble(NAN);
    return out;
}

// Slider-crank of the examples: crank 0.1 m about the origin, rod 0.3 m, slider on the
// x axis, crank at 30° at t = 0 and turning at one revolution per second.
constexpr double kCrank = 0.1, kRod = 0.3, kPhi0 = M_PI / 6, kRate = 2 * M_PI;

double sliderX(double phi) {
    const double s = kCrank * std::sin(phi);
    return kCrank * std::cos(phi) + std::sqrt(kRod * kRod - s * s);
}

// Checks the slider-crank columns every output row: time grid, the crank angle continuous
// past 2π, the slider displacement against the closed form, violations at rounding.
void checkSliderCrankTable(const Table& t, int expectedRows, double dt) {
    QVERIFY2(t.error.isEmpty(), qPrintable(t.error));
    QCOMPARE(int(t.rows.size()), expectedRows);
    const int ct = t.column("t"), angle = t.column("O.angle"), disp = t.column("P.displacement");
    const int pos = t.column("position_violation"), vel = t.column("velocity_violation");
    QVERIFY(ct == 0 && angle > 0 && disp > 0 && pos > 0 && vel > 0);
    double worstAngle = 0.0, worstDisp = 0.0, worstPos = 0.0, worstVel = 0.0;
    for (int k = 0; k < t.rows.size(); ++k) {
        const QVector<double>& r = t.rows[k];
        QVERIFY2(std::abs(r[ct] - k * dt) < 1e-12, qPrintable(QString::number(r[ct], 'g', 17)));
        const double phi = kPhi0 + kRate * r[ct];
        worstAngle = std::max(worstAngle, std::abs(r[angle] - kRate * r[ct]));
        worstDisp = std::max(worstDisp, std::abs(r[disp] - (sliderX(phi) - sliderX(kPhi0))));
        worstPos = std::max(worstPos, r[pos]);
        worstVel = std::max(worstVel, r[vel]);
    }
    qInfo("crank angle error %.3g rad (last %.6f rad), slider error %.3g m, violations %.3g m, %.3g m/s",
          worstAngle, t.rows.back()[angle], worstDisp, worstPos, worstVel);
    QVERIFY(t.rows.back()[angle] > 2 * M_PI);  // not wrapped
    QVERIFY2(worstAngle < 1e-9, qPrintable(QString::number(worstAngle)));
    QVERIFY2(worstDisp < 1e-9, qPrintable(QString::number(worstDisp)));
    QVERIFY2(worstPos < 1e-12, qPrintable(QString::number(worstPos)));
    QVERIFY2(worstVel < 1e-12, qPrintable(QString::number(worstVel)));
}

}  // namespace

class CliTest : public QObject {
    Q_OBJECT
private slots:
    // The pendulum example (120° release) to t = 1 s, before the first swing ends, against
    // the exact solution sin(θ/2) = k sn(K − ω0 t, k) and the pivot reaction m a − m g.
    void simulateJsonAgainstExactPendulum() {
        const double tEnd = 1.0;
        const CliResult r = runCli({"simulate", example("pendulum.json"), "--t-end", "1", "--rtol",
                                    "1e-12", "--atol", "1e-14", "--json"});
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QString error;
        const QJsonObject o = parseObject(r.out, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        for (const char* key : {"ok", "method", "integrator", "steps", "rejected_steps", "rhs_evaluations",
                                "wall_time_s", "max_violation", "energy", "final", "events"})
            QVERIFY2(o.contains(key), key);
        QCOMPARE(o["ok"].toBool(false), true);
        QCOMPARE(o["method"].toString(), QString("projection"));
        QCOMPARE(o["integrator"].toString(), QString("dopri5"));
        const int steps = o["steps"].toInt(-1);
        QVERIFY(steps > 10);
        // Dormand–Prince: six new stages per accepted or rejected step.
        QVERIFY(o["rhs_evaluations"].toInt(-1) >= 6 * (steps + o["rejected_steps"].toInt(-1)));
        QVERIFY(o["wall_time_s"].toDouble(-1) > 0.0);
        const QJsonObject viol = o["max_violation"].toObject();
        for (const char* key : {"position", "velocity", "acceleration"}) {
            QVERIFY2(viol.contains(key), key);
            QVERIFY2(viol[key].toDouble(1) < 1e-12, key);
        }
        const QJsonObject energy = o["energy"].toObject();
        for (const char* key : {"initial", "final", "max_abs_drift"}) QVERIFY2(energy.contains(key), key);
        // Gravity potential relative to the pivot height: m g L (−cos θ0) = +4.905 J.
        QVERIFY(std::abs(energy["initial"].toDouble() - 9.81 * 0.5) < 1e-12);
        QVERIFY(energy["max_abs_drift"].toDouble(1) < 1e-9 * energy["initial"].toDouble());
        QVERIFY(o["events"].isArray());
        QVERIFY(o["events"].toArray().isEmpty());  // no redundancy, no singular position

        const double m = 1.0, L = 1.0, g = 9.81, theta0 = 2 * M_PI / 3;
        const double w0 = std::sqrt(m * g * L / (0.001 + m * L * L));
        const double k = std::sin(theta0 / 2);
        const double theta = 2 * std::asin(k * jacobiSn(ellipticK(k) - w0 * tEnd, k));
        // Falling during the first half period: θ̇ < 0.
        const double rate = -std::sqrt(2 * w0 * w0 * (std::cos(theta) - std::cos(theta0)));
        const double accel = -w0 * w0 * std::sin(theta);
        const QJsonObject fin = o["final"].toObject();
        QVERIFY(std::abs(fin["t"].toDouble() - tEnd) < 1e-12);

        const QJsonObject bob = fin["bodies"].toObject()["bob"].toObject();
        for (const char* key : {"position", "quaternion", "velocity", "angular_velocity"})
            QVERIFY2(bob[key].isArray(), key);
        const QVector<double> p = numbers(bob["position"]), q = numbers(bob["quaternion"]);
        const QVector<double> v = numbers(bob["velocity"]), w = numbers(bob["angular_velocity"]);
        QCOMPARE(p.size(), 3);
        QCOMPARE(q.size(), 4);
        QVERIFY(std::abs(p[0] - L * std::sin(theta)) < 1e-9 && std::abs(p[1] + L * std::cos(theta)) < 1e-9);
        QVERIFY(std::abs(q[0] - std::cos(theta / 2)) < 1e-9 && std::abs(q[3] - std::sin(theta / 2)) < 1e-9);
        QVERIFY(std::abs(w[2] - rate) < 1e-8 && std::abs(w[0]) < 1e-12 && std::abs(w[1]) < 1e-12);
        QVERIFY(std::abs(v[0] - L * rate * std::cos(theta)) < 1e-8);
        QVERIFY(std::abs(v[1] - L * rate * std::sin(theta)) < 1e-8);

        const QJsonObject pivot = fin["joints"].toObject()["pivot"].toObject();
        for (const char* key : {"angle", "force", "torque", "force_joint_frame", "torque_joint_frame",
                                "statically_indeterminate"})
            QVERIFY2(pivot.contains(key), key);
        // The joint angle counts from the released position.
        const double angleError = std::abs(theta0 + pivot["angle"].toDouble() - theta);
        // Ground on bob: m a_c − m g, a_c = L θ̈ (cos θ, sin θ) + L θ̇² (−sin θ, cos θ).
        const double fx = m * L * (accel * std::cos(theta) - rate * rate * std::sin(theta));
        const double fy = m * L * (accel * std::sin(theta) + rate * rate * std::cos(theta)) + m * g;
        const QVector<double> f = numbers(pivot["force"]), tq = numbers(pivot["torque"]);
        const double forceError = std::hypot(f[0] - fx, f[1] - fy, f[2]);
        qInfo("θ(1 s) exact %.12f rad, angle error %.3g rad, pivot force error %.3g N (|F| = %.6f N)",
              theta, angleError, forceError, std::hypot(fx, fy));
        QVERIFY2(angleError < 1e-9, qPrintable(QString::number(angleError)));
        QVERIFY2(forceError < 1e-7 * m * g, qPrintable(QString::number(forceError)));
        QVERIFY(std::hypot(tq[0], tq[1], tq[2]) < 1e-8);
        QCOMPARE(pivot["statically_indeterminate"].toBool(true), false);
        // The joint frame is the revolute's: its z axis is the global z axis.
        QVERIFY(std::abs(numbers(pivot["force_joint_frame"])[2]) < 1e-8);
        QVERIFY(std::abs(std::hypot(numbers(pivot["force_joint_frame"])[0], numbers(pivot["force_joint_frame"])[1]) -
                         std::hypot(f[0], f[1])) < 1e-12 * m * g);
    }

    // The CSV of a dynamic run of the driven slider-crank, one and a half revolutions:
    // every column of the documented layout, the motion against the closed form, and the
    // last row the same numbers as the JSON summary.
    void simulateCsvSliderCrank() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString csv = dir.filePath("run.csv");
        const CliResult r = runCli({"simulate", example("slider-crank.json"), "--t-end", "1.5", "--output-step",
                                    "0.01", "--rtol", "1e-10", "--atol", "1e-12", "--out", csv, "--json"});
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const Table t = readCsv(csv);
        QStringList expected{"t"};
        for (const char* b : {"crank", "rod", "slider"})
            for (const char* c : {"x", "y", "z", "qw", "qx", "qy", "qz"}) expected << QString("%1.%2").arg(b, c);
        expected << "O.angle" << "A.angle" << "B.angle" << "P.displacement" << "position_violation"
                 << "velocity_violation" << "acceleration_violation" << "energy";
        for (const char* j : {"O", "A", "B", "P"})
            for (const char* c : {"fx", "fy", "fz", "tx", "ty", "tz"}) expected << QString("%1.%2").arg(j, c);
        expected << "motor.effort" << "rank" << "smallest_singular_value" << "step_size" << "steps"
                 << "rejected_steps" << "rhs_evaluations";
        QCOMPARE(t.header, expected);
        checkSliderCrankTable(t, 151, 0.01);
        // Diagnostics per row: 18 coordinates, 21 equations of rank 18 (fully driven); the
        // counters only grow and end at the JSON's totals.
        for (int k = 0; k < t.rows.size(); ++k) {
            const QVector<double>& row = t.rows[k];
            QCOMPARE(row[t.column("rank")], 18.0);
            QVERIFY(row[t.column("smallest_singular_value")] > 0.01);
            if (k == 0) continue;
            QVERIFY(row[t.column("step_size")] > 0.0);
            for (const char* c : {"steps", "rejected_steps", "rhs_evaluations"})
                QVERIFY(row[t.column(c)] >= t.rows[k - 1][t.column(c)]);
        }

        QString error;
        const QJsonObject o = parseObject(r.out, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QJsonObject joints = o["final"].toObject()["joints"].toObject();
        const QVector<double>& last = t.rows.back();
        for (const char* j : {"O", "A", "B", "P"}) {
            const QVector<double> f = numbers(joints[j].toObject()["force"]);
            const QVector<double> tq = numbers(joints[j].toObject()["torque"]);
            for (int c = 0; c < 3; ++c) {
                QCOMPARE(last[t.column(QString("%1.f%2").arg(j).arg(QChar('x' + c)))], f[c]);
                QCOMPARE(last[t.column(QString("%1.t%2").arg(j).arg(QChar('x' + c)))], tq[c]);
            }
        }
        QCOMPARE(last[t.column("O.angle")], joints["O"].toObject()["angle"].toDouble());
        QCOMPARE(last[t.column("P.displacement")], joints["P"].toObject()["displacement"].toDouble());
        QCOMPARE(last[t.column("motor.effort")], o["final"].toObject()["drivers"].toObject()["motor"].toDouble());
        QCOMPARE(last[t.column("energy")], o["energy"].toObject()["final"].toDouble());
        QCOMPARE(last[t.column("steps")], o["steps"].toDouble());
        QCOMPARE(last[t.column("rhs_evaluations")], o["rhs_evaluations"].toDouble());
        // The planar loop's redundancy is reported at the start, naming joints of the loop.
        const QJsonArray events = o["events"].toArray();
        QVERIFY(!events.isEmpty());
        const QJsonObject first = events[0].toObject();
        QCOMPARE(first["kind"].toString(), QString("redundant_constraints"));
        QCOMPARE(first["t"].toDouble(-1), 0.0);
        QVERIFY(!first["joints"].toArray().isEmpty());
        QVERIFY(first["detail"].toString().contains("3 redundant"));
    }

    // Kinematic simulation of the same mechanism: the same closed form, CSV and JSON.
    void kinematicsSliderCrank() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString csv = dir.filePath("kin.csv");
        const CliResult r = runCli({"kinematics", example("slider-crank.json"), "--t-end", "1.5", "--step",
                                    "0.01", "--out", csv, "--json"});
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const Table t = readCsv(csv);
        QCOMPARE(t.header.last(), QString("acceleration_violation"));
        checkSliderCrankTable(t, 151, 0.01);
        QString error;
        const QJsonObject o = parseObject(r.out, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        for (const char* key : {"steps", "wall_time_s", "max_violation", "final"}) QVERIFY2(o.contains(key), key);
        QCOMPARE(o["steps"].toInt(-1), 150);
        const QJsonObject fin = o["final"].toObject();
        QVERIFY(std::abs(fin["t"].toDouble() - 1.5) < 1e-12);
        const double disp = fin["joints"].toObject()["P"].toObject()["displacement"].toDouble(NAN);
        QVERIFY(std::abs(disp - (sliderX(kPhi0 + kRate * 1.5) - sliderX(kPhi0))) < 1e-9);
        QVERIFY(o["max_violation"].toObject()["position"].toDouble(1) < 1e-12);
    }

    // An output that is the model file itself, however spelled (the same path, another
    // spelling of it, a hard link), is refused with status 2 naming the option and the
    // file, and the model stays as it was; with --json the refusal is the one JSON object.
    void outputOverInputIsRefused_data() {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("spelling");
        for (const char* command : {"simulate", "kinematics"})
            for (const char* spelling : {"same", "dot", "hardlink"})
                QTest::newRow(qPrintable(QString("%1 %2").arg(command, spelling))) << command << spelling;
    }

    void outputOverInputIsRefused() {
        QFETCH(QString, command);
        QFETCH(QString, spelling);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString model = dir.filePath("model.json");
        QVERIFY(QFile::copy(example("slider-crank.json"), model));
        const QByteArray before = fileBytes(model);
        QString out = model;
        if (spelling == "dot") out = dir.path() + "/./model.json";
        if (spelling == "hardlink") {
            out = dir.filePath("link.json");
            QCOMPARE(::link(qPrintable(model), qPrintable(out)), 0);
        }
        QStringList args{command, model, "--t-end", "0.1"};
        if (command == "kinematics") args << "--step" << "0.01";
        args << "--out" << out << "--json";
        const CliResult r = runCli(args);
        QVERIFY(r.finished);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(r.exitCode == 2, qPrintable(QString::number(r.exitCode) + ": " + err));
        QVERIFY2(err.contains("--out") && err.contains(out), qPrintable(err));
        QCOMPARE(fileBytes(model), before);
        QString error;
        const QJsonObject o = parseObject(r.out, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error + ": " + r.out));
        QCOMPARE(o["ok"].toBool(true), false);
        QVERIFY(o["error"].toString().contains("--out"));
    }

    // An output onto a mesh file the model or the URDF names, by its path, another spelling
    // or a link to it, is refused like one onto the model, and the mesh stays as it was
    // (simulate, modes and export wrote into the model's own mesh, import into the URDF's).
    void outputOverMeshIsRefused_data() {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("spelling");
        for (const char* command : {"simulate", "kinematics", "modes", "export", "import"})
            for (const char* spelling : {"same", "dot", "symlink"})
                QTest::newRow(qPrintable(QString("%1 %2").arg(command, spelling))) << command << spelling;
    }

    void outputOverMeshIsRefused() {
        QFETCH(QString, command);
        QFETCH(QString, spelling);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString data = QStringLiteral(LOOPLAB_TEST_DATA_DIR) + "/exchange/";
        QVERIFY(QDir(dir.path()).mkdir("meshes"));
        for (const char* name : {"serial-arm.json", "serial-arm.urdf", "meshes/base.stl", "meshes/link1.stl",
                                 "meshes/link2.stl", "meshes/link3.stl"})
            QVERIFY(QFile::copy(data + name, dir.filePath(name)));
        const QString mesh = dir.filePath("meshes/link2.stl");
        const QByteArray before = fileBytes(mesh);
        QString out = mesh;
        if (spelling == "dot") out = dir.path() + "/meshes/../meshes/./link2.stl";
        if (spelling == "symlink") {
            out = dir.filePath("out.stl");
            QVERIFY(QFile::link(mesh, out));
        }
        const QString model = dir.filePath("serial-arm.json");
        QStringList args;
        if (command == "simulate") args = {"simulate", model, "--t-end", "0.01"};
        if (command == "kinematics") args = {"kinematics", model, "--t-end", "0.01", "--step", "0.01"};
        if (command == "modes") args = {"modes", model};
        if (command == "export") args = {"export", model, "--format", "urdf"};
        if (command == "import") args = {"import", dir.filePath("serial-arm.urdf")};
        args << "--out" << out;
        const CliResult r = runCli(args);
        QVERIFY(r.finished);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(r.exitCode == 2, qPrintable(QString::number(r.exitCode) + ": " + err));
        QVERIFY2(err.contains("--out '" + out + "'") && err.contains("link2.stl") && err.contains("refusing to overwrite"),
                 qPrintable(err));
        QCOMPARE(fileBytes(mesh), before);
    }

    // Outputs are written to a temporary file and renamed into place: a successful run
    // replaces an old file (keeping its permissions) and leaves no temporary file; a run
    // that fails before its first row leaves the old file as it was.
    void outputReplacedOnlyWhenComplete() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString csv = dir.filePath("old.csv");
        QVERIFY(writeFile(csv, "precious\n"));
        QVERIFY(QFile::setPermissions(csv, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup));
        // The four-bar is not fully driven: kinematics fails before writing a row.
        CliResult r = runCli({"kinematics", example("four-bar.json"), "--t-end", "1", "--step", "0.1", "--out", csv});
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 3);
        QCOMPARE(fileBytes(csv), QByteArray("precious\n"));
        QCOMPARE(strayFiles(dir.path(), {"old.csv"}), QStringList());
        r = runCli({"kinematics", example("slider-crank.json"), "--t-end", "0.1", "--step", "0.01", "--out", csv});
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const Table t = readCsv(csv);
        QVERIFY2(t.error.isEmpty(), qPrintable(t.error));
        QCOMPARE(int(t.rows.size()), 11);
        QCOMPARE(QFile::permissions(csv) & (QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup |
                                            QFileDevice::ReadOther),
                 QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup);
        QCOMPARE(strayFiles(dir.path(), {"old.csv"}), QStringList());
    }

    // An output that is a device is written directly (never renamed over), and every
    // write is checked: a full device is a failure with status 3 and the reason, for the
    // CSV of either command and for standard output.
    void writeErrorsAreFailures_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("stdoutFile");
        QTest::addColumn<QString>("message");
        const QString sc = example("slider-crank.json");
        QTest::newRow("simulate --out /dev/full")
            << QStringList{"simulate", sc, "--t-end", "0.2", "--out", "/dev/full", "--json"} << QString()
            << "cannot write '/dev/full'";
        QTest::newRow("kinematics --out /dev/full")
            << QStringList{"kinematics", sc, "--t-end", "0.2", "--step", "0.01", "--out", "/dev/full", "--json"}
            << QString() << "cannot write '/dev/full'";
        QTest::newRow("simulate > /dev/full")
            << QStringList{"simulate", sc, "--t-end", "0.2", "--json"} << "/dev/full" << "standard output";
        QTest::newRow("check > /dev/full") << QStringList{"check", sc} << "/dev/full" << "standard output";
        QTest::newRow("kinematics --out /dev/stdout > /dev/full")
            << QStringList{"kinematics", sc, "--t-end", "0.2", "--step", "0.01", "--out", "/dev/stdout"}
            << "/dev/full" << "cannot write '/dev/stdout'";
    }

    void writeErrorsAreFailures() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, stdoutFile);
        QFETCH(QString, message);
        const CliResult r = runCli(arguments, stdoutFile);
        QVERIFY(r.finished);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(r.exitCode == 3, qPrintable(QString::number(r.exitCode) + ": " + err));
        QVERIFY2(err.contains(message), qPrintable(err));
        if (stdoutFile.isEmpty()) {
            QVERIFY2(err.contains("No space left on device"), qPrintable(err));
            QString error;
            const QJsonObject o = parseObject(r.out, &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QCOMPARE(o["ok"].toBool(true), false);
            QVERIFY(o["error"].toString().contains(message));
        }
    }

    // A device that works is written directly: the CSV arrives on standard output.
    void csvToStandardOutput() {
        const CliResult r = runCli({"kinematics", example("slider-crank.json"), "--t-end", "0.1", "--step", "0.01",
                                    "--out", "/dev/stdout"});
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.startsWith("t,crank.x,"));
        QCOMPARE(r.out.count('\n'), 11 + 1 + 1);  // header, 11 rows, the summary line
    }

    // A model of 100 000 coordinates or more is announced before it is loaded, naming its
    // largest member: loading it and each step take minutes and gigabytes, and
    // --max-wall-time is checked only between steps (a solid of 200 000 elements ran on
    // past it without a word); so does a study of it. The tool is ended once it has said so;
    // the example block says nothing.
    void largeModelIsAnnouncedBeforeTheWork() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile blockFile(example("clamped-block.json"));
        QVERIFY(blockFile.open(QIODevice::ReadOnly));
        QJsonObject model = QJsonDocument::fromJson(blockFile.readAll()).object();
        QJsonArray solids = model["solids"].toArray();
        QJsonObject block = solids[0].toObject();
        block["elements"] = QJsonArray{60, 24, 24};  // 61 × 25 × 25 nodes, 114 375 coordinates
        solids[0] = block;
        model["solids"] = solids;
        const QString large = dir.filePath("large-block.json");
        {
            QFile f(large);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QJsonDocument(model).toJson());
        }
        // A study of it says so too, before it builds the model as it reads the study (11 s
        // for this block) and before any case.
        const QString study = dir.filePath("large-study.json");
        {
            QFile f(study);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(R"({"format": "looplab-study", "version": 1, "model": "large-block.json",
                        "parameters": [{"name": "load", "path": "/forces/0/vector/1",
                                        "range": {"from": -1000, "to": -500, "steps": 2}}],
                        "analysis": {"type": "statics"}, "outputs": []})");
        }
        const QList<QStringList> commands{{"statics", large, "--max-wall-time", "20"},
                                          {"study", study, "--out", dir.filePath("large.csv")}};
        for (const QStringList& command : commands) {
            QProcess p;
            p.start(QStringLiteral(LOOPLAB_CLI_PATH), command);
            QVERIFY(p.waitForStarted(-1));
            QByteArray err;
            QVERIFY(looplab::eventwait::waitUntil(
                [&] {
                    p.waitForReadyRead(10);  // no event loop in this suite: read what has come
                    err += p.readAllStandardError();
                    return err.contains('\n') || p.state() == QProcess::NotRunning;
                },
                "the large model's warning"));
            p.kill();
            p.waitForFinished(-1);
            QVERIFY2(err.startsWith("warning: the model has 114375 coordinates (solid 'block': 34560 elements)"),
                     err.constData());
            QVERIFY2(err.contains("--max-wall-time is checked only between iterations and steps"), err.constData());
        }
        const CliResult small = runCli({"check", example("clamped-block.json")});
        QVERIFY2(small.exitCode == 0, small.err.constData());
        QVERIFY2(!small.err.contains("coordinates"), small.err.constData());
    }

    // A run ended by SIGINT, SIGTERM or SIGHUP removes its temporary output file (it was
    // left as FILE.tmp-XXXXXX with the rows so far, and nothing said so) and ends as the
    // signal ends it; the old output stays as it was.
    void signalRemovesTheTemporaryFile_data() {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGINT") << int(SIGINT);
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGHUP") << int(SIGHUP);
    }
    void signalRemovesTheTemporaryFile() {
        QFETCH(int, signal);
        struct sigaction inherited {};
        QCOMPARE(::sigaction(signal, nullptr, &inherited), 0);
        // The tool keeps a signal its caller ignores ignored (a background job's SIGINT).
        if (inherited.sa_handler == SIG_IGN) QSKIP("this signal is ignored here, and so in the tool");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString out = dir.filePath("rows.csv");
        {
            QFile old(out);
            QVERIFY(old.open(QIODevice::WriteOnly));
            old.write("old rows\n");
        }
        // A long run: a million rows of the pendulum, far more than are written before
        // the signal comes.
        QProcess p;
        p.start(QStringLiteral(LOOPLAB_CLI_PATH), {"simulate", example("pendulum.json"), "--t-end", "100000",
                                                   "--output-step", "0.1", "--out", out});
        QVERIFY(p.waitForStarted(-1));
        auto temporaries = [&] { return QDir(dir.path()).entryList({"rows.csv.tmp-*"}, QDir::Files); };
        // Once rows have reached the temporary file.
        QVERIFY(looplab::eventwait::waitUntil(
            [&] {
                const QStringList t = temporaries();
                return p.state() == QProcess::NotRunning || (!t.isEmpty() && QFileInfo(dir.filePath(t[0])).size() > 0);
            },
            "rows in the temporary output file"));
        QVERIFY2(p.state() == QProcess::Running, p.readAllStandardError().constData());
        QCOMPARE(::kill(pid_t(p.processId()), signal), 0);
        QVERIFY(looplab::eventwait::waitForExit(p, "looplab-cli simulate after the signal"));
        QCOMPARE(p.exitStatus(), QProcess::CrashExit);  // ended by the signal
        QVERIFY2(temporaries().isEmpty(), qPrintable(temporaries().join(", ")));
        QFile old(out);
        QVERIFY(old.open(QIODevice::ReadOnly));
        QCOMPARE(old.readAll(), QByteArray("old rows\n"));
    }

    // A FIFO is written directly and stays a FIFO; a symbolic link stays a link and its
    // target receives the result.
    void fifoAndSymlinkOutputs() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString fifo = dir.filePath("rows.fifo");
        QCOMPARE(::mkfifo(qPrintable(fifo), 0600), 0);
        QProcess p;
        p.start(QStringLiteral(LOOPLAB_CLI_PATH), {"kinematics", example("slider-crank.json"), "--t-end", "0.1",
                                                   "--step", "0.01", "--out", fifo});
        QVERIFY(p.waitForStarted(-1));
        // Read without blocking, so that a tool that never opens the FIFO fails the test
        // instead of hanging it.
        const int fd = ::open(qPrintable(fifo), O_RDONLY | O_NONBLOCK);
        QVERIFY(fd >= 0);
        QByteArray rows;
        QElapsedTimer clock;
        clock.start();
        const QDeadlineTimer limit(looplab::eventwait::safetyLimitMs());
        for (;;) {
            char buf[4096];
            const ssize_t n = ::read(fd, buf, sizeof buf);
            if (n > 0) {
                rows.append(buf, int(n));
                continue;
            }
            if (p.state() == QProcess::NotRunning) break;
            if (limit.hasExpired()) {
                looplab::eventwait::gaveUpWaiting("looplab-cli kinematics writing to a FIFO to exit", clock);
                break;
            }
            p.waitForFinished(10);
        }
        for (char buf[4096]; ;) {  // what arrived between the last read and the exit
            const ssize_t n = ::read(fd, buf, sizeof buf);
            if (n <= 0) break;
            rows.append(buf, int(n));
        }
        ::close(fd);
        QCOMPARE(p.state(), QProcess::NotRunning);
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(rows.startsWith("t,crank.x,"));
        QCOMPARE(rows.count('\n'), 12);
        struct stat st {};
        QCOMPARE(::lstat(qPrintable(fifo), &st), 0);
        QVERIFY(S_ISFIFO(st.st_mode));
        QCOMPARE(strayFiles(dir.path(), {"rows.fifo"}), QStringList());

        const QString target = dir.filePath("target.csv"), link = dir.filePath("link.csv");
        QVERIFY(writeFile(target, "old\n"));
        QVERIFY(QFile::link(target, link));
        const CliResult r = runCli({"kinematics", example("slider-crank.json"), "--t-end", "0.1", "--step", "0.01",
                                    "--out", link});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(QFileInfo(link).isSymLink());
        const Table t = readCsv(target);
        QVERIFY2(t.error.isEmpty(), qPrintable(t.error));
        QCOMPARE(int(t.rows.size()), 11);
        QCOMPARE(strayFiles(dir.path(), {"rows.fifo", "target.csv", "link.csv"}), QStringList());
    }

    // --out /dev/stdout while standard output is redirected to a regular file: the rows
    // go through the tool's own standard output, so the file keeps what was there and
    // receives the rows and the summary line (it is neither truncated nor renamed over).
    void standardOutputRedirectedToFile() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString log = dir.filePath("log.txt");
        QVERIFY(writeFile(log, "earlier line\n"));
        QProcess p;
        p.setStandardOutputFile(log, QIODevice::Append);
        p.start(QStringLiteral(LOOPLAB_CLI_PATH), {"kinematics", example("slider-crank.json"), "--t-end", "0.1",
                                                   "--step", "0.01", "--out", "/dev/stdout"});
        QVERIFY(looplab::eventwait::waitForExit(p, "looplab-cli kinematics --out /dev/stdout"));
        QCOMPARE(p.exitCode(), 0);
        const QByteArray text = fileBytes(log);
        QVERIFY2(text.startsWith("earlier line\nt,crank.x,"), text.left(80).constData());
        QCOMPARE(text.count('\n'), 1 + 1 + 11 + 1);  // earlier line, header, 11 rows, summary
        QVERIFY(text.contains("steps: 10"));
        QCOMPARE(strayFiles(dir.path(), {"log.txt"}), QStringList());
        // The same file named by its path while standard output goes to it: written
        // through standard output as well, so nothing before or after is lost.
        QProcess again;
        again.setStandardOutputFile(log, QIODevice::Append);
        again.start(QStringLiteral(LOOPLAB_CLI_PATH), {"kinematics", example("slider-crank.json"), "--t-end", "0.1",
                                                       "--step", "0.01", "--out", log});
        QVERIFY(looplab::eventwait::waitForExit(again, "looplab-cli kinematics --out <its own standard output>"));
        QCOMPARE(again.exitCode(), 0);
        const QByteArray twice = fileBytes(log);
        QVERIFY2(twice.startsWith(text), twice.left(80).constData());
        QCOMPARE(twice.count('\n'), 2 * text.count('\n') - 1);
        QCOMPARE(strayFiles(dir.path(), {"log.txt"}), QStringList());
    }

    // With --json every command prints exactly one JSON object, with ok false and the
    // error, whatever went wrong.
    void jsonOnEveryFailure_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("message");
        const QString fourBar = example("four-bar.json"), missing = fourBar + ".missing";
        QTest::newRow("check, missing model") << QStringList{"check", missing, "--json"} << 2 << "four-bar.json.missing";
        QTest::newRow("check, invalid model")
            << QStringList{"check", example("andrews.md"), "--json"} << 2 << "andrews.md";
        QTest::newRow("check, unknown option") << QStringList{"check", fourBar, "--bogus", "--json"} << 2 << "--bogus";
        QTest::newRow("kinematics, missing model")
            << QStringList{"kinematics", missing, "--t-end", "1", "--step", "0.1", "--json"} << 2 << "missing";
        QTest::newRow("kinematics, bad step")
            << QStringList{"kinematics", fourBar, "--t-end", "1", "--step", "nan", "--json"} << 2 << "--step";
        QTest::newRow("kinematics, not driven")
            << QStringList{"kinematics", fourBar, "--t-end", "1", "--step", "0.1", "--json"} << 3 << "not fully driven";
        QTest::newRow("kinematics, no step") << QStringList{"kinematics", fourBar, "--t-end", "1", "--json"} << 2
                                             << "--step";
        QTest::newRow("simulate, missing model")
            << QStringList{"simulate", missing, "--t-end", "1", "--json"} << 2 << "missing";
        QTest::newRow("simulate, bad option")
            << QStringList{"simulate", fourBar, "--t-end", "1", "--rtol", "inf", "--json"} << 2 << "--rtol";
        QTest::newRow("simulate, unknown method")
            << QStringList{"simulate", fourBar, "--t-end", "1", "--method", "nope", "--json"} << 2 << "--method";
        QTest::newRow("simulate, solver failure")
            << QStringList{"simulate", fourBar, "--t-end", "1", "--integrator", "rk4", "--step", "0.5", "--json"} << 3
            << "cannot close";
    }

    void jsonOnEveryFailure() {
        QFETCH(QStringList, arguments);
        QFETCH(int, status);
        QFETCH(QString, message);
        const CliResult r = runCli(arguments);
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == status, qPrintable(QString::number(r.exitCode) + ": " + r.err));
        QString error;
        const QJsonObject o = parseObject(r.out, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error + ": '" + r.out + "'"));
        QCOMPARE(o["ok"].toBool(true), false);
        QVERIFY2(o["error"].toString().contains(message), qPrintable(o["error"].toString()));
    }

    // Success is ok: true for every command too.
    void jsonOkOnSuccess() {
        for (const QStringList& args :
             {QStringList{"check", example("four-bar.json"), "--json"},
              QStringList{"kinematics", example("slider-crank.json"), "--t-end", "0.1", "--step", "0.01", "--json"}}) {
            const CliResult r = runCli(args);
            QVERIFY(r.finished);
            QCOMPARE(r.exitCode, 0);
            QString error;
            const QJsonObject o = parseObject(r.out, &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QCOMPARE(o["ok"].toBool(false), true);
        }
    }

    // `check` notes each revolute joint between two beam nodes: it is a pin (a cable node
    // carries no axis), 3 equations, in the text and in the JSON's `notes`.
    void checkNotesRevolutesBetweenBeamNodes() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("knee.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "looplab-model", "version": 1, "name": "knee", "bodies": [],
 "beams": [{"name": "a", "from": [0,0,0], "to": [1,0,0], "elements": 2, "material": {"young_modulus": 2e9, "density": 1000}, "section": {"type": "circle", "radius": 0.01}},
           {"name": "b", "from": [1,0,0], "to": [1,1,0], "elements": 2, "material": {"young_modulus": 2e9, "density": 1000}, "section": {"type": "circle", "radius": 0.01}}],
 "joints": [{"name": "root", "type": "revolute", "body1": "a.root", "body2": "ground", "point": [0,0,0], "axis": [0,0,1]},
            {"name": "knee", "type": "revolute", "body1": "a.tip", "body2": "b.root", "point": [1,0,0], "axis": [0,0,1]}]})");
        f.close();
        CliResult r = runCli({"check", path});
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("note: revolute joint 'knee' joins two beam nodes"), r.out.constData());
        QVERIFY2(r.out.contains("constraint equations:  7"), r.out.constData());  // 4 for the hinge, 3 for the knee
        r = runCli({"check", path, "--json"});
        QString error;
        const QJsonObject o = parseObject(r.out, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QJsonArray notes = o["notes"].toArray();
        QCOMPARE(notes.size(), 1);
        QCOMPARE(notes[0].toObject()["joint"].toString(), QString("knee"));
        QCOMPARE(o["dof"].toInt(), 36 - 7);
    }

    // The two-loop method through the command line: its iteration counts and
    // re-partitionings in the JSON, with HHT and with Newmark, and its CSV rows.
    void tlismniReportsItsIterations_data() {
        QTest::addColumn<QStringList>("options");
        QTest::newRow("hht") << QStringList{"--integrator", "hht", "--hht-alpha", "-0.1"};
        QTest::newRow("newmark") << QStringList{"--integrator", "newmark", "--newmark-beta", "0.3",
                                                "--newmark-gamma", "0.6"};
    }

    void tlismniReportsItsIterations() {
        QFETCH(QStringList, options);
        QTemporaryDir dir;
        const QString csv = dir.filePath("tlismni.csv");
        const CliResult r = runCli(QStringList{"simulate", example("four-bar.json"), "--t-end", "0.2", "--method",
                                               "tlismni", "--output-step", "0.01", "--json", "--out", csv} +
                                   options);
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QString error;
        const QJsonObject o = parseObject(r.out, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(o["ok"].toBool(false), true);
        QCOMPARE(o["method"].toString(), QString("tlismni"));
        const double steps = o["steps"].toDouble(-1), outer = o["outer_iterations"].toDouble(-1);
        const double inner = o["inner_iterations"].toDouble(-1);
        QVERIFY(steps > 0);
        // At least one Newton iteration on the accelerations per step tried, and one on
        // the dependent positions per outer iteration.
        QVERIFY2(outer >= steps, qPrintable(QString("%1 outer iterations for %2 steps").arg(outer).arg(steps)));
        QVERIFY2(inner >= outer, qPrintable(QString("%1 inner for %2 outer iterations").arg(inner).arg(outer)));
        QCOMPARE(o["repartitions"].toDouble(-1), 0.0);
        QVERIFY(o["max_violation"].toObject()["position"].toDouble(1.0) <= 1e-10);
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll().count('\n'), 22);  // column names and 21 rows, t = 0 … 0.2 s
    }

    // Limits: too many output rows or fixed steps are refused up front (status 2, naming
    // the option); a run that hits the step or wall-time limit fails with a failure event
    // saying which limit, instead of running on.
    void limits() {
        const QString fourBar = example("four-bar.json");
        CliResult r = runCli({"simulate", fourBar, "--t-end", "1", "--output-step", "1e-300", "--json"});
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--output-step") && r.err.contains("--max-rows"), r.err.constData());
        r = runCli({"simulate", fourBar, "--t-end", "1", "--output-step", "0.001", "--max-rows", "100"});
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--output-step"), r.err.constData());
        r = runCli({"simulate", fourBar, "--t-end", "1", "--output-step", "0.01", "--max-rows", "101"});
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = runCli({"simulate", fourBar, "--t-end", "1", "--integrator", "rk4", "--step", "1e-300"});
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--step") && r.err.contains("--max-steps"), r.err.constData());

        for (const QStringList& limit : {QStringList{"--max-steps", "5"}, QStringList{"--max-wall-time", "1e-9"}}) {
            r = runCli(QStringList{"simulate", fourBar, "--t-end", "1", "--json"} + limit);
            QVERIFY(r.finished);
            QCOMPARE(r.exitCode, 3);
            QString error;
            const QJsonObject o = parseObject(r.out, &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QCOMPARE(o["ok"].toBool(true), false);
            const QString which = limit[0] == "--max-steps" ? "step limit" : "wall-time limit";
            QVERIFY2(o["error"].toString().contains(which), qPrintable(o["error"].toString()));
            QVERIFY(o["final"].toObject()["t"].toDouble(1) < 1.0);
            const QJsonObject last = o["events"].toArray().last().toObject();
            QCOMPARE(last["kind"].toString(), QString("failure"));
            if (limit[0] == "--max-steps") QCOMPARE(o["steps"].toInt(), 5);
        }
    }

    // The CSV's size is estimated up front from its rows and the header's columns (22
    // bytes a value): a run whose output would pass --max-output-bytes is refused before
    // it starts (status 2, the old file kept), and the estimate is never below the bytes
    // actually written.
    void outputBytesLimit() {
        const QString fourBar = example("four-bar.json");
        QTemporaryDir dir;
        const QString csv = dir.filePath("run.csv");
        CliResult r = runCli({"simulate", fourBar, "--t-end", "1", "--out", csv});
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray written = f.readAll();
        f.close();
        // The column names, the rows.
        const qint64 columns = written.left(written.indexOf('\n')).count(',') + 1;
        const qint64 rows = 101;  // t = 0, 0.01, …, 1
        QCOMPARE(qint64(written.count('\n')), rows + 1);
        const qint64 estimate = rows * columns * 22;
        qInfo("%lld columns: estimate %lld bytes, written %lld", columns, estimate, qint64(written.size()));
        QVERIFY(written.size() <= estimate);
        r = runCli({"simulate", fourBar, "--t-end", "1", "--out", csv, "--max-output-bytes", QString::number(estimate)});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile::remove(csv);
        {
            QFile keep(csv);
            QVERIFY(keep.open(QIODevice::WriteOnly));
            keep.write("kept\n");
        }
        r = runCli(
            {"simulate", fourBar, "--t-end", "1", "--out", csv, "--max-output-bytes", QString::number(estimate - 1)});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--max-output-bytes"), r.err.constData());
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("kept\n"));
        f.close();
        // The default (2e9 bytes) refuses 1e8 rows at once, with --max-rows raised.
        r = runCli({"simulate", fourBar, "--t-end", "1000", "--output-step", "1e-5", "--max-rows", "200000000", "--out",
                    csv, "--json"});
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 2);
        QString error;
        const QJsonObject o = parseObject(r.out, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(o["error"].toString().contains("--max-output-bytes 2e+09"), qPrintable(o["error"].toString()));
        r = runCli({"kinematics", example("slider-crank.json"), "--t-end", "1", "--step", "0.1", "--out", csv,
                    "--max-output-bytes", "100"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--max-output-bytes 100"), r.err.constData());
    }

    // Kinematics has the same limits: raising --max-rows alone does not start a run of
    // 1e8 steps (hours), and a run past its wall time fails (status 3) with the rows so
    // far, instead of running on.
    void kinematicsLimits() {
        const QString sliderCrank = example("slider-crank.json");
        CliResult r = runCli(
            {"kinematics", sliderCrank, "--t-end", "1", "--step", "1e-8", "--max-rows", "200000000", "--json"});
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--step 1e-08") && r.err.contains("more than --max-steps 10000000"), r.err.constData());
        r = runCli({"kinematics", sliderCrank, "--t-end", "1", "--step", "0.01", "--max-steps", "99"});
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("takes 100 steps, more than --max-steps 99"), r.err.constData());
        r = runCli({"kinematics", sliderCrank, "--t-end", "1", "--step", "0.01", "--max-steps", "100"});
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, r.err.constData());

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString csv = dir.filePath("limited.csv");
        r = runCli({"kinematics", sliderCrank, "--t-end", "1", "--step", "0.001", "--max-wall-time", "1e-9", "--out",
                    csv, "--json"});
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 3);
        QString error;
        const QJsonObject o = parseObject(r.out, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(o["ok"].toBool(true), false);
        QVERIFY2(o["error"].toString().contains("wall-time limit reached"), qPrintable(o["error"].toString()));
        QVERIFY(o["final"].toObject()["t"].toDouble(1) < 1.0);
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const qsizetype lines = f.readAll().count('\n');
        QVERIFY2(lines >= 2 && lines < 1002, qPrintable(QString::number(lines)));  // header, some of 1001 rows
    }

    // A soft penalty lets the four-bar come apart: that is a failure naming the joints,
    // not an ok run with a 5 mm gap in a 0.5 m mechanism.
    void mechanismComingApartFails() {
        const CliResult r = runCli({"simulate", example("four-bar.json"), "--t-end", "10", "--method", "penalty",
                                    "--penalty-factor", "1", "--json"});
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 3);
        QString error;
        const QJsonObject o = parseObject(r.out, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(o["ok"].toBool(true), false);
        const QString message = o["error"].toString();
        QVERIFY2(message.contains("come apart") && message.contains("(joint"), qPrintable(message));
        const QJsonObject last = o["events"].toArray().last().toObject();
        QCOMPARE(last["kind"].toString(), QString("failure"));
        QVERIFY(!last["joints"].toArray().isEmpty());
        for (const QJsonValue& j : last["joints"].toArray()) {
            QVERIFY(QStringList({"A", "B", "C", "D"}).contains(j.toString()));
            QVERIFY2(message.contains(j.toString()), qPrintable(message));
        }
        // The run stopped where it came apart, with the violation past 1e-2 of the length scale.
        QVERIFY(o["final"].toObject()["t"].toDouble(10) < 10.0);
        QVERIFY(o["max_violation"].toObject()["position"].toDouble() > 1e-3);
    }

    // Drift above the method's bound at the run's tolerances is a warning, raised once:
    // Baumgarte with 10 ms RK4 steps drifts past what dopri5 at rtol 1e-8 would allow.
    void constraintViolationWarning() {
        CliResult r = runCli({"simulate", example("four-bar.json"), "--t-end", "1", "--method", "baumgarte",
                              "--integrator", "rk4", "--step", "0.01", "--json"});
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QString error;
        QJsonObject o = parseObject(r.out, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(o["ok"].toBool(false), true);
        int warnings = 0;
        for (const QJsonValue& v : o["events"].toArray()) {
            const QJsonObject e = v.toObject();
            if (e["kind"].toString() != "constraint_violation") continue;
            ++warnings;
            QVERIFY(!e["joints"].toArray().isEmpty());
            QVERIFY(e["detail"].toString().contains("exceeds the bound"));
        }
        QCOMPARE(warnings, 1);
        // The same run with the adaptive solver stays within the bound: no warning.
        r = runCli({"simulate", example("four-bar.json"), "--t-end", "1", "--method", "baumgarte", "--json"});
        QCOMPARE(r.exitCode, 0);
        o = parseObject(r.out, &error);
        for (const QJsonValue& v : o["events"].toArray())
            QVERIFY(v.toObject()["kind"].toString() != "constraint_violation");
    }

    // A crank turning 30 rad between output rows (3000 rad/s, rows every 10 ms) is
    // followed at every solver step: its angle is ω t in every row and in the JSON, not
    // that value folded by whole turns. Kinematics (samples only at its steps) continues
    // the angle with the joint's rate: 5 rad per step at 500 rad/s.
    void fastJointAngleAgainstExact() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile in(example("slider-crank.json"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject model = QJsonDocument::fromJson(in.readAll()).object();
        for (const double rate : {3000.0, 500.0}) {
            QJsonArray drivers = model["drivers"].toArray();
            QJsonObject motor = drivers[0].toObject();
            QJsonObject law = motor["law"].toObject();
            law["rate"] = rate;
            motor["law"] = law;
            drivers[0] = motor;
            model["drivers"] = drivers;
            const QString file = dir.filePath(QString("fast-%1.json").arg(rate));
            QVERIFY(writeFile(file, QJsonDocument(model).toJson()));
            const QString csv = dir.filePath(QString("fast-%1.csv").arg(rate));
            const bool dynamics = rate > 1000;
            const QStringList args = dynamics ? QStringList{"simulate", file, "--t-end", "0.05", "--output-step", "0.01",
                                                            "--out", csv, "--json"}
                                              : QStringList{"kinematics", file, "--t-end", "0.05", "--step", "0.01",
                                                            "--out", csv, "--json"};
            const CliResult r = runCli(args);
            QVERIFY(r.finished);
            QVERIFY2(r.exitCode == 0, r.err.constData());
            const Table t = readCsv(csv);
            QVERIFY2(t.error.isEmpty(), qPrintable(t.error));
            QCOMPARE(int(t.rows.size()), 6);
            const int angle = t.column("O.angle");
            double worst = 0.0;
            for (const QVector<double>& row : t.rows) worst = std::max(worst, std::abs(row[angle] - rate * row[0]));
            qInfo("%s at %g rad/s: final angle %.9f rad (exact %.9f), worst error %.3g rad",
                  dynamics ? "simulate" : "kinematics", rate, t.rows.back()[angle], rate * 0.05, worst);
            QVERIFY2(worst < 1e-6, qPrintable(QString::number(worst)));
            QString error;
            const QJsonObject o = parseObject(r.out, &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            const double final = o["final"].toObject()["joints"].toObject()["O"].toObject()["angle"].toDouble(NAN);
            QVERIFY2(std::abs(final - rate * 0.05) < 1e-6, qPrintable(QString::number(final, 'g', 17)));
        }
    }

    // Andrews' mechanism: the crank turns 15.87 rad in 30 ms, up to 1400 rad/s, with an
    // angular acceleration that changes fast. At a 10 ms output step its angle must match
    // the one with rows every 0.1 ms (at most 0.14 rad apart, so turns cannot be missed).
    void andrewsCrankAngleAtCoarseOutput() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString csv = dir.filePath("andrews.csv");
        CliResult r = runCli({"simulate", example("andrews.json"), "--t-end", "0.03", "--integrator", "dopri5",
                              "--output-step", "0.01", "--out", csv, "--json"});
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QString error;
        QJsonObject o = parseObject(r.out, &error);
        const double coarse = o["final"].toObject()["joints"].toObject()["O"].toObject()["angle"].toDouble(NAN);
        const Table t = readCsv(csv);
        QVERIFY2(t.error.isEmpty(), qPrintable(t.error));
        QCOMPARE(t.rows.back()[t.column("O.angle")], coarse);
        r = runCli({"simulate", example("andrews.json"), "--t-end", "0.03", "--integrator", "dopri5", "--output-step",
                    "1e-4", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        o = parseObject(r.out, &error);
        const double fine = o["final"].toObject()["joints"].toObject()["O"].toObject()["angle"].toDouble(NAN);
        qInfo("crank angle at 0.03 s: %.9f rad (10 ms rows), %.9f rad (0.1 ms rows)", coarse, fine);
        QVERIFY(fine > 15.8 && fine < 15.9);
        QVERIFY2(std::abs(coarse - fine) < 1e-6, qPrintable(QString::number(coarse, 'g', 17)));
    }

    void exitStatus_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("message");
        const QString fourBar = example("four-bar.json");
        // A model without an end time anywhere: tst_cli_runsettings (noEndTimeAnywhere).
        QTest::newRow("unknown method") << QStringList{"simulate", fourBar, "--t-end", "1", "--method", "nope"} << 2
                                        << "--method";
        QTest::newRow("unknown integrator")
            << QStringList{"simulate", fourBar, "--t-end", "1", "--integrator", "euler"} << 2 << "--integrator";
        QTest::newRow("rk4 without a step")
            << QStringList{"simulate", fourBar, "--t-end", "1", "--integrator", "rk4"} << 2 << "rk4 needs --step";
        QTest::newRow("zero tolerance") << QStringList{"simulate", fourBar, "--t-end", "1", "--rtol", "0"} << 2
                                        << "--rtol";
        // Every numeric option: non-finite or out-of-range values are refused by name.
        const QList<QPair<QString, QString>> bad{
            {"--t-end", "inf"}, {"--t-end", "nan"}, {"--t-end", "-1"}, {"--step", "nan"}, {"--step", "-1"},
            {"--rtol", "inf"}, {"--rtol", "nan"}, {"--rtol", "2"}, {"--atol", "nan"}, {"--atol", "-1e-9"},
            {"--output-step", "nan"}, {"--output-step", "0"}, {"--output-step", "inf"},
            {"--singular-threshold", "nan"}, {"--singular-threshold", "-1"}, {"--rank-tolerance", "-1"},
            {"--rank-tolerance", "nan"}, {"--rank-tolerance", "1"}, {"--baumgarte-alpha", "inf"},
            {"--baumgarte-beta", "-1"}, {"--penalty-factor", "-1"}, {"--penalty-factor", "0"},
            {"--penalty-factor", "nan"}, {"--max-steps", "0"}, {"--max-rows", "0"}, {"--max-wall-time", "nan"},
            {"--max-output-bytes", "0"}, {"--max-output-bytes", "nan"},
            {"--max-wall-time", "-1"}, {"--hht-alpha", "0.1"}, {"--hht-alpha", "-0.5"}, {"--hht-alpha", "nan"},
            {"--newmark-beta", "0"}, {"--newmark-beta", "0.6"}, {"--newmark-gamma", "0.4"}};
        for (const auto& [option, value] : bad) {
            QStringList args{"simulate", fourBar, "--t-end", "1", option, value};
            if (option == "--t-end") args = QStringList{"simulate", fourBar, "--t-end", value};
            QTest::newRow(qPrintable("simulate " + option + " " + value)) << args << 2 << option;
        }
        for (const auto& [option, value] : QList<QPair<QString, QString>>{
                 {"--t-end", "inf"}, {"--t-end", "-1"}, {"--step", "nan"}, {"--step", "0"}, {"--step", "inf"},
                 {"--max-rows", "0"}, {"--max-steps", "0"}, {"--max-wall-time", "nan"}, {"--max-wall-time", "-1"},
                 {"--max-output-bytes", "-1"}}) {
            QStringList args{"kinematics", example("slider-crank.json"), "--t-end", "1", "--step", "0.1"};
            if (args.contains(option)) args[args.indexOf(option) + 1] = value;
            else args << option << value;
            QTest::newRow(qPrintable("kinematics " + option + " " + value)) << args << 2 << option;
        }
        QTest::newRow("kinematics rows beyond --max-rows")
            << QStringList{"kinematics", example("slider-crank.json"), "--t-end", "1", "--step", "1e-300"} << 2
            << "--max-rows";
        QTest::newRow("missing model") << QStringList{"simulate", fourBar + ".missing", "--t-end", "1"} << 2
                                       << "four-bar.json.missing";
        QTest::newRow("kinematics of a free mechanism")
            << QStringList{"kinematics", fourBar, "--t-end", "1", "--step", "0.1"} << 3 << "not fully driven";
        QTest::newRow("kinematics without a step") << QStringList{"kinematics", fourBar, "--t-end", "1"} << 2
                                                   << "--step";
        // Half-second RK4 steps: the first stage state is so far off that the loop cannot close.
        QTest::newRow("loop cannot close")
            << QStringList{"simulate", fourBar, "--t-end", "1", "--integrator", "rk4", "--step", "0.5"} << 3
            << "cannot close";
    }

    void exitStatus() {
        QFETCH(QStringList, arguments);
        QFETCH(int, status);
        QFETCH(QString, message);
        const CliResult r = runCli(arguments);
        QVERIFY(r.finished);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(r.exitCode == status, qPrintable(QString::number(r.exitCode) + ": " + err));
        QVERIFY2(err.contains(message), qPrintable(err));
    }

    // A run that fails reports why in the JSON and as a failure event naming the loop's
    // joints, keeps the rows written so far, and exits with 3.
    void failedRunReportsAndKeepsRows() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString csv = dir.filePath("failed.csv");
        const CliResult r = runCli({"simulate", example("four-bar.json"), "--t-end", "1", "--integrator", "rk4",
                                    "--step", "0.5", "--out", csv, "--json"});
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 3);
        QString error;
        const QJsonObject o = parseObject(r.out, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(o["ok"].toBool(true), false);
        QVERIFY(o["error"].toString().contains("cannot close"));
        const QJsonArray events = o["events"].toArray();
        QVERIFY(!events.isEmpty());
        const QJsonObject failure = events.last().toObject();
        QCOMPARE(failure["kind"].toString(), QString("failure"));
        QVERIFY(!failure["joints"].toArray().isEmpty());
        for (const QJsonValue& j : failure["joints"].toArray())
            QVERIFY(QStringList({"A", "B", "C", "D"}).contains(j.toString()));
        // The message itself names the joints, on stderr and in the JSON.
        QVERIFY2(o["error"].toString().contains("(joints A, B, C, D)"), qPrintable(o["error"].toString()));
        QVERIFY2(r.err.contains("(joints A, B, C, D)"), r.err.constData());
        const Table t = readCsv(csv);
        QVERIFY2(t.error.isEmpty(), qPrintable(t.error));
        QCOMPARE(int(t.rows.size()), 1);  // the initial state
        QCOMPARE(t.rows[0][0], 0.0);
    }

    // `--node` adds the position columns of named beam and solid nodes. At t = 0 they are the
    // core's node positions of the assembled initial state (the file's geometry: node k of the
    // 8-element cantilever at x = k/8 m, the block's corner node20_2_2 at (1, 0.05, 0.05));
    // the clamped beam root and the pinned block node stay where they are held at every row,
    // to rounding of the positions (1e-12 m); the JSON reports the nodes and the mesh sizes.
    void simulateWritesNamedNodes_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("nodes");
        QTest::addColumn<QString>("held");  // a node held by a joint at its initial place
        QTest::addColumn<int>("meshNodes");
        QTest::newRow("beam") << "cantilever-beam.json" << QStringList{"beam.node0", "beam.node3", "beam.tip", "beam.node8"}
                              << "beam.node0" << 9;
        QTest::newRow("solid") << "clamped-block.json" << QStringList{"block.node20_2_2", "block.node0_1_1", "block.node7_0_2"}
                               << "block.node0_1_1" << 189;
    }
    void simulateWritesNamedNodes() {
        QFETCH(QString, file);
        QFETCH(QStringList, nodes);
        QFETCH(QString, held);
        QFETCH(int, meshNodes);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString csv = dir.filePath("nodes.csv");
        QStringList args{"simulate", example(qPrintable(file)), "--t-end", "2e-4", "--output-step", "5e-5", "--out", csv,
                         "--json"};
        for (const QString& n : nodes) args << "--node" << n;
        const CliResult r = runCli(args);
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const Table t = readCsv(csv);
        QVERIFY2(t.error.isEmpty(), qPrintable(t.error));
        QCOMPARE(int(t.rows.size()), 5);
        const looplab::LoadedModel lm = looplab::loadModel(example(qPrintable(file)).toStdString());
        QVERIFY(lm.ok());
        for (const QString& n : nodes) {
            const std::optional<looplab::MeshNode> node = looplab::findMeshNode(*lm.model, n.toStdString());
            QVERIFY2(node, qPrintable(n));
            const looplab::Vec3 start = looplab::meshNodePosition(*lm.model, lm.initial, *node);
            for (int c = 0; c < 3; ++c) {
                const QString column = n + "." + QChar('x' + c);
                // Once, a beam's tip among its named points.
                QCOMPARE(int(t.header.count(column)), 1);
                QVERIFY2(std::abs(t.rows[0][t.column(column)] - start[c]) < 1e-12, qPrintable(column));
                if (n != held) continue;
                for (const QVector<double>& row : t.rows)
                    QVERIFY2(std::abs(row[t.column(column)] - start[c]) < 1e-12,
                             qPrintable(column + " = " + QString::number(row[t.column(column)], 'g', 17)));
            }
        }
        // The file's geometry, independently of the core.
        if (file == "cantilever-beam.json") {
            QCOMPARE(t.rows[0][t.column("beam.node3.x")], 0.375);
            QCOMPARE(t.rows[0][t.column("beam.node8.x")], 1.0);
            // The same node under two names: the same numbers in every row.
            for (const QVector<double>& row : t.rows)
                QCOMPARE(row[t.column("beam.node8.y")], row[t.column("beam.tip.y")]);
        } else {
            for (int c = 0; c < 3; ++c)
                QVERIFY(std::abs(t.rows[0][t.column(QString("block.node20_2_2.") + QChar('x' + c))] -
                                 QVector<double>{1.0, 0.05, 0.05}[c]) < 1e-15);
        }
        QString error;
        const QJsonObject o = parseObject(r.out, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QJsonObject named = o["final"].toObject()["nodes"].toObject();
        QCOMPARE(named.size(), nodes.size());
        for (const QString& n : nodes) {
            const QVector<double> p = numbers(named[n]);
            QCOMPARE(p.size(), 3);
            for (int c = 0; c < 3; ++c) QCOMPARE(p[c], t.rows.back()[t.column(n + "." + QChar('x' + c))]);
        }
        const QJsonObject meshes = o["meshes"].toObject();
        QCOMPARE(meshes.size(), 1);
        QCOMPARE(meshes.begin().value().toObject()["nodes"].toInt(), meshNodes);
    }

    // A name that is no node: status 2 before anything is written, naming the option and
    // the name (indices past the mesh, written otherwise than the format writes them, or
    // of a body that is not a mesh).
    void simulateRefusesUnknownNodes_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("node");
        QTest::newRow("past the tip") << "cantilever-beam.json" << "beam.node9";
        QTest::newRow("leading zero") << "cantilever-beam.json" << "beam.node08";
        QTest::newRow("no index") << "cantilever-beam.json" << "beam.node";
        QTest::newRow("the beam") << "cantilever-beam.json" << "beam";
        QTest::newRow("solid, two indices") << "clamped-block.json" << "block.node1_1";
        QTest::newRow("solid, past the mesh") << "clamped-block.json" << "block.node0_3_0";
        QTest::newRow("a face") << "clamped-block.json" << "block.xmin";
        QTest::newRow("rigid body") << "pendulum.json" << "bob.node0";
    }
    void simulateRefusesUnknownNodes() {
        QFETCH(QString, file);
        QFETCH(QString, node);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString csv = dir.filePath("nodes.csv");
        const CliResult r =
            runCli({"simulate", example(qPrintable(file)), "--t-end", "1e-4", "--out", csv, "--node", node, "--json"});
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 2);
        const QString expected = "--node '" + node + "'";
        QVERIFY2(r.err.contains(expected.toUtf8()), r.err.constData());
        QString error;
        const QJsonObject o = parseObject(r.out, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(o["ok"].toBool(true), false);
        QVERIFY2(o["error"].toString().contains(expected), qPrintable(o["error"].toString()));
        QVERIFY(!QFileInfo::exists(csv));
    }
};

QTEST_APPLESS_MAIN(CliTest)
#include "tst_cli.moc"
