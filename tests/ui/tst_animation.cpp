// Animation export: scenes rendered off screen and encoded to MP4 and GIF, read back with
// libavformat/libavcodec (frame count, size, the picture itself), and the command-line
// tool's `animate` with its errors.
#include "EventWait.h"
#include "VideoReadBack.h"
#include "export/AnimationTimeline.h"
#include "export/OffscreenSceneRenderer.h"
#include "export/VideoEncoder.h"
#include "viewport/SceneActors.h"

#include "looplab/kinematics/KinematicSimulation.h"
#include "looplab/files/ModelFile.h"
#include "looplab/scene/Scene.h"

#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QDir>
#include <QtTest>
#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkNew.h>
#include <vtkMapper.h>
#include <vtkPolyData.h>
#include <vtkRenderer.h>

#include <chrono>
#include <cmath>

using namespace looplab;
using namespace looplab::ui;
using looplab::ui::test::readVideo;
using looplab::ui::test::VideoInfo;

namespace {

double meanAbsDifference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
    if (a.size() != b.size() || a.empty()) return HUGE_VAL;
    double sum = 0.0;
    for (size_t i = 0; i < a.size(); ++i) sum += std::abs(int(a[i]) - int(b[i]));
    return sum / double(a.size());
}

QString example(const char* name) { return QString(LOOPLAB_EXAMPLES_DIR) + "/" + name; }

struct Cli {
    int exitCode = -1;
    QByteArray out, err;
};
Cli runCli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(LOOPLAB_CLI_PATH), args);
    Cli r;
    if (!eventwait::waitForExit(p, "looplab-cli " + args.join(' '))) return r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

}  // namespace

class TestAnimation : public QObject {
    Q_OBJECT

private slots:
    void timeline() {
        QCOMPARE(videoFrameCount(0.0, 1.0, 30.0), 31);
        QCOMPARE(videoFrameCount(0.0, 0.99, 10.0), 10);
        QCOMPARE(videoFrameCount(1.0, 0.5, 10.0), 0);
        // Recorded every 0.01 s, shown at 30 frames/s: frame 1 (t = 1/30) is nearest 0.03.
        std::vector<double> times;
        for (int i = 0; i <= 100; ++i) times.push_back(i * 0.01);
        const std::vector<int> picks = recordedFramesForVideo(times, 30.0);
        QCOMPARE(int(picks.size()), 31);
        QCOMPARE(picks[1], 3);
        QCOMPARE(picks.back(), 100);
    }

    void formatsAndSettings() {
        QCOMPARE(videoFormatForPath("a/b.MP4"), std::optional<VideoFormat>(VideoFormat::Mp4));
        QCOMPARE(videoFormatForPath("x.gif"), std::optional<VideoFormat>(VideoFormat::Gif));
        QVERIFY(!videoFormatForPath("x.avi"));
        QVERIFY(!videoFormatForPath("dir.mp4/x"));
        QVERIFY(VideoEncoder::checkSettings(VideoFormat::Mp4, 161, 120, 30).find("even") != std::string::npos);
        QVERIFY(VideoEncoder::checkSettings(VideoFormat::Gif, 161, 120, 30).empty());
        QVERIFY(!VideoEncoder::checkSettings(VideoFormat::Gif, 160, 120, 60).empty());
        QVERIFY(!VideoEncoder::checkSettings(VideoFormat::Mp4, 8, 120, 30).empty());
    }

