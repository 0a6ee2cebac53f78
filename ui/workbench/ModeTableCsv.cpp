#include "workbench/ModeTableCsv.h"

#include <QSaveFile>

namespace looplab::ui {

namespace {

QString csvField(const QString& s)
{
    if (!s.contains(',') && !s.contains('"') && !s.contains('\n'))
        return s;
    QString quoted = s;
    quoted.replace('"', "\"\"");
    return '"' + quoted + '"';
}

// Full precision, so the file reads back to the same doubles.
QString number(double x) { return QString::number(x, 'g', 17); }

}  // namespace

QString modeTableCsv(const Model& model, const ModesResult& modes)
{
    QStringList header{"mode", "frequency_hz", "damping_ratio", "squared_frequency"};
    std::vector<QString> names(static_cast<size_t>(model.velocitySize()));
    for (int b = 1; b < model.bodyCount(); ++b) {
        const Body& body = model.bodies[static_cast<size_t>(b)];
        for (int k = 0; k < body.slice.velocitySize; ++k)
            names[static_cast<size_t>(body.slice.velocityOffset + k)] =
                QString::fromStdString(body.name + "." + body.formulation->velocityName(k));
    }
    for (const QString& n : names)
        header << csvField("shape." + n);
    for (const EquationLabel& e : model.equations)
        header << csvField(QString::fromStdString("lambda." + e.owner + "." + e.component));
    QString text = header.join(',') + '\n';
    for (size_t k = 0; k < modes.modes.size(); ++k) {
        const Mode& m = modes.modes[k];
        QStringList row{QString::number(k + 1), number(m.frequencyHz), number(m.dampingRatio),
                        number(m.squaredFrequency)};
        for (int i = 0; i < m.shape.size(); ++i)
            row << number(m.shape[i]);
        for (int i = 0; i < m.multipliers.size(); ++i)
            row << number(m.multipliers[i]);
        text += row.join(',') + '\n';
    }
    return text;
}

bool writeModeTableCsv(const QString& path, const Model& model, const ModesResult& modes, QString* error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
        if (error)
            *error = QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    const QByteArray bytes = modeTableCsv(model, modes).toUtf8();
    if (file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

}  // namespace looplab::ui
