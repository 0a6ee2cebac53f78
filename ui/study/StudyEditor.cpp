#include "study/StudyEditor.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace looplab::ui {

namespace {

const QStringList kKinds = {"range", "list", "normal", "uniform"};
const QStringList kAnalyses = {"check", "kinematics", "simulate", "statics", "modes"};
const QStringList kStatistics = {"final", "initial", "min", "max"};

QString number(double v) { return QString::number(v, 'g', 17); }

double cellNumber(const QTableWidget* t, int row, int column, bool* ok) {
    const QTableWidgetItem* item = t->item(row, column);
    return item ? item->text().trimmed().toDouble(ok) : (*ok = false, 0.0);
}

}  // namespace

StudyEditor::StudyEditor(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    auto* top = new QFormLayout;
    name_ = new QLineEdit;
    name_->setObjectName("studyName");
    top->addRow(tr("Study name"), name_);
    layout->addLayout(top);

    auto* paramBox = new QGroupBox(tr("Parameters (double-click a number in the model tree to add it)"));
    auto* paramLayout = new QVBoxLayout(paramBox);
    parameters_ = new QTableWidget(0, 7);
    parameters_->setObjectName("studyParameters");
    parameters_->setHorizontalHeaderLabels(
        {tr("Name"), tr("Model path"), tr("Varies as"), tr("From / mean / low"), tr("To / sd / high"), tr("Steps"),
         tr("Values (list)")});
    parameters_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    parameters_->verticalHeader()->setVisible(false);
    paramLayout->addWidget(parameters_);
    auto* remove = new QPushButton(tr("Remove parameter"));
    connect(remove, &QPushButton::clicked, this, [this] {
        if (parameters_->currentRow() >= 0) removeParameter(parameters_->currentRow());
    });
    paramLayout->addWidget(remove, 0, Qt::AlignLeft);
    auto* mc = new QFormLayout;
    seed_ = new QLineEdit("1");
    seed_->setObjectName("studySeed");
    samples_ = new QSpinBox;
    samples_->setObjectName("studySamples");
    samples_->setRange(1, 10000000);
    samples_->setValue(100);
    mc->addRow(tr("Monte Carlo seed"), seed_);
    mc->addRow(tr("Monte Carlo samples"), samples_);
    paramLayout->addLayout(mc);
    layout->addWidget(paramBox);
    connect(parameters_, &QTableWidget::itemChanged, this, [this] { emit changed(); });

    auto* analysisBox = new QGroupBox(tr("Analysis of every case"));
    auto* analysisForm = new QFormLayout(analysisBox);
    analysis_ = new QComboBox;
    analysis_->setObjectName("studyAnalysis");
    analysis_->addItems(kAnalyses);
    analysis_->setCurrentText("kinematics");
    tEnd_ = new QLineEdit("1");
    tEnd_->setObjectName("studyTEnd");
    step_ = new QLineEdit("0.01");
    step_->setObjectName("studyStep");
    analysisForm->addRow(tr("Type"), analysis_);
    analysisForm->addRow(tr("Time span [s]"), tEnd_);
    analysisForm->addRow(tr("Step (kinematics) [s]"), step_);
    layout->addWidget(analysisBox);
    connect(analysis_, &QComboBox::currentTextChanged, this, [this](const QString& type) {
        tEnd_->setEnabled(type == "kinematics" || type == "simulate");
        step_->setEnabled(type == "kinematics");
        extraAnalysis_ = {};  // settings of another analysis type would not apply
        emit analysisChanged(type);
        emit changed();
    });

    auto* outputBox = new QGroupBox(tr("Outputs kept per case"));
    auto* outputLayout = new QVBoxLayout(outputBox);
    auto* addRow = new QHBoxLayout;
    quantity_ = new QComboBox;
    quantity_->setObjectName("studyQuantity");
    quantity_->setEditable(true);
    quantity_->setMinimumContentsLength(16);
    statistic_ = new QComboBox;
    statistic_->setObjectName("studyStatistic");
    statistic_->addItems(kStatistics);
    auto* add = new QPushButton(tr("Add output"));
    add->setObjectName("studyAddOutput");
    addRow->addWidget(quantity_, 1);
    addRow->addWidget(statistic_);
    addRow->addWidget(add);
    outputLayout->addLayout(addRow);
    outputs_ = new QListWidget;
    outputs_->setObjectName("studyOutputs");
    outputs_->setMaximumHeight(110);
    outputLayout->addWidget(outputs_);
    auto* removeOutput = new QPushButton(tr("Remove output"));
    outputLayout->addWidget(removeOutput, 0, Qt::AlignLeft);
    layout->addWidget(outputBox);
    connect(add, &QPushButton::clicked, this,
            [this] { addOutput(quantity_->currentText().trimmed(), statistic_->currentText()); });
    connect(removeOutput, &QPushButton::clicked, this, [this] {
        delete outputs_->currentItem();
        emit changed();
    });
    updateDesign();
}

