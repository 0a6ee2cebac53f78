#include "looplab/kinematics/PointTrace.h"

#include "looplab/model/Model.h"
#include "looplab/model/ModelDocument.h"
#include "looplab/model/State.h"

#include <cmath>
#include <cstdio>
#include <iomanip>
#include <ostream>

namespace looplab {

std::optional<TracedPoint> markerPoint(const ModelDocument& doc, const std::string& marker) {
    for (const MarkerDoc& m : doc.markers)
        if (m.name == marker) return TracedPoint{m.body, m.position, m.name};
    return std::nullopt;
}

std::optional<TracedPoint> tracedPoint(const ModelDocument& doc, const TraceDoc& trace) {
    if (!trace.marker.empty()) return markerPoint(doc, trace.marker);
    return TracedPoint{trace.body, trace.point, ""};
}

Status parseTracedPoint(const ModelDocument& doc, const std::string& spec, TracedPoint* out) {
    if (std::optional<TracedPoint> m = markerPoint(doc, spec)) {
        *out = *m;
        return {};
    }
    const size_t colon = spec.rfind(':');
    if (colon == std::string::npos)
        return Status::failure("'" + spec + "' is neither a marker of the model nor BODY:x,y,z");
    TracedPoint p;
    p.body = spec.substr(0, colon);
    const std::string coords = spec.substr(colon + 1);
    double v[3];
    int used = 0;
    if (std::sscanf(coords.c_str(), "%lf,%lf,%lf%n", &v[0], &v[1], &v[2], &used) != 3 ||
        used != int(coords.size()) || !std::isfinite(v[0]) || !std::isfinite(v[1]) || !std::isfinite(v[2]))
        return Status::failure("'" + spec + "': the point must be three numbers x,y,z in the body frame [m]");
    bool known = p.body == "ground";
    for (const BodyDoc& b : doc.bodies) known = known || b.name == p.body;
    if (!known) return Status::failure("'" + spec + "': the model has no body named '" + p.body + "'");
    p.localPoint = Vec3(v[0], v[1], v[2]);
    *out = p;
    return {};
}

std::string traceLabel(const TracedPoint& point) {
    if (!point.label.empty()) return point.label;
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s(%g;%g;%g)", point.body.c_str(), point.localPoint.x(), point.localPoint.y(),
                  point.localPoint.z());
    return buf;
}

Status tracePoint(const Model& model, const std::vector<State>& states, const TracedPoint& point,
                  PointTrace* out) {
    if (!model.findBody(point.body)) return Status::failure("no body named '" + point.body + "' to trace a point of");
    out->point = point;
    out->times.clear();
    out->positions.clear();
    out->times.reserve(states.size());
    out->positions.reserve(states.size());
    for (const State& s : states) appendTraceSample(model, s, *out);
    return {};
}

void appendTraceSample(const Model& model, const State& state, PointTrace& trace) {
    const BodyIndex b = *model.findBody(trace.point.body);
    trace.times.push_back(state.t);
    trace.positions.push_back(pointPosition(model, state, b, trace.point.localPoint));
}

Status writeTraceCsv(std::ostream& out, const std::vector<PointTrace>& traces) {
    if (traces.empty()) return Status::failure("no trace to write");
    for (const PointTrace& tr : traces)
        if (tr.times != traces.front().times || tr.positions.size() != tr.times.size())
            return Status::failure("the traces were sampled at different times");
    out << "t";
    for (const PointTrace& tr : traces) {
        const std::string label = traceLabel(tr.point);
        out << "," << label << ".x," << label << ".y," << label << ".z";
    }
    out << "\n" << std::setprecision(17);
    const std::vector<double>& times = traces.front().times;
    for (size_t i = 0; i < times.size(); ++i) {
        out << times[i];
        for (const PointTrace& tr : traces) {
            const Vec3& p = tr.positions[i];
            out << "," << p.x() << "," << p.y() << "," << p.z();
        }
        out << "\n";
    }
    return {};
}

}  // namespace looplab
