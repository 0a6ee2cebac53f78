#include "export/AnimationExportJob.h"

#include "export/AnimationTimeline.h"
#include "export/OffscreenSceneRenderer.h"
#include "overlays/ArrowOverlay.h"
#include "overlays/FrameArrows.h"
#include "viewport/SceneActors.h"
#include "recording/FrameSource.h"

#include "looplab/model/Model.h"
#include "looplab/scene/FlexibleScene.h"

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <QDir>
#include <QFileInfo>
#include <QPainter>
#include <QTemporaryFile>

#include <chrono>
#include <cmath>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace looplab::ui {

namespace {
double seconds(std::chrono::steady_clock::duration d) { return std::chrono::duration<double>(d).count(); }
}  // namespace

AnimationExportJob::AnimationExportJob(const FrameSource& source, AnimationExportSettings settings, QObject* parent)
    : QObject(parent), source_(source), settings_(std::move(settings)) {
    caption_ = [](double t) { return tr("t = %1 s").arg(t, 0, 'f', 3); };
    timer_.setInterval(0);
    connect(&timer_, &QTimer::timeout, this, [this] {
        QString error;
        if (step(&error)) return;
        timer_.stop();
        if (!error.isEmpty()) {
            fail(error);
            return;
        }
        if (!complete(&error)) {
            fail(error);
            return;
        }
        running_ = false;
        emit finished(true, QString());
    });
}

AnimationExportJob::~AnimationExportJob() {
    timer_.stop();
    discardTemporary();
}

void AnimationExportJob::setCamera(vtkCamera* c, int up) {
    cameraUp_ = up;
    double p[3], f[3], u[3];
    c->GetPosition(p);
    c->GetFocalPoint(f);
    c->GetViewUp(u);
    camera_ = {p[0], p[1], p[2], f[0], f[1], f[2], u[0], u[1], u[2], c->GetViewAngle(), c->GetParallelScale(),
               double(c->GetParallelProjection())};
}

void AnimationExportJob::setArrows(const ArrowRequest& request, const ArrowScale& scale) {
    arrowRequest_ = request;
    arrowScale_ = scale;
}

void AnimationExportJob::setCaption(std::function<QString(double)> caption) { caption_ = std::move(caption); }

void AnimationExportJob::setTraces(const std::vector<std::vector<Eigen::Vector3d>>& traces) { traces_ = traces; }

void AnimationExportJob::setPlotPicture(std::function<QImage(double)> picture) { plotPicture_ = std::move(picture); }

QString AnimationExportJob::codecName() const { return QString::fromStdString(encoder_.codecName()); }
double AnimationExportJob::renderSecondsPerFrame() const { return done_ ? renderSeconds_ / done_ : 0.0; }
double AnimationExportJob::encodeSecondsPerFrame() const { return done_ ? encodeSeconds_ / done_ : 0.0; }

bool AnimationExportJob::open(QString* error) {
    const std::optional<VideoFormat> format = videoFormatForPath(settings_.path.toStdString());
    if (!format) {
        *error = tr("The file name must end in .mp4 or .gif.");
        return false;
    }
    if (source_.isEmpty() || !source_.frameModel()) {
        *error = tr("There is no recording to export: run the model first.");
        return false;
    }
    if (const std::string why = OffscreenSceneRenderer::displayProblem(); !why.empty()) {
        *error = QString::fromStdString(why);
        return false;
    }
    std::vector<double> times;
    for (int i = 0; i < source_.frameCount(); ++i) times.push_back(source_.frameTime(i));
    picks_ = recordedFramesForVideo(times, settings_.fps);

    plotWidth_ = 0;
    if (settings_.withPlots && plotPicture_) {
        const QImage probe = plotPicture_(source_.startTime());
        if (!probe.isNull() && probe.height() > 0)
            plotWidth_ = 2 * int(std::lround(0.5 * settings_.height * probe.width() / double(probe.height())));
    }
    const int width = settings_.width + plotWidth_;
    if (const std::string why = VideoEncoder::checkSettings(*format, width, settings_.height, settings_.fps);
        !why.empty()) {
        *error = QString::fromStdString(why);
        if (plotWidth_) *error += tr(" (with the plots beside the view)");
        return false;
    }

    const QFileInfo target(settings_.path);
    if (!target.absoluteDir().exists()) {
        *error = tr("Cannot write %1: the folder %2 does not exist.").arg(settings_.path, target.absolutePath());
        return false;
    }
    QTemporaryFile temporary(target.absoluteDir().filePath("." + target.fileName() + ".XXXXXX.part"));
    temporary.setAutoRemove(false);
    if (!temporary.open()) {
        *error = tr("Cannot write %1: %2").arg(settings_.path, temporary.errorString());
        return false;
    }
    temporary_ = temporary.fileName();
    temporary.close();

    renderer_ = std::make_unique<OffscreenSceneRenderer>(settings_.width, settings_.height);
    renderer_->actors().setFlexibleField(settings_.flexibleField);
    // Every frame shown once before the first is drawn: the colour map's range only widens
    // while the same members are shown (FlexibleActors), so it spans the whole video from
    // its first frame, the legend holds still, and a mode's swing loops without a seam.
    if (settings_.flexibleField != FlexibleField::None)
        for (int i : picks_) renderer_->actors().setScene(drawnScene(i));
    const Model& model = *source_.frameModel();
    if (camera_.size() == 12) {
        vtkCamera* c = renderer_->renderer()->GetActiveCamera();
        c->SetPosition(camera_.data());
        c->SetFocalPoint(camera_.data() + 3);
        c->SetViewUp(camera_.data() + 6);
        c->SetViewAngle(camera_[9]);
        c->SetParallelScale(camera_[10]);
        c->SetParallelProjection(camera_[11] != 0.0);
        renderer_->actors().setScene(drawnScene(0));
        renderer_->copyCamera(c, cameraUp_);
    } else {
        double bounds[6] = {HUGE_VAL, -HUGE_VAL, HUGE_VAL, -HUGE_VAL, HUGE_VAL, -HUGE_VAL};
        for (int i : picks_) {
            renderer_->actors().setScene(drawnScene(i));
            double b[6];
            if (!renderer_->actors().bounds(b)) continue;
            for (int k = 0; k < 3; ++k) {
                bounds[2 * k] = std::min(bounds[2 * k], b[2 * k]);
                bounds[2 * k + 1] = std::max(bounds[2 * k + 1], b[2 * k + 1]);
            }
        }
        if (!(bounds[0] <= bounds[1])) {
            const double unit[6] = {-0.5, 0.5, -0.5, 0.5, -0.5, 0.5};
            std::copy(unit, unit + 6, bounds);
        }
        Eigen::Index up = 1;
        if (model.gravity.norm() > 0.0) model.gravity.cwiseAbs().maxCoeff(&up);
        renderer_->fitCamera(bounds, int(up));
    }
    renderer_->setTraces(traces_);
    renderer_->setGridVisible(settings_.withGrid);
    if (wantsAnyArrow(arrowRequest_)) {
        arrows_ = std::make_unique<ArrowOverlay>(renderer_->renderer());
        arrows_->setHeadLength(0.04 * model.lengthScale);
    }

    std::string why;
    if (!encoder_.open(temporary_.toStdString(), *format, width, settings_.height, settings_.fps, &why)) {
        *error = QString::fromStdString(why).replace(temporary_, settings_.path);
        discardTemporary();
        return false;
    }
    composed_ = QImage(width, settings_.height, QImage::Format_RGB888);
    done_ = 0;
    renderSeconds_ = encodeSeconds_ = 0.0;
    return true;
}

