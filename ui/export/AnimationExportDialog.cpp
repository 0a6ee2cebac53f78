#include "export/AnimationExportDialog.h"

#include "export/AnimationTimeline.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace looplab::ui {

AnimationExportDialog::AnimationExportDialog(const AnimationExportSettings& initial, double duration, QWidget* parent)
    : AnimationExportDialog(initial, duration, nullptr, QString(), parent) {}

AnimationExportDialog::AnimationExportDialog(const AnimationExportSettings& initial, ModeVideoCycles cycles,
                                             const QString& mode, QWidget* parent)
    : AnimationExportDialog(initial, 0.0, &cycles, mode, parent) {}

AnimationExportDialog::AnimationExportDialog(const AnimationExportSettings& initial, double duration,
                                             const ModeVideoCycles* cycles, const QString& mode, QWidget* parent)
    : QDialog(parent), duration_(duration), mode_(mode), path_(new QLineEdit(initial.path, this)),
      width_(new QSpinBox(this)), height_(new QSpinBox(this)), fps_(new QDoubleSpinBox(this)),
      plots_(new QCheckBox(tr("Plots beside the 3D view"), this)), summary_(new QLabel(this)) {
    setObjectName("animationExportDialog");
    setWindowTitle(cycles ? tr("Export Mode Animation") : tr("Export Animation"));
    path_->setObjectName("animationPath");
    width_->setObjectName("animationWidth");
    height_->setObjectName("animationHeight");
    fps_->setObjectName("animationFps");
    plots_->setObjectName("animationWithPlots");
    for (QSpinBox* s : {width_, height_}) {
        s->setRange(16, 4096);
        s->setSingleStep(2);
        s->setSuffix(tr(" px"));
    }
    width_->setValue(initial.width);
    height_->setValue(initial.height);
    fps_->setRange(1, 120);
    fps_->setDecimals(1);
    fps_->setValue(initial.fps);
    fps_->setSuffix(tr(" frames/s"));
    plots_->setChecked(initial.withPlots);

    auto* browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString p = QFileDialog::getSaveFileName(this, windowTitle(), path_->text(),
                                                       tr("MP4 video (*.mp4);;Animated GIF (*.gif)"));
        if (!p.isEmpty()) path_->setText(p);
    });
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(path_);
    pathRow->addWidget(browse);
    auto* size = new QHBoxLayout;
    size->addWidget(width_);
    size->addWidget(new QLabel(QStringLiteral("×"), this));
    size->addWidget(height_);
    auto* form = new QFormLayout(this);
    form->addRow(tr("File (.mp4 or .gif):"), pathRow);
    form->addRow(tr("Size of the 3D view:"), size);
    form->addRow(tr("Frame rate:"), fps_);
    if (cycles) {
        periods_ = new QSpinBox(this);
        periods_->setObjectName("animationPeriods");
        periods_->setRange(1, 1000);
        periods_->setValue(cycles->periods);
        framesPerPeriod_ = new QSpinBox(this);
        framesPerPeriod_->setObjectName("animationFramesPerPeriod");
        framesPerPeriod_->setRange(4, 1000);
        framesPerPeriod_->setValue(cycles->framesPerPeriod);
        form->addRow(tr("Periods:"), periods_);
        form->addRow(tr("Frames a period:"), framesPerPeriod_);
        // The plots are the run's; a mode's swing has no place on their time axis.
        plots_->setChecked(false);
        plots_->hide();
        connect(periods_, &QSpinBox::valueChanged, this, &AnimationExportDialog::updateSummary);
        connect(framesPerPeriod_, &QSpinBox::valueChanged, this, &AnimationExportDialog::updateSummary);
    } else {
        form->addRow(QString(), plots_);
    }
    summary_->setWordWrap(true);
    form->addRow(summary_);
    auto* box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    box->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    form->addRow(box);
    connect(box, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(box, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(fps_, &QDoubleSpinBox::valueChanged, this, &AnimationExportDialog::updateSummary);
    connect(path_, &QLineEdit::textChanged, this, &AnimationExportDialog::updateSummary);
    updateSummary();
}

AnimationExportSettings AnimationExportDialog::settings() const {
    AnimationExportSettings s;
    s.path = path_->text();
    s.width = width_->value();
    s.height = height_->value();
    s.fps = fps_->value();
    s.withPlots = !periods_ && plots_->isChecked();
    return s;
}

ModeVideoCycles AnimationExportDialog::cycles() const {
    ModeVideoCycles c;
    if (periods_) c.periods = periods_->value();
    if (framesPerPeriod_) c.framesPerPeriod = framesPerPeriod_->value();
    return c;
}

QString AnimationExportDialog::formatName() const {
    return path_->text().endsWith(".gif", Qt::CaseInsensitive)   ? tr("animated GIF (at most 50 frames/s)")
           : path_->text().endsWith(".mp4", Qt::CaseInsensitive) ? tr("MP4, H.264 (even sizes)")
                                                                 : tr("unknown format");
}

void AnimationExportDialog::updateSummary() {
    if (periods_) {
        const ModeVideoCycles c = cycles();
        summary_->setText(tr("%1 frames: %2 periods of %3, one period every %4 s of video, %5")
                              .arg(c.periods * c.framesPerPeriod)
                              .arg(c.periods)
                              .arg(mode_)
                              .arg(c.framesPerPeriod / fps_->value(), 0, 'g', 4)
                              .arg(formatName()));
        return;
    }
    summary_->setText(tr("%1 frames over %2 s of recording, %3")
                          .arg(videoFrameCount(0.0, duration_, fps_->value()))
                          .arg(duration_, 0, 'g', 4)
                          .arg(formatName()));
}

}  // namespace looplab::ui
