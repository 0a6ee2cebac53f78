#include "panels/PanelDock.h"

#include <QDockWidget>
#include <QFrame>
#include <QScrollArea>

namespace looplab::ui {

QDockWidget* panelDock(const QString& title, const char* objectName, QWidget* panel, QWidget* parent,
                       PanelScrolling scrolling)
{
    auto* dock = new QDockWidget(title, parent);
    dock->setObjectName(objectName);
    if (scrolling == PanelScrolling::ScrollsItself) {
        dock->setWidget(panel);
        return dock;
    }
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(panel);
    dock->setWidget(scroll);
    return dock;
}

}  // namespace looplab::ui
