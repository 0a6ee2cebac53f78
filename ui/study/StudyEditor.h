#pragma once
// The study being set up in the Study panel, as widgets: the parameters (each a list, a
// range with steps, or a normal or uniform distribution), the Monte Carlo seed and sample
// count, the analysis with its time span and step, and the outputs (a quantity and what is
// kept of it). It reads and writes the study file's JSON (docs/study-format.md); settings
// of a file it has no widget for are kept as they were.

#include <QJsonObject>
#include <QStringList>
#include <QWidget>

class QComboBox;
class QLineEdit;
class QListWidget;
class QSpinBox;
class QTableWidget;

namespace looplab::ui {

class StudyEditor : public QWidget {
    Q_OBJECT

public:
    enum Column { NameColumn, PathColumn, KindColumn, FirstColumn, SecondColumn, StepsColumn, ValuesColumn };

    explicit StudyEditor(QWidget* parent = nullptr);

    /// Adds a parameter varying the number at `pointer` (value `value` in the file): a
    /// range of 5 steps from 90 % to 110 % of the value. Returns its row.
    int addParameter(const QString& pointer, double value);
    /// Sets parameter `row` to a range; to a list, normal or uniform with the set functions below.
    void setRange(int row, double from, double to, int steps);
    void setList(int row, const QList<double>& values);
    void setNormal(int row, double mean, double sd);
    void setUniform(int row, double low, double high);
    void setParameterName(int row, const QString& name);
    void removeParameter(int row);
    int parameterCount() const;

    void setMonteCarlo(qint64 seed, int samples);
    /// "check", "kinematics", "simulate", "statics" or "modes".
    void setAnalysis(const QString& type, double tEnd, double step);
    QString analysisType() const;
    void addOutput(const QString& quantity, const QString& statistic);
    void clearOutputs();
    /// The quantities the current model and analysis offer as outputs.
    void setQuantities(const QStringList& quantities);

    /// The study as a study file's JSON, naming `model` as its model file.
    QJsonObject toJson(const QString& model) const;
    /// Takes a study file's JSON (its model is the caller's business).
    void fromJson(const QJsonObject& study);

    QTableWidget* parameterTable() const { return parameters_; }

signals:
    void changed();
    /// The analysis type changed: the quantities on offer depend on it.
    void analysisChanged(const QString& type);

private:
    QComboBox* kindBox(int row) const;
    void updateDesign();

    QLineEdit* name_;
    QTableWidget* parameters_;
    QLineEdit* seed_;
    QSpinBox* samples_;
    QComboBox* analysis_;
    QLineEdit* tEnd_;
    QLineEdit* step_;
    QComboBox* quantity_;
    QComboBox* statistic_;
    QListWidget* outputs_;
    QJsonObject extraAnalysis_;  ///< analysis settings from a file without a widget here
    QString description_;
};

}  // namespace looplab::ui
