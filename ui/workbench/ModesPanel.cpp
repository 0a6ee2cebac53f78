#include "workbench/ModesPanel.h"

#include "looplab/analysis/ModeMotion.h"

#include "plotting/ZoomableChartView.h"

#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QLineEdit>
#include <QLineSeries>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QTableWidget>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace looplab::ui {

namespace {

enum ScalingChoice { kScalingAutomatic = 0, kScalingNone = 1, kScalingValue = 2 };

// Reads a finite number, "1e5" or "-2.5" alike, in the C locale (as the CLI does).
bool readNumber(const QString& text, double& value)
{
    bool ok = false;
    value = text.trimmed().toDouble(&ok);
    return ok && std::isfinite(value);
}

QString sci(double x) { return QString::number(x, 'g', 3); }

}  // namespace

ModesPanel::ModesPanel(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);

    auto* settings = new QFormLayout;
    count_ = new QSpinBox;
    count_->setObjectName("modeCount");
    count_->setRange(1, 100);
    count_->setValue(6);
    count_->setToolTip(tr("How many of the lowest modes to compute"));
    settings->addRow(tr("Modes"), count_);

    shiftAuto_ = new QCheckBox(tr("automatic"));
    shiftAuto_->setObjectName("shiftAutomatic");
    shiftAuto_->setChecked(true);
    shiftValue_ = new QLineEdit;
    shiftValue_->setObjectName("shiftValue");
    shiftValue_->setPlaceholderText(tr("σ [rad²/s²]"));
    shiftValue_->setToolTip(tr("Shift σ on ω² [rad²/s²]: the modes nearest it are found"));
    auto* shiftRow = new QHBoxLayout;
    shiftRow->addWidget(shiftAuto_);
    shiftRow->addWidget(shiftValue_, 1);
    settings->addRow(tr("Shift σ"), shiftRow);

    scaling_ = new QComboBox;
    scaling_->setObjectName("scaling");
    scaling_->addItem(tr("automatic (largest |K|)"));
    scaling_->addItem(tr("none (β = 1)"));
    scaling_->addItem(tr("value"));
    scaling_->setToolTip(tr("Scaling β of the multipliers and constraint rows; 'none' shows how badly the "
                            "unscaled matrix is conditioned"));
    scalingValue_ = new QLineEdit;
    scalingValue_->setObjectName("scalingValue");
    scalingValue_->setPlaceholderText(tr("β"));
    auto* scalingRow = new QHBoxLayout;
    scalingRow->addWidget(scaling_);
    scalingRow->addWidget(scalingValue_, 1);
    settings->addRow(tr("Scaling β"), scalingRow);
    layout->addLayout(settings);

    auto* buttons = new QHBoxLayout;
    compute_ = new QPushButton(tr("Compute"));
    compute_->setObjectName("computeModes");
    cancel_ = new QPushButton(tr("Cancel"));
    cancel_->setObjectName("cancelModes");
    buttons->addWidget(compute_);
    buttons->addWidget(cancel_);
    layout->addLayout(buttons);

    progress_ = new QProgressBar;
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setTextVisible(false);
    layout->addWidget(progress_);
    status_ = new QLabel;
    status_->setObjectName("modesStatus");
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(status_);
    summary_ = new QLabel;
    summary_->setObjectName("modesSummary");
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);

    table_ = new QTableWidget(0, 4);
    table_->setObjectName("modeTable");
    table_->setHorizontalHeaderLabels({tr("Frequency [Hz]"), tr("Damping ratio"), tr("Moves along"), tr("Note")});
    // Two modes of one frequency (a square beam's two bending planes) differ only there.
    table_->horizontalHeaderItem(2)->setToolTip(tr("The share of the mode's motion along each global axis"));
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    layout->addWidget(table_, 1);

    auto* animation = new QHBoxLayout;
    animation->addWidget(new QLabel(tr("Amplitude")));
    amplitude_ = new QSlider(Qt::Horizontal);
    amplitude_->setObjectName("modeAmplitude");
    amplitude_->setRange(0, 30);  // per cent of the model's size
    amplitude_->setValue(5);
    amplitude_->setToolTip(tr("Largest displacement of the animated shape, in per cent of the model's size"));
    animation->addWidget(amplitude_, 1);
    amplitudeLabel_ = new QLabel;
    animation->addWidget(amplitudeLabel_);
    layout->addLayout(animation);

    auto* actions = new QHBoxLayout;
    showRecording_ = new QPushButton(tr("Show Recording"));
    showRecording_->setObjectName("showRecording");
    showRecording_->setToolTip(tr("Stop animating the mode; the view and playback show the run again"));
    export_ = new QPushButton(tr("Export CSV…"));
    export_->setObjectName("exportModes");
    exportVideo_ = new QPushButton(tr("Export Video…"));
    exportVideo_->setObjectName("exportModeVideo");
    exportVideo_->setToolTip(tr("Write whole periods of the selected mode's swing as MP4 or GIF"));
    actions->addWidget(showRecording_);
    actions->addWidget(export_);
    actions->addWidget(exportVideo_);
    layout->addLayout(actions);

    auto* alongBox = new QGroupBox(tr("Along the recorded motion"));
    auto* alongLayout = new QVBoxLayout(alongBox);
    auto* alongForm = new QFormLayout;
    driver_ = new QComboBox;
    driver_->setObjectName("alongDriver");
    driver_->setToolTip(tr("The driver locked at its value of each recorded time"));
    alongForm->addRow(tr("Driver"), driver_);
    steps_ = new QSpinBox;
    steps_->setObjectName("alongSteps");
    steps_->setRange(2, 500);
    steps_->setValue(25);
    steps_->setToolTip(tr("Postures, evenly spread over the recording's time"));
    alongForm->addRow(tr("Postures"), steps_);
    alongLayout->addLayout(alongForm);
    along_ = new QPushButton(tr("Compute Along Recording"));
    along_->setObjectName("computeAlong");
    alongLayout->addWidget(along_);
    chart_ = new QChart;
    chart_->setTitle(tr("Frequencies along the motion"));
    chart_->legend()->setAlignment(Qt::AlignRight);
    chart_->setMargins(QMargins(2, 2, 2, 2));
    timeAxis_ = new QValueAxis;
    timeAxis_->setTitleText(tr("t [s]"));
    frequencyAxis_ = new QValueAxis;
    frequencyAxis_->setTitleText(tr("f [Hz]"));
    chart_->addAxis(timeAxis_, Qt::AlignBottom);
    chart_->addAxis(frequencyAxis_, Qt::AlignLeft);
    auto* chartView = new ZoomableChartView(chart_);
    chartView->setMinimumHeight(180);
    alongLayout->addWidget(chartView, 1);
    layout->addWidget(alongBox, 1);

    connect(compute_, &QPushButton::clicked, this, &ModesPanel::computeRequested);
    connect(cancel_, &QPushButton::clicked, this, &ModesPanel::cancelRequested);
    connect(export_, &QPushButton::clicked, this, &ModesPanel::exportRequested);
    connect(exportVideo_, &QPushButton::clicked, this, &ModesPanel::videoExportRequested);
    connect(showRecording_, &QPushButton::clicked, this, [this] {
        table_->clearSelection();
        emit showRecordingRequested();
    });
    connect(along_, &QPushButton::clicked, this, &ModesPanel::alongMotionRequested);
    connect(shiftAuto_, &QCheckBox::toggled, this, &ModesPanel::updateEnabled);
    connect(scaling_, &QComboBox::currentIndexChanged, this, &ModesPanel::updateEnabled);
    connect(table_, &QTableWidget::itemSelectionChanged, this, [this] {
        updateEnabled();
        emit modeSelected(selectedMode());
    });
    connect(amplitude_, &QSlider::valueChanged, this, [this] {
        amplitudeLabel_->setText(tr("%1 %").arg(amplitude_->value()));
        emit amplitudeChanged(amplitudeFraction());
    });
    amplitudeLabel_->setText(tr("%1 %").arg(amplitude_->value()));
    updateEnabled();
}

