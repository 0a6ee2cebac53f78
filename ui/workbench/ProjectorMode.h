#pragma once
// Projector mode: a picture that carries to the back of a room. One switch (View →
// Projector Mode, Ctrl+Shift+P) makes the window's text 1.5 times larger, gives the 3D
// view a plain white background and lines twice as thick, and draws the plots' curves
// twice as thick with larger titles and labels; switched off, everything is as it was.
// The choice is remembered for the next start.

#include <QFont>
#include <QObject>

class QAction;
class QMainWindow;

namespace looplab::ui {

class VtkViewport;

class ProjectorMode : public QObject {
    Q_OBJECT
public:
    static constexpr double kTextScale = 1.5;
    static constexpr double kLineScale = 2.0;

    /// Adds nothing to menus: put action() where it belongs. Switches on if the last
    /// session ended with it on.
    ProjectorMode(QMainWindow* window, VtkViewport* viewport);
    ~ProjectorMode() override;

    /// Checkable; toggling it switches the mode.
    QAction* action() const { return action_; }
    bool isOn() const { return on_; }
    void setOn(bool on);

private:
    void scaleCharts(double text, double line);

    QMainWindow* window_;
    VtkViewport* viewport_;
    QAction* action_;
    QFont normalFont_;
    bool on_ = false;
};

}  // namespace looplab::ui
