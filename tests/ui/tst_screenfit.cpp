// The workbench on the screen it opens on: run on a projector's 1024 × 768 and on a
// desktop's 1600 × 1000 (two registrations of this suite, each on an Xvfb screen of that
// size, tests/ui/CMakeLists.txt): the window within the screen's available area, every
// dock's tab title unique and drawn whole, Run in view without scrolling, and a warning's
// whole text readable in the Warnings panel.
#include "WorkbenchTestSupport.h"
#include "panels/WarningsPanel.h"
#include "run/RunPanel.h"
#include "workbench/WindowPlacement.h"

#include <QDockWidget>
#include <QPushButton>
#include <QScreen>
#include <QSet>
#include <QTabBar>
#include <QTextBrowser>

using namespace looplab;
using namespace looplab::ui;
using namespace looplab::ui::test;

class ScreenFitTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { useThrowAwaySettings("screenfit"); }

    void fittedFrameKeepsThePreferredSizeWhereItFits() {
        // The rule itself, for screens this test is not run on.
        QCOMPARE(fittedWindowFrame(QRect(0, 0, 2560, 1440)).size(), kPreferredWindowSize);
        const QRect small = fittedWindowFrame(QRect(0, 0, 1024, 768));
        QVERIFY(QRect(0, 0, 1024, 768).contains(small));
        QCOMPARE(small.center(), QRect(0, 0, 1024, 768).center());
        const QRect offset = fittedWindowFrame(QRect(1920, 30, 1280, 994));
        QVERIFY(QRect(1920, 30, 1280, 994).contains(offset));
    }

    void windowOpensWithinTheScreen() {
        auto window = shownWindow();
        QVERIFY(window);
        const QRect available = window->screen()->availableGeometry();
        qInfo("screen %dx%d, window frame %dx%d at (%d, %d)", available.width(), available.height(),
              window->frameGeometry().width(), window->frameGeometry().height(), window->frameGeometry().x(),
              window->frameGeometry().y());
        QVERIFY2(available.contains(window->frameGeometry()), "the window reaches beyond the screen");
    }

    void dockTabTitlesAreUniqueAndWhole() {
        auto window = shownWindow();
        QVERIFY(window);
        QSet<QString> titles;
        for (QDockWidget* dock : window->findChildren<QDockWidget*>()) {
            QVERIFY2(!titles.contains(dock->windowTitle()), qPrintable("two docks titled " + dock->windowTitle()));
            titles.insert(dock->windowTitle());
        }
        int tabs = 0;
        for (QTabBar* bar : window->findChildren<QTabBar*>(QString(), Qt::FindDirectChildrenOnly)) {
            QCOMPARE(bar->elideMode(), Qt::ElideNone);
            for (int i = 0; i < bar->count(); ++i, ++tabs) {
                const QString text = bar->tabText(i);
                QVERIFY2(titles.contains(text), qPrintable("a tab reads '" + text + "', no dock's title"));
                QVERIFY2(bar->tabRect(i).width() >= bar->fontMetrics().horizontalAdvance(text),
                         qPrintable("the tab '" + text + "' is narrower than its title"));
            }
        }
        QVERIFY2(tabs >= 8, "the docks are not tabified as the window lays them out");
    }

    void runIsInViewWithoutScrolling() {
        auto window = shownWindow();
        QVERIFY(window);
        QVERIFY(window->openFile(example("four-bar.json")));
        auto* run = window->runPanel()->findChild<QPushButton*>("run");
        QVERIFY(run);
        QVERIFY(waitUntil([&] { return run->isEnabled(); }, "Run to be enabled for the four-bar"));
        QVERIFY(run->isVisible());
        // Clipped by the panel's scroll area or the dock, the visible part would be smaller.
        QCOMPARE(run->visibleRegion().boundingRect(), run->rect());
    }

    void aWarningReadsWhole() {
        auto window = shownWindow();
        QVERIFY(window);
        auto* warnings = window->findChild<WarningsPanel*>();
        QVERIFY(warnings);
        const QString cause = "the loop A-B-C-D does not close near t = 0.62 s: joint C is 3.1 mm from its "
                              "place; the driver pushes the crank past the position where the coupler and "
                              "the rocker lie in one line (raise the rocker's length above 0.9 m)";
        warnings->addMessage("failure", cause, 0.62, {"C"});
        QTextBrowser* detail = warnings->detailView();
        QVERIFY(detail->toPlainText().contains(cause));
        QCOMPARE(detail->lineWrapMode(), QTextEdit::WidgetWidth);
        QVERIFY(detail->isVisibleTo(window.get()));
    }
};

QTEST_MAIN(ScreenFitTest)
#include "tst_screenfit.moc"
