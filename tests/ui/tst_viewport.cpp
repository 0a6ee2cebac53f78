// Renders a small scene in the real viewport under X and checks the picture by colour:
// VTK-in-Qt failures show up as black, blank or stale pictures, not as exceptions.

#include "EventWait.h"
#include "viewport/ShapeGeometry.h"
#include "viewport/VtkViewport.h"

#include <QFileInfo>
#include <QImage>
#include <QSignalSpy>
#include <QSurfaceFormat>
#include <QTemporaryDir>
#include <QtTest>

#include <vtkPolyData.h>

#include <cmath>
#include <memory>
#include <vector>

using looplab::Scene;
using looplab::SceneBody;
using looplab::SceneJoint;
using looplab::SceneSpring;
using looplab::VisualShape;
using looplab::ui::VtkViewport;

namespace {

enum class Hue { Red, Green, Blue, Highlight };

// Classifies by channel ratios rather than exact values, since lighting scales the
// colours; the grey background and grid never satisfy these.
bool hasHue(QRgb px, Hue hue)
{
    const int r = qRed(px), g = qGreen(px), b = qBlue(px);
    switch (hue) {
    case Hue::Red: return r > 90 && r > 2 * g && r > 2 * b;
    case Hue::Green: return g > 90 && g > 2 * r && g > 2 * b;
    case Hue::Blue: return b > 90 && b > 2 * r && 5 * b > 8 * g;
    case Hue::Highlight: return r > 180 && g > 150 && b < 90;
    }
    return false;
}

struct Region {
    int count = 0;
    QRect box;
    QPointF centroid;
    QPoint nearestToCentroid;
    bool touchesBorder = false;
};

// The axes triad in the lower-left corner has red, green and blue arrows of its own;
// pixels there are not part of the scene.
bool inTriadCorner(const QImage& image, int x, int y)
{
    return x < 0.2 * image.width() && y > 0.75 * image.height();
}

Region findHue(const QImage& image, Hue hue)
{
    Region region;
    double sx = 0.0, sy = 0.0;
    std::vector<QPoint> points;
    for (int y = 0; y < image.height(); ++y) {
        const QRgb* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x) {
            if (!hasHue(line[x], hue) || inTriadCorner(image, x, y))
                continue;
            ++region.count;
            sx += x;
            sy += y;
            points.emplace_back(x, y);
            region.box = region.box.united(QRect(x, y, 1, 1));
        }
    }
    if (region.count == 0)
        return region;
    region.centroid = QPointF(sx / region.count, sy / region.count);
    double best = 1e300;
    for (const QPoint& p : points) {
        const double d = std::hypot(p.x() - region.centroid.x(), p.y() - region.centroid.y());
        if (d < best) {
            best = d;
            region.nearestToCentroid = p;
        }
    }
    region.touchesBorder = region.box.left() == 0 || region.box.top() == 0 ||
                           region.box.right() == image.width() - 1 ||
                           region.box.bottom() == image.height() - 1;
    return region;
}

VisualShape box(const Eigen::Vector3d& size, std::array<double, 3> color)
{
    VisualShape s;
    s.kind = VisualShape::Kind::Box;
    s.size = size;
    s.color = color;
    return s;
}

VisualShape cylinder(double radius, double length, std::array<double, 3> color)
{
    VisualShape s;
    s.kind = VisualShape::Kind::Cylinder;
    s.radius = radius;
    s.length = length;
    s.color = color;
    return s;
}

Eigen::Isometry3d at(double x, double y, double z)
{
    Eigen::Isometry3d pose = Eigen::Isometry3d::Identity();
    pose.translation() = Eigen::Vector3d(x, y, z);
    return pose;
}

// Body 0 red box, body 1 green box, body 2 blue cylinder, placed so that no standard
// view hides one body behind another.
std::vector<Eigen::Isometry3d> homePoses()
{
    return {at(-0.6, -0.3, 0.0), at(0.6, 0.3, 0.0), at(0.0, 0.0, 0.5)};
}

