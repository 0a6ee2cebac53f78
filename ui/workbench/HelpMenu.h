#pragma once
// The Help menu: a quick start, the keyboard and mouse map, and the documents shipped with
// LoopLab. The keyboard map is read from the window's own menu actions when it is shown,
// so it lists exactly the shortcuts the window has.

#include <QString>
#include <QStringList>

class QMainWindow;
class QMenu;

namespace looplab::ui {

/// Where the documents are: next to an installed executable (<prefix>/share/looplab/docs,
/// or docs/ beside the binary), else the source tree's docs/ given at compile time; empty
/// if none exists.
QString documentationDirectory();

/// The documents the Help menu offers, as (title, absolute path) pairs that exist.
QList<QPair<QString, QString>> shippedDocuments();

/// Every menu action of `window` that has a shortcut, as "Menu › Action" and the key
/// sequence in the platform's notation, in menu order.
QList<QPair<QString, QString>> menuShortcuts(const QMainWindow& window);

/// Adds the Help menu (Quick Start, Keyboard and Mouse, the documents, About) to `window`'s
/// menu bar. Its dialogs are not modal and are named "quickStart", "keyboardAndMouse" and
/// "about", their text in a QTextBrowser named "helpText".
QMenu* addHelpMenu(QMainWindow& window);

}  // namespace looplab::ui
