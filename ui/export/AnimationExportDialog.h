#pragma once
// File → Export Animation…: where to (.mp4 or .gif), the picture's size, the frame rate
// and whether the plots go beside the 3D view.

#include "export/AnimationExportJob.h"

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
    AnimationExportSettings settings() const;

private:
    void updateSummary();

    double duration_;
    QLineEdit* path_;
    QSpinBox* width_;
    QSpinBox* height_;
    QDoubleSpinBox* fps_;
    QCheckBox* plots_;
    QLabel* summary_;
};

}  // namespace looplab::ui