QComboBox* StudyEditor::kindBox(int row) const {
    return qobject_cast<QComboBox*>(parameters_->cellWidget(row, KindColumn));
}

int StudyEditor::addParameter(const QString& pointer, double value) {
    for (int r = 0; r < parameters_->rowCount(); ++r)
        if (parameters_->item(r, PathColumn)->text() == pointer) return r;
    const int row = parameters_->rowCount();
    parameters_->insertRow(row);
    // The default name: the pointer's last tokens without slashes, a valid column name.
    QString name = pointer.mid(1);
    name.replace('/', '_');
    parameters_->setItem(row, NameColumn, new QTableWidgetItem(name));
    auto* path = new QTableWidgetItem(pointer);
    path->setFlags(path->flags() & ~Qt::ItemIsEditable);
    parameters_->setItem(row, PathColumn, path);
    for (int c : {FirstColumn, SecondColumn, StepsColumn, ValuesColumn}) parameters_->setItem(row, c, new QTableWidgetItem);
    auto* kind = new QComboBox;
    kind->addItems(kKinds);
    parameters_->setCellWidget(row, KindColumn, kind);
    connect(kind, &QComboBox::currentTextChanged, this, [this] {
        updateDesign();
        emit changed();
    });
    const double spread = value != 0 ? 0.1 * std::abs(value) : 0.1;
    setRange(row, value - spread, value + spread, 5);
    emit changed();
    return row;
}

void StudyEditor::setRange(int row, double from, double to, int steps) {
    kindBox(row)->setCurrentText("range");
    parameters_->item(row, FirstColumn)->setText(number(from));
    parameters_->item(row, SecondColumn)->setText(number(to));
    parameters_->item(row, StepsColumn)->setText(QString::number(steps));
}

void StudyEditor::setList(int row, const QList<double>& values) {
    kindBox(row)->setCurrentText("list");
    QStringList t;
    for (double v : values) t << number(v);
    parameters_->item(row, ValuesColumn)->setText(t.join(", "));
}

void StudyEditor::setNormal(int row, double mean, double sd) {
    kindBox(row)->setCurrentText("normal");
    parameters_->item(row, FirstColumn)->setText(number(mean));
    parameters_->item(row, SecondColumn)->setText(number(sd));
}

void StudyEditor::setUniform(int row, double low, double high) {
    kindBox(row)->setCurrentText("uniform");
    parameters_->item(row, FirstColumn)->setText(number(low));
    parameters_->item(row, SecondColumn)->setText(number(high));
}

void StudyEditor::setParameterName(int row, const QString& name) { parameters_->item(row, NameColumn)->setText(name); }

void StudyEditor::removeParameter(int row) {
    parameters_->removeRow(row);
    updateDesign();
    emit changed();
}

int StudyEditor::parameterCount() const { return parameters_->rowCount(); }

void StudyEditor::setMonteCarlo(qint64 seed, int samples) {
    seed_->setText(QString::number(seed));
    samples_->setValue(samples);
}

void StudyEditor::setAnalysis(const QString& type, double tEnd, double step) {
    analysis_->setCurrentText(type);
    tEnd_->setText(number(tEnd));
    step_->setText(number(step));
}

QString StudyEditor::analysisType() const { return analysis_->currentText(); }

void StudyEditor::addOutput(const QString& quantity, const QString& statistic) {
    if (quantity.isEmpty()) return;
    const QString column = quantity + "." + statistic;
    for (int i = 0; i < outputs_->count(); ++i)
        if (outputs_->item(i)->text() == column) return;
    auto* item = new QListWidgetItem(column, outputs_);
    item->setData(Qt::UserRole, quantity);
    item->setData(Qt::UserRole + 1, statistic);
    emit changed();
}

void StudyEditor::clearOutputs() {
    outputs_->clear();
    emit changed();
}

void StudyEditor::setQuantities(const QStringList& quantities) {
    const QString current = quantity_->currentText();
    quantity_->clear();
    quantity_->addItems(quantities);
    if (!current.isEmpty()) quantity_->setCurrentText(current);
}

void StudyEditor::updateDesign() {
    bool random = false;
    for (int r = 0; r < parameters_->rowCount(); ++r) {
        const QString kind = kindBox(r)->currentText();
        random = random || kind == "normal" || kind == "uniform";
    }
    seed_->setEnabled(random);
    samples_->setEnabled(random);
}

