#include "workbench/ProjectorMode.h"

#include "viewport/VtkViewport.h"

#include <QAbstractAxis>
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QMainWindow>
#include <QSettings>
#include <QXYSeries>

namespace looplab::ui {

namespace {

const char* kSettingsKey = "view/projectorMode";

// What an item looked like before any scaling, kept on the item itself so that charts
// and curves created at any time scale from their own normal size.
template <typename T>
T normalValue(QObject* item, const char* name, const T& current)
{
    const QVariant kept = item->property(name);
    if (kept.isValid())
        return kept.value<T>();
    item->setProperty(name, QVariant::fromValue(current));
    return current;
}

QFont scaledFont(const QFont& normal, double scale)
{
    QFont f = normal;
    if (normal.pointSizeF() > 0)
        f.setPointSizeF(normal.pointSizeF() * scale);
    else
        f.setPixelSize(qRound(normal.pixelSize() * scale));
    return f;
}

}  // namespace

ProjectorMode::ProjectorMode(QMainWindow* window, VtkViewport* viewport)
    : QObject(window), window_(window), viewport_(viewport),
      // The text size before any window switched the mode on (the font is the application's).
      normalFont_(normalValue(qApp, "normalFont", QApplication::font()))
{
    action_ = new QAction(tr("&Projector Mode"), this);
    action_->setCheckable(true);
    action_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    action_->setToolTip(tr("Larger text, thicker lines and a white 3D background, for a class at the back of a room"));
    connect(action_, &QAction::toggled, this, &ProjectorMode::setOn);
    if (QSettings().value(kSettingsKey, false).toBool())
        action_->setChecked(true);
}

ProjectorMode::~ProjectorMode()
{
    // The application's font outlives the window: a later window starts from normal text.
    if (on_)
        QApplication::setFont(normalFont_);
}

void ProjectorMode::setOn(bool on)
{
    if (on == on_)
        return;
    on_ = on;
    if (action_->isChecked() != on)
        action_->setChecked(on);
    QApplication::setFont(on ? scaledFont(normalFont_, kTextScale) : normalFont_);
    viewport_->setProjectorStyle(on, kLineScale);
    scaleCharts(on ? kTextScale : 1.0, on ? kLineScale : 1.0);
    QSettings().setValue(kSettingsKey, on);
}

void ProjectorMode::scaleCharts(double text, double line)
{
    // Charts keep the fonts they were made with whatever the application's font: their
    // titles, axes and legends are scaled here, with the width of every curve.
    for (QChartView* view : window_->findChildren<QChartView*>()) {
        QChart* chart = view->chart();
        if (!chart)
            continue;
        chart->setTitleFont(scaledFont(normalValue(chart, "normalTitleFont", chart->titleFont()), text));
        QLegend* legend = chart->legend();
        legend->setFont(scaledFont(normalValue(legend, "normalFont", legend->font()), text));
        for (QAbstractAxis* axis : chart->axes()) {
            axis->setLabelsFont(scaledFont(normalValue(axis, "normalLabelsFont", axis->labelsFont()), text));
            axis->setTitleFont(scaledFont(normalValue(axis, "normalTitleFont", axis->titleFont()), text));
        }
        for (QAbstractSeries* series : chart->series()) {
            auto* xy = qobject_cast<QXYSeries*>(series);
            if (!xy)
                continue;
            QPen pen = xy->pen();
            pen.setWidthF(normalValue(xy, "normalPenWidth", pen.widthF()) * line);
            xy->setPen(pen);
        }
    }
}

}  // namespace looplab::ui
