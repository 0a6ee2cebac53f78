// Run settings, camera and traces saved in a model file: they read back as written (the
// implicit integrators' α, β and γ too, and what the workbench stores opens again), a bad
// value is reported at its JSON location, andrews.json opens with the stiff solver and its
// 0.03 s, the crank-rocker with its coupler point traced, and every shipped example names
// a method pair a run accepts.

#include "looplab/integrate/MethodRegistry.h"
#include "looplab/kinematics/PointTrace.h"
#include "looplab/files/ModelFile.h"
#include "looplab/simulation/ModelRunSettings.h"

#include <QDir>
#include <QtTest>

#include <cstdio>
#include <set>

using namespace looplab;

namespace {

std::string withFields(const std::string& fields) {
    return R"({"format": "looplab-model", "version": 1, "name": "m",
      "bodies": [{"name": "b", "mass": 1, "inertia": [1, 1, 1]}])" +
           (fields.empty() ? std::string() : ", " + fields) + "}";
}

// Two bodies on a pin, and a marker on the second: something for traces to name.
std::string pinnedWith(const std::string& traces) {
    return withFields(R"("markers": [{"name": "tip", "body": "b", "position": [0.5, 0, 0]}],
      "joints": [{"name": "pin", "type": "revolute", "body1": "ground", "body2": "b",
                  "point": [0, 0, 0], "axis": [0, 0, 1]}],
      "traces": )" + traces);
}

}  // namespace

class TestModelSettings : public QObject {
    Q_OBJECT

private slots:
    // Command line > the model's run block > the method's defaults > the base, field by
    // field; a model field that does not pair with the command line's choice gives way.
    void resolvesRunSettingsFieldByField()
    {
        RunSettingsDoc model;
        model.method = "tlismni";
        model.integrator = "hht";
        model.tEnd = 0.5;
        model.rtol = 1e-5;
        model.parameters["hht-alpha"] = -0.2;
        RunSettingsDoc cl;
        cl.rtol = 1e-9;
        SimulationSettings base;
        base.outputStep = 0.02;
        const ConstraintMethodInfo& tlismni = *findConstraintMethod("tlismni");
        ResolvedRunSettings r = resolveRunSettings(cl, model, base);
        QVERIFY(r.error.empty());
        QVERIFY(r.notes.empty());
        QCOMPARE(r.settings.method, std::string("tlismni"));
        QCOMPARE(r.field("method")->source, SettingSource::Model);
        QCOMPARE(r.field("integrator")->source, SettingSource::Model);
        QCOMPARE(r.settings.ode.rtol, 1e-9);
        QCOMPARE(r.field("rtol")->source, SettingSource::CommandLine);
        QCOMPARE(r.settings.ode.atol, tlismni.defaults.atol);
        QCOMPARE(r.field("atol")->source, SettingSource::MethodDefault);
        QCOMPARE(r.settings.tEnd, 0.5);
        QCOMPARE(r.settings.constraints.hhtAlpha, -0.2);
        QCOMPARE(r.field("hht_alpha")->source, SettingSource::Model);
        QCOMPARE(r.settings.outputStep, 0.02);
        QCOMPARE(r.field("output_step")->source, SettingSource::Default);
        QVERIFY(!r.field("newmark_beta"));
        QCOMPARE(r.summary().rfind("method tlismni (model); integrator hht (model); t_end 0.5 (model)", 0), size_t(0));

        cl = {};
        cl.method = "projection";
        r = resolveRunSettings(cl, model, base);
        QVERIFY(r.error.empty());
        QCOMPARE(r.settings.integrator, findConstraintMethod("projection")->defaults.integrator);
        QCOMPARE(r.field("integrator")->source, SettingSource::MethodDefault);
        QCOMPARE(int(r.notes.size()), 1);
        QVERIFY(!r.field("hht_alpha"));
        QCOMPARE(r.settings.ode.rtol, 1e-5);  // the model's tolerance stays

        cl = {};
        cl.integrator = "bdf";
        r = resolveRunSettings(cl, model, base);
        QVERIFY(r.error.empty());
        QCOMPARE(r.settings.method, defaultConstraintMethod().name);
        QCOMPARE(r.field("method")->source, SettingSource::Default);
        QCOMPARE(int(r.notes.size()), 1);

        cl.method = "tlismni";
        QVERIFY(!resolveRunSettings(cl, model, base).error.empty());

        // An integrator alone picks a method that takes it.
        RunSettingsDoc onlyIntegrator;
        onlyIntegrator.integrator = "hht";
        r = resolveRunSettings({}, onlyIntegrator, base);
        QVERIFY(r.error.empty());
        QVERIFY(isSupportedPair(r.settings.method, "hht"));
        r = resolveRunSettings({}, {}, base);
        QCOMPARE(r.settings.method, defaultConstraintMethod().name);
        QCOMPARE(r.settings.integrator, defaultConstraintMethod().defaults.integrator);
    }