Scene AnimationExportJob::drawnScene(int i) const {
    return withExaggeratedDeformation(source_.frameScene(i), settings_.deformationScale);
}

bool AnimationExportJob::start(QString* error) {
    if (!open(error)) return false;
    running_ = true;
    emit progress(0, frameCount());
    timer_.start();
    return true;
}

bool AnimationExportJob::runToEnd(QString* error) {
    if (!open(error)) return false;
    running_ = true;
    while (step(error)) {
    }
    running_ = false;
    if (!error->isEmpty()) {
        discardTemporary();
        return false;
    }
    if (!complete(error)) {
        discardTemporary();
        return false;
    }
    return true;
}

bool AnimationExportJob::step(QString* error) {
    if (done_ >= frameCount()) return false;
    const int frame = picks_[size_t(done_)];
    const auto t0 = std::chrono::steady_clock::now();
    renderer_->setTraceCounts(std::vector<int>(traces_.size(), frame + 1));
    renderer_->setScene(drawnScene(frame));
    if (arrows_) {
        std::vector<MotionArrow> arrows;
        // A frame whose arrows cannot be made is drawn without them, as in the view.
        frameArrows(source_, frame, arrowRequest_, arrowScale_, &arrows);
        arrows_->setArrows(arrows, arrowRequest_, arrowScale_);
    }
    renderer_->setCaption(caption_ ? caption_(source_.frameTime(frame)).toStdString() : std::string());
    const std::vector<std::uint8_t>& rgb = renderer_->render();
    const std::uint8_t* data = rgb.data();
    int stride = settings_.width * 3;
    if (plotWidth_ > 0) {
        QPainter painter(&composed_);
        painter.drawImage(0, 0, QImage(rgb.data(), settings_.width, settings_.height, stride, QImage::Format_RGB888));
        painter.fillRect(settings_.width, 0, plotWidth_, settings_.height, Qt::white);
        const QImage plots = plotPicture_(source_.frameTime(frame));
        painter.setRenderHint(QPainter::SmoothPixmapTransform);
        painter.drawImage(QRect(settings_.width, 0, plotWidth_, settings_.height), plots);
        painter.end();
        data = composed_.constBits();
        stride = int(composed_.bytesPerLine());
    }
    const auto t1 = std::chrono::steady_clock::now();
    std::string why;
    const bool ok = encoder_.addFrame(data, stride, &why);
    renderSeconds_ += seconds(t1 - t0);
    encodeSeconds_ += seconds(std::chrono::steady_clock::now() - t1);
    if (!ok) {
        *error = QString::fromStdString(why).replace(temporary_, settings_.path);
        return false;
    }
    ++done_;
    emit progress(done_, frameCount());
    return done_ < frameCount();
}

bool AnimationExportJob::complete(QString* error) {
    std::string why;
    if (!encoder_.finish(&why)) {
        *error = QString::fromStdString(why).replace(temporary_, settings_.path);
        return false;
    }
    // rename() replaces an existing file in one step: a reader sees the old video or the
    // new one, never a part.
    if (std::rename(QFile::encodeName(temporary_).constData(), QFile::encodeName(settings_.path).constData()) != 0) {
        *error = tr("Cannot write %1: %2").arg(settings_.path, QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    temporary_.clear();
    return true;
}

void AnimationExportJob::fail(const QString& message) {
    timer_.stop();
    running_ = false;
    discardTemporary();
    emit finished(false, message);
}

void AnimationExportJob::cancel() {
    if (!running_) return;
    fail(QString());
}

void AnimationExportJob::discardTemporary() {
    arrows_.reset();
    renderer_.reset();
    if (!temporary_.isEmpty()) QFile::remove(temporary_);
    temporary_.clear();
}

}  // namespace looplab::ui
