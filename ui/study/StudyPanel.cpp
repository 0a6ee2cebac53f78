#include "study/StudyPanel.h"

#include "study/StudyEditor.h"
#include "study/StudyJob.h"
#include "study/StudyModelPicker.h"
#include "study/StudyResultsView.h"
#include "document/WorkbenchDocument.h"

#include "looplab/model/InputFile.h"
#include "looplab/files/ModelFile.h"
#include "looplab/study/StudyCases.h"
#include "looplab/study/StudyFile.h"
#include "looplab/study/StudyQuantities.h"
#include "looplab/study/StudyRunner.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QSpinBox>
#include <QSplitter>
#include <QThread>
#include <QVBoxLayout>

namespace looplab::ui {

namespace {

QString duration(double s) {
    if (s < 90) return QObject::tr("%1 s").arg(qRound(s));
    if (s < 5400) return QObject::tr("%1 min").arg(s / 60, 0, 'f', 1);
    return QObject::tr("%1 h").arg(s / 3600, 0, 'f', 1);
}

bool samePath(const QString& a, const QString& b) {
    if (a.isEmpty() || b.isEmpty()) return false;
    const QString ca = QFileInfo(a).canonicalFilePath(), cb = QFileInfo(b).canonicalFilePath();
    return ca.isEmpty() || cb.isEmpty() ? QFileInfo(a).absoluteFilePath() == QFileInfo(b).absoluteFilePath() : ca == cb;
}

}  // namespace

StudyPanel::StudyPanel(WorkbenchDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), job_(new StudyJob(this)) {
    auto* layout = new QVBoxLayout(this);
    auto* split = new QSplitter(Qt::Horizontal);
    picker_ = new StudyModelPicker;
    picker_->setObjectName("studyModelTree");
    editor_ = new StudyEditor;
    split->addWidget(picker_);
    split->addWidget(editor_);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 2);

    auto* buttons = new QHBoxLayout;
    auto* open = new QPushButton(tr("Open study…"));
    auto* save = new QPushButton(tr("Save study…"));
    run_ = new QPushButton(tr("Run study"));
    run_->setObjectName("studyRun");
    cancel_ = new QPushButton(tr("Cancel"));
    cancel_->setObjectName("studyCancel");
    cancel_->setEnabled(false);
    threads_ = new QSpinBox;
    threads_->setObjectName("studyThreads");
    threads_->setRange(1, 256);
    threads_->setValue(std::max(1, QThread::idealThreadCount()));
    threads_->setPrefix(tr("threads: "));
    buttons->addWidget(open);
    buttons->addWidget(save);
    buttons->addStretch(1);
    buttons->addWidget(threads_);
    buttons->addWidget(run_);
    buttons->addWidget(cancel_);
    layout->addLayout(buttons);
    progress_ = new QProgressBar;
    progress_->setObjectName("studyProgress");
    progress_->setRange(0, 1);
    progress_->setValue(0);
    layout->addWidget(progress_);
    status_ = new QLabel;
    status_->setObjectName("studyStatus");
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(status_);
    results_ = new StudyResultsView;
    layout->addWidget(results_, 3);

