#include "workbench/WindowPlacement.h"

#include <QChildEvent>
#include <QMainWindow>
#include <QScreen>
#include <QTabBar>

#include <algorithm>

namespace looplab::ui {

namespace {

// Room left around the window for the window manager's title bar, borders and panels.
constexpr int kFrameMargin = 48;
// Below this the margin itself costs too much: the window is maximised instead.
constexpr QSize kSmallestFramedScreen{1100, 800};

}  // namespace

QRect fittedWindowFrame(const QRect& available, QSize preferred)
{
    const QSize room(std::max(1, available.width() - kFrameMargin), std::max(1, available.height() - kFrameMargin));
    const QSize size = preferred.boundedTo(room);
    QRect frame(QPoint(0, 0), size);
    frame.moveCenter(available.center());
    return frame;
}

void placeOnScreen(QMainWindow& window)
{
    const QScreen* screen = window.screen();
    if (!screen) {
        window.resize(kPreferredWindowSize);
        return;
    }
    const QRect available = screen->availableGeometry();
    const QRect frame = fittedWindowFrame(available);
    window.resize(frame.size());
    window.move(frame.topLeft());
    if (available.width() < kSmallestFramedScreen.width() || available.height() < kSmallestFramedScreen.height())
        window.setWindowState(window.windowState() | Qt::WindowMaximized);
}

namespace {

void showWholeTitles(QTabBar& bar)
{
    bar.setElideMode(Qt::ElideNone);
    bar.setUsesScrollButtons(true);
    bar.setExpanding(false);
}

// The main window makes a tab bar whenever docks are tabified, also when the user drags
// one onto another: each is caught as it is polished, before it is first shown.
class DockTabWatcher : public QObject {
public:
    using QObject::QObject;
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::ChildPolished)
            if (auto* bar = qobject_cast<QTabBar*>(static_cast<QChildEvent*>(event)->child()))
                showWholeTitles(*bar);
        return QObject::eventFilter(watched, event);
    }
};

}  // namespace

void keepDockTabsWhole(QMainWindow& window)
{
    for (QTabBar* bar : window.findChildren<QTabBar*>(QString(), Qt::FindDirectChildrenOnly))
        showWholeTitles(*bar);
    window.installEventFilter(new DockTabWatcher(&window));
}

}  // namespace looplab::ui
