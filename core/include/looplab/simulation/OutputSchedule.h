#pragma once
// The times at which a run reports a frame: the start, every output step after it, and
// the end time (also when it is not a whole number of steps after the start). Counted in
// double, so that a tiny output step cannot overflow an integer and end the reports early.

namespace looplab {

class OutputSchedule {
public:
    /// Frames at t0, t0 + dt, t0 + 2dt, … up to tEnd [s], and at tEnd.
    OutputSchedule(double t0, double tEnd, double dt);

    /// Number of frames the run will report, the one at t0 included.
    double frameCount() const { return frames_; }
    /// True if the schedule makes sense (tEnd not before t0) and has at most maxFrames.
    bool fitsWithin(long maxFrames) const { return outputs_ >= 0.0 && frames_ <= double(maxFrames); }

    /// The next output time not yet reported if it lies at or before t [s] (a relative
    /// 1e-12 of slack, so that a step ending on an output time reports it): then true and
    /// `to` set. Call reported() once the frame at `to` has been delivered.
    bool due(double t, double& to);
    void reported() { ++next_; }

private:
    double timeOf(long k) const;

    double t0_, tEnd_, dt_;
    double outputs_ = 0.0;  // regular output times after t0
    double frames_ = 0.0;
    long last_ = 0;  // index of the last regular output time
    long next_ = 1;  // index of the next output time to report
};

}  // namespace looplab