bool ModesPanel::modesOptions(ModesOptions& o, QString* error) const
{
    o.count = count_->value();
    o.shift.reset();
    if (!shiftAuto_->isChecked()) {
        double s = 0.0;
        if (!readNumber(shiftValue_->text(), s)) {
            if (error)
                *error = tr("The shift σ must be a finite number (got '%1')").arg(shiftValue_->text());
            return false;
        }
        o.shift = s;
    }
    switch (scaling_->currentIndex()) {
    case kScalingNone: o.scaling = ModeScaling::None; break;
    case kScalingValue: {
        double b = 0.0;
        if (!readNumber(scalingValue_->text(), b) || b <= 0.0) {
            if (error)
                *error = tr("The scaling β must be a finite positive number (got '%1')").arg(scalingValue_->text());
            return false;
        }
        o.scaling = ModeScaling::Value;
        o.scalingValue = b;
        break;
    }
    default: o.scaling = ModeScaling::Automatic; break;
    }
    return true;
}

int ModesPanel::alongSteps() const { return steps_->value(); }

QString ModesPanel::alongDriver() const { return driver_->currentText(); }

void ModesPanel::setBusy(bool busy)
{
    busy_ = busy;
    if (busy) {
        progress_->setRange(0, 0);  // busy indicator until a step count is known
        setStatus(tr("Working…"), false);
    } else {
        progress_->setRange(0, 1);
        progress_->setValue(0);
    }
    updateEnabled();
}

