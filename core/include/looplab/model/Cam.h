#pragma once
// A cam and its follower as compiled (methods.md, "Cams"): the law, and the plane geometry
// from which the pitch curve, the profile, the pressure angle and the radius of curvature
// follow at every cam angle.

#include "looplab/model/CamLaw.h"
#include "looplab/model/ModelDocument.h"
#include "looplab/common/Types.h"

#include <Eigen/Core>

namespace looplab {

using Vec2 = Eigen::Vector2d;

/// Plane vectors lie in the cam's plane, in the frame of the body that holds the cam's and
/// the follower's joints (the common body), with their origin on the cam's axis: e₁ points
/// at the follower's point in the initial configuration, e₂ = axis × e₁.
struct Cam {
    CamLaw law;  ///< lift in m (translating follower) or rad (oscillating)
    CamFollower follower = CamFollower::Roller;
    bool oscillating = false;
    double rollerRadius = 0.0;  ///< [m]
    /// The law's angle is φ = θ − initialAngle + startAngle with θ the cam joint's angle [rad].
    double startAngle = 0.0, initialAngle = 0.0;
    /// +1 if the cam turns counter-clockwise in the plane (about its axis) as φ grows.
    double turnSense = 1.0;
    /// +1 if the pitch curve runs counter-clockwise about the cam's axis as φ grows.
    double orientation = 1.0;
    Vec2 base = Vec2::Zero();       ///< the follower's point at zero lift [m]
    Vec2 direction = Vec2::UnitX(); ///< translating: the unit direction of rising lift
    Vec2 pivot = Vec2::Zero();      ///< oscillating: the follower's pivot [m]
    double liftSense = 1.0;         ///< oscillating: +1 if a rise turns the follower counter-clockwise

    // What is drawn (Scene.h): the plane fixed in the cam at the law's start angle, and the
    // follower's point with the plane's axes in the follower's frame (body frames).
    BodyIndex camBody, followerBody;
    Vec3 camCentre = Vec3::Zero(), camE1 = Vec3::UnitX(), camE2 = Vec3::UnitY();
    Vec3 followerPoint = Vec3::Zero(), followerE1 = Vec3::UnitX(), followerE2 = Vec3::UnitY();
    double faceHalfWidth = 0.0;  ///< a flat face's half width: the contact's farthest reach, with a margin [m]

    double lawAngle(double camJointAngle) const { return camJointAngle - initialAngle + startAngle; }
};

/// The cam at law angle φ.
struct CamPoint {
    double angle = 0.0;      ///< φ [rad]
    CamLaw::Value law;       ///< lift and its derivatives with respect to φ
    Vec2 pitch = Vec2::Zero();    ///< the follower's point, in the cam's frame (at φ = startAngle) [m]
    Vec2 contact = Vec2::Zero();  ///< the contact point on the profile, in the cam's frame [m]
    /// Angle between the contact normal and the direction the follower's point moves [rad]:
    /// the share of the contact force that drives the follower is its cosine.
    double pressureAngle = 0.0;
    /// The profile's radius of curvature at the contact [m]: positive where it is convex,
    /// negative where it is hollow; a roller needs it above its own radius.
    double radiusOfCurvature = 0.0;
    /// Where the pitch curve is convex, its radius of curvature [m] (infinity elsewhere).
    double pitchRadius = 0.0;
    /// The generalised force along the lift per unit contact force: cos(pressure angle) for
    /// a translating follower, times the arm for an oscillating one [1 or m].
    double liftPerContactForce = 1.0;
    /// Flat face: the contact's distance along the face from the follower's point [m].
    double faceOffset = 0.0;
};

CamPoint camPoint(const Cam& cam, double phi);

/// The cam's profile over one turn, as a designer checks it.
struct CamCycle {
    double largestPressureAngle = 0.0, largestPressureAt = 0.0;  ///< [rad], law angle [rad]
    double smallestRadius = 0.0, smallestRadiusAt = 0.0;  ///< the convex profile's [m], law angle [rad]
    double baseRadius = 0.0;  ///< the profile's smallest distance from the axis [m]
    /// The profile cusps: a roller larger than the pitch curve's convex radius, or a flat
    /// face on a law whose r₀ + f + f'' turns negative; the follower cannot follow the law.
    bool undercut = false;
    double undercutAt = 0.0;  ///< law angle [rad]
};

/// Sampled at `samples` law angles over the turn.
CamCycle camCycle(const Cam& cam, int samples = 720);

}  // namespace looplab
