#include "export/PlotsPicture.h"

#include "plotting/PlotPanel.h"

#include <QChartView>
#include <QPainter>

#include <vector>

namespace looplab::ui {

QImage plotsPicture(PlotPanel& panel, double t) {
    panel.setCursorTime(t);
    std::vector<QImage> charts;
    int width = 0, height = 0;
    for (PlotPanel::Chart c : {PlotPanel::Chart::Violation, PlotPanel::Chart::Energy, PlotPanel::Chart::JointQuantity}) {
        QChartView* view = panel.chartView(c);
        if (!view || view->width() <= 0 || view->height() <= 0) continue;
        charts.push_back(view->grab().toImage().convertToFormat(QImage::Format_RGB888));
        width = std::max(width, charts.back().width());
        height += charts.back().height();
    }
    if (charts.empty()) return {};
    QImage out(width, height, QImage::Format_RGB888);
    out.fill(Qt::white);
    QPainter painter(&out);
    int y = 0;
    for (const QImage& c : charts) {
        painter.drawImage((width - c.width()) / 2, y, c);
        y += c.height();
    }
    return out;
}

}  // namespace looplab::ui