void ModesPanel::setProgress(const QString& stage, int done, int total)
{
    if (total > 0) {
        progress_->setRange(0, total);
        progress_->setValue(done);
    }
    setStatus(stage, false);
}

void ModesPanel::showModes(const ModesComputation& r)
{
    table_->setRowCount(0);
    summary_->clear();
    hasModes_ = false;
    if (r.cancelled) {
        setStatus(tr("Cancelled"), false);
        updateEnabled();
        return;
    }
    if (!r.ok) {
        setStatus(tr("Failed: %1").arg(r.message), true);
        updateEnabled();
        return;
    }
    const ModesResult& m = r.modes;
    QStringList figures;
    figures << tr("β = %1").arg(sci(m.scaling)) << tr("σ = %1 rad²/s²").arg(sci(m.shift))
            << tr("condition %1 unscaled, %2 scaled").arg(sci(m.conditionUnscaled), sci(m.conditionScaled));
    figures << (m.denseChecked ? tr("dense check: largest difference %1").arg(sci(m.denseDifference))
                               : tr("no dense check (model too large)"));
    figures << tr("%n spurious constraint mode(s) filtered", nullptr, m.spuriousRejected);
    if (m.rigidBodyModes > 0)
        figures << tr("%n rigid-body mode(s) of free structures", nullptr, m.rigidBodyModes);
    summary_->setText(figures.join(" · "));
    table_->setRowCount(static_cast<int>(m.modes.size()));
    for (size_t k = 0; k < m.modes.size(); ++k) {
        const Mode& mode = m.modes[k];
        const int row = static_cast<int>(k);
        auto* f = new QTableWidgetItem(QString::number(mode.frequencyHz, 'g', 8));
        auto* z = new QTableWidgetItem(QString::number(mode.dampingRatio, 'g', 4));
        QStringList notes;
        if (mode.rigidBody)
            notes << tr("rigid body");
        if (mode.unstable)
            notes << tr("unstable");
        if (!mode.accurate)
            notes << tr("inaccurate (residual %1)").arg(sci(mode.residual));
        auto* n = new QTableWidgetItem(notes.join(", "));
        f->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        z->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        auto* along = new QTableWidgetItem(
            k < r.motionShares.size() ? QString::fromStdString(motionSharesText(r.motionShares[k])) : QString());
        table_->setItem(row, 0, f);
        table_->setItem(row, 1, z);
        table_->setItem(row, 2, along);
        table_->setItem(row, 3, n);
        table_->setVerticalHeaderItem(row, new QTableWidgetItem(QString::number(row + 1)));
    }
    hasModes_ = !m.modes.empty();
    QString status = tr("%n mode(s) in %1 s; equilibrium: %2", nullptr, static_cast<int>(m.modes.size()))
                         .arg(r.wallTime, 0, 'f', 2)
                         .arg(QString::fromUtf8(staticsOutcomeName(r.statics.outcome)));
    if (!r.message.isEmpty())
        status += " (" + r.message + ")";
    for (const std::string& w : m.warnings)
        status += "\n" + tr("Warning: %1").arg(QString::fromStdString(w));
    setStatus(status, m.flagged);
    updateEnabled();
}

