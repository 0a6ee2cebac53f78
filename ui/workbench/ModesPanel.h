#pragma once
// The Modes panel: settings of a modal analysis (number of modes, shift σ, scaling β),
// Compute and Cancel with progress, the table of modes (frequency, damping ratio) with
// what the eigensolver reports about itself (β used, condition number of the shifted
// matrix before and after scaling, the dense check's difference, constraint modes
// filtered out), the amplitude of the animated mode shape, the modes along a recorded
// motion as frequency curves against time, and export of the table and of the animated
// mode as a video. It only shows and asks: MainWindow runs the computations
// (ModesRunner), the animation and the exports.

#include "looplab/analysis/Modes.h"
#include "run/ModesRunner.h"

#include <QWidget>

class QChart;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSlider;
class QSpinBox;
class QTableWidget;
class QValueAxis;

namespace looplab::ui {

class ModesPanel : public QWidget {
    Q_OBJECT

public:
    explicit ModesPanel(QWidget* parent = nullptr);

    /// The options as entered; false with the reason in `error` when a value is not a
    /// finite number (or β not positive).
    bool modesOptions(ModesOptions& options, QString* error) const;
    /// Postures of a sweep along the recording.
    int alongSteps() const;
    QString alongDriver() const;

    /// A computation runs: Compute is disabled, Cancel enabled, progress shown.
    void setBusy(bool busy);
    void setProgress(const QString& stage, int done, int total);
    /// Shows a finished computation: the table and figures, or why it failed.
    void showModes(const ModesComputation& result);
    /// Plots the frequency curves of a sweep against the recording's time.
    void showAlongMotion(const AlongMotionComputation& result);
    /// Forgets the results (the model changed).
    void clearResults();
    /// Whether the model builds, which drivers it has, and whether a finished recording
    /// exists: what decides which buttons make sense.
    void setAvailability(bool modelOk, const QStringList& drivers, bool hasRecording);

    /// Row selected in the table (−1: none).
    int selectedMode() const;
    void selectMode(int row);
    /// Amplitude of the animated shape as a fraction of the model's size.
    double amplitudeFraction() const;
    void setAmplitudeFraction(double fraction);
    /// The figures line (β, condition numbers, dense check, spurious modes) and the status.
    QString summaryText() const;
    QString statusText() const;

    QSpinBox* countBox() const { return count_; }
    QCheckBox* shiftAutomaticBox() const { return shiftAuto_; }
    QLineEdit* shiftEdit() const { return shiftValue_; }
    QComboBox* scalingBox() const { return scaling_; }
    QLineEdit* scalingEdit() const { return scalingValue_; }
    QPushButton* computeButton() const { return compute_; }
    QPushButton* cancelButton() const { return cancel_; }
    QPushButton* exportButton() const { return export_; }
    QPushButton* videoExportButton() const { return exportVideo_; }
    QPushButton* showRecordingButton() const { return showRecording_; }
    QPushButton* alongButton() const { return along_; }
    QSpinBox* alongStepsBox() const { return steps_; }
    QComboBox* driverBox() const { return driver_; }
    QTableWidget* table() const { return table_; }
    QSlider* amplitudeSlider() const { return amplitude_; }
    QProgressBar* progressBar() const { return progress_; }
    QChart* alongChart() const { return chart_; }

signals:
    void computeRequested();
    void cancelRequested();
    /// The user chose a mode to animate (−1: none).
    void modeSelected(int row);
    void amplitudeChanged(double fraction);
    void showRecordingRequested();
    void alongMotionRequested();
    void exportRequested();
    /// Export the selected mode's animation as a video.
    void videoExportRequested();

private:
    void updateEnabled();
    void setStatus(const QString& text, bool failure);

    QSpinBox* count_;
    QCheckBox* shiftAuto_;
    QLineEdit* shiftValue_;
    QComboBox* scaling_;
    QLineEdit* scalingValue_;
    QPushButton *compute_, *cancel_, *export_, *exportVideo_, *showRecording_, *along_;
    QProgressBar* progress_;
    QLabel* status_;
    QLabel* summary_;
    QTableWidget* table_;
    QSlider* amplitude_;
    QLabel* amplitudeLabel_;
    QComboBox* driver_;
    QSpinBox* steps_;
    QChart* chart_;
    QValueAxis* timeAxis_;
    QValueAxis* frequencyAxis_;
    bool busy_ = false;
    bool modelOk_ = false;
    bool hasRecording_ = false;
    bool hasModes_ = false;
};

}  // namespace looplab::ui
