#include "workbench/PlaybackBar.h"

#include "recording/FrameSource.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QToolButton>

namespace looplab::ui {

PlaybackBar::PlaybackBar(QWidget* parent) : QWidget(parent)
{
    auto* h = new QHBoxLayout(this);
    h->setContentsMargins(4, 2, 4, 2);
    playButton_ = new QToolButton;
    playButton_->setObjectName("play");
    playButton_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    playButton_->setToolTip(tr("Play / pause"));
    backButton_ = new QToolButton;
    backButton_->setIcon(style()->standardIcon(QStyle::SP_MediaSeekBackward));
    backButton_->setToolTip(tr("Previous frame"));
    forwardButton_ = new QToolButton;
    forwardButton_->setIcon(style()->standardIcon(QStyle::SP_MediaSeekForward));
    forwardButton_->setToolTip(tr("Next frame"));
    slider_ = new QSlider(Qt::Horizontal);
    slider_->setObjectName("timeSlider");
    slider_->setRange(0, 0);
    speedBox_ = new QComboBox;
    for (double s : {0.1, 0.25, 0.5, 1.0, 2.0, 4.0})
        speedBox_->addItem(QString("%1×").arg(s), s);
    speedBox_->setCurrentIndex(3);
    speedBox_->setToolTip(tr("Playback speed"));
    loop_ = new QCheckBox(tr("Loop"));
    label_ = new QLabel;
    label_->setMinimumWidth(140);
    // A status-bar message would be replaced by the next one; this stays while it is true.
    previousModel_ = new QLabel(tr("Recording of the previous model"));
    previousModel_->setObjectName("previousModelLabel");
    previousModel_->setToolTip(tr("The model was edited after this run: the view shows the edited model, and the "
                                  "frames of the run are not drawn. Run to record the edited model."));
    previousModel_->setStyleSheet("QLabel { color: #b35900; font-weight: bold; }");
    previousModel_->hide();
    h->addWidget(backButton_);
    h->addWidget(playButton_);
    h->addWidget(forwardButton_);
    h->addWidget(slider_, 1);
    h->addWidget(label_);
    h->addWidget(previousModel_);
    h->addWidget(speedBox_);
    h->addWidget(loop_);

    timer_.setInterval(30);
    connect(&timer_, &QTimer::timeout, this, &PlaybackBar::tick);
    connect(playButton_, &QToolButton::clicked, this, [this] { isPlaying() ? pause() : play(); });
    connect(backButton_, &QToolButton::clicked, this, [this] {
        pause();
        setCurrentFrame(frame_ - 1);
    });
    connect(forwardButton_, &QToolButton::clicked, this, [this] {
        pause();
        setCurrentFrame(frame_ + 1);
    });
    connect(slider_, &QSlider::valueChanged, this, [this](int v) {
        if (v != frame_)
            setCurrentFrame(v);
    });
    connect(speedBox_, &QComboBox::currentIndexChanged, this,
            [this](int i) { speed_ = speedBox_->itemData(i).toDouble(); });
    updateLabel();
}

void PlaybackBar::setRecordingOfPreviousModel(bool on) { previousModel_->setVisible(on); }

bool PlaybackBar::recordingOfPreviousModel() const { return !previousModel_->isHidden(); }

void PlaybackBar::setSource(const FrameSource* source)
{
    source_ = source;
    sourceChanged();
}

void PlaybackBar::sourceChanged()
{
    const int n = source_ ? source_->frameCount() : 0;
    QSignalBlocker block(slider_);
    slider_->setRange(0, std::max(0, n - 1));
    if (n == 0) {
        pause();
        frame_ = -1;
    } else if (frame_ >= n) {
        frame_ = n - 1;
    }
    slider_->setValue(std::max(frame_, 0));
    updateLabel();
}

void PlaybackBar::setCurrentFrame(int i)
{
    if (!source_ || source_->isEmpty())
        return;
    frame_ = std::clamp(i, 0, source_->frameCount() - 1);
    {
        QSignalBlocker block(slider_);
        slider_->setValue(frame_);
    }
    updateLabel();
    emit frameChanged(frame_);
}

void PlaybackBar::seekTime(double t)
{
    if (source_ && !source_->isEmpty())
        setCurrentFrame(source_->frameAt(t));
}

void PlaybackBar::play()
{
    if (!source_ || source_->frameCount() < 2)
        return;
    if (frame_ < 0 || frame_ >= source_->frameCount() - 1)
        setCurrentFrame(0);
    playTime_ = source_->frameTime(frame_);
    clock_.start();
    timer_.start();
    playButton_->setIcon(style()->standardIcon(QStyle::SP_MediaPause));
}

void PlaybackBar::pause()
{
    timer_.stop();
    playButton_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
}

void PlaybackBar::setSpeed(double factor)
{
    speed_ = factor;
    const int i = speedBox_->findData(factor);
    if (i >= 0)
        speedBox_->setCurrentIndex(i);
}

void PlaybackBar::setLoop(bool on) { loop_->setChecked(on); }

bool PlaybackBar::loops() const { return loop_->isChecked(); }

void PlaybackBar::setInteractive(bool on)
{
    if (!on)
        pause();
    for (QWidget* w : {static_cast<QWidget*>(playButton_), static_cast<QWidget*>(backButton_),
                       static_cast<QWidget*>(forwardButton_), static_cast<QWidget*>(slider_)})
        w->setEnabled(on);
}

void PlaybackBar::tick()
{
    if (!source_ || source_->isEmpty()) {
        pause();
        return;
    }
    playTime_ += speed_ * clock_.restart() / 1000.0;
    if (playTime_ > source_->endTime()) {
        if (loops()) {
            playTime_ = source_->startTime();
        } else {
            setCurrentFrame(source_->frameCount() - 1);
            pause();
            return;
        }
    }
    const int i = source_->frameAt(playTime_);
    if (i != frame_)
        setCurrentFrame(i);
}

void PlaybackBar::updateLabel()
{
    if (!source_ || frame_ < 0 || source_->isEmpty()) {
        label_->setText(tr("nothing to play"));
        return;
    }
    label_->setText(tr("t = %1 / %2 s").arg(source_->frameTime(frame_), 0, 'f', 3).arg(source_->endTime(), 0, 'f', 3));
}

}  // namespace looplab::ui
