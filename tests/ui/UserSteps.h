#pragma once
// What a user does through the real widgets, counted: clicks (a button, a tool, a tab, a
// menu entry, a point on the 3D view, a drag) and typed numbers.
// The tests that measure how many steps a task takes (a sketch, the first hour in
// docs/tutorial.md) go through it.

#include "WorkbenchTestSupport.h"

#include "looplab/common/Types.h"
#include "posing/PoseController.h"
#include "posing/PosingFeature.h"
#include "viewport/VtkViewport.h"
#include "workbench/MainWindow.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QAction>
#include <QCheckBox>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QStyle>
#include <QStyleOptionButton>
#include <QToolBar>
#include <QWindow>
#include <QtTest>

namespace looplab::ui::test {

struct UserSteps {
    MainWindow& window;
    int clicks = 0;
    int typedNumbers = 0;

    void click(QAbstractButton* button)
    {
        QVERIFY(button);
        QVERIFY2(button->isVisible() && button->isEnabled(), qPrintable(button->text() + " cannot be clicked"));
        // A check box as wide as its form takes clicks on its box and label only.
        QPoint at = button->rect().center();
        if (auto* box = qobject_cast<QCheckBox*>(button)) {
            QStyleOptionButton option;
            option.initFrom(box);
            at = box->style()->subElementRect(QStyle::SE_CheckBoxIndicator, &option, box).center();
        }
        QTest::mouseClick(button, Qt::LeftButton, Qt::NoModifier, at);
        ++clicks;
    }
    void toolButton(QToolBar* bar, QAction* action)
    {
        QWidget* button = bar->widgetForAction(action);
        QVERIFY(button);
        QTest::mouseClick(button, Qt::LeftButton);
        ++clicks;
    }
    /// A click on the 3D view where world point `p` is drawn.
    void view(const Vec3& p)
    {
        QWindow* surface = window.viewport()->renderSurface();
        QTest::qWait(30);  // a render in between, as between a person's clicks
        QTest::mouseClick(surface, Qt::LeftButton, Qt::NoModifier, window.viewport()->worldToView(p).toPoint());
        ++clicks;
    }
    /// Two clicks: a menu of the menu bar, then its first entry that starts with `text`
    /// ("Undo" for "Undo Move marker"; any modal dialog it opens must be answered by a
    /// handler set up before).
    void menu(const QString& menuTitle, const QString& text)
    {
        QAction* entry = nullptr;
        for (QAction* m : window.menuBar()->actions())
            if (m->menu() && m->text().remove('&') == menuTitle)
                for (QAction* a : m->menu()->actions())
                    if (!entry && a->isEnabled() && a->text().remove('&').startsWith(text)) entry = a;
        QVERIFY2(entry, qPrintable(menuTitle + " → " + text));
        clicks += 2;
        entry->trigger();
    }
    /// A click on a dock's tab.
    void tab(const char* dockName)
    {
        auto* dock = window.findChild<QDockWidget*>(dockName);
        QVERIFY2(dock, dockName);
        dock->raise();
        QVERIFY(waitUntil([&] { return dock->widget()->isVisible(); }, QString("the %1 tab").arg(dockName)));
        ++clicks;
    }
    /// Selects all of `box` and types `text`, a number.
    void typeNumber(QAbstractSpinBox* box, const QString& text)
    {
        box->setFocus();
        box->selectAll();
        QTest::keyClicks(box, text);
        QTest::keyClick(box, Qt::Key_Return);
        ++typedNumbers;
    }
    /// Presses on the 3D view at `from`, moves in `steps` steps to `to` and releases (world
    /// points): one drag; waits for the pose it asks for.
    void drag(const Vec3& from, const Vec3& to, int steps)
    {
        VtkViewport* view = window.viewport();
        QWindow* surface = view->renderSurface();
        QTest::mousePress(surface, Qt::LeftButton, Qt::NoModifier, view->worldToView(from).toPoint());
        for (int k = 1; k <= steps; ++k) {
            const Vec3 p = from + (to - from) * (static_cast<double>(k) / steps);
            QTest::mouseMove(surface, view->worldToView(p).toPoint());
        }
        QTest::mouseRelease(surface, Qt::LeftButton, Qt::NoModifier, view->worldToView(to).toPoint());
        ++clicks;
        PoseController* c = window.posing()->controller();
        QVERIFY(waitUntil([&] { return c->lastDrag().outcome != DragOutcome::Moving; },
                          "the drag's last pose to be solved"));
    }
};

}  // namespace looplab::ui::test
