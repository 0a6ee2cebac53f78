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
    : QDialog(parent), duration_(duration), path_(new QLineEdit(initial.path, this)), width_(new QSpinBox(this)),
      height_(new QSpinBox(this)), fps_(new QDoubleSpinBox(this)),
      plots_(new QCheckBox(tr("Plots beside the 3D view"), this)), summary_(new QLabel(this)) {
    setObjectName("animationExportDialog");
    setWindowTitle(tr("Export Animation"));
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
        const QString p = QFileDialog::getSaveFileName(this, tr("Export Animation"), path_->text(),
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
    form->addRow(QString(), plots_);
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
    s.withPlots = plots_->isChecked();
    return s;
}

void AnimationExportDialog::updateSummary() {
    const QString format = path_->text().endsWith(".gif", Qt::CaseInsensitive)   ? tr("animated GIF (at most 50 frames/s)")
                           : path_->text().endsWith(".mp4", Qt::CaseInsensitive) ? tr("MP4, H.264 (even sizes)")
                                                                                 : tr("unknown format");
    summary_->setText(tr("%1 frames over %2 s of recording, %3")
                          .arg(videoFrameCount(0.0, duration_, fps_->value()))
                          .arg(duration_, 0, 'g', 4)
                          .arg(format));
}

}  // namespace looplab::ui
