#pragma once
// Where the main window opens and how its docks' tabs read: within the screen it opens on
// (a projector's 1024 × 768 as much as a desktop's), and with tab titles that stay whole.

#include <QRect>
#include <QSize>

class QMainWindow;

namespace looplab::ui {

/// The window's size on a desktop screen: room for the view, the panels and the plots.
inline constexpr QSize kPreferredWindowSize{1500, 950};

/// The frame (title bar and borders included) that fits `available` (a screen's available
/// geometry): the preferred size where it fits, else the available area less a margin for
/// the window manager's frame; centred in it.
QRect fittedWindowFrame(const QRect& available, QSize preferred = kPreferredWindowSize);

/// Sizes and places `window` on the screen it is on (QWidget::screen()) by
/// fittedWindowFrame(), and maximises it where even the margin leaves too little room.
void placeOnScreen(QMainWindow& window);

/// Makes the tab bars of `window`'s tabified docks show whole titles, scrolling when they
/// do not fit, instead of eliding them to "M…" (two docks starting with M would then read
/// the same): those there now and those made later, when the user tabifies docks.
void keepDockTabsWhole(QMainWindow& window);

}  // namespace looplab::ui
