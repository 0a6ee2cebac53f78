// Animation export: scenes rendered off screen and encoded to MP4 and GIF, read back with
// libavformat/libavcodec (frame count, size, the picture itself), and the command-line
// tool's `animate` with its errors.
#include "VideoReadBack.h"
#include "export/AnimationTimeline.h"
#include "export/OffscreenSceneRenderer.h"
#include "export/VideoEncoder.h"
#include "viewport/SceneActors.h"

#include "looplab/kinematics/KinematicSimulation.h"
#include "looplab/model/ModelFile.h"
#include "looplab/scene/Scene.h"

#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

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
    if (!p.waitForFinished(120000)) return r;
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

    // Without an X display the tool says so (and how to get one) instead of crashing.
    void cliAnimateWithoutDisplay() {
        QTemporaryDir dir;
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove("DISPLAY");
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(LOOPLAB_CLI_PATH), {"animate", example("crank-rocker-coupler-curve.json"), "--t-end",
                                                    "0.2", "--out", dir.filePath("a.mp4")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 3);
        QVERIFY(p.readAllStandardError().contains("xvfb-run"));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestAnimation)
#include "tst_animation.moc"