    connect(picker_, &StudyModelPicker::numberPicked, editor_,
            [this](const QString& pointer, double value) { editor_->addParameter(pointer, value); });
    connect(editor_, &StudyEditor::analysisChanged, this, [this] { updateQuantities(); });
    connect(run_, &QPushButton::clicked, this, [this] { runStudy(); });
    connect(cancel_, &QPushButton::clicked, this, &StudyPanel::cancelStudy);
    connect(open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open study"), QFileInfo(studyPath_).path(),
                                                          tr("Study files (*.json)"));
        QString error;
        if (!path.isEmpty() && !openStudy(path, &error)) setStatus(error, true);
    });
    connect(save, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save study"), studyPath_, tr("Study files (*.json)"));
        QString error;
        if (!path.isEmpty() && !saveStudy(path, &error)) setStatus(error, true);
    });
    connect(results_, &StudyResultsView::caseActivated, this, [this](long k) { openCase(k); });

    connect(job_, &StudyJob::rowFinished, this, [this](const StudyRow& row, const StudyProgress& p) {
        results_->addRow(row);
        progress_->setValue(int(std::min<long>(p.done, progress_->maximum())));
        QString text = tr("%1 of %2 cases").arg(p.done).arg(p.total);
        if (p.failed) text += tr(", %1 failed").arg(p.failed);
        text += tr(", %1").arg(duration(p.elapsed));
        if (p.done < p.total) text += tr(", about %1 left").arg(duration(p.remaining));
        setStatus(text);
    });
    connect(job_, &StudyJob::finished, this, [this](bool cancelled) {
        run_->setEnabled(true);
        cancel_->setEnabled(false);
        results_->refresh();
        const long done = long(results_->rows().size());
        long failed = 0;
        for (const StudyRow& r : results_->rows()) failed += r.ok ? 0 : 1;
        setStatus(cancelled ? tr("Cancelled: %1 of %2 cases finished (kept), %3 failed.").arg(done).arg(total_).arg(failed)
                            : tr("Finished: %1 cases, %2 failed.").arg(done).arg(failed));
        emit studyFinished(cancelled);
    });

    connect(document_, &WorkbenchDocument::documentReset, this, [this] {
        modelPath_ = document_->filePath();
        documentChanged();
    });
    connect(document_, &WorkbenchDocument::filePathChanged, this, [this](const QString& path) {
        if (modelPath_.isEmpty()) modelPath_ = path;
    });
    connect(document_, &WorkbenchDocument::modelRebuilt, this, &StudyPanel::documentChanged);
    modelPath_ = document_->filePath();
    documentChanged();
}

StudyPanel::~StudyPanel() = default;

bool StudyPanel::isRunning() const { return job_->isRunning(); }

QString StudyPanel::statusText() const { return status_->text(); }

void StudyPanel::setStatus(const QString& text, bool error) {
    status_->setText(text);
    status_->setStyleSheet(error ? "color: #aa1e1e;" : "");
}

void StudyPanel::documentChanged() {
    picker_->setModelText(QByteArray::fromStdString(serializeModelDocument(document_->document())));
    updateQuantities();
}

void StudyPanel::updateQuantities() {
    const LoadedModel& loaded = document_->loaded();
    if (!loaded.ok()) return;
    StudyAnalysis analysis;
    if (!parseStudyAnalysis(editor_->analysisType().toStdString(), analysis.type)) return;
    QStringList names;
    for (const std::string& n : studyQuantities(*loaded.model, analysis)) names << QString::fromStdString(n);
    editor_->setQuantities(names);
}

QString StudyPanel::studyJsonText(const QString& modelReference) const {
    return QString::fromUtf8(QJsonDocument(editor_->toJson(modelReference)).toJson(QJsonDocument::Indented));
}

bool StudyPanel::runStudy() {
    if (job_->isRunning()) {
        setStatus(tr("A study is running: cancel it first."), true);
        return false;
    }
    if (modelPath_.isEmpty()) {
        setStatus(tr("Save the model first: a study varies a model file."), true);
        return false;
    }
    if (samePath(modelPath_, document_->filePath()) && document_->isModified()) {
        setStatus(tr("Save the model first: the study varies the model file, and it differs from the edited model."),
                  true);
        return false;
    }
    // The study as the file the panel would save, with the model named absolutely.
    const QString text = studyJsonText(QFileInfo(modelPath_).absoluteFilePath());
    const std::string label = studyPath_.isEmpty() ? std::string("study panel") : studyPath_.toStdString();
    StudyFileResult r = parseStudyFile(text.toStdString(), label);
    if (!r.study) {
        setStatus(QString::fromStdString(formatDiagnostics(r.diagnostics)), true);
        return false;
    }
    study_ = std::move(r.study);
    total_ = studyCaseCount(*study_);
    std::vector<long> cases;
    cases.reserve(size_t(total_));
    for (long k = 0; k < total_; ++k) cases.push_back(k);
    results_->reset(*study_);
    progress_->setRange(0, int(std::min<long>(total_, 1L << 30)));
    progress_->setValue(0);
    if (!job_->start(*study_, cases, threads_->value())) return false;
    run_->setEnabled(false);
    cancel_->setEnabled(true);
    setStatus(tr("Running %1 cases on %2 threads…").arg(total_).arg(threads_->value()));
    return true;
}

