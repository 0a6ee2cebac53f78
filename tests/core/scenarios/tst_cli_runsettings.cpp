// `looplab-cli simulate` takes its run settings with the precedence command line > the
// model's `run` block > the method's defaults (MethodRegistry.h), field by field, says in
// the JSON and the CSV which settings it used and where each came from, and stops an
// explicit integrator on a stiff model within its first thousand steps, naming the methods
// to use instead.
#include "CliRunner.h"

#include "looplab/integrate/MethodRegistry.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <map>

using looplab::test::CliResult;
using looplab::test::runCli;

namespace {

QString example(const char* name) { return QStringLiteral(LOOPLAB_EXAMPLES_DIR "/") + QLatin1String(name); }

QJsonObject exampleJson(const char* name) {
    QFile f(example(name));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

// The example with its `run` block replaced (removed if `run` is empty), written to dir.
QString withRun(const QTemporaryDir& dir, const char* name, const QJsonObject& run) {
    QJsonObject model = exampleJson(name);
    if (run.isEmpty()) model.remove("run");
    else model["run"] = run;
    const QString path = dir.filePath(QString("run-%1-%2").arg(qHash(QJsonDocument(run).toJson())).arg(name));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return {};
    f.write(QJsonDocument(model).toJson());
    return path;
}

struct Json {
    QJsonObject o;
    QString error;
};

Json runJson(const QStringList& args, int expectedStatus = 0) {
    const CliResult r = runCli(args + QStringList{"--json"});
    Json j;
    if (!r.finished) j.error = "did not finish";
    else if (r.exitCode != expectedStatus)
        j.error = QString("exit status %1: %2").arg(r.exitCode).arg(QString::fromUtf8(r.err));
    QJsonParseError pe;
    j.o = QJsonDocument::fromJson(r.out, &pe).object();
    if (j.error.isEmpty() && pe.error != QJsonParseError::NoError) j.error = pe.errorString();
    return j;
}

QString source(const QJsonObject& o, const char* key) { return o["settings"][key]["from"].toString(); }
QJsonValue value(const QJsonObject& o, const char* key) { return o["settings"][key]["value"]; }

}  // namespace

class CliRunSettingsTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

private slots:
    // Each field of the run block, alone in it, reaches the run (and the JSON says it came
    // from the model); the others come from the method's defaults or the general ones.
    void eachFieldOfTheRunBlock_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QJsonObject>("run");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QJsonValue>("expected");
        QTest::newRow("method") << "four-bar.json" << QJsonObject{{"method", "baumgarte"}, {"t_end", 0.1}}
                                << "method" << QJsonValue("baumgarte");
        QTest::newRow("integrator") << "four-bar.json" << QJsonObject{{"integrator", "verner6"}, {"t_end", 0.1}}
                                    << "integrator" << QJsonValue("verner6");
        QTest::newRow("t_end") << "pendulum.json" << QJsonObject{{"t_end", 0.37}} << "t_end" << QJsonValue(0.37);
        QTest::newRow("output_step") << "pendulum.json" << QJsonObject{{"t_end", 0.2}, {"output_step", 0.05}}
                                     << "output_step" << QJsonValue(0.05);
        QTest::newRow("rtol") << "pendulum.json" << QJsonObject{{"t_end", 0.2}, {"rtol", 1e-5}} << "rtol"
                              << QJsonValue(1e-5);
        QTest::newRow("atol") << "pendulum.json" << QJsonObject{{"t_end", 0.2}, {"atol", 1e-7}} << "atol"
                              << QJsonValue(1e-7);
        QTest::newRow("step") << "pendulum.json"
                              << QJsonObject{{"integrator", "rk4"}, {"t_end", 0.2}, {"step", 0.004}} << "step"
                              << QJsonValue(0.004);
        QTest::newRow("hht_alpha") << "four-bar.json"
                                   << QJsonObject{{"method", "tlismni"}, {"t_end", 0.05}, {"hht_alpha", -0.2}}
                                   << "hht_alpha" << QJsonValue(-0.2);
        QTest::newRow("newmark_beta")
            << "four-bar.json"
            << QJsonObject{{"method", "tlismni"}, {"integrator", "newmark"}, {"t_end", 0.05}, {"newmark_beta", 0.3}}
            << "newmark_beta" << QJsonValue(0.3);
        QTest::newRow("newmark_gamma")
            << "four-bar.json"
            << QJsonObject{{"method", "tlismni"}, {"integrator", "newmark"}, {"t_end", 0.05}, {"newmark_gamma", 0.6}}
            << "newmark_gamma" << QJsonValue(0.6);
    }
    void eachFieldOfTheRunBlock() {
        QFETCH(QString, model);
        QFETCH(QJsonObject, run);
        QFETCH(QString, key);
        QFETCH(QJsonValue, expected);
        const QString file = withRun(dir_, qPrintable(model), run);
        const Json j = runJson({"simulate", file});
        QVERIFY2(j.error.isEmpty(), qPrintable(j.error));
        QCOMPARE(value(j.o, qPrintable(key)), expected);
        QCOMPARE(source(j.o, qPrintable(key)), QString("model"));
        // Every field the run block leaves out comes from the defaults.
        const QJsonObject used = j.o["settings"].toObject();
        QVERIFY(used.contains("method") && used.contains("integrator") && used.contains("t_end"));
        for (auto it = used.begin(); it != used.end(); ++it)
            if (!run.contains(it.key()))
                QVERIFY2(it.value().toObject()["from"].toString().contains("default"), qPrintable(it.key()));
        // And the run used it.
        const double tEnd = run["t_end"].toDouble();
        QCOMPARE(j.o["final"]["t"].toDouble(), tEnd);
        if (key == "method" || key == "integrator") QCOMPARE(j.o[key], expected);
        if (key == "step") QCOMPARE(j.o["steps"].toInt(), int(std::lround(tEnd / expected.toDouble())));
        if (key == "output_step") {
            const QString csv = dir_.filePath("rows.csv");
            const CliResult r = runCli({"simulate", file, "--out", csv});
            QCOMPARE(r.exitCode, 0);
            QFile f(csv);
            QVERIFY(f.open(QIODevice::ReadOnly));
            // The column names and a row every 0.05 s from 0 to 0.2 s.
            QCOMPARE(f.readAll().count('\n'), 1 + 5);
        }
        if (key == "rtol" || key == "atol") {
            // Looser than the method's default: fewer steps than without the block's value.
            QJsonObject plain = run;
            plain.remove(key);
            const Json d = runJson({"simulate", withRun(dir_, qPrintable(model), plain)});
            QVERIFY2(d.error.isEmpty(), qPrintable(d.error));
            QCOMPARE(source(d.o, qPrintable(key)), QString("method default"));
            QVERIFY2(j.o["steps"].toInt() < d.o["steps"].toInt(),
                     qPrintable(QString("%1 against %2").arg(j.o["steps"].toInt()).arg(d.o["steps"].toInt())));
        }
    }

    // A command-line option overrides its field only: the rest stays the model's.
    void commandLineOverridesOneField() {
        const QJsonObject run{{"method", "projection"}, {"integrator", "dopri5"}, {"t_end", 0.3},
                              {"rtol", 1e-5},           {"atol", 1e-7},          {"output_step", 0.1}};
        const QString file = withRun(dir_, "pendulum.json", run);
        const Json model = runJson({"simulate", file});
        const Json tight = runJson({"simulate", file, "--rtol", "1e-10"});
        QVERIFY2(model.error.isEmpty(), qPrintable(model.error));
        QVERIFY2(tight.error.isEmpty(), qPrintable(tight.error));
        QCOMPARE(value(tight.o, "rtol").toDouble(), 1e-10);
        QCOMPARE(source(tight.o, "rtol"), QString("command line"));
        for (const char* key : {"method", "integrator", "t_end", "atol", "output_step"}) {
            QCOMPARE(source(tight.o, key), QString("model"));
            QCOMPARE(value(tight.o, key), value(model.o, key));
        }
        QCOMPARE(tight.o["final"]["t"].toDouble(), 0.3);
        QVERIFY(tight.o["steps"].toInt() > model.o["steps"].toInt());
    }

    // `--method tlismni` or `hht-index3` alone: the method's own integrator and tolerances.
    void methodAloneTakesItsDefaults_data() {
        QTest::addColumn<QString>("method");
        QTest::newRow("tlismni") << "tlismni";
        QTest::newRow("hht-index3") << "hht-index3";
    }
    void methodAloneTakesItsDefaults() {
        QFETCH(QString, method);
        const looplab::ConstraintMethodInfo* info = looplab::findConstraintMethod(method.toStdString());
        QVERIFY(info);
        const Json j = runJson({"simulate", example("four-bar.json"), "--method", method, "--t-end", "0.05"});
        QVERIFY2(j.error.isEmpty(), qPrintable(j.error));
        QCOMPARE(j.o["ok"].toBool(), true);
        QCOMPARE(j.o["integrator"].toString(), QString::fromStdString(info->defaults.integrator));
        QCOMPARE(source(j.o, "integrator"), QString("method default"));
        QCOMPARE(value(j.o, "rtol").toDouble(), info->defaults.rtol);
        QCOMPARE(value(j.o, "atol").toDouble(), info->defaults.atol);
        QCOMPARE(source(j.o, "rtol"), QString("method default"));
        QCOMPARE(source(j.o, "method"), QString("command line"));
        QCOMPARE(source(j.o, "t_end"), QString("command line"));
    }

    // A model setting that does not pair with what the command line chose gives way to the
    // defaults, and the run says so.
    void modelSettingThatDoesNotPairGivesWay() {
        const QJsonObject run{{"method", "tlismni"}, {"integrator", "hht"}, {"t_end", 0.05}, {"hht_alpha", -0.1}};
        const QString file = withRun(dir_, "four-bar.json", run);
        Json j = runJson({"simulate", file, "--method", "projection"});
        QVERIFY2(j.error.isEmpty(), qPrintable(j.error));
        QCOMPARE(j.o["integrator"].toString(), QString("dopri5"));
        QCOMPARE(source(j.o, "integrator"), QString("method default"));
        QVERIFY(!j.o["settings"].toObject().contains("hht_alpha"));  // dopri5 does not read it
        QVERIFY2(QJsonDocument(j.o["warnings"].toArray()).toJson().contains("integrator hht"),
                 QJsonDocument(j.o["warnings"].toArray()).toJson().constData());
        j = runJson({"simulate", file, "--integrator", "bdf"});
        QVERIFY2(j.error.isEmpty(), qPrintable(j.error));
        QCOMPARE(j.o["method"].toString(), QString::fromStdString(looplab::defaultConstraintMethod().name));
        QCOMPARE(source(j.o, "method"), QString("default"));
        QVERIFY(QJsonDocument(j.o["warnings"].toArray()).toJson().contains("method tlismni"));
        // Both given and not a pair: refused.
        j = runJson({"simulate", file, "--method", "tlismni", "--integrator", "bdf"}, 2);
        QVERIFY2(j.error.isEmpty(), qPrintable(j.error));
    }

    // No end time on the command line nor in the model: refused, naming the option.
    void noEndTimeAnywhere() {
        const QString file = withRun(dir_, "pendulum.json", {});
        const CliResult r = runCli({"simulate", file});
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--t-end"), r.err.constData());
    }

    // Every method parameter of the registry is an option of `simulate`: given with a pair
    // that reads it (one run per pair, with all of the pair's parameters), the run takes
    // it and says it came from the command line; outside its range it is refused before
    // the model is read, naming the range. `methods` lists each with its range and its
    // default.
    void everyMethodParameterIsAnOption() {
        using namespace looplab;
        const Json listed = runJson({"methods"});
        QVERIFY2(listed.error.isEmpty(), qPrintable(listed.error));
        std::map<std::pair<std::string, std::string>, std::vector<const ParameterInfo*>> byPair;
        for (const ParameterInfo& p : methodParameters()) {
            if (p.runField) continue;
            bool placed = false;
            for (const IntegratorInfo& i : integrators())
                for (const ConstraintMethodInfo& m : constraintMethods())
                    if (!placed && i.stepControl == StepControl::Adaptive && isSupportedPair(m.name, i.name) &&
                        pairReads(m.name, i.name, p.key)) {
                        byPair[{m.name, i.name}].push_back(&p);
                        placed = true;
                    }
            QVERIFY2(placed, p.key.c_str());
        }
        for (const auto& [pair, parameters] : byPair) {
            const QStringList run{"simulate", example("pendulum.json"), "--t-end", "0.002",
                                  "--method", QString::fromStdString(pair.first),
                                  "--integrator", QString::fromStdString(pair.second)};
            QStringList options;
            std::vector<double> given;
            for (const ParameterInfo* p : parameters) {
                given.push_back(p->type == ParameterType::Count ? p->defaultValue() + 1.0
                                : std::isfinite(p->range.high) ? 0.5 * (p->range.low + p->range.high)
                                                               : 2.0 * p->defaultValue() + 1e-3);
                options << QString::fromStdString("--" + p->key) << QString::number(given.back(), 'g', 17);
            }
            const Json ran = runJson(run + options);
            QVERIFY2(ran.error.isEmpty(), qPrintable(options.join(' ') + ": " + ran.error));
            for (size_t k = 0; k < parameters.size(); ++k) {
                const QByteArray key = QByteArray::fromStdString(parameters[k]->fileKey());
                QCOMPARE(value(ran.o, key.constData()).toDouble(), given[k]);
                QCOMPARE(source(ran.o, key.constData()), QString("command line"));
            }
            for (const ParameterInfo* p : parameters) {
                const double bad = p->type == ParameterType::Count ? p->range.low + 0.5 : p->range.low - 1.0;
                const QString option = QString::fromStdString("--" + p->key);
                const CliResult refused = runCli(run + QStringList{option, QString::number(bad)});
                QCOMPARE(refused.exitCode, 2);
                QVERIFY2(refused.err.contains(option.toUtf8() + " must be") && refused.err.contains(p->range.text),
                         refused.err.constData());
                bool found = false;
                for (const QJsonValue& list : {listed.o["methods"], listed.o["integrators"]})
                    for (const QJsonValue& entry : list.toArray())
                        for (const QJsonValue& q : entry["parameters"].toArray())
                            if (q["option"].toString() == option) {
                                found = true;
                                QCOMPARE(q["default"].toDouble(), p->defaultValue());
                                QCOMPARE(q["range"].toString(), QString(p->range.text));
                                QCOMPARE(q["run_key"].toString(), QString::fromStdString(p->fileKey()));
                            }
                QVERIFY2(found, qPrintable(option));
            }
        }
    }

    // The CSV is the column names and the rows, as CSV readers take it by default; the
    // settings and their sources are in the report (they were a comment line before the
    // column names, which pandas and numpy took for the header).
    void csvIsPlainAndTheReportSaysItsSettings() {
        const QString csv = dir_.filePath("settings.csv");
        const CliResult r = runCli({"simulate", example("pendulum.json"), "--t-end", "0.1", "--out", csv});
        QCOMPARE(r.exitCode, 0);
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Text));
        const QString first = QString::fromUtf8(f.readLine());
        QVERIFY2(first.startsWith("t,bob.x,"), qPrintable(first));
        QVERIFY(!f.readAll().contains('#'));
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains("settings: method projection (model); integrator dopri5 (model); "
                              "t_end 0.1 (command line); output_step 0.01 (model)"),
                 qPrintable(out));
        QVERIFY2(out.contains("; rtol 1e-08 (method default); atol 1e-10 (method default)"), qPrintable(out));
        const Json j = runJson({"simulate", example("pendulum.json"), "--t-end", "0.1", "--out", csv});
        QVERIFY2(j.error.isEmpty(), qPrintable(j.error));
        QCOMPARE(source(j.o, "t_end"), QString("command line"));
        QCOMPARE(value(j.o, "t_end").toDouble(), 0.1);
        QCOMPARE(source(j.o, "rtol"), QString("method default"));
    }

    // dopri5 at the model's tolerances (rtol 1e-5) on the flexible four-bar: its beams' axial and high
    // bending modes hold the step at the stability boundary. The run stops within its first
    // thousand steps, names the beams and the methods to use instead; with --on-stiff warn
    // it goes on with the warning.
    void explicitIntegratorOnStiffModelStops() {
        const Json j = runJson({"simulate", example("flexible-four-bar.json"), "--method", "projection",
                                "--integrator", "dopri5"},
                               3);
        QVERIFY2(j.error.isEmpty(), qPrintable(j.error));
        QCOMPARE(source(j.o, "rtol"), QString("model"));
        const QString error = j.o["error"].toString();
        QVERIFY2(error.contains("stiff"), qPrintable(error));
        QVERIFY2(error.contains("tlismni/hht") && error.contains("hht-index3/hht") && error.contains("projection/bdf"),
                 qPrintable(error));
        QVERIFY2(error.contains("coupler") || error.contains("crank") || error.contains("rocker"), qPrintable(error));
        QVERIFY2(j.o["steps"].toInt() <= 1000, qPrintable(QString::number(j.o["steps"].toInt())));

        const Json warned = runJson({"simulate", example("flexible-four-bar.json"), "--method", "projection",
                                     "--integrator", "dopri5", "--on-stiff", "warn", "--t-end", "2e-4"});
        QVERIFY2(warned.error.isEmpty(), qPrintable(warned.error));
        int stiff = 0;
        for (const QJsonValue& e : warned.o["events"].toArray()) stiff += e["kind"].toString() == "stiffness";
        QCOMPARE(stiff, 1);
    }
};

QTEST_GUILESS_MAIN(CliRunSettingsTest)
#include "tst_cli_runsettings.moc"
