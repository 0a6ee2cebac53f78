#pragma once
// The size of a model, counted from its file before anything is built: loading a model of
// hundreds of thousands of coordinates (a solid of 200 000 elements), each statics
// iteration and each step of an implicit method take minutes and gigabytes, and the
// limits a run is given (--max-wall-time) are checked only between iterations and steps.
// Such a model is announced before the work starts rather than found out after it.

#include "looplab/model/ModelDocument.h"

#include <string>

namespace looplab::cli {

/// Coordinates from which a model is announced as large.
inline constexpr long kLargeModelCoordinates = 100000;

/// The velocity coordinates the document's model has: six per rigid body and per beam
/// node, three per solid node.
inline long modelCoordinates(const ModelDocument& doc) {
    long n = 6L * long(doc.bodies.size());
    for (const BeamDoc& b : doc.beams) n += 6L * (long(b.elements) + 1);
    for (const SolidDoc& s : doc.solids)
        n += 3L * (long(s.elements[0]) + 1) * (long(s.elements[1]) + 1) * (long(s.elements[2]) + 1);
    return n;
}

/// A warning for a model of kLargeModelCoordinates or more, naming its largest member;
/// empty for a smaller one.
inline std::string largeModelWarning(const ModelDocument& doc) {
    const long n = modelCoordinates(doc);
    if (n < kLargeModelCoordinates) return {};
    std::string largest;
    long most = 0;
    for (const SolidDoc& s : doc.solids) {
        const long e = long(s.elements[0]) * s.elements[1] * s.elements[2];
        if (e > most) {
            most = e;
            largest = "solid '" + s.name + "': " + std::to_string(e) + " elements";
        }
    }
    for (const BeamDoc& b : doc.beams)
        if (b.elements > most) {
            most = b.elements;
            largest = "beam '" + b.name + "': " + std::to_string(b.elements) + " elements";
        }
    return "the model has " + std::to_string(n) + " coordinates" + (largest.empty() ? "" : " (" + largest + ")") +
           ": at this size loading it, each statics iteration and each step of an implicit method take minutes "
           "and gigabytes (a solid of 2 560 elements, 10 000 coordinates, takes seconds and 0.8 GB), and "
           "--max-wall-time is checked only between iterations and steps";
}

}  // namespace looplab::cli
