#pragma once
// The workbench's Study panel (issue 14, docs/study-format.md "The Study panel"): set up
// a design study on the model file being edited — numbers picked from the model tree,
// each varied by a list, a range or a distribution, the analysis and the outputs — run its
// cases on worker threads with progress, time left and cancel, see the rows as a table,
// an output against a parameter and a histogram, and open any case as the current model
// through the undo stack. Studies are saved and opened as study files, the same files
// `looplab-cli study` runs, with the same rows.

#include "looplab/study/StudyDescription.h"

#include <QString>
#include <QWidget>

#include <optional>

class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace looplab::ui {

class StudyEditor;
class StudyJob;
class StudyModelPicker;
class StudyResultsView;
class WorkbenchDocument;

class StudyPanel : public QWidget {
    Q_OBJECT

public:
    explicit StudyPanel(WorkbenchDocument* document, QWidget* parent = nullptr);
    ~StudyPanel() override;

    StudyModelPicker* picker() const { return picker_; }
    StudyEditor* editor() const { return editor_; }
    StudyResultsView* results() const { return results_; }
    QPushButton* runButton() const { return run_; }
    QPushButton* cancelButton() const { return cancel_; }
    QSpinBox* threads() const { return threads_; }
    bool isRunning() const;
    /// What the last run or attempt to run said (errors of the study, progress, the end).
    QString statusText() const;
    /// The model file the study varies.
    QString modelPath() const { return modelPath_; }
    /// The study of the last run, as read from the panel's settings.
    const std::optional<StudyDescription>& lastStudy() const { return study_; }

    /// Runs the study as set up; false (with the reason in statusText) if it cannot start.
    bool runStudy();
    void cancelStudy();
    /// Writes the study file (its model path relative to the study file's folder).
    bool saveStudy(const QString& path, QString* error);
    /// Reads a study file into the panel; its model becomes the model the study varies.
    bool openStudy(const QString& path, QString* error);
    /// Makes case `caseIndex` of the last run the workbench's model, as one undoable edit
    /// of the document (the model file is opened first if the workbench shows another,
    /// unmodified, model). False with the reason in statusText otherwise.
    bool openCase(long caseIndex);

signals:
    /// A run ended: all its cases, or fewer when cancelled.
    void studyFinished(bool cancelled);
    /// A sentence for the status bar.
    void message(const QString& text);

private:
    void documentChanged();
    void updateQuantities();
    void setStatus(const QString& text, bool error = false);
    QString studyJsonText(const QString& modelReference) const;

    WorkbenchDocument* document_;
    StudyModelPicker* picker_;
    StudyEditor* editor_;
    StudyResultsView* results_;
    StudyJob* job_;
    QPushButton* run_;
    QPushButton* cancel_;
    QSpinBox* threads_;
    QProgressBar* progress_;
    QLabel* status_;
    QString modelPath_;
    QString studyPath_;
    std::optional<StudyDescription> study_;
    long total_ = 0;
};

}  // namespace looplab::ui