SceneBody placed(const char* name, const VisualShape& shape, const Eigen::Isometry3d& pose)
{
    SceneBody b;
    b.name = name;
    b.shape = shape;
    b.position = pose.translation();
    b.orientation = Eigen::Quaterniond(pose.linear());
    return b;
}

// A joint glyph fixed on body `body` (-1: the world) at `localPoint`, along `localAxis`.
struct Attached {
    const char* name;
    int body;
    Eigen::Vector3d localPoint, localAxis;
    SceneJoint::Kind kind;
};

// The three bodies at `poses`; with `extras`, also four joints and a spring placed on
// them as a core scene would place them.
Scene sceneAt(const std::vector<Eigen::Isometry3d>& poses, bool extras = false)
{
    Scene scene;
    scene.bodies = {placed("red box", box({0.4, 0.3, 0.2}, {{0.85, 0.1, 0.08}}), poses[0]),
                    placed("green box", box({0.3, 0.3, 0.3}, {{0.12, 0.7, 0.15}}), poses[1]),
                    placed("blue cylinder", cylinder(0.12, 0.5, {{0.12, 0.25, 0.9}}), poses[2])};
    if (!extras)
        return scene;
    auto pose = [&](int body) { return body < 0 ? Eigen::Isometry3d::Identity() : poses[static_cast<size_t>(body)]; };
    const Attached joints[] = {
        {"pin", 0, {0.2, 0.0, 0.0}, {0.0, 1.0, 0.0}, SceneJoint::Kind::Revolute},
        {"slider", 1, {0.0, 0.0, 0.15}, {1.0, 0.0, 0.0}, SceneJoint::Kind::Prismatic},
        {"ball", 2, {0.0, 0.0, 0.25}, {0.0, 0.0, 1.0}, SceneJoint::Kind::Spherical},
        {"weld", -1, {0.0, 0.0, -0.3}, {0.0, 0.0, 1.0}, SceneJoint::Kind::Other},
    };
    for (const Attached& a : joints) {
        SceneJoint j;
        j.name = a.name;
        j.kind = a.kind;
        j.point = pose(a.body) * a.localPoint;
        j.orientation = Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitZ(), pose(a.body).linear() * a.localAxis);
        scene.joints.push_back(j);
    }
    scene.springs = {SceneSpring{"spring", pose(0) * Eigen::Vector3d(0.0, 0.0, 0.1),
                                 pose(2) * Eigen::Vector3d(0.0, 0.0, -0.25)}};
    return scene;
}

}  // namespace

class TestViewport : public QObject {
    Q_OBJECT

public:
    // Called by QTEST_MAIN before the QApplication exists, which is when the default
    // format has to be set.
    static void initMain() { QSurfaceFormat::setDefaultFormat(VtkViewport::defaultFormat()); }

private slots:
    void initTestCase();
    void rendersBodiesInTheirColours();
    void posesMoveBodies();
    void fitToViewFramesEverything();
    void standardViewsShowTheScene();
    void highlightChangesPicture();
    void clickPicksBodyOrNothing();
    void mouseDragRotatesAndWheelZooms();
    void jointsSpringsAndTrails();
    void savesScreenshot();
    // A mesh shape is its STL file, scaled, turned and placed; a file that cannot be read
    // draws nothing.
    void meshShapeIsItsFile();
    void cleanupTestCase();

private:
    QImage grab();
    void verifyAllBodiesVisible(const QImage& image, int minPixels = 200);

    std::unique_ptr<VtkViewport> view_;
};

QImage TestViewport::grab()
{
    // grabFramebuffer() runs paintGL(), which renders pending changes first.
    // A null image (no context) makes every colour check below fail, which is the
    // report wanted.
    return view_->grabFramebuffer().convertToFormat(QImage::Format_RGB32);
}

