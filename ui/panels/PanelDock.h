#pragma once
// A dock for a panel of the main window. A panel that does not scroll by itself is put in a
// scroll area, so that it scrolls instead of imposing its minimum size on the window: with
// every panel's own minimum the window could not be smaller than 1067 × 912, taller than a
// 1024 × 768 projector or a 1366 × 768 laptop. A panel that scrolls by itself (a tree view,
// the property editor) is docked as it is.

#include <QString>

class QDockWidget;
class QWidget;

namespace looplab::ui {

enum class PanelScrolling { ScrollsItself, InScrollArea };

QDockWidget* panelDock(const QString& title, const char* objectName, QWidget* panel, QWidget* parent,
                       PanelScrolling scrolling = PanelScrolling::InScrollArea);

}  // namespace looplab::ui