    void roundTrip() {
        DocumentResult d = parseModelDocument(withFields(R"("run": {"method": "baumgarte", "integrator": "rk4",
            "t_end": 2.5, "rtol": 1e-7, "atol": 1e-9, "step": 0.0005, "output_step": 0.02, "pace": 0.5},
            "camera": {"position": [1, 2, 3], "focal_point": [0, 0.5, 0], "view_up": [0, 0, 1],
                       "parallel": true, "parallel_scale": 0.75})"),
                                              "m.json");
        QVERIFY(d.document);
        const ModelDocument& a = *d.document;
        QCOMPARE(*a.run.method, std::string("baumgarte"));
        QCOMPARE(*a.run.integrator, std::string("rk4"));
        QCOMPARE(*a.run.tEnd, 2.5);
        QCOMPARE(*a.run.step, 0.0005);
        QCOMPARE(*a.run.pace, 0.5);
        QVERIFY(a.camera && a.camera->parallel);
        QCOMPARE(a.camera->position, Vec3(1, 2, 3));
        QCOMPARE(*a.camera->parallelScale, 0.75);
        DocumentResult back = parseModelDocument(serializeModelDocument(a), "back.json");
        QVERIFY(back.document);
        const ModelDocument& b = *back.document;
        QCOMPARE(b.run.method, a.run.method);
        QCOMPARE(b.run.integrator, a.run.integrator);
        QCOMPARE(b.run.tEnd, a.run.tEnd);
        QCOMPARE(b.run.rtol, a.run.rtol);
        QCOMPARE(b.run.atol, a.run.atol);
        QCOMPARE(b.run.step, a.run.step);
        QCOMPARE(b.run.outputStep, a.run.outputStep);
        QCOMPARE(b.run.pace, a.run.pace);
        QCOMPARE(b.camera->focalPoint, a.camera->focalPoint);
        QCOMPARE(b.camera->viewUp, a.camera->viewUp);
        QCOMPARE(b.camera->parallelScale, a.camera->parallelScale);
        // Laid over a run's settings, the model's values win and the rest stay.
        SimulationSettings base;
        base.maxSteps = 77;
        const SimulationSettings s = withModelRunSettings(b.run, base);
        QCOMPARE(s.method, std::string("baumgarte"));
        QCOMPARE(s.ode.rtol, 1e-7);
        QCOMPARE(s.outputStep, 0.02);
        QCOMPARE(s.maxSteps, 77L);
        // A model without settings saves none.
        DocumentResult plain = parseModelDocument(withFields(""), "p.json");
        QVERIFY(plain.document);
        const std::string text = serializeModelDocument(*plain.document);
        QVERIFY(text.find("\"run\"") == std::string::npos && text.find("\"camera\"") == std::string::npos);
    }

    void badSettings_data() {
        QTest::addColumn<QString>("fields");
        QTest::addColumn<QString>("location");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown method") << R"("run": {"method": "magic"})" << "/run/method" << "unknown constraint method 'magic'";
        QTest::newRow("unknown integrator") << R"("run": {"integrator": "euler"})" << "/run/integrator" << "unknown integrator 'euler'";
        QTest::newRow("pair") << R"("run": {"method": "tlismni", "integrator": "dopri5"})" << "/run/integrator" << "does not go with method 'tlismni'";
        QTest::newRow("t_end zero") << R"("run": {"t_end": 0})" << "/run/t_end" << "t_end must be positive";
        QTest::newRow("rtol string") << R"("run": {"rtol": "tight"})" << "/run/rtol" << "expected a number, found string";
        QTest::newRow("pace negative") << R"("run": {"pace": -1})" << "/run/pace" << "pace must not be negative";
        QTest::newRow("unknown field") << R"("run": {"speed": 2})" << "/run/speed" << "unknown field 'speed'";
        QTest::newRow("run not object") << R"("run": 3)" << "/run" << "expected an object";
        QTest::newRow("hht_alpha positive") << R"("run": {"hht_alpha": 0.1})" << "/run/hht_alpha" << "hht_alpha must be a number in [-1/3, 0] (got 0.1)";
        QTest::newRow("hht_alpha below -1/3") << R"("run": {"hht_alpha": -0.34})" << "/run/hht_alpha" << "hht_alpha must be a number in [-1/3, 0] (got -0.34)";
        QTest::newRow("hht_alpha string") << R"("run": {"hht_alpha": "-0.1"})" << "/run/hht_alpha" << "expected a number, found string";
        QTest::newRow("newmark_beta zero") << R"("run": {"newmark_beta": 0})" << "/run/newmark_beta" << "newmark_beta must be a number in (0, 1/2] (got 0)";
        QTest::newRow("newmark_beta above 1/2") << R"("run": {"newmark_beta": 0.51})" << "/run/newmark_beta" << "newmark_beta must be a number in (0, 1/2] (got 0.51)";
        QTest::newRow("newmark_gamma below 1/2") << R"("run": {"newmark_gamma": 0.49})" << "/run/newmark_gamma" << "newmark_gamma must be a number in [1/2, 1] (got 0.49)";
        QTest::newRow("newmark_gamma above 1") << R"("run": {"newmark_gamma": 1.5})" << "/run/newmark_gamma" << "newmark_gamma must be a number in [1/2, 1] (got 1.5)";
        QTest::newRow("camera missing") << R"("camera": {"position": [0, 0, 1], "view_up": [0, 1, 0]})" << "/camera/focal_point" << "missing required field";
        QTest::newRow("camera same point") << R"("camera": {"position": [1, 1, 1], "focal_point": [1, 1, 1], "view_up": [0, 1, 0]})" << "/camera/focal_point" << "must differ";
        QTest::newRow("camera up along sight") << R"("camera": {"position": [0, 0, 5], "focal_point": [0, 0, 0], "view_up": [0, 0, 2]})" << "/camera/view_up" << "line of sight";
        QTest::newRow("camera parallel") << R"("camera": {"position": [0, 0, 5], "focal_point": [0, 0, 0], "view_up": [0, 1, 0], "parallel": 1})" << "/camera/parallel" << "expected true or false";
        QTest::newRow("traces not a list") << R"("traces": {"marker": "tip"})" << "/traces" << "expected an array";
        QTest::newRow("trace of nothing") << R"("traces": [{"point": [0, 1, 0]}])" << "/traces/0" << "a trace names a marker, or a body and a point";
        QTest::newRow("trace marker and point") << R"("traces": [{"marker": "tip", "point": [0, 1, 0]}])" << "/traces/0/point" << "'point' cannot be combined with a marker";
        QTest::newRow("trace empty marker") << R"("traces": [{"marker": ""}])" << "/traces/0/marker" << "the marker's name is empty";
        QTest::newRow("trace short point") << R"("traces": [{"body": "b", "point": [0, 1]}])" << "/traces/0/point" << "expected an array of 3 numbers";
        QTest::newRow("trace unknown field") << R"("traces": [{"body": "b", "colour": [1, 0, 0]}])" << "/traces/0/colour" << "unknown field 'colour'";
        QTest::newRow("camera scale") << R"("camera": {"position": [0, 0, 5], "focal_point": [0, 0, 0], "view_up": [0, 1, 0], "parallel_scale": -2})" << "/camera/parallel_scale" << "must be positive";
    }
    // The implicit integrators' parameters read back exactly, including the ends of their
    // ranges, and reach a run's settings.
    void integratorParametersRoundTrip() {
        DocumentResult d = parseModelDocument(withFields(R"("run": {"method": "tlismni", "integrator": "newmark",
            "hht_alpha": -0.3333333333333333, "newmark_beta": 0.5, "newmark_gamma": 1})"),
                                              "m.json");
        QVERIFY(d.document);
        QCOMPARE(*d.document->run.parameter("hht-alpha"), -1.0 / 3.0);
        QCOMPARE(*d.document->run.parameter("newmark-beta"), 0.5);
        QCOMPARE(*d.document->run.parameter("newmark-gamma"), 1.0);
        DocumentResult back = parseModelDocument(serializeModelDocument(*d.document), "back.json");
        QVERIFY(back.document);
        QCOMPARE(back.document->run.parameter("hht-alpha"), d.document->run.parameter("hht-alpha"));
        QCOMPARE(back.document->run.parameter("newmark-beta"), d.document->run.parameter("newmark-beta"));
        QCOMPARE(back.document->run.parameter("newmark-gamma"), d.document->run.parameter("newmark-gamma"));
        const SimulationSettings s = withModelRunSettings(back.document->run, SimulationSettings{});
        QCOMPARE(s.constraints.hhtAlpha, -1.0 / 3.0);
        QCOMPARE(s.constraints.newmarkBeta, 0.5);
        QCOMPARE(s.constraints.newmarkGamma, 1.0);
        // Left out, they keep the run's own values.
        SimulationSettings base;
        base.constraints.hhtAlpha = -0.2;
        QCOMPARE(withModelRunSettings(RunSettingsDoc{}, base).constraints.hhtAlpha, -0.2);
    }

    // Every registered method parameter, for every pair that reads it: a value that is not
    // its default (a count whole) goes from the run's settings into a saved `run` block,
    // reads back to the same double and reaches the run's settings; given on the command
    // line it wins over the model's and is said to come from there; just outside its range
    // the file refuses it at its key, naming the range. The default of each is inside its
    // own range.
    void everyMethodParameterSavesReadsAndResolves() {
        std::set<std::string> checked, registered;
        for (const ParameterInfo& p : methodParameters()) {
            QVERIFY2(p.accepts(p.defaultValue()), p.key.c_str());
            QCOMPARE(findParameter(p.key), &p);
            QCOMPARE(findParameter(p.fileKey()), &p);
            if (p.runField) continue;
            registered.insert(p.key);
            const double value = p.type == ParameterType::Count ? p.defaultValue() + 3.0
                                 : std::isfinite(p.range.high) ? p.range.low + 0.37 * (p.range.high - p.range.low)
                                 : p.defaultValue() > 0.0      ? 3.0 * p.defaultValue()
                                                               : 0.25;
            QVERIFY2(p.accepts(value) && value != p.defaultValue(), p.key.c_str());
            for (const ConstraintMethodInfo& m : constraintMethods())
                for (const IntegratorInfo& i : integrators()) {
                    if (!isSupportedPair(m.name, i.name) || !pairReads(m.name, i.name, p.key)) continue;
                    const std::string pair = m.name + "/" + i.name + " " + p.key;
                    SimulationSettings s;
                    s.method = m.name;
                    s.integrator = i.name;
                    p.setValue(s.constraints, s.ode, value);
                    DocumentResult d = parseModelDocument(withFields(""), "m.json");
                    QVERIFY(d.document);
                    d.document->run = runSettingsDocFrom(s, 0.0);
                    const std::string text = serializeModelDocument(*d.document);
                    QVERIFY2(text.find("\"" + p.fileKey() + "\"") != std::string::npos, pair.c_str());
                    if (p.type == ParameterType::Count) {  // written as the whole number it is
                        const std::string written = "\"" + p.fileKey() + "\": " + std::to_string(long(value));
                        QVERIFY2(text.find(written) != std::string::npos && text.find(written + ".") == std::string::npos,
                                 text.c_str());
                    }
                    const DocumentResult back = parseModelDocument(text, "back.json");
                    QVERIFY2(back.document, pair.c_str());
                    QCOMPARE(back.document->run.parameter(p.key), std::optional<double>(value));
                    const SimulationSettings read = withModelRunSettings(back.document->run, SimulationSettings{});
                    QCOMPARE(p.value(read.constraints, read.ode), value);

                    RunSettingsDoc commandLine;
                    commandLine.parameters[p.key] = p.defaultValue();
                    const ResolvedRunSettings r = resolveRunSettings(commandLine, back.document->run, {});
                    QVERIFY2(r.error.empty(), r.error.c_str());
                    QVERIFY2(r.field(p.fileKey()), pair.c_str());
                    QCOMPARE(r.field(p.fileKey())->source, SettingSource::CommandLine);
                    QCOMPARE(p.value(r.settings.constraints, r.settings.ode), p.defaultValue());
                    const ResolvedRunSettings fromModel = resolveRunSettings({}, back.document->run, {});
                    QCOMPARE(fromModel.field(p.fileKey())->source, SettingSource::Model);
                    QCOMPARE(p.value(fromModel.settings.constraints, fromModel.settings.ode), value);
                    checked.insert(p.key);
                }
            // Outside the range (below its low end, or a fraction for a count), refused at its key.
            const double bad = p.type == ParameterType::Count ? p.range.low + 0.5 : p.range.low - 1.0;
            char number[32];
            std::snprintf(number, sizeof number, "%g", bad);
            const DocumentResult refused =
                parseModelDocument(withFields("\"run\": {\"" + p.fileKey() + "\": " + number + "}"), "bad.json");
            QVERIFY2(!refused.document, p.key.c_str());
            QCOMPARE(QString::fromStdString(refused.diagnostics.front().location),
                     QString::fromStdString("/run/" + p.fileKey()));
            QVERIFY2(refused.diagnostics.front().message.find(p.range.text) != std::string::npos,
                     refused.diagnostics.front().message.c_str());
        }
        // Each is read by some pair (none is registered for nothing), and there are more
        // than the three of the implicit integrators.
        QVERIFY(checked == registered);
        QVERIFY(registered.size() > 3);
    }

    // What "Store Run Settings" writes: the parameters the pair reads and no others, and
    // no step when the integrator chooses its own; what it writes opens again.
    void storedSettingsOpenAgain_data() {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("integrator");
        QTest::addColumn<double>("step");
        QTest::addColumn<QString>("present");
        QTest::addColumn<QString>("absent");
        QTest::newRow("tlismni/hht") << "tlismni" << "hht" << 0.0 << "hht_alpha" << "newmark_beta newmark_gamma step";
        QTest::newRow("tlismni/newmark") << "tlismni" << "newmark" << 0.0 << "newmark_beta newmark_gamma" << "hht_alpha step";
        QTest::newRow("hht-index3/hht") << "hht-index3" << "hht" << 0.0 << "hht_alpha" << "newmark_beta newmark_gamma step";
        QTest::newRow("projection/dopri5") << "projection" << "dopri5" << 0.0 << "" << "hht_alpha newmark_beta newmark_gamma step";
        QTest::newRow("baumgarte/rk4") << "baumgarte" << "rk4" << 0.001 << "step" << "hht_alpha newmark_beta newmark_gamma";
    }
    void storedSettingsOpenAgain() {
        QFETCH(QString, method);
        QFETCH(QString, integrator);
        QFETCH(double, step);
        QFETCH(QString, present);
        QFETCH(QString, absent);
        SimulationSettings s;
        s.method = method.toStdString();
        s.integrator = integrator.toStdString();
        s.ode.step = step;
        s.constraints.hhtAlpha = -0.3;
        s.constraints.newmarkBeta = 0.3;
        s.constraints.newmarkGamma = 0.6;
        DocumentResult d = parseModelDocument(withFields(""), "m.json");
        QVERIFY(d.document);
        d.document->run = runSettingsDocFrom(s, 1.0);
        const std::string text = serializeModelDocument(*d.document);
        for (const QString& key : present.split(' ', Qt::SkipEmptyParts))
            QVERIFY2(text.find("\"" + key.toStdString() + "\"") != std::string::npos, qPrintable(key));
        for (const QString& key : absent.split(' ', Qt::SkipEmptyParts))
            QVERIFY2(text.find("\"" + key.toStdString() + "\"") == std::string::npos, qPrintable(key));
        DocumentResult back = parseModelDocument(text, "back.json");
        QVERIFY2(back.document, back.diagnostics.empty() ? "" : back.diagnostics.front().toString().c_str());
        const SimulationSettings r = withModelRunSettings(back.document->run, SimulationSettings{});
        QCOMPARE(r.method, s.method);
        QCOMPARE(r.integrator, s.integrator);
        QCOMPARE(back.document->run.step.has_value(), step > 0.0);
        if (step > 0.0) QCOMPARE(r.ode.step, step);
        if (present.contains("hht_alpha")) QCOMPARE(r.constraints.hhtAlpha, -0.3);
        if (present.contains("newmark_beta")) QCOMPARE(r.constraints.newmarkBeta, 0.3);
        if (present.contains("newmark_gamma")) QCOMPARE(r.constraints.newmarkGamma, 0.6);
    }

    void badSettings() {
        QFETCH(QString, fields);
        QFETCH(QString, location);
        QFETCH(QString, message);
        DocumentResult d = parseModelDocument(withFields(fields.toStdString()), "bad.json");
        QVERIFY(!d.document);
        QVERIFY(!d.diagnostics.empty());
        const Diagnostic& first = d.diagnostics.front();
        QCOMPARE(QString::fromStdString(first.file), QString("bad.json"));
        QCOMPARE(QString::fromStdString(first.location), location);
        QVERIFY2(QString::fromStdString(first.message).contains(message), first.message.c_str());
    }

    void tracesRoundTrip() {
        DocumentResult d = parseModelDocument(pinnedWith(R"([{"marker": "tip"}, {"body": "b", "point": [0.25, -0.5, 0]}])"),
                                              "t.json");
        QVERIFY(d.document);
        const std::vector<TraceDoc>& a = d.document->traces;
        QCOMPARE(a.size(), size_t(2));
        QCOMPARE(a[0].marker, std::string("tip"));
        QCOMPARE(a[0].body, std::string());
        QCOMPARE(a[1].marker, std::string());
        QCOMPARE(a[1].body, std::string("b"));
        QCOMPARE(a[1].point, Vec3(0.25, -0.5, 0));
        const std::string text = serializeModelDocument(*d.document);
        DocumentResult back = parseModelDocument(text, "back.json");
        QVERIFY(back.document);
        const std::vector<TraceDoc>& b = back.document->traces;
        QCOMPARE(b.size(), size_t(2));
        QCOMPARE(b[0].marker, a[0].marker);
        QCOMPARE(b[1].body, a[1].body);
        QCOMPARE(b[1].point, a[1].point);
        QCOMPARE(serializeModelDocument(*back.document), text);
        QVERIFY(prepareModel(*back.document, "back.json").ok());
        // Without traces, the file has none.
        DocumentResult plain = parseModelDocument(withFields(""), "p.json");
        QVERIFY(plain.document && plain.document->traces.empty());
        QVERIFY(serializeModelDocument(*plain.document).find("\"traces\"") == std::string::npos);
    }

    // Names a trace gives are checked when the model is built, like a joint's.
    void traceOfUnknownNames() {
        DocumentResult d = parseModelDocument(pinnedWith(R"([{"marker": "tail"}, {"body": "wheel"}])"), "t.json");
        QVERIFY(d.document);
        const LoadedModel m = prepareModel(*d.document, "t.json");
        QVERIFY(!m.ok());
        QCOMPARE(m.diagnostics.size(), size_t(2));
        QCOMPARE(m.diagnostics[0].location, std::string("/traces/0/marker"));
        QCOMPARE(m.diagnostics[0].message, std::string("unknown marker 'tail'"));
        QCOMPARE(m.diagnostics[1].location, std::string("/traces/1/body"));
        QCOMPARE(m.diagnostics[1].message, std::string("unknown body 'wheel'"));
        QCOMPARE(m.diagnostics[1].toString(), std::string("t.json: /traces/1/body: unknown body 'wheel'"));
    }

    void crankRockerOpensTraced() {
        DocumentResult d = readModelDocument(LOOPLAB_EXAMPLES_DIR "/crank-rocker-coupler-curve.json");
        QVERIFY(d.document);
        QCOMPARE(d.document->traces.size(), size_t(1));
        QCOMPARE(d.document->traces[0].marker, std::string("coupler-point"));
        const std::optional<TracedPoint> p = tracedPoint(*d.document, d.document->traces[0]);
        QVERIFY(p);
        QCOMPARE(p->body, std::string("coupler"));
        QCOMPARE(p->localPoint, Vec3(0.0, 0.12, 0.0));
    }

    void andrewsOpensReadyToPlay() {
        DocumentResult d = readModelDocument(LOOPLAB_EXAMPLES_DIR "/andrews.json");
        QVERIFY(d.document);
        QCOMPARE(*d.document->run.integrator, std::string("bdf"));
        QCOMPARE(*d.document->run.tEnd, 0.03);
        QVERIFY(isSupportedPair(*d.document->run.method, *d.document->run.integrator));
    }

    void everyExampleHasRunSettings() {
        const QStringList files = QDir(LOOPLAB_EXAMPLES_DIR).entryList({"*.json"}, QDir::Files);
        QVERIFY(!files.isEmpty());
        for (const QString& f : files) {
            DocumentResult d = readModelDocument((QString(LOOPLAB_EXAMPLES_DIR "/") + f).toStdString());
            QVERIFY2(d.document, qPrintable(f));
            QVERIFY2(d.document->run.method && d.document->run.integrator && d.document->run.tEnd, qPrintable(f));
        }
    }
};

QTEST_GUILESS_MAIN(TestModelSettings)
#include "tst_modelsettings.moc"