void TestViewport::verifyAllBodiesVisible(const QImage& image, int minPixels)
{
    for (Hue hue : {Hue::Red, Hue::Green, Hue::Blue}) {
        const Region r = findHue(image, hue);
        QVERIFY2(r.count > minPixels, qPrintable(QStringLiteral("hue %1: only %2 pixels")
                                               .arg(int(hue)).arg(r.count)));
        QVERIFY2(!r.touchesBorder, qPrintable(QStringLiteral("hue %1 is cut by the border").arg(int(hue))));
    }
}

void TestViewport::initTestCase()
{
    view_ = std::make_unique<VtkViewport>();
    view_->resize(800, 600);
    // New solids are reported; the same solids placed elsewhere are not.
    QVERIFY(view_->setScene(sceneAt(homePoses())));
    QVERIFY(!view_->setScene(sceneAt(homePoses())));

    QSignalSpy rendered(view_.get(), &VtkViewport::frameRendered);
    view_->show();
    QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
    QVERIFY(looplab::eventwait::waitForSignals(rendered, "the first frame rendered"));
}

void TestViewport::rendersBodiesInTheirColours()
{
    const QImage image = grab();
    QVERIFY(image.width() >= 800 && image.height() >= 600);

    // Not black and not blank: most pixels are lit, and there is more than a flat fill.
    int dark = 0;
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2) {
        for (int x = 0; x < image.width(); x += 2) {
            const QRgb px = image.pixel(x, y);
            if (qRed(px) < 20 && qGreen(px) < 20 && qBlue(px) < 20)
                ++dark;
            colours.insert(px);
        }
    }
    const int sampled = (image.width() / 2) * (image.height() / 2);
    QVERIFY2(dark < sampled / 20, qPrintable(QStringLiteral("%1 of %2 pixels black").arg(dark).arg(sampled)));
    QVERIFY2(colours.size() > 50, qPrintable(QStringLiteral("only %1 colours").arg(colours.size())));

    verifyAllBodiesVisible(image);
}

void TestViewport::posesMoveBodies()
{
    const QImage before = grab();
    const Region redBefore = findHue(before, Hue::Red);

    std::vector<Eigen::Isometry3d> poses = homePoses();
    poses[0].translation().z() += 0.35;
    poses[0].rotate(Eigen::AngleAxisd(0.6, Eigen::Vector3d::UnitZ()));
    QVERIFY(!view_->setScene(sceneAt(poses)));
    const QImage after = grab();
    const Region redAfter = findHue(after, Hue::Red);

    QVERIFY(before != after);
    QVERIFY(redAfter.count > 200);
    const QPointF moved = redAfter.centroid - redBefore.centroid;
    QVERIFY2(std::hypot(moved.x(), moved.y()) > 10.0,
             qPrintable(QStringLiteral("red box moved only %1 px").arg(std::hypot(moved.x(), moved.y()))));
    // The other bodies did not move.
    QVERIFY(std::abs(findHue(after, Hue::Green).centroid.x() - findHue(before, Hue::Green).centroid.x()) < 1.0);

    view_->setScene(sceneAt(homePoses()));
}

void TestViewport::fitToViewFramesEverything()
{
    std::vector<Eigen::Isometry3d> poses = homePoses();
    poses[0] = at(-4.0, -2.0, 1.0);
    poses[1] = at(3.5, 2.0, -1.0);
    view_->setScene(sceneAt(poses));
    // Poses alone do not move the camera: the far bodies are out of the picture.
    const Region redFar = findHue(grab(), Hue::Red);
    QVERIFY(redFar.count == 0 || redFar.touchesBorder);

    view_->fitToView();
    // The scene is now about ten times wider than the bodies, so they are small.
    verifyAllBodiesVisible(grab(), 40);

    view_->setScene(sceneAt(homePoses()));
    view_->fitToView();
    verifyAllBodiesVisible(grab());
}

void TestViewport::standardViewsShowTheScene()
{
    QImage previous = grab();
    for (auto v : {VtkViewport::StandardView::Front, VtkViewport::StandardView::Top,
                   VtkViewport::StandardView::Side, VtkViewport::StandardView::Isometric}) {
        view_->setStandardView(v);
        const QImage image = grab();
        QVERIFY(image != previous);
        verifyAllBodiesVisible(image);
        previous = image;
    }
}

