#pragma once
// A cam's follower motion law: the follower's lift as a periodic function of the cam's
// angle over one turn (methods.md, "Cams"), from the standard segments of cam design or a
// table through which a periodic cubic spline passes.

#include <string>
#include <vector>

namespace looplab {

/// The motion of one segment of a cam's law over its angle β with lift h (x = the
/// fraction of the segment passed, 0 … 1):
enum class CamMotion {
    Dwell,         ///< the follower rests (h = 0)
    Cycloidal,     ///< h (x − sin 2πx / 2π): acceleration continuous, zero at both ends
    Harmonic,      ///< h (1 − cos πx) / 2: acceleration jumps at the ends
    Polynomial345  ///< h (10x³ − 15x⁴ + 6x⁵): acceleration continuous, zero at both ends
};

const char* camMotionName(CamMotion motion);
bool camMotionFromName(const std::string& name, CamMotion& motion);

/// One segment: its motion, its angle of cam rotation [rad] and its lift (positive a rise,
/// negative a return) in the follower's unit: m for a translating follower, rad for an
/// oscillating one.
struct CamSegment {
    CamMotion motion = CamMotion::Dwell;
    double angle = 0.0;
    double lift = 0.0;
};

class CamLaw {
public:
    /// The lift f and its derivatives with respect to the cam angle φ.
    struct Value {
        double lift = 0.0;          ///< f
        double velocity = 0.0;      ///< df/dφ
        double acceleration = 0.0;  ///< d²f/dφ²
        double jerk = 0.0;          ///< d³f/dφ³
    };

    CamLaw() = default;
    /// Segments end to end from φ = 0, their angles summing to 2π and their lifts to zero
    /// (checked by the model builder).
    static CamLaw fromSegments(std::vector<CamSegment> segments);
    /// The periodic cubic spline through (angles[i], lifts[i]), angles increasing within
    /// [0, 2π) [rad]: twice continuously differentiable over the turn's end, as the
    /// integrators need of a constraint.
    static CamLaw fromTable(std::vector<double> angles, std::vector<double> lifts);

    /// At any cam angle φ [rad]: the law repeats every turn.
    Value evaluate(double phi) const;

    const std::vector<CamSegment>& segments() const { return segments_; }
    bool isTable() const { return !knots_.empty(); }

private:
    Value segmentValue(double phi) const;
    Value splineValue(double phi) const;

    std::vector<CamSegment> segments_;
    std::vector<double> starts_, bases_;  // each segment's first angle and lift there
    std::vector<double> knots_, values_, moments_;  // the spline's angles, lifts, second derivatives
};

}  // namespace looplab
