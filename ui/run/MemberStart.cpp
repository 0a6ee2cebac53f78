#include "run/MemberStart.h"

#include <QObject>

#include <cmath>

namespace looplab::ui {

namespace {

// Energies span from rounding (1e-17 J) to joules: two digits, with a power of ten
// written out of the range where decimals read well ("7.2e-4", "0.35", "12").
QString energyText(double e)
{
    if (e == 0.0 || !std::isfinite(e))
        return QString::number(e);
    int exponent = static_cast<int>(std::floor(std::log10(std::abs(e))));
    if (exponent >= -2 && exponent < 3)
        return QString::number(e, 'g', 2);
    double mantissa = e / std::pow(10.0, exponent);
    if (std::abs(mantissa) >= 9.95) {  // 9.97e-4 reads 1.0e-3, not 10.0e-4
        mantissa /= 10.0;
        ++exponent;
    }
    return QString::number(mantissa, 'f', 1) + "e" + QString::number(exponent);
}

}  // namespace

StartMotion modelStart(const ModelDocument& doc)
{
    StartMotion start = StartMotion::Consistent;
    if (doc.run.start)
        parseStartMotion(*doc.run.start, start);
    return start;
}

bool startWorthReporting(const StartReport& report) { return !report.member.empty() || !report.message.empty(); }

QString startReportText(const StartReport& report, StartMotion start)
{
    QString text = QObject::tr("The %1 start gave the members %2 J of vibration energy")
                       .arg(QString::fromLatin1(startMotionName(start)), energyText(report.vibrationEnergy));
    if (!report.member.empty())
        text += QObject::tr(", most in %1").arg(QString::fromStdString(report.member));
    if (!report.message.empty())
        text += ": " + QString::fromStdString(report.message) + ".";
    else if (report.rigidField)
        text += QObject::tr(": they move with the mechanism as rigid bodies would, without straining.");
    else if (start == StartMotion::Rest && report.vibrationEnergy > 0.0)
        text += QObject::tr(": they vibrate from the start; the consistent start moves them with the mechanism "
                            "instead.");
    else
        text += ".";
    return text;
}

}  // namespace looplab::ui