void TestViewport::highlightChangesPicture()
{
    const QImage plain = grab();
    QCOMPARE(findHue(plain, Hue::Highlight).count, 0);
    view_->setHighlightedBody(1);
    const QImage highlighted = grab();
    QVERIFY(highlighted != plain);
    QVERIFY(findHue(highlighted, Hue::Highlight).count > 50);  // the outline
    view_->setHighlightedBody(-1);
    QCOMPARE(grab(), plain);
}

void TestViewport::clickPicksBodyOrNothing()
{
    const QImage image = grab();
    const qreal dpr = view_->devicePixelRatioF();
    QSignalSpy bodies(view_.get(), &VtkViewport::bodyPicked);
    QSignalSpy joints(view_.get(), &VtkViewport::jointPicked);
    QSignalSpy nothing(view_.get(), &VtkViewport::emptySpacePicked);

    const struct { Hue hue; int index; } cases[] = {{Hue::Red, 0}, {Hue::Green, 1}, {Hue::Blue, 2}};
    for (const auto& c : cases) {
        const QPoint px = findHue(image, c.hue).nearestToCentroid;
        QTest::mouseClick(view_->renderSurface(), Qt::LeftButton, Qt::NoModifier, (QPointF(px) / dpr).toPoint());
        QCOMPARE(bodies.count(), 1);
        QCOMPARE(bodies.takeFirst().at(0).toInt(), c.index);
    }
    // The top-right corner is background.
    QTest::mouseClick(view_->renderSurface(), Qt::LeftButton, Qt::NoModifier, QPoint(view_->width() - 5, 5));
    QCOMPARE(nothing.count(), 1);
    QCOMPARE(bodies.count(), 0);
    QCOMPARE(joints.count(), 0);
    // Clicking did not turn the camera.
    QCOMPARE(grab(), image);
}

