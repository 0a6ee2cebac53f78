#pragma once
// The units the workbench shows angles and angular rates in: degrees or radians, rpm or
// rad/s. Models, files and the core stay in SI (rad, rad/s); only what is shown (plots,
// tables, the property editor's read-outs) is converted, at the moment it is shown. The
// choice is remembered in the settings ("units/angle", "units/rate").

#include <QObject>
#include <QString>

namespace looplab::ui {

enum class AngleUnit { Radian, Degree };
enum class RateUnit { RadianPerSecond, Rpm };

/// A value as shown: number and unit text.
struct ShownValue {
    double value = 0.0;
    QString unit;
};

/// A pure conversion rule, free of settings, for tests and batch use.
struct UnitChoice {
    AngleUnit angle = AngleUnit::Radian;
    RateUnit rate = RateUnit::RadianPerSecond;

    /// Factor from the SI unit `siUnit` to the shown unit, and the shown unit's text:
    /// "rad" → "°" (180/π); "rad/s" → "rpm" (60/2π) or, for degrees with rad/s chosen,
    /// "°/s"; "rad/s²" → "°/s²" for degrees. Any other unit is shown as it is (factor 1).
    double factor(const QString& siUnit) const;
    QString unit(const QString& siUnit) const;
    ShownValue show(double siValue, const QString& siUnit) const {
        return {siValue * factor(siUnit), unit(siUnit)};
    }
    /// The SI value of a value typed in the shown unit of `siUnit`.
    double toSi(double shownValue, const QString& siUnit) const { return shownValue / factor(siUnit); }
};

/// The workbench's current choice (one per application), kept in QSettings.
class DisplayUnits : public QObject {
    Q_OBJECT

public:
    static DisplayUnits& instance();

    const UnitChoice& choice() const { return choice_; }
    void setAngleUnit(AngleUnit unit);
    void setRateUnit(RateUnit unit);
    /// Reads the choice again from the settings (after a test changed them).
    void reload();

signals:
    void changed();

private:
    DisplayUnits();
    void save() const;

    UnitChoice choice_;
};

}  // namespace looplab::ui