void StudyPanel::cancelStudy() {
    if (!job_->isRunning()) return;
    job_->cancel();
    cancel_->setEnabled(false);
    setStatus(tr("Cancelling: the cases in progress end…"));
}

bool StudyPanel::saveStudy(const QString& path, QString* error) {
    const QString model = modelPath_.isEmpty() ? QString()
                                               : QFileInfo(path).absoluteDir().relativeFilePath(
                                                     QFileInfo(modelPath_).absoluteFilePath());
    QSaveFile f(path);
    const QByteArray bytes = studyJsonText(model).toUtf8();
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
        *error = tr("Cannot write %1: %2").arg(path, f.errorString());
        return false;
    }
    studyPath_ = path;
    setStatus(tr("Saved %1").arg(path));
    return true;
}

bool StudyPanel::openStudy(const QString& path, QString* error) {
    // Read as the core reads study files: a directory or a source that never ends
    // (/dev/zero) is refused with the reason instead of freezing the window.
    std::string text, why;
    if (!readInputFile(path.toStdString(), "study file", text, why)) {
        *error = tr("Cannot read %1: %2").arg(path, QString::fromStdString(why));
        return false;
    }
    QJsonParseError pe;
    const QJsonDocument json = QJsonDocument::fromJson(QByteArray::fromStdString(text), &pe);
    if (!json.isObject()) {
        *error = tr("%1: not a study file: %2").arg(path, pe.errorString());
        return false;
    }
    const QString model = json.object().value("model").toString();
    studyPath_ = path;
    modelPath_ = model.isEmpty() ? QString() : QFileInfo(path).absoluteDir().absoluteFilePath(model);
    // The model tree and the outputs on offer come from the workbench's model: show the
    // study's, unless that would drop unsaved edits of another one.
    const QString studyModel = modelPath_;
    QString note;
    if (!studyModel.isEmpty() && !samePath(studyModel, document_->filePath())) {
        QString why;
        if (document_->isModified())
            note = tr("; the workbench keeps its edited model, so the model tree is not the study's");
        else if (!document_->open(studyModel, &why))
            note = tr("; its model does not open: %1").arg(why);
    }
    modelPath_ = studyModel;  // opening the model resets it to the same file; a failure must not change it
    editor_->fromJson(json.object());
    updateQuantities();
    setStatus(tr("Opened %1 (model %2)%3").arg(path, modelPath_, note));
    return true;
}

bool StudyPanel::openCase(long caseIndex) {
    const StudyRow* row = results_->row(caseIndex);
    if (!study_ || !row) {
        setStatus(tr("No case %1 in the results.").arg(caseIndex), true);
        return false;
    }
    if (!samePath(QString::fromStdString(study_->modelPath), document_->filePath())) {
        // Another model is shown: open the study's, unless that would drop the user's edits.
        if (document_->isModified()) {
            setStatus(tr("The workbench holds unsaved edits of another model: save them before opening a case."), true);
            return false;
        }
        QString error;
        if (!document_->open(QString::fromStdString(study_->modelPath), &error)) {
            setStatus(error, true);
            return false;
        }
    }
    // The case's values written into the document as it is now: the user's other edits
    // stay, and one undo step brings the values back.
    try {
        const std::string text = applyStudyValues(*study_, serializeModelDocument(document_->document()), row->parameters);
        const DocumentResult variant = parseModelDocument(text, study_->modelPath);
        if (!variant.document) {
            setStatus(QString::fromStdString(formatDiagnostics(variant.diagnostics)), true);
            return false;
        }
        const ModelDocument doc = *variant.document;
        document_->edit(tr("Open study case %1").arg(caseIndex), [&doc](ModelDocument& d) { d = doc; });
    } catch (const std::exception& e) {
        setStatus(tr("Cannot apply case %1 to the model: %2").arg(caseIndex).arg(e.what()), true);
        return false;
    }
    QStringList values;
    for (size_t i = 0; i < study_->parameters.size(); ++i)
        values << QString("%1 = %2").arg(QString::fromStdString(study_->parameters[i].name))
                      .arg(row->parameters[i], 0, 'g', 10);
    const QString text = tr("Case %1 opened (%2); Undo returns to the model before it.").arg(caseIndex).arg(values.join(", "));
    setStatus(text);
    emit message(text);
    return true;
}

}  // namespace looplab::ui
