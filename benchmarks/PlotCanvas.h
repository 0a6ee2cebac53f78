#pragma once
// One set of drawing calls with two back ends, so that a benchmark draws its diagram once
// and writes it as PNG (Qt's painter on a QImage) and as SVG text from the same code.

#include <QColor>
#include <QFont>
#include <QPainter>

#include <sstream>
#include <string>

namespace looplab::bench {

struct Canvas {
    virtual ~Canvas() = default;
    virtual void line(double x0, double y0, double x1, double y1, const QColor& c, double width, bool dashed = false) = 0;
    virtual void marker(double x, double y, const QColor& c, bool filled = true) = 0;
    virtual void text(double x, double y, const std::string& s, int size, bool centred = false, bool vertical = false) = 0;
};

struct PainterCanvas : Canvas {
    QPainter& p;
    explicit PainterCanvas(QPainter& painter) : p(painter) {}
    void line(double x0, double y0, double x1, double y1, const QColor& c, double width, bool dashed) override {
        QPen pen(c, width);
        if (dashed) pen.setStyle(Qt::DashLine);
        p.setPen(pen);
        p.drawLine(QPointF(x0, y0), QPointF(x1, y1));
    }
    void marker(double x, double y, const QColor& c, bool filled) override {
        p.setPen(QPen(c, 1.5));
        p.setBrush(filled ? QBrush(c) : Qt::NoBrush);
        p.drawEllipse(QPointF(x, y), 3.5, 3.5);
        p.setBrush(Qt::NoBrush);
    }
    void text(double x, double y, const std::string& s, int size, bool centred, bool vertical) override {
        QFont f = p.font();
        f.setPixelSize(size);
        p.setFont(f);
        p.setPen(Qt::black);
        p.save();
        p.translate(x, y);
        if (vertical) p.rotate(-90);
        const QString q = QString::fromStdString(s);
        const double w = centred ? p.fontMetrics().horizontalAdvance(q) : 0.0;
        p.drawText(QPointF(-0.5 * w, 0), q);
        p.restore();
    }
};

struct SvgCanvas : Canvas {
    std::ostringstream out;
    static std::string hex(const QColor& c) { return c.name().toStdString(); }
    static std::string escape(const std::string& s) {
        std::string r;
        for (char ch : s) {
            if (ch == '<') r += "&lt;";
            else if (ch == '>') r += "&gt;";
            else if (ch == '&') r += "&amp;";
            else r += ch;
        }
        return r;
    }
    void line(double x0, double y0, double x1, double y1, const QColor& c, double width, bool dashed) override {
        out << "<line x1='" << x0 << "' y1='" << y0 << "' x2='" << x1 << "' y2='" << y1 << "' stroke='" << hex(c)
            << "' stroke-width='" << width << "'" << (dashed ? " stroke-dasharray='4 3'" : "") << "/>\n";
    }
    void marker(double x, double y, const QColor& c, bool filled) override {
        out << "<circle cx='" << x << "' cy='" << y << "' r='3.5' stroke='" << hex(c) << "' stroke-width='1.5' fill='"
            << (filled ? hex(c) : std::string("none")) << "'/>\n";
    }
    void text(double x, double y, const std::string& s, int size, bool centred, bool vertical) override {
        out << "<text x='" << x << "' y='" << y << "' font-family='sans-serif' font-size='" << size << "'"
            << (centred ? " text-anchor='middle'" : "")
            << (vertical ? " transform='rotate(-90 " + std::to_string(x) + " " + std::to_string(y) + ")'" : "")
            << ">" << escape(s) << "</text>\n";
    }
};

}  // namespace looplab::bench