    // The crank-rocker rendered at 0.05 s intervals for 0.5 s (11 frames) to MP4 and GIF;
    // each file read back has 11 pictures of the chosen size, and the first decoded
    // picture is the rendered one up to the codec's loss.
    // A distance joint is a link the user must see turn: the rod coupler of
    // four-bar-rod-coupler.json is a tube from the crank's tip to the rocker's, whose
    // pixels are the rod's, not the background's.
    void distanceJointIsDrawnAsARod() {
        QVERIFY2(OffscreenSceneRenderer::displayProblem().empty(), OffscreenSceneRenderer::displayProblem().c_str());
        const LoadedModel lm = loadModel(example("four-bar-rod-coupler.json").toStdString());
        QVERIFY(lm.ok());
        const Scene scene = buildScene(*lm.model, lm.initial);
        QCOMPARE(scene.rods.size(), size_t(1));
        const SceneRod& rod = scene.rods.front();
        const auto j = lm.model->findJoint(rod.name);
        QVERIFY(j);
        const Joint& coupler = lm.model->joint(*j);
        QVERIFY(coupler.type == JointType::Distance);
        // The ends are the joint's two points, the joint's length apart in the assembled pose.
        QVERIFY(std::abs((rod.end2 - rod.end1).norm() - coupler.length) < 1e-9);

        const int w = 320, h = 240;
        OffscreenSceneRenderer renderer(w, h);
        renderer.setScene(scene);
        double b[6];
        QVERIFY(renderer.actors().bounds(b));
        renderer.fitCamera(b, 1);
        const double radius = renderer.actors().rodRadius();
        QVERIFY(radius > 0.0 && radius < 0.1 * coupler.length);
        // The tube spans the two ends, padded by at most its radius.
        const double* rb = const_cast<vtkActor*>(renderer.actors().rodActor())->GetBounds();
        for (int i = 0; i < 3; ++i) {
            const double lo = std::min(rod.end1[i], rod.end2[i]), hi = std::max(rod.end1[i], rod.end2[i]);
            QVERIFY2(rb[2 * i] <= lo + 1e-9 && rb[2 * i] >= lo - radius - 1e-9, qPrintable(QString::number(i)));
            QVERIFY2(rb[2 * i + 1] >= hi - 1e-9 && rb[2 * i + 1] <= hi + radius + 1e-9, qPrintable(QString::number(i)));
        }
        const std::vector<uint8_t> withRod = renderer.render();
        Scene bare = scene;
        bare.rods.clear();
        renderer.setScene(bare);
        const std::vector<uint8_t> withoutRod = renderer.render();
        // The rod's middle, where no body is: on the picture (top row first).
        const Vec3 mid = 0.5 * (rod.end1 + rod.end2);
        vtkRenderer* r = renderer.renderer();
        r->SetWorldPoint(mid.x(), mid.y(), mid.z(), 1.0);
        r->WorldToDisplay();
        const int x = static_cast<int>(std::lround(r->GetDisplayPoint()[0]));
        const int y = h - 1 - static_cast<int>(std::lround(r->GetDisplayPoint()[1]));
        QVERIFY(x >= 0 && x < w && y >= 0 && y < h);
        int difference = 0;
        for (int c = 0; c < 3; ++c)
            difference += std::abs(int(withRod[size_t(3 * (y * w + x) + c)]) - int(withoutRod[size_t(3 * (y * w + x) + c)]));
        qInfo("rod radius %.4f m; pixel (%d, %d) with the rod and without differs by %d (of 765)", radius, x, y,
              difference);
        QVERIFY2(difference > 150, qPrintable(QString::number(difference)));
    }

    // A copied camera keeps the view's floor: the grid lies normal to the up axis the view
    // used, under the mechanism. (Fitted with y up, a z-up model's grid stood as a wall
    // behind it in every exported mode video.)
    void copiedCameraKeepsTheViewsFloor() {
        QVERIFY2(OffscreenSceneRenderer::displayProblem().empty(), OffscreenSceneRenderer::displayProblem().c_str());
        const LoadedModel lm = loadModel(example("rssr.json").toStdString());
        QVERIFY(lm.ok());
        OffscreenSceneRenderer renderer(160, 120);
        renderer.setScene(buildScene(*lm.model, lm.initial));
        double scene[6];
        QVERIFY(renderer.actors().bounds(scene));
        vtkNew<vtkCamera> camera;
        camera->SetPosition(1.0, -3.0, 1.0);
        camera->SetFocalPoint(0.0, 0.0, 0.0);
        camera->SetViewUp(0.0, 0.0, 1.0);
        for (int up : {2, 1}) {
            renderer.copyCamera(camera, up);
            double grid[6];
            QVERIFY(renderer.gridBounds(grid));
            qInfo("up axis %d: grid x %.3f..%.3f, y %.3f..%.3f, z %.3f..%.3f", up, grid[0], grid[1], grid[2], grid[3],
                  grid[4], grid[5]);
            QVERIFY(std::abs(grid[2 * up + 1] - grid[2 * up]) < 1e-12);
            QVERIFY(grid[2 * up] <= scene[2 * up]);
            for (int k = 0; k < 3; ++k)
                if (k != up) QVERIFY(grid[2 * k] < scene[2 * k] && grid[2 * k + 1] > scene[2 * k + 1]);
        }
    }