QJsonObject StudyEditor::toJson(const QString& model) const {
    QJsonObject s;
    s["format"] = "looplab-study";
    s["version"] = 1;
    if (!name_->text().isEmpty()) s["name"] = name_->text();
    if (!description_.isEmpty()) s["description"] = description_;
    s["model"] = model;
    QJsonArray params;
    bool random = false;
    for (int r = 0; r < parameters_->rowCount(); ++r) {
        QJsonObject p;
        const QString name = parameters_->item(r, NameColumn)->text().trimmed();
        if (!name.isEmpty()) p["name"] = name;  // otherwise the reader names it by its path
        p["path"] = parameters_->item(r, PathColumn)->text();
        const QString kind = kindBox(r)->currentText();
        // Text that is not a number goes into the file as text, so that the study reader
        // names the parameter and the problem.
        const auto value = [&](int column) -> QJsonValue {
            bool ok = false;
            const double v = cellNumber(parameters_, r, column, &ok);
            return ok ? QJsonValue(v) : QJsonValue(parameters_->item(r, column)->text());
        };
        if (kind == "range") {
            bool ok = false;
            const int steps = parameters_->item(r, StepsColumn)->text().trimmed().toInt(&ok);
            p["range"] = QJsonObject{{"from", value(FirstColumn)},
                                     {"to", value(SecondColumn)},
                                     {"steps", ok ? QJsonValue(steps) : QJsonValue(parameters_->item(r, StepsColumn)->text())}};
        } else if (kind == "list") {
            QJsonArray values;
            for (const QString& t : parameters_->item(r, ValuesColumn)->text().split(',', Qt::SkipEmptyParts)) {
                bool ok = false;
                const double v = t.trimmed().toDouble(&ok);
                values.append(ok ? QJsonValue(v) : QJsonValue(t.trimmed()));
            }
            p["values"] = values;
        } else if (kind == "normal") {
            p["normal"] = QJsonObject{{"mean", value(FirstColumn)}, {"sd", value(SecondColumn)}};
            random = true;
        } else {
            p["uniform"] = QJsonObject{{"low", value(FirstColumn)}, {"high", value(SecondColumn)}};
            random = true;
        }
        params.append(p);
    }
    s["parameters"] = params;
    if (random) {
        bool ok = false;
        const qint64 seed = seed_->text().trimmed().toLongLong(&ok);
        s["seed"] = ok ? QJsonValue(seed) : QJsonValue(seed_->text());
        s["samples"] = samples_->value();
    }
    QJsonObject a = extraAnalysis_;
    const QString type = analysis_->currentText();
    a["type"] = type;
    if (type == "kinematics" || type == "simulate") a["t_end"] = tEnd_->text().toDouble();
    if (type == "kinematics") a["step"] = step_->text().toDouble();
    s["analysis"] = a;
    QJsonArray outs;
    for (int i = 0; i < outputs_->count(); ++i)
        outs.append(QJsonObject{{"quantity", outputs_->item(i)->data(Qt::UserRole).toString()},
                                {"of", outputs_->item(i)->data(Qt::UserRole + 1).toString()}});
    if (!outs.isEmpty() || type != "check") s["outputs"] = outs;
    return s;
}

void StudyEditor::fromJson(const QJsonObject& study) {
    name_->setText(study.value("name").toString());
    description_ = study.value("description").toString();
    parameters_->setRowCount(0);
    for (const QJsonValue& v : study.value("parameters").toArray()) {
        const QJsonObject p = v.toObject();
        const int row = addParameter(p.value("path").toString(), 0.0);
        if (p.contains("name")) setParameterName(row, p.value("name").toString());
        if (p.contains("range")) {
            const QJsonObject r = p.value("range").toObject();
            setRange(row, r.value("from").toDouble(), r.value("to").toDouble(), r.value("steps").toInt());
        } else if (p.contains("values")) {
            QList<double> values;
            for (const QJsonValue& x : p.value("values").toArray()) values << x.toDouble();
            setList(row, values);
        } else if (p.contains("normal")) {
            const QJsonObject n = p.value("normal").toObject();
            setNormal(row, n.value("mean").toDouble(), n.value("sd").toDouble());
        } else if (p.contains("uniform")) {
            const QJsonObject u = p.value("uniform").toObject();
            setUniform(row, u.value("low").toDouble(), u.value("high").toDouble());
        }
    }
    if (study.contains("seed")) seed_->setText(QString::number(study.value("seed").toInteger()));
    if (study.contains("samples")) samples_->setValue(study.value("samples").toInt());
    QJsonObject a = study.value("analysis").toObject();
    analysis_->setCurrentText(a.value("type").toString("check"));
    if (a.contains("t_end")) tEnd_->setText(number(a.value("t_end").toDouble()));
    if (a.contains("step") && a.value("type").toString() == "kinematics") {
        step_->setText(number(a.value("step").toDouble()));
        a.remove("step");
    }
    a.remove("type");
    a.remove("t_end");
    extraAnalysis_ = a;
    outputs_->clear();
    for (const QJsonValue& v : study.value("outputs").toArray()) {
        const QJsonObject o = v.toObject();
        const QString q = o.value("quantity").toString();
        const QJsonValue of = o.value("of");
        if (of.isArray()) {
            for (const QJsonValue& s : of.toArray()) addOutput(q, s.toString());
        } else {
            addOutput(q, of.toString("final"));
        }
    }
    updateDesign();
    emit changed();
}

}  // namespace looplab::ui
