#include "workbench/HelpMenu.h"
#include "looplab/Version.h"

#include "workbench/ExamplesDirectory.h"

#include <QAction>
#include <QCoreApplication>
#include <QDesktopServices>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QKeySequence>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace looplab::ui {
namespace {

QString helpText(const char* text) { return QCoreApplication::translate("looplab::ui::HelpMenu", text); }

// What a first session needs, in the order a class meets it; the tutorial-sized version of
// the README's first section.
QString quickStartHtml()
{
    return helpText("<h3>A first linkage in ten minutes</h3><ol>"
              "<li><b>Open an example</b> from the <i>Examples</i> menu (the four-bar is a good start), or "
              "drop a model file on the window.</li>"
              "<li><b>Run</b> it with <i>Simulation › Run</i> (F5); <i>Stop</i> is Shift+F5. The plots show "
              "the chosen quantities, the Warnings pane what the solver met (redundant joints, singular "
              "configurations, drift).</li>"
              "<li><b>Pose</b> it: drag a link with the left button. The loop stays closed; <i>Use Current "
              "Pose as Initial Configuration</i> makes the pose the start (a driver then starts there "
              "too).</li>"
              "<li><b>Sketch</b> your own: <i>File › New</i>, the Sketch tool bar's ground pivots and links "
              "(a four-bar is eight clicks), then <i>Edit › Add driver</i> to turn the crank.</li>"
              "<li><b>Trace and measure</b>: the Markers pane adds points on bodies, the trace draws their "
              "paths, the plots and arrows show positions, velocities and reaction forces.</li>"
              "<li><b>Break it on purpose</b>: make a link too long or too short. The workbench draws the gap, "
              "says which link cannot reach and, for a four-bar, whether Grashof's condition holds (the "
              "status line says it for every four-bar; a driven link that cannot turn fully is named "
              "when the run stops).</li>"
              "<li><b>Export</b> the motion as a video or a plot as an image from the <i>File</i> menu.</li>"
              "</ol><p>In front of a class, <i>View › Projector Mode</i> (Ctrl+Shift+P) makes text larger, "
              "lines thicker and the 3D background white; the window fits a 1024 × 768 projector, its "
              "panels scroll.</p><p>Every edit can be undone (Ctrl+Z). <i>Help › Keyboard and Mouse</i> lists the keys and "
              "the mouse in the 3D view; the documents in this menu give the file format, the command-line "
              "tool, design studies and the methods with their equations.</p>");
}

// The 3D view's mouse, as VtkViewport and the posing feature handle it.
QString mouseHtml()
{
    return helpText("<h3>Mouse in the 3D view</h3><table cellpadding='3'>"
              "<tr><td>left drag starting on a body</td><td>pose the mechanism (the loop stays closed)</td></tr>"
              "<tr><td>left drag from empty space, or Alt + left drag</td><td>turn the camera</td></tr>"
              "<tr><td>middle drag</td><td>pan</td></tr>"
              "<tr><td>right drag, wheel</td><td>zoom</td></tr>"
              "<tr><td>left click</td><td>select a body or joint (its properties show in the editor)</td></tr>"
              "<tr><td>in sketch mode: clicks</td><td>place pivots and link ends; Esc ends a chain of links</td>"
              "</tr></table>");
}

QString keyboardHtml(const QMainWindow& window)
{
    QString rows;
    for (const auto& [where, keys] : menuShortcuts(window))
        rows += QStringLiteral("<tr><td>%1</td><td><b>%2</b></td></tr>").arg(where.toHtmlEscaped(), keys.toHtmlEscaped());
    return helpText("<h3>Keyboard</h3><table cellpadding='3'>") + rows + QStringLiteral("</table>");
}

void showText(QMainWindow& window, const QString& name, const QString& title, const QString& html)
{
    auto* dialog = window.findChild<QDialog*>(name, Qt::FindDirectChildrenOnly);
    if (!dialog) {
        dialog = new QDialog(&window);
        dialog->setObjectName(name);
        auto* layout = new QVBoxLayout(dialog);
        auto* text = new QTextBrowser(dialog);
        text->setObjectName("helpText");
        text->setOpenExternalLinks(true);
        layout->addWidget(text);
        auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
        QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
        layout->addWidget(buttons);
        dialog->resize(620, 520);
    }
    dialog->setWindowTitle(title);
    dialog->findChild<QTextBrowser*>("helpText")->setHtml(html);
    dialog->show();
    dialog->raise();
}

QString withoutAmpersands(QString text)
{
    return text.remove(QRegularExpression(QStringLiteral("&(?!&)")));
}

void collectShortcuts(const QMenu* menu, const QString& path, QList<QPair<QString, QString>>& out)
{
    for (const QAction* a : menu->actions()) {
        if (a->isSeparator())
            continue;
        const QString where = path + QStringLiteral(" › ") + withoutAmpersands(a->text());
        if (a->menu())
            collectShortcuts(a->menu(), where, out);
        else if (!a->shortcut().isEmpty())
            out.append({where, a->shortcut().toString(QKeySequence::NativeText)});
    }
}

}  // namespace