    // Pins are sized to the mechanism: never so large that two joints' glyphs run into
    // each other (a barrel that hid a short crank), never lost in it.
    void jointGlyphsFitTheMechanism() {
        QVERIFY2(OffscreenSceneRenderer::displayProblem().empty(), OffscreenSceneRenderer::displayProblem().c_str());
        const QStringList files = QDir(LOOPLAB_EXAMPLES_DIR).entryList({"*.json"}, QDir::Files, QDir::Name);
        QVERIFY(files.size() > 20);
        for (const QString& file : files) {
            const LoadedModel lm = loadModel(example(qPrintable(file)).toStdString());
            if (!lm.ok()) continue;
            const Scene scene = buildScene(*lm.model, lm.initial);
            OffscreenSceneRenderer renderer(64, 48);
            renderer.setScene(scene);
            double b[6];
            if (!renderer.actors().bounds(b)) continue;
            const double extent = std::max({b[1] - b[0], b[3] - b[2], b[5] - b[4]});
            double shortest = HUGE_VAL;
            for (size_t i = 0; i < scene.joints.size(); ++i)
                for (size_t j = 0; j < i; ++j) {
                    const double d = (scene.joints[i].point - scene.joints[j].point).norm();
                    if (d > 1e-6 * extent) shortest = std::min(shortest, d);
                }
            const double size = renderer.actors().jointGlyphSize();
            qInfo("%-34s glyph %.4f m, shortest joint distance %.4f m, extent %.3f m", qPrintable(file), size, shortest,
                  extent);
            // At most a third of the way to the nearest other joint, unless that would make
            // it smaller than 0.8 % of the mechanism (its bodies; the whole picture here).
            QVERIFY2(size <= std::max(0.35 * shortest, 0.008 * extent) * (1 + 1e-12), qPrintable(file));
            QVERIFY2(size >= 0.0075 * extent && size <= 0.2 * extent, qPrintable(file));
        }
    }

    // A spring is drawn as a coil about the line between its ends, as wide as a pin, from
    // end to end: not a one-pixel line.
    void springIsDrawnAsACoil() {
        QVERIFY2(OffscreenSceneRenderer::displayProblem().empty(), OffscreenSceneRenderer::displayProblem().c_str());
        const LoadedModel lm = loadModel(example("spring-mass.json").toStdString());
        QVERIFY(lm.ok());
        const Scene scene = buildScene(*lm.model, lm.initial);
        QCOMPARE(scene.springs.size(), size_t(1));
        const SceneSpring& spring = scene.springs.front();
        OffscreenSceneRenderer renderer(64, 48);
        renderer.setScene(scene);
        const double radius = renderer.actors().springCoilRadius();
        QCOMPARE(radius, 0.5 * renderer.actors().jointGlyphSize());
        auto* mapper = const_cast<vtkActor*>(renderer.actors().springActor())->GetMapper();
        auto* coil = vtkPolyData::SafeDownCast(mapper->GetInput());
        QVERIFY(coil && coil->GetNumberOfPoints() > 50);
        const Vec3 axis = (spring.end2 - spring.end1).normalized();
        double widest = 0.0, along0 = HUGE_VAL, along1 = -HUGE_VAL;
        for (vtkIdType i = 0; i < coil->GetNumberOfPoints(); ++i) {
            double p[3];
            coil->GetPoint(i, p);
            const Vec3 d = Vec3(p[0], p[1], p[2]) - spring.end1;
            widest = std::max(widest, (d - d.dot(axis) * axis).norm());
            along0 = std::min(along0, d.dot(axis));
            along1 = std::max(along1, d.dot(axis));
        }
        const double length = (spring.end2 - spring.end1).norm();
        qInfo("spring %.3f m long: coil radius %.4f m, widest point %.4f m off the axis, %lld points", length, radius,
              widest, static_cast<long long>(coil->GetNumberOfPoints()));
        QVERIFY(std::abs(widest - radius) < 0.05 * radius);
        QVERIFY(std::abs(along0) < 1e-12 && std::abs(along1 - length) < 1e-12);
    }

