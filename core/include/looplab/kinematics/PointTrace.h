#pragma once
// The path of a point fixed on a body over a recorded motion: a coupler curve, when the
// body is a four-bar's coupler. A trace names its point by body and body-frame position
// (or by a marker of the model file), so it outlives a model rebuilt from the same
// description; its samples are global positions at the recording's times.

#include "looplab/model/Status.h"
#include "looplab/common/Types.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace looplab {

struct Model;
struct ModelDocument;
struct State;
struct TraceDoc;

/// A point fixed on a body.
struct TracedPoint {
    std::string body;                ///< body name ("ground" gives a fixed point)
    Vec3 localPoint = Vec3::Zero();  ///< in the body frame, relative to its origin [m]
    std::string label;               ///< how the point is named in a CSV header; empty = "body(x,y,z)"
};

/// The positions a traced point took.
struct PointTrace {
    TracedPoint point;
    std::vector<double> times;     ///< [s], as the states were given
    std::vector<Vec3> positions;   ///< global frame [m], one per time
};

/// The point a marker of `doc` stands for (its body and origin), labelled with the
/// marker's name; nullopt if the document has no such marker.
std::optional<TracedPoint> markerPoint(const ModelDocument& doc, const std::string& marker);

/// The point a trace of `doc` names (TraceDoc: a marker or a body point); nullopt if its
/// marker is not in the document. Body names are checked when the point is traced.
std::optional<TracedPoint> tracedPoint(const ModelDocument& doc, const TraceDoc& trace);

/// A point named on the command line: a marker's name, or `BODY:x,y,z` (body-frame
/// coordinates [m]). Fails with a message quoting `spec` if it is neither.
Status parseTracedPoint(const ModelDocument& doc, const std::string& spec, TracedPoint* out);

/// The label used for `point` in CSV headers and legends.
std::string traceLabel(const TracedPoint& point);

/// Global position of `point` at each of `states` (t, q in `model`'s layout) into *out.
/// Fails, naming the body, if the model has no body of that name.
Status tracePoint(const Model& model, const std::vector<State>& states, const TracedPoint& point,
                  PointTrace* out);

/// Appends one sample of `trace` at `state` (for traces that grow with a run); the body
/// must exist (checked by tracePoint or findBody beforehand).
void appendTraceSample(const Model& model, const State& state, PointTrace& trace);

/// Writes traces sampled at the same times as CSV: a header `t,<label>.x,<label>.y,
/// <label>.z,...` and one row per time, full double precision. Fails without writing if
/// the traces have different times, or none.
Status writeTraceCsv(std::ostream& out, const std::vector<PointTrace>& traces);

}  // namespace looplab
