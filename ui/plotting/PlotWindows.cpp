#include "plotting/PlotWindows.h"

#include "plotting/DisplayUnits.h"
#include "plotting/PlotWindow.h"

#include <QActionGroup>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>

namespace looplab::ui {

PlotWindows::PlotWindows(QMainWindow* mainWindow, const SimulationRecording* recording)
    : QObject(mainWindow), mainWindow_(mainWindow), recording_(recording)
{
}

PlotWindow* PlotWindows::addWindow()
{
    ++opened_;
    auto* dock = new QDockWidget(tr("Plot %1").arg(opened_), mainWindow_);
    dock->setObjectName(QString("plotWindow%1").arg(opened_));
    dock->setAttribute(Qt::WA_DeleteOnClose);
    auto* window = new PlotWindow(recording_, dock);
    dock->setWidget(window);
    mainWindow_->addDockWidget(Qt::BottomDockWidgetArea, dock);
    dock->setFloating(true);
    dock->resize(520, 360);
    dock->move(mainWindow_->geometry().topLeft() + QPoint(60 + 30 * (opened_ % 8), 80 + 30 * (opened_ % 8)));
    dock->show();
    windows_.emplace_back(window);
    window->setCursorFrame(cursorFrame_);
    return window;
}

std::vector<PlotWindow*> PlotWindows::windows() const
{
    std::vector<PlotWindow*> out;
    for (const QPointer<PlotWindow>& w : windows_)
        if (w)
            out.push_back(w);
    return out;
}

void PlotWindows::refreshAll()
{
    for (PlotWindow* w : windows())
        w->refresh();
}

void PlotWindows::setCursorFrame(int frame)
{
    cursorFrame_ = frame;
    for (PlotWindow* w : windows())
        w->setCursorFrame(frame);
}

void PlotWindows::addMenuEntries(QMenu* menu)
{
    menu->addAction(tr("New &Plot Window"), this, [this] { addWindow(); })->setObjectName("newPlotWindow");
    QMenu* units = menu->addMenu(tr("&Units"));
    DisplayUnits& du = DisplayUnits::instance();
    auto* angles = new QActionGroup(units);
    auto* rates = new QActionGroup(units);
    QAction* rad = units->addAction(tr("Angles in Radians"));
    QAction* deg = units->addAction(tr("Angles in Degrees"));
    units->addSeparator();
    QAction* radPerS = units->addAction(tr("Angular Rates in rad/s (or °/s)"));
    QAction* rpm = units->addAction(tr("Angular Rates in rpm"));
    for (QAction* a : {rad, deg}) {
        a->setCheckable(true);
        angles->addAction(a);
    }
    for (QAction* a : {radPerS, rpm}) {
        a->setCheckable(true);
        rates->addAction(a);
    }
    rad->setObjectName("unitsRadians");
    deg->setObjectName("unitsDegrees");
    radPerS->setObjectName("unitsRadPerSecond");
    rpm->setObjectName("unitsRpm");
    auto sync = [=, &du] {
        (du.choice().angle == AngleUnit::Degree ? deg : rad)->setChecked(true);
        (du.choice().rate == RateUnit::Rpm ? rpm : radPerS)->setChecked(true);
    };
    sync();
    connect(&du, &DisplayUnits::changed, units, sync);
    connect(rad, &QAction::triggered, this, [&du] { du.setAngleUnit(AngleUnit::Radian); });
    connect(deg, &QAction::triggered, this, [&du] { du.setAngleUnit(AngleUnit::Degree); });
    connect(radPerS, &QAction::triggered, this, [&du] { du.setRateUnit(RateUnit::RadianPerSecond); });
    connect(rpm, &QAction::triggered, this, [&du] { du.setRateUnit(RateUnit::Rpm); });
}

}  // namespace looplab::ui
