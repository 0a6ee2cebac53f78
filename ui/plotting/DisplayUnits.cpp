#include "plotting/DisplayUnits.h"

#include <QSettings>

#include <cmath>

namespace looplab::ui {

namespace {

constexpr double kDegreesPerRadian = 180.0 / M_PI;
constexpr double kRpmPerRadianPerSecond = 60.0 / (2.0 * M_PI);

}  // namespace

double UnitChoice::factor(const QString& siUnit) const {
    const bool degrees = angle == AngleUnit::Degree;
    if (siUnit == "rad") return degrees ? kDegreesPerRadian : 1.0;
    if (siUnit == "rad/s") {
        if (rate == RateUnit::Rpm) return kRpmPerRadianPerSecond;
        return degrees ? kDegreesPerRadian : 1.0;
    }
    if (siUnit == "rad/s²") return degrees ? kDegreesPerRadian : 1.0;
    return 1.0;
}

QString UnitChoice::unit(const QString& siUnit) const {
    const bool degrees = angle == AngleUnit::Degree;
    if (siUnit == "rad") return degrees ? QStringLiteral("°") : siUnit;
    if (siUnit == "rad/s") {
        if (rate == RateUnit::Rpm) return QStringLiteral("rpm");
        return degrees ? QStringLiteral("°/s") : siUnit;
    }
    if (siUnit == "rad/s²") return degrees ? QStringLiteral("°/s²") : siUnit;
    return siUnit;
}

DisplayUnits& DisplayUnits::instance() {
    static DisplayUnits units;
    return units;
}

DisplayUnits::DisplayUnits() { reload(); }

void DisplayUnits::reload() {
    const QSettings settings;
    choice_.angle = settings.value("units/angle").toString() == "deg" ? AngleUnit::Degree : AngleUnit::Radian;
    choice_.rate = settings.value("units/rate").toString() == "rpm" ? RateUnit::Rpm : RateUnit::RadianPerSecond;
    emit changed();
}

void DisplayUnits::save() const {
    QSettings settings;
    settings.setValue("units/angle", choice_.angle == AngleUnit::Degree ? "deg" : "rad");
    settings.setValue("units/rate", choice_.rate == RateUnit::Rpm ? "rpm" : "rad/s");
}

void DisplayUnits::setAngleUnit(AngleUnit unit) {
    if (choice_.angle == unit) return;
    choice_.angle = unit;
    save();
    emit changed();
}

void DisplayUnits::setRateUnit(RateUnit unit) {
    if (choice_.rate == unit) return;
    choice_.rate = unit;
    save();
    emit changed();
}

}  // namespace looplab::ui