void TestViewport::mouseDragRotatesAndWheelZooms()
{
    const QImage before = grab();
    QSignalSpy bodies(view_.get(), &VtkViewport::bodyPicked);
    QSignalSpy nothing(view_.get(), &VtkViewport::emptySpacePicked);
    const QPoint start(view_->width() / 2, view_->height() / 2);
    QTest::mousePress(view_->renderSurface(), Qt::LeftButton, Qt::NoModifier, start);
    for (int i = 1; i <= 10; ++i)
        QTest::mouseMove(view_->renderSurface(), start + QPoint(12 * i, 4 * i));
    QTest::mouseRelease(view_->renderSurface(), Qt::LeftButton, Qt::NoModifier, start + QPoint(120, 40));
    const QImage rotated = grab();
    QVERIFY(rotated != before);
    // A drag is not a click.
    QCOMPARE(bodies.count() + nothing.count(), 0);

    const int redBefore = findHue(rotated, Hue::Red).count;
    for (int i = 0; i < 3; ++i) {
        QWheelEvent wheel(QPointF(start), view_->mapToGlobal(QPointF(start)), QPoint(), QPoint(0, 120),
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(view_->renderSurface(), &wheel);
    }
    const int redAfter = findHue(grab(), Hue::Red).count;
    QVERIFY2(redAfter > redBefore, qPrintable(QStringLiteral("red %1 -> %2").arg(redBefore).arg(redAfter)));

    view_->setStandardView(VtkViewport::StandardView::Isometric);
    verifyAllBodiesVisible(grab());
}

void TestViewport::jointsSpringsAndTrails()
{
    const QImage before = grab();
    // Joints and springs added to the same solids keep them (and the camera).
    QVERIFY(!view_->setScene(sceneAt(homePoses(), true)));
    view_->setTrail(2, Eigen::Vector3d(0.0, 0.0, 0.25), true);
    std::vector<Eigen::Isometry3d> poses = homePoses();
    for (int i = 1; i <= 20; ++i) {
        poses[2] = at(0.25 * std::sin(0.15 * i), 0.25 * (1.0 - std::cos(0.15 * i)), 0.5);
        QVERIFY(!view_->setScene(sceneAt(poses, true)));
    }
    const QImage withExtras = grab();
    QVERIFY(withExtras != before);

    // A highlighted joint is drawn in the highlight colour and can be clicked.
    view_->setHighlightedJoints({2});
    const QImage highlighted = grab();
    const Region ball = findHue(highlighted, Hue::Highlight);
    QVERIFY(ball.count > 20);
    QSignalSpy joints(view_.get(), &VtkViewport::jointPicked);
    QTest::mouseClick(view_->renderSurface(), Qt::LeftButton, Qt::NoModifier,
                      (QPointF(ball.nearestToCentroid) / view_->devicePixelRatioF()).toPoint());
    QCOMPARE(joints.count(), 1);
    QCOMPARE(joints.takeFirst().at(0).toInt(), 2);

    // The glyph goes where the scene puts it: the ball rides on the cylinder, which
    // rises here, and nothing else changes.
    std::vector<Eigen::Isometry3d> raised = poses;
    raised[2].translation().z() += 0.3;
    view_->setScene(sceneAt(raised, true));
    const Region ballRaised = findHue(grab(), Hue::Highlight);
    QVERIFY(ballRaised.count > 20);
    QVERIFY2(ballRaised.centroid.y() < ball.centroid.y() - 10.0,
             qPrintable(QStringLiteral("ball at y = %1 px, before %2 px").arg(ballRaised.centroid.y()).arg(ball.centroid.y())));

    view_->setHighlightedJoints({});
    view_->setTrail(2, Eigen::Vector3d(0.0, 0.0, 0.25), false);
    view_->setScene(sceneAt(poses, true));
    verifyAllBodiesVisible(grab());
}

void TestViewport::savesScreenshot()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("viewport.png"));
    QVERIFY(view_->saveScreenshot(path));
    QVERIFY(QFileInfo(path).size() > 0);

    QImage saved(path);
    QVERIFY(!saved.isNull());
    QCOMPARE(saved.size(), view_->grabFramebuffer().size());
    verifyAllBodiesVisible(saved.convertToFormat(QImage::Format_RGB32));

    // For looking at the result by eye.
    const QByteArray keep = qgetenv("LOOPLAB_VIEWPORT_SCREENSHOT");
    if (!keep.isEmpty())
        QVERIFY(view_->saveScreenshot(QString::fromLocal8Bit(keep)));
}

void TestViewport::cleanupTestCase()
{
    view_.reset();
}

QTEST_MAIN(TestViewport)
void TestViewport::meshShapeIsItsFile()
{
    looplab::VisualShape shape;
    shape.kind = looplab::VisualShape::Kind::Mesh;
    // A box from (-50, -50, 0) to (50, 50, 100) mm.
    shape.file = std::string(LOOPLAB_TEST_DATA_DIR) + "/exchange/meshes/base.stl";
    shape.scale = Eigen::Vector3d::Constant(0.001);
    shape.orientation = Eigen::Quaterniond(Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d::UnitX()));
    shape.offset = Eigen::Vector3d(1.0, 2.0, 3.0);
    const vtkSmartPointer<vtkPolyData> geometry = looplab::ui::makeShapeGeometry(shape);
    QVERIFY(geometry);
    QCOMPARE(geometry->GetNumberOfCells(), vtkIdType(12));
    double b[6];
    geometry->GetBounds(b);
    // Turned 90° about x, the file's z (0 … 0.1 m) becomes −y and its y (±0.05 m) z.
    const double expected[6] = {0.95, 1.05, 1.9, 2.0, 2.95, 3.05};
    for (int k = 0; k < 6; ++k)
        QVERIFY2(std::abs(b[k] - expected[k]) < 1e-6, qPrintable(QString("bound %1: %2").arg(k).arg(b[k])));
    shape.file = std::string(LOOPLAB_TEST_DATA_DIR) + "/exchange/meshes/none.stl";
    QVERIFY(!looplab::ui::makeShapeGeometry(shape));
}

#include "tst_viewport.moc"