    // The pendulum's bob is drawn (a ball) and so is what holds it: a rod from the ball to
    // the pivot 1 m away, since the joint lies away from the body's solid. Where every
    // joint lies on its body's solid (the four-bar's pins at the links' ends) nothing is added.
    void jointAwayFromItsSolidIsHeldByARod() {
        QVERIFY2(OffscreenSceneRenderer::displayProblem().empty(), OffscreenSceneRenderer::displayProblem().c_str());
        const LoadedModel lm = loadModel(example("pendulum.json").toStdString());
        QVERIFY(lm.ok());
        const Scene scene = buildScene(*lm.model, lm.initial);
        QCOMPARE(scene.bodies.front().shape.kind, VisualShape::Kind::Sphere);
        OffscreenSceneRenderer renderer(64, 48);
        renderer.setScene(scene);
        QCOMPARE(renderer.actors().attachmentCount(), 1);
        const double radius = renderer.actors().rodRadius();
        const double* rb = const_cast<vtkActor*>(renderer.actors().rodActor())->GetBounds();
        const Vec3 pivot = scene.joints.front().point, bob = scene.bodies.front().position;
        qInfo("pivot (%.3f, %.3f), bob (%.3f, %.3f); rod x %.3f .. %.3f, y %.3f .. %.3f, radius %.4f m", pivot.x(),
              pivot.y(), bob.x(), bob.y(), rb[0], rb[1], rb[2], rb[3], radius);
        for (int i = 0; i < 2; ++i) {
            QVERIFY(rb[2 * i] >= std::min(pivot[i], bob[i]) - radius - 1e-9);
            QVERIFY(rb[2 * i] <= std::min(pivot[i], bob[i]) + 1e-9);
            QVERIFY(rb[2 * i + 1] <= std::max(pivot[i], bob[i]) + radius + 1e-9);
            QVERIFY(rb[2 * i + 1] >= std::max(pivot[i], bob[i]) - 1e-9);
        }
        const LoadedModel fourBar = loadModel(example("four-bar.json").toStdString());
        QVERIFY(fourBar.ok());
        renderer.setScene(buildScene(*fourBar.model, fourBar.initial));
        QCOMPARE(renderer.actors().attachmentCount(), 0);
    }

