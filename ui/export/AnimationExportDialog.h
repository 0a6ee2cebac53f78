#pragma once
// File → Export Animation…: where to (.mp4 or .gif), the picture's size, the frame rate
// and whether the plots go beside the 3D view; for a mode shape, how many periods and
// frames a period instead of the plots, which describe the run and not the mode.

#include "export/AnimationExportJob.h"
#include "export/ModeOscillationFrames.h"

#include <QDialog>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace looplab::ui {

class AnimationExportDialog : public QDialog {
    Q_OBJECT

public:
    /// Starts from `initial`; `duration` [s] is the recording's, to say how many frames.
    AnimationExportDialog(const AnimationExportSettings& initial, double duration, QWidget* parent = nullptr);
    /// For a mode's swing: starts from `initial` and `cycles`; `mode` names the mode in
    /// the summary ("mode 1, 0.498 Hz").
    AnimationExportDialog(const AnimationExportSettings& initial, ModeVideoCycles cycles, const QString& mode,
                          QWidget* parent = nullptr);
    AnimationExportSettings settings() const;
    /// The periods and frames a period chosen (mode shapes only).
    ModeVideoCycles cycles() const;

private:
    AnimationExportDialog(const AnimationExportSettings& initial, double duration, const ModeVideoCycles* cycles,
                          const QString& mode, QWidget* parent);
    void updateSummary();
    QString formatName() const;

    double duration_;
    QString mode_;  ///< empty for a recording
    QSpinBox* periods_ = nullptr;
    QSpinBox* framesPerPeriod_ = nullptr;
    QLineEdit* path_;
    QSpinBox* width_;
    QSpinBox* height_;
    QDoubleSpinBox* fps_;
    QCheckBox* plots_;
    QLabel* summary_;
};

}  // namespace looplab::ui