QString documentationDirectory()
{
    QStringList candidates;
    const QString appDir = QCoreApplication::applicationDirPath();
    if (!appDir.isEmpty())
        candidates << appDir + "/../share/doc/looplab" << appDir + "/../share/looplab/docs" << appDir + "/docs";
#ifdef LOOPLAB_DOCS_DIR
    candidates << QStringLiteral(LOOPLAB_DOCS_DIR);
#endif
    for (const QString& c : candidates)
        if (QFileInfo(c + "/model-format.md").isFile())
            return QDir(c).canonicalPath();
    return {};
}

QList<QPair<QString, QString>> shippedDocuments()
{
    QList<QPair<QString, QString>> out;
    const QString docs = documentationDirectory();
    const QString examples = examplesDirectory();
    const QList<QPair<QString, QString>> wanted{
        {helpText("Model File Format"), docs + "/model-format.md"},
        {helpText("Command-Line Tool"), docs + "/cli.md"},
        {helpText("Design Studies"), docs + "/study-format.md"},
        {helpText("Methods and Equations"), docs + "/methods.md"},
        {helpText("Demonstrations for Teaching"), examples + "/demonstrations.md"},
        {helpText("Benchmarks"), docs + "/benchmarks.md"},
        {helpText("Architecture"), docs + "/architecture.md"},
    };
    for (const auto& [title, path] : wanted)
        if (!docs.isEmpty() && QFileInfo(path).isFile())
            out.append({title, QFileInfo(path).canonicalFilePath()});
    return out;
}

QList<QPair<QString, QString>> menuShortcuts(const QMainWindow& window)
{
    QList<QPair<QString, QString>> out;
    for (const QAction* a : window.menuBar()->actions())
        if (a->menu())
            collectShortcuts(a->menu(), withoutAmpersands(a->text()), out);
    return out;
}

QMenu* addHelpMenu(QMainWindow& window)
{
    QMenu* help = window.menuBar()->addMenu(helpText("&Help"));
    QMainWindow* w = &window;
    QAction* quick = help->addAction(helpText("&Quick Start"), w, [w] {
        showText(*w, "quickStart", helpText("Quick Start"), quickStartHtml());
    });
    quick->setShortcut(QKeySequence::HelpContents);
    help->addAction(helpText("&Keyboard and Mouse"), w, [w] {
        showText(*w, "keyboardAndMouse", helpText("Keyboard and Mouse"), keyboardHtml(*w) + mouseHtml());
    });
    QMenu* documents = help->addMenu(helpText("&Documents"));
    const auto shipped = shippedDocuments();
    for (const auto& [title, path] : shipped)
        documents->addAction(title, w, [path = path] { QDesktopServices::openUrl(QUrl::fromLocalFile(path)); })
            ->setToolTip(path);
    documents->setEnabled(!shipped.isEmpty());
    help->addSeparator();
    help->addAction(helpText("&About LoopLab"), w, [w] {
        showText(*w, "about", helpText("About LoopLab"),
                 helpText("<h3>LoopLab %2</h3><p>A workbench for multibody mechanisms with closed kinematic loops: "
                    "build a linkage, watch it move, find out why it locks or drifts, with constraints held "
                    "to machine precision through redundant joints and singular configurations.</p>"
                    "<p>Built with Qt %1, VTK, Eigen, SuiteSparse, Spectra and SUNDIALS.</p>")
                     .arg(QString::fromLatin1(qVersion()), QString::fromLatin1(looplab::version())));
    });
    return help;
}

}  // namespace looplab::ui