    void encodeAndReadBack_data() {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<double>("tolerance");  // mean |difference| per channel, of 255
        QTest::newRow("mp4") << "mp4" << 3.0;
        // 256 colours chosen from this very picture: as close as H.264 at CRF 20 (a fixed
        // 6 × 7 × 6 colour cube would be 12 off on average here).
        QTest::newRow("gif") << "gif" << 3.0;
    }
    void encodeAndReadBack() {
        QFETCH(QString, suffix);
        QFETCH(double, tolerance);
        QVERIFY2(OffscreenSceneRenderer::displayProblem().empty(), OffscreenSceneRenderer::displayProblem().c_str());
        const LoadedModel lm = loadModel(example("crank-rocker-coupler-curve.json").toStdString());
        QVERIFY(lm.ok());
        std::vector<State> states;
        QVERIFY(runKinematics(*lm.model, lm.initial, 0.5, 0.05, [&](const KinematicSample& s) {
                    states.push_back(s.state);
                }).ok);
        QCOMPARE(int(states.size()), 11);
        const int w = 160, h = 120;
        OffscreenSceneRenderer renderer(w, h);
        renderer.actors().setScene(buildScene(*lm.model, states.front()));
        double b[6];
        QVERIFY(renderer.actors().bounds(b));
        renderer.fitCamera(b, 1);
        QTemporaryDir dir;
        const QString path = dir.filePath("out." + suffix);
        VideoEncoder enc;
        std::string error;
        QVERIFY2(enc.open(path.toStdString(), *videoFormatForPath(path.toStdString()), w, h, 20.0, &error), error.c_str());
        std::vector<uint8_t> first;
        double renderSeconds = 0.0, encodeSeconds = 0.0;
        for (const State& s : states) {
            const auto t0 = std::chrono::steady_clock::now();
            renderer.setScene(buildScene(*lm.model, s));
            const std::vector<uint8_t>& rgb = renderer.render();
            const auto t1 = std::chrono::steady_clock::now();
            if (first.empty()) first = rgb;
            QVERIFY2(enc.addFrame(rgb.data(), w * 3, &error), error.c_str());
            encodeSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
            renderSeconds += std::chrono::duration<double>(t1 - t0).count();
        }
        QVERIFY2(enc.finish(&error), error.c_str());
        qInfo("%s (%s): render %.1f ms, encode %.1f ms a frame at %dx%d", qPrintable(suffix),
              enc.codecName().c_str(), 1e3 * renderSeconds / states.size(), 1e3 * encodeSeconds / states.size(), w, h);
        // The picture is not empty: the red crank, blue coupler and green rocker are drawn
        // over the grey background, so the channels differ widely somewhere.
        int spread = 0;
        for (size_t i = 0; i + 2 < first.size(); i += 3)
            spread = std::max({spread, std::abs(first[i] - first[i + 2]), std::abs(first[i + 1] - first[i + 2])});
        QVERIFY(spread > 80);

        const VideoInfo info = readVideo(path);
        QVERIFY(info.ok);
        QCOMPARE(info.frames, 11);
        QCOMPARE(info.width, w);
        QCOMPARE(info.height, h);
        const double diff = meanAbsDifference(info.firstRgb, first);
        qInfo("%s read back: %d frames %dx%d, codec %s, first picture differs by %.2f of 255 on average",
              qPrintable(suffix), info.frames, info.width, info.height, info.codec.c_str(), diff);
        QVERIFY(diff <= tolerance);
    }