void ModesPanel::showAlongMotion(const AlongMotionComputation& r)
{
    // A cancelled sweep leaves the curves of the last one that finished.
    if (r.cancelled) {
        setStatus(tr("Cancelled"), false);
        updateEnabled();
        return;
    }
    for (QAbstractSeries* s : chart_->series()) {
        chart_->removeSeries(s);
        delete s;
    }
    size_t tracks = 0;
    for (const AlongMotionStep& step : r.steps)
        tracks = std::max(tracks, step.frequenciesHz.size());
    double tLo = 0.0, tHi = 1.0, fLo = 0.0, fHi = 1.0;
    bool any = false;
    for (size_t k = 0; k < tracks; ++k) {
        auto* series = new QLineSeries;
        series->setName(tr("mode %1").arg(k + 1));
        for (size_t i = 0; i < r.steps.size() && i < r.times.size(); ++i) {
            const AlongMotionStep& step = r.steps[i];
            // A track with no mode at a posture (−1) leaves a gap in neither axis: the
            // point is simply missing.
            if (!step.ok || k >= step.frequenciesHz.size() || step.frequenciesHz[k] < 0.0)
                continue;
            const double t = r.times[i], f = step.frequenciesHz[k];
            series->append(t, f);
            tLo = any ? std::min(tLo, t) : t;
            tHi = any ? std::max(tHi, t) : t;
            fLo = any ? std::min(fLo, f) : f;
            fHi = any ? std::max(fHi, f) : f;
            any = true;
        }
        chart_->addSeries(series);
        series->attachAxis(timeAxis_);
        series->attachAxis(frequencyAxis_);
    }
    if (any) {
        timeAxis_->setRange(tLo, tHi > tLo ? tHi : tLo + 1.0);
        const double pad = 0.05 * std::max(fHi - fLo, 1e-3 * std::max(std::abs(fHi), 1.0));
        frequencyAxis_->setRange(std::max(0.0, fLo - pad), fHi + pad);
    }
    if (r.ok)
        setStatus(tr("%1 postures along the recording in %2 s").arg(r.steps.size()).arg(r.wallTime, 0, 'f', 2),
                  false);
    else
        setStatus(tr("Along the recording: %1").arg(r.message), true);
    updateEnabled();
}

void ModesPanel::clearResults()
{
    table_->setRowCount(0);
    summary_->clear();
    hasModes_ = false;
    for (QAbstractSeries* s : chart_->series()) {
        chart_->removeSeries(s);
        delete s;
    }
    setStatus({}, false);
    updateEnabled();
}

void ModesPanel::setAvailability(bool modelOk, const QStringList& drivers, bool hasRecording)
{
    modelOk_ = modelOk;
    hasRecording_ = hasRecording;
    const QString current = driver_->currentText();
    QStringList present;
    for (int i = 0; i < driver_->count(); ++i)
        present << driver_->itemText(i);
    if (present != drivers) {
        driver_->clear();
        driver_->addItems(drivers);
        if (drivers.contains(current))
            driver_->setCurrentText(current);
    }
    updateEnabled();
}

int ModesPanel::selectedMode() const
{
    const QList<QTableWidgetItem*> items = table_->selectedItems();
    return items.isEmpty() ? -1 : items.front()->row();
}

void ModesPanel::selectMode(int row)
{
    if (row < 0 || row >= table_->rowCount())
        table_->clearSelection();
    else
        table_->selectRow(row);
}

double ModesPanel::amplitudeFraction() const { return amplitude_->value() / 100.0; }

void ModesPanel::setAmplitudeFraction(double fraction)
{
    amplitude_->setValue(static_cast<int>(std::lround(fraction * 100.0)));
}

QString ModesPanel::summaryText() const { return summary_->text(); }

QString ModesPanel::statusText() const { return status_->text(); }

void ModesPanel::updateEnabled()
{
    compute_->setEnabled(modelOk_ && !busy_);
    cancel_->setEnabled(busy_);
    shiftValue_->setEnabled(!shiftAuto_->isChecked());
    scalingValue_->setEnabled(scaling_->currentIndex() == kScalingValue);
    export_->setEnabled(hasModes_);
    exportVideo_->setEnabled(hasModes_ && selectedMode() >= 0);
    along_->setEnabled(modelOk_ && !busy_ && hasRecording_ && driver_->count() > 0);
    along_->setToolTip(driver_->count() == 0 ? tr("Needs a model with a driver to lock")
                                             : hasRecording_ ? QString() : tr("Needs a finished run"));
}

void ModesPanel::setStatus(const QString& text, bool failure)
{
    status_->setText(text);
    status_->setStyleSheet(failure ? "color: #b02020;" : QString());
}

}  // namespace looplab::ui
