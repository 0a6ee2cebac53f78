#include "run/RunPanel.h"

#include "looplab/integrate/MethodRegistry.h"
#include "document/DocumentOperations.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <variant>

namespace looplab::ui {

namespace {

// Tolerances span many decades: show them in scientific notation.
class ScientificSpinBox : public QDoubleSpinBox {
public:
    ScientificSpinBox()
    {
        setDecimals(20);
        setRange(1e-16, 1.0);
        setKeyboardTracking(false);
    }
    QString textFromValue(double value) const override { return QString::number(value, 'g', 3); }
    double valueFromText(const QString& text) const override { return text.toDouble(); }
    QValidator::State validate(QString& text, int&) const override
    {
        bool ok = false;
        text.toDouble(&ok);
        return ok ? QValidator::Acceptable : QValidator::Intermediate;
    }
    void stepBy(int steps) override { setValue(value() * std::pow(10.0, steps)); }
};

// The methods' real parameters keep the double the user gave, to the last bit: α =
// −1/3 (the end of HHT's range, read from a file or typed as −0.3333333333333333) must
// reach the solver and the saved model as −1/3, not as six decimals of it. The text is
// the shortest that reads back to the same double (formatNumberList, as the property
// editor writes numbers), in the C locale as the tolerance boxes read theirs. QDoubleSpinBox
// rounds every value it is given to decimals() places, so decimals() is the most Qt allows
// (DBL_MAX_10_EXP + DBL_DIG), which leaves every double of these ranges as it is. The box
// holds the core's range, so a value outside it cannot be entered; a range open at its low
// end (Newmark β > 0) starts one last decimal above it. A value that spans decades (a
// penalty factor, a tolerance: no increment) steps tenfold.
class ParameterSpinBox : public QDoubleSpinBox {
public:
    ParameterSpinBox(const ParameterRange& range, double increment) : tenfold_(increment <= 0.0)
    {
        setDecimals(std::numeric_limits<double>::max_exponent10 + std::numeric_limits<double>::digits10);
        setRange(range.lowInclusive ? range.low : range.low + std::pow(10.0, -decimals()),
                 std::min(range.high, std::numeric_limits<double>::max()));
        setSingleStep(tenfold_ ? 1.0 : increment);
        setKeyboardTracking(false);
    }
    void stepBy(int steps) override
    {
        if (tenfold_ && value() > 0.0)
            setValue(value() * std::pow(10.0, steps));
        else
            QDoubleSpinBox::stepBy(steps);
    }
    QString textFromValue(double value) const override
    {
        // value + 0.0 turns −0 into 0, which would otherwise show as "-0".
        return QString::fromStdString(formatNumberList({value + 0.0}));
    }
    double valueFromText(const QString& text) const override { return text.trimmed().toDouble(); }
    QValidator::State validate(QString& text, int&) const override
    {
        bool ok = false;
        const double value = text.trimmed().toDouble(&ok);
        if (ok)
            return value >= minimum() && value <= maximum() ? QValidator::Acceptable : QValidator::Intermediate;
        // The beginning of a number ("-", "0.", "1e") may still become one.
        static const QRegularExpression partial(QStringLiteral("^\\s*[+-]?[0-9]*\\.?[0-9]*([eE][+-]?[0-9]*)?\\s*$"));
        return partial.match(text).hasMatch() ? QValidator::Intermediate : QValidator::Invalid;
    }

private:
    bool tenfold_;
};

// "hhtAlpha" for "hht-alpha": the field's object name.
QString camelCase(const std::string& key)
{
    QString name;
    bool upper = false;
    for (char c : key) {
        if (c == '-') {
            upper = true;
            continue;
        }
        name += upper ? QChar(c).toUpper() : QChar(c);
        upper = false;
    }
    return name;
}

QAbstractSpinBox* parameterField(const ParameterInfo& p)
{
    QAbstractSpinBox* field = nullptr;
    if (p.type == ParameterType::Count) {
        auto* spin = new QSpinBox;
        spin->setRange(int(p.range.low), int(p.range.high));
        spin->setSingleStep(std::max(1, int(p.increment)));
        spin->setKeyboardTracking(false);
        field = spin;
    } else {
        field = new ParameterSpinBox(p.range, p.increment);
    }
    field->setObjectName(camelCase(p.key));
    field->setToolTip(QString::fromStdString(p.description + "; " + p.rangeText() + "."));
    return field;
}

double fieldValue(const QAbstractSpinBox* field)
{
    if (auto* spin = qobject_cast<const QSpinBox*>(field))
        return spin->value();
    return static_cast<const QDoubleSpinBox*>(field)->value();
}

void setFieldValue(QAbstractSpinBox* field, double value)
{
    if (auto* spin = qobject_cast<QSpinBox*>(field))
        spin->setValue(int(std::lround(value)));
    else
        static_cast<QDoubleSpinBox*>(field)->setValue(value);
}

QDoubleSpinBox* timeSpin(double minimum, double maximum, double value, int decimals)
{
    auto* spin = new QDoubleSpinBox;
    spin->setRange(minimum, maximum);
    spin->setDecimals(decimals);
    spin->setValue(value);
    spin->setSuffix(" s");
    spin->setKeyboardTracking(false);
    return spin;
}

}  // namespace

RunPanel::RunPanel(QWidget* parent) : QWidget(parent)
{
    auto* outer = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    form_ = form;
    method_ = new QComboBox;
    method_->setObjectName("method");
    for (const ConstraintMethodInfo& m : constraintMethods()) {
        method_->addItem(QString::fromStdString(m.name));
        method_->setItemData(method_->count() - 1, QString::fromStdString(m.description), Qt::ToolTipRole);
    }
    integrator_ = new QComboBox;
    integrator_->setObjectName("integrator");
    for (const IntegratorInfo& i : integrators()) {
        integrator_->addItem(QString::fromStdString(i.name));
        integrator_->setItemData(integrator_->count() - 1, QString::fromStdString(i.description), Qt::ToolTipRole);
    }
    tEnd_ = timeSpin(1e-6, 1e6, 1.0, 4);
    tEnd_->setObjectName("tEnd");
    rtol_ = new ScientificSpinBox;
    rtol_->setObjectName("rtol");
    atol_ = new ScientificSpinBox;
    atol_->setObjectName("atol");
    step_ = timeSpin(1e-9, 10.0, 1e-3, 9);
    step_->setObjectName("step");
    outputStep_ = timeSpin(1e-6, 1e3, 0.01, 6);
    outputStep_->setObjectName("outputStep");
    form->addRow(tr("Method"), method_);
    form->addRow(tr("Integrator"), integrator_);
    // The methods' own parameters under the pair, except those of the step size, which
    // go with the step.
    std::vector<std::pair<const ParameterInfo*, QAbstractSpinBox*>> stepParameters;
    for (const ParameterInfo& p : methodParameters()) {
        if (p.runField)
            continue;
        QAbstractSpinBox* field = parameterField(p);
        parameterFields_.emplace_back(&p, field);
        if (std::holds_alternative<double OdeSettings::*>(p.field))
            stepParameters.emplace_back(&p, field);
        else
            form->addRow(QString::fromStdString(p.label), field);
    }
    // The core's list of starts, so that a start it adds shows here with its own words.
    start_ = new QComboBox;
    start_->setObjectName("start");
    start_->setToolTip(tr("How beams and solids start moving at t = 0 (rigid bodies take the velocities the "
                          "model gives them). Saved with the model."));
    for (const StartMotionChoice& c : startMotionChoices()) {
        start_->addItem(QString::fromLatin1(c.name), static_cast<int>(c.motion));
        start_->setItemData(start_->count() - 1, QString::fromUtf8(c.description), Qt::ToolTipRole);
    }
    form->addRow(tr("Start"), start_);
    form->addRow(tr("End time"), tEnd_);
    form->addRow(tr("Relative tolerance"), rtol_);
    form->addRow(tr("Absolute tolerance"), atol_);
    step_->setToolTip(tr("The step of a fixed-step integrator; adaptive ones choose their own."));
    form->addRow(tr("Step"), step_);
    for (const auto& [p, field] : stepParameters)
        form->addRow(QString::fromStdString(p->label), field);
    form->addRow(tr("Output step"), outputStep_);
    pace_ = new QComboBox;
    pace_->setObjectName("pace");
    pace_->setToolTip(tr("Slow a fast run down to watch it move; the recording is the same at any pace."));
    pace_->addItem(tr("As fast as possible"), 0.0);
    for (double factor : {0.1, 0.25, 0.5, 1.0, 2.0, 5.0})
        pace_->addItem(factor == 1.0 ? tr("Real time") : tr("%1× real time").arg(factor), factor);
    form->addRow(tr("Pace"), pace_);
    linearAlgebra_ = new QComboBox;
    linearAlgebra_->setObjectName("linearAlgebra");
    linearAlgebra_->setToolTip(tr("Factorisations of the constraint Jacobian: dense for small models, "
                                  "sparse (SuiteSparseQR, sparse Cholesky) for large ones; automatic "
                                  "switches above %1 coordinates.").arg(kSparseCoordinateThreshold));
    for (LinearAlgebra la : {LinearAlgebra::Automatic, LinearAlgebra::Dense, LinearAlgebra::Sparse})
        linearAlgebra_->addItem(QString::fromLatin1(linearAlgebraName(la)), static_cast<int>(la));
    form->addRow(tr("Linear algebra"), linearAlgebra_);
    outer->addLayout(form);

    auto* buttons = new QGridLayout;
    run_ = new QPushButton(tr("Run"));
    pause_ = new QPushButton(tr("Pause"));
    resume_ = new QPushButton(tr("Resume"));
    stop_ = new QPushButton(tr("Stop"));
    reset_ = new QPushButton(tr("Reset"));
    run_->setObjectName("run");
    pause_->setObjectName("pause");
    resume_->setObjectName("resume");
    stop_->setObjectName("stop");
    reset_->setObjectName("reset");
    buttons->addWidget(run_, 0, 0);
    buttons->addWidget(pause_, 0, 1);
    buttons->addWidget(resume_, 0, 2);
    buttons->addWidget(stop_, 1, 0);
    buttons->addWidget(reset_, 1, 1);
    // Run, its progress and its status come first, above the settings: on a small screen
    // (a projector's 1024 × 768) the panel's lower part is below the fold, and the button
    // a class waits for must not be there.
    outer->insertLayout(0, buttons);

    progress_ = new QProgressBar;
    progress_->setRange(0, 1000);
    progress_->setValue(0);
    progress_->setFormat(tr("t = 0 s"));
    outer->insertWidget(1, progress_);
    status_ = new QLabel;
    status_->setWordWrap(true);
    outer->insertWidget(2, status_);
    outer->addStretch();

    connect(run_, &QPushButton::clicked, this, &RunPanel::runRequested);
    connect(pause_, &QPushButton::clicked, this, &RunPanel::pauseRequested);
    connect(resume_, &QPushButton::clicked, this, &RunPanel::resumeRequested);
    connect(stop_, &QPushButton::clicked, this, &RunPanel::stopRequested);
    connect(reset_, &QPushButton::clicked, this, &RunPanel::resetRequested);
    connect(start_, &QComboBox::activated, this, [this] { emit startChosen(start()); });
    connect(integrator_, &QComboBox::currentTextChanged, this, &RunPanel::updateStepEnabled);
    connect(method_, &QComboBox::currentTextChanged, this, &RunPanel::updateStepEnabled);

    setSettings(SimulationSettings{});
    setState(false, false, false, false);
}

SimulationSettings RunPanel::settings() const
{
    SimulationSettings s;
    s.method = method_->currentText().toStdString();
    s.integrator = integrator_->currentText().toStdString();
    s.tEnd = tEnd_->value();
    s.ode.rtol = rtol_->value();
    s.ode.atol = atol_->value();
    s.outputStep = outputStep_->value();
    // The step box means "the step" only for a fixed-step integrator; the others choose
    // their own first step.
    s.ode.step = fixedStep() ? step_->value() : 0.0;
    s.constraints.linearAlgebra = static_cast<LinearAlgebra>(linearAlgebra_->currentData().toInt());
    for (const auto& [p, field] : parameterFields_)
        p->setValue(s.constraints, s.ode, fieldValue(field));
    return s;
}

void RunPanel::setSettings(const SimulationSettings& s)
{
    const int m = method_->findText(QString::fromStdString(s.method));
    if (m >= 0)
        method_->setCurrentIndex(m);
    const int i = integrator_->findText(QString::fromStdString(s.integrator));
    if (i >= 0)
        integrator_->setCurrentIndex(i);
    tEnd_->setValue(s.tEnd);
    rtol_->setValue(s.ode.rtol);
    atol_->setValue(s.ode.atol);
    if (s.ode.step > 0.0)
        step_->setValue(s.ode.step);
    outputStep_->setValue(s.outputStep);
    const int la = linearAlgebra_->findData(static_cast<int>(s.constraints.linearAlgebra));
    if (la >= 0)
        linearAlgebra_->setCurrentIndex(la);
    for (const auto& [p, field] : parameterFields_)
        setFieldValue(field, p->value(s.constraints, s.ode));
    updateStepEnabled();
}

void RunPanel::setMethodWithDefaults(const std::string& method)
{
    const ConstraintMethodInfo* info = findConstraintMethod(method);
    if (!info)
        return;
    SimulationSettings s = settings();
    s.method = info->name;
    s.integrator = info->defaults.integrator;
    s.ode.rtol = info->defaults.rtol;
    s.ode.atol = info->defaults.atol;
    setSettings(s);
}

double RunPanel::pace() const { return pace_->currentData().toDouble(); }

void RunPanel::setPace(double pace)
{
    pace = std::max(0.0, pace);
    int index = pace_->findData(pace);
    if (index < 0) {
        pace_->addItem(tr("%1× real time").arg(pace), pace);
        index = pace_->count() - 1;
    }
    pace_->setCurrentIndex(index);
}

StartMotion RunPanel::start() const { return static_cast<StartMotion>(start_->currentData().toInt()); }

void RunPanel::setStart(StartMotion start)
{
    const int index = start_->findData(static_cast<int>(start));
    if (index >= 0)
        start_->setCurrentIndex(index);
}

void RunPanel::setState(bool canRun, bool running, bool paused, bool hasRecording)
{
    run_->setEnabled(canRun && !running);
    pause_->setEnabled(running && !paused);
    resume_->setEnabled(running && paused);
    stop_->setEnabled(running);
    reset_->setEnabled(!running && hasRecording);
    for (QWidget* w : {static_cast<QWidget*>(method_), static_cast<QWidget*>(integrator_), static_cast<QWidget*>(start_),
                       static_cast<QWidget*>(tEnd_), static_cast<QWidget*>(outputStep_), static_cast<QWidget*>(pace_),
                       static_cast<QWidget*>(linearAlgebra_)})
        w->setEnabled(!running);
    running_ = running;
    updateStepEnabled();
}

void RunPanel::setProgress(double t, double tEnd, double realTimeFactor)
{
    progress_->setValue(tEnd > 0.0 ? static_cast<int>(std::lround(1000.0 * std::clamp(t / tEnd, 0.0, 1.0))) : 0);
    progress_->setFormat(realTimeFactor > 0.0
                             ? tr("t = %1 s   (%2× real time)").arg(t, 0, 'f', 3).arg(realTimeFactor, 0, 'g', 3)
                             : tr("t = %1 s").arg(t, 0, 'f', 3));
}

void RunPanel::setMessage(const QString& text) { status_->setText(text); }
QString RunPanel::message() const { return status_->text(); }

bool RunPanel::fixedStep() const
{
    const IntegratorInfo* info = findIntegrator(integrator_->currentText().toStdString());
    return info && info->stepControl == StepControl::Fixed;
}

void RunPanel::updateStepEnabled()
{
    // Only the settings the chosen integrator reads are editable, so that no edit is
    // silently without effect; integrators that do not pair with the method are greyed.
    // A method that pairs with other integrators than the current one (the two-loop
    // method integrates its constrained equations itself) takes its default integrator.
    const std::string method = method_->currentText().toStdString();
    if (!isSupportedPair(method, integrator_->currentText().toStdString())) {
        if (const ConstraintMethodInfo* info = findConstraintMethod(method)) {
            const int k = integrator_->findText(QString::fromStdString(info->defaults.integrator));
            if (k >= 0) {
                const QSignalBlocker block(integrator_);
                integrator_->setCurrentIndex(k);
            }
        }
    }
    const bool fixed = fixedStep();
    step_->setEnabled(!running_ && fixed);
    rtol_->setEnabled(!running_ && !fixed);
    atol_->setEnabled(!running_ && !fixed);
    // A parameter shows only while the chosen pair reads it, as the command line warns
    // about one it ignores: Baumgarte's α and β with baumgarte, HHT α with hht, ...
    for (const auto& [p, field] : parameterFields_) {
        const bool used = pairReads(method, integrator_->currentText().toStdString(), p->key);
        form_->setRowVisible(field, used);
        field->setEnabled(!running_ && used);
    }
    if (auto* items = qobject_cast<QStandardItemModel*>(integrator_->model())) {
        for (int k = 0; k < integrator_->count(); ++k) {
            std::string why;
            const bool ok = isSupportedPair(method, integrator_->itemText(k).toStdString(), &why);
            if (QStandardItem* item = items->item(k)) {
                item->setEnabled(ok);
                if (!ok)
                    item->setToolTip(QString::fromStdString(why));
            }
        }
    }
}

}  // namespace looplab::ui
