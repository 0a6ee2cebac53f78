#pragma once
// Playback of a frame source (a simulation recording, later a mode animation): play/pause,
// single steps, a time slider to scrub, speed and loop. Playback follows the frames'
// time (frames are shown at their own times scaled by the speed), not frame count, so
// uneven output steps still play at the right pace.

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace looplab::ui {

class FrameSource;

class PlaybackBar : public QWidget {
    Q_OBJECT

public:
    explicit PlaybackBar(QWidget* parent = nullptr);

    /// The frames to play (not owned; null for none); call sourceChanged() when they
    /// grow or are reset.
    void setSource(const FrameSource* source);
    const FrameSource* source() const { return source_; }
    /// Updates the slider range after frames were added or removed.
    void sourceChanged();

    int currentFrame() const { return frame_; }
    /// Shows frame i (clamped); emits frameChanged.
    void setCurrentFrame(int i);
    /// Shows the last frame at or before t.
    void seekTime(double t);

    bool isPlaying() const { return timer_.isActive(); }
    void play();
    void pause();
    void setSpeed(double factor);
    double speed() const { return speed_; }
    void setLoop(bool on);
    bool loops() const;
    /// Disables the controls while the source is still being filled (a run recording).
    void setInteractive(bool on);
    /// Says beside the slider, until the next run, that the frames are of the model as
    /// it was before the edits made since (the view shows the edited model instead).
    void setRecordingOfPreviousModel(bool on);
    bool recordingOfPreviousModel() const;

signals:
    void frameChanged(int frame);

private:
    void tick();
    void updateLabel();

    const FrameSource* source_ = nullptr;
    int frame_ = -1;
    double speed_ = 1.0;
    double playTime_ = 0.0;
    QTimer timer_;
    QElapsedTimer clock_;
    QToolButton *playButton_, *backButton_, *forwardButton_;
    QSlider* slider_;
    QComboBox* speedBox_;
    QCheckBox* loop_;
    QLabel* label_;
    QLabel* previousModel_;
};

}  // namespace looplab::ui