    // `looplab-cli animate`: 0.5 s at 20 frames/s gives 11 frames, drawn with the coupler
    // curve; the file is there only once complete.
    void cliAnimate_data() {
        QTest::addColumn<QString>("suffix");
        QTest::newRow("mp4") << "mp4";
        QTest::newRow("gif") << "gif";
    }
    void cliAnimate() {
        QFETCH(QString, suffix);
        QTemporaryDir dir;
        const QString out = dir.filePath("crank." + suffix);
        const Cli r = runCli({"animate", example("crank-rocker-coupler-curve.json"), "--t-end", "0.5", "--fps", "20",
                              "--size", "240x180", "--trace", "coupler-point", "--out", out, "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        qInfo("%s", r.out.constData());
        const VideoInfo info = readVideo(out);
        QCOMPARE(info.frames, 11);
        QCOMPARE(info.width, 240);
        QCOMPARE(info.height, 180);
        // For a look by eye: the last picture, with the coupler curve drawn so far.
        QDir().mkpath(LOOPLAB_SCREENSHOT_DIR);
        QImage(info.lastRgb.data(), info.width, info.height, info.width * 3, QImage::Format_RGB888)
            .save(QString(LOOPLAB_SCREENSHOT_DIR) + "/animate-last-frame-" + suffix + ".png");
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1);  // no temporary file left
    }

    void cliAnimateErrors_data() {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("expected");
        QTest::newRow("size not WxH") << QStringList{"--size", "large", "--out", "OUT/a.mp4"} << "--size must be WIDTHxHEIGHT";
        QTest::newRow("size too small") << QStringList{"--size", "8x8", "--out", "OUT/a.mp4"} << "between 16 and 4096";
        QTest::newRow("odd size for mp4") << QStringList{"--size", "161x120", "--out", "OUT/a.mp4"} << "even width and height";
        QTest::newRow("fps") << QStringList{"--fps", "0", "--out", "OUT/a.gif"} << "--fps: the frame rate";
        QTest::newRow("unknown extension") << QStringList{"--out", "OUT/a.avi"} << "must end in .mp4";
        QTest::newRow("no extension") << QStringList{"--out", "OUT/video"} << "must end in .mp4";
        QTest::newRow("unwritable path") << QStringList{"--out", "OUT/no/such/dir/a.mp4"} << "cannot write";
        QTest::newRow("unknown trace") << QStringList{"--trace", "nowhere", "--out", "OUT/a.mp4"} << "--trace 'nowhere'";
        QTest::newRow("bad method option") << QStringList{"--rtol", "-1", "--out", "OUT/a.mp4"} << "--rtol";
    }
    void cliAnimateErrors() {
        QFETCH(QStringList, extra);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        extra.replaceInStrings("OUT", dir.path());
        const Cli r = runCli(QStringList{"animate", example("crank-rocker-coupler-curve.json"), "--t-end", "0.2"} + extra);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(expected.toUtf8()), r.err.constData());
        QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());
    }

    // `looplab-cli animate --mode K`: the cantilever's second mode (the first bending mode's
    // other plane), 2 periods of 8 frames. The video has 16 frames; the positions written
    // with --states are the equilibrium at phases 0 and π, and at the quarter period the
    // equilibrium plus shape_factor × the shape that `looplab-cli modes --out` writes for
    // that mode (a beam's nodal coordinates add: no retraction), to 1e-9 of the swing; the
    // largest nodal displacement is --amplitude × the model's size (the beam's tip moves
    // most, and the amplitude is that of the drawn point that moves most).
    void cliAnimateMode() {
        QTemporaryDir dir;
        const QString model = example("cantilever-beam.json");
        const QString out = dir.filePath("mode.mp4"), states = dir.filePath("states.csv"),
                      modes = dir.filePath("modes.csv");
        const Cli r = runCli({"animate", model, "--mode", "2", "--amplitude", "0.1", "--cycles", "2",
                              "--frames-per-cycle", "8", "--fps", "16", "--size", "160x120", "--out", out, "--states",
                              states, "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j["frames"].toInt(), 16);
        const QJsonObject m = j["mode"].toObject();
        const double factor = m["shape_factor"].toDouble(), size = m["model_size"].toDouble();
        QVERIFY(factor > 0.0 && size > 0.0);
        const VideoInfo info = readVideo(out);
        QCOMPARE(info.frames, 16);
        QCOMPARE(info.width, 160);
        QCOMPARE(info.height, 120);

        const Cli mc = runCli({"modes", model, "--count", "2", "--out", modes});
        QVERIFY2(mc.exitCode == 0, mc.err.constData());
        auto rows = [](const QString& path) {
            QFile f(path);
            std::vector<std::vector<double>> table;
            if (!f.open(QIODevice::ReadOnly)) return table;
            f.readLine();  // header
            while (!f.atEnd()) {
                const QList<QByteArray> cells = f.readLine().trimmed().split(',');
                std::vector<double> row;
                for (const QByteArray& c : cells) row.push_back(c.toDouble());
                table.push_back(row);
            }
            return table;
        };
        const auto frames = rows(states), shapes = rows(modes);
        QCOMPARE(int(frames.size()), 16);
        QCOMPARE(int(shapes.size()), 2);
        QCOMPARE(std::abs(shapes[1][1] - m["frequency_hz"].toDouble()) <= 1e-12 * shapes[1][1], true);
        // frame, t, phase, then q; mode, frequency, damping ratio, ω², then the shape (the
        // beam is the only body: q and the velocity coordinates are the same numbers).
        const size_t n = frames[0].size() - 3;
        QVERIFY(shapes[1].size() >= 4 + n);
        double swing = 0.0, quarterError = 0.0, largestNode = 0.0;
        for (size_t i = 0; i < n; ++i) swing = std::max(swing, std::abs(factor * shapes[1][4 + i]));
        for (size_t i = 0; i < n; ++i) {
            const double eq = frames[0][3 + i], phi = shapes[1][4 + i];
            quarterError = std::max(quarterError, std::abs(frames[2][3 + i] - (eq + factor * phi)));
            quarterError = std::max(quarterError, std::abs(frames[6][3 + i] - (eq - factor * phi)));
            QCOMPARE(frames[4][3 + i], eq);   // phase π: the equilibrium itself
            QCOMPARE(frames[10][3 + i], frames[2][3 + i]);  // the second period repeats the first
        }
        for (size_t node = 0; node + 6 <= n; node += 6) {
            const Eigen::Vector3d d(frames[2][3 + node] - frames[0][3 + node], frames[2][4 + node] - frames[0][4 + node],
                                    frames[2][5 + node] - frames[0][5 + node]);
            largestNode = std::max(largestNode, d.norm());
        }
        qInfo("mode 2: %.6g Hz, shape factor %.6g, model size %.4g m; quarter period off by %.3g of a swing of %.3g; "
              "largest node displacement %.6g m against 0.1 x size %.6g m",
              m["frequency_hz"].toDouble(), factor, size, quarterError / swing, swing, largestNode, 0.1 * size);
        QVERIFY(swing > 0.0);
        QVERIFY2(quarterError <= 1e-9 * swing, qPrintable(QString::number(quarterError / swing)));
        QVERIFY2(std::abs(largestNode - 0.1 * size) <= 1e-6 * size, qPrintable(QString::number(largestNode / size)));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 3);  // no temporary file left
    }

    void cliAnimateModeErrors_data() {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("expected");
        QTest::newRow("mode 0") << QStringList{"--mode", "0"} << "--mode must be";
        QTest::newRow("mode beyond the dof") << QStringList{"--mode", "5000"} << "--mode 5000: the model has";
        QTest::newRow("cycles") << QStringList{"--mode", "1", "--cycles", "0"} << "--cycles must be";
        QTest::newRow("frames per cycle") << QStringList{"--mode", "1", "--frames-per-cycle", "3"} << "--frames-per-cycle";
        QTest::newRow("amplitude") << QStringList{"--mode", "1", "--amplitude", "-1"} << "--amplitude";
        QTest::newRow("t-end with mode") << QStringList{"--mode", "1", "--t-end", "1"} << "--t-end does not apply";
        QTest::newRow("no t-end, no mode") << QStringList{} << "--t-end is required";
        QTest::newRow("mode options without mode") << QStringList{"--t-end", "1", "--cycles", "2"} << "need --mode";
    }
    void cliAnimateModeErrors() {
        QFETCH(QStringList, extra);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const Cli r = runCli(QStringList{"animate", example("cantilever-beam.json"), "--out", dir.filePath("a.mp4")} + extra);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(expected.toUtf8()), r.err.constData());
        QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());
    }

    // A body without joints under gravity has no equilibrium: status 3 (as `modes`), the
    // option named.
    void cliAnimateModeWithoutEquilibrium() {
        QTemporaryDir dir;
        QFile f(example("pendulum.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonObject doc = QJsonDocument::fromJson(f.readAll()).object();
        doc.remove("joints");
        doc.remove("drivers");
        const QString model = dir.filePath("falling.json");
        QFile w(model);
        QVERIFY(w.open(QIODevice::WriteOnly));
        w.write(QJsonDocument(doc).toJson());
        w.close();
        const Cli r = runCli({"animate", model, "--mode", "1", "--out", dir.filePath("a.mp4")});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains("--mode 1: no static equilibrium"), r.err.constData());
        QVERIFY(!QFile::exists(dir.filePath("a.mp4")));
    }

    // Without an X display the tool says so (and how to get one) instead of crashing.
    void cliAnimateWithoutDisplay() {
        QTemporaryDir dir;
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove("DISPLAY");
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(LOOPLAB_CLI_PATH), {"animate", example("crank-rocker-coupler-curve.json"), "--t-end",
                                                    "0.2", "--out", dir.filePath("a.mp4")});
        QVERIFY(eventwait::waitForExit(p, "looplab-cli animate without a display"));
        QCOMPARE(p.exitCode(), 3);
        QVERIFY(p.readAllStandardError().contains("xvfb-run"));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestAnimation)
#include "tst_animation.moc"
