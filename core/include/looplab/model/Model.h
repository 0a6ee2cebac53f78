#pragma once
// The compiled, immutable description of a mechanism. Solvers take a const Model and a
// State (the numbers that change); nothing in a Model changes during a simulation.
// A Model is made by buildModel() from a ModelDocument.

#include "looplab/bodies/BodyFormulation.h"
#include "looplab/bodies/BodyKind.h"
#include "looplab/bodies/beam/BeamMesh.h"
#include "looplab/bodies/rigid/RigidBody.h"
#include "looplab/bodies/solid/SolidMesh.h"
#include "looplab/model/ForceLaw.h"
#include "looplab/model/Cam.h"
#include "looplab/model/ModelDocument.h"
#include "looplab/model/TimeLaw.h"
#include "looplab/common/Types.h"
#include "looplab/model/VisualShape.h"

#include <array>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace looplab {

/// A frame fixed on a body: origin and axes (columns) in the body frame.
struct BodyFrame {
    BodyIndex body;
    Vec3 origin = Vec3::Zero();
    Mat3 axes = Mat3::Identity();
    /// Beam and solid bodies: the node the frame is attached to (its origin is the node's
    /// position r_k; a beam node's only direction is its slope r_x,k, a solid node has none;
    /// origin and axes above are unused).
    int node = 0;
};

/// A body: the ground (body 0), a rigid body, a beam or a solid mesh. What its numbers
/// mean and how they move is its formulation's (BodyFormulation.h); solvers ask it, never
/// the kind.
struct Body {
    std::string name;
    CoordinateSlice slice;  ///< its numbers in State::q and State::v
    VisualShape shape;
    /// Never null in a built model; shared by the copies of the model.
    std::shared_ptr<const BodyFormulation> formulation;

    BodyKind kind() const { return formulation->kind(); }
    /// Numbers per node of a mesh (6 for a beam, 3 for a solid), 0 for a body without nodes.
    int nodeSize() const { return formulation->nodeSize(); }
    /// A moving body carried by one frame (a rigid body): its points move with the frame
    /// and its velocity slice is (ṙ, ω').
    bool movesAsOneFrame() const { return formulation->hasBodyFrame() && slice.velocitySize > 0; }
    /// What a joint's frame on this body holds (AttachedFrame in BodyFormulation.h).
    AttachedFrame attachedFrame() const { return formulation->attachedFrame(); }
    /// The kind's own description where the body is of that kind, else null: for what only
    /// that kind has (a rigid body's inertia, a mesh's elements and faces).
    const RigidBody* rigid() const { return dynamic_cast<const RigidBody*>(formulation.get()); }
    const BeamMesh* beam() const { return dynamic_cast<const BeamMesh*>(formulation.get()); }
    const SolidMesh* solid() const { return dynamic_cast<const SolidMesh*>(formulation.get()); }
};

/// A joint between frame1 (on body 1) and frame2 (on body 2). Its equations are rows
/// firstEquation .. firstEquation + equationCount − 1 of Φ.
struct Joint {
    std::string name;
    JointType type = JointType::Revolute;
    BodyFrame frame1, frame2;
    double length = 0.0;  ///< distance joints only [m]
    /// Screw joints: advance per turn [m], and the phase θ − 2πs/lead of the initial pose
    /// [rad] that the screw keeps (methods.md, "Couplers").
    double lead = 0.0, screwPhase = 0.0;
    /// Limits of the joint's coordinate [rad or m], where the document gives them; those of
    /// a revolute, prismatic or cylindrical joint are enforced as a Stop (below).
    std::optional<std::array<double, 2>> limits;
    int firstEquation = 0;
    int equationCount = 0;
};

/// A named frame on a body (the document's markers), in document order.
struct Marker {
    std::string name;
    BodyFrame frame;
};

/// A driver: the angle of a revolute or the displacement of a prismatic joint follows
/// law(t). Its one equation is row `equation` of Φ.
struct Driver {
    std::string name;
    JointIndex joint;
    bool rotational = true;  ///< angle (true) or displacement (false)
    TimeLaw law;
    int equation = 0;
};

/// One coordinate in a coupler's equation: a joint's angle [rad] (revolute, cylindrical)
/// or displacement [m] (prismatic), with its coefficient.
struct CoupledCoordinate {
    JointIndex joint;
    bool angular = true;
    /// Angles: a whole number (the phase below is then a function of the configuration,
    /// without angle wrapping); displacements: any number [1/m].
    double coefficient = 0.0;
};

/// A wheel of a coupler as drawn (Scene.h): a pitch circle fixed in a body, with teeth (a
/// gear or a rack's pinion) or spokes (a belt's pulley). Vectors in the body's frame.
struct CouplerWheel {
    BodyIndex body;
    Vec3 centre = Vec3::Zero();      ///< a point on the axis [m]
    Vec3 axis = Vec3::UnitZ();       ///< unit
    Vec3 reference = Vec3::UnitX();  ///< unit, square to the axis: where angles start
    double radius = 0.0;             ///< pitch radius [m]
    int teeth = 0;                   ///< 0: a pulley
    double phase = 0.0;              ///< angle of a tooth's middle from `reference` [rad]
    bool internal = false;           ///< a ring: its teeth point inwards
};

/// A rack as drawn: its teeth along its pitch line, in the rack body's frame.
struct CouplerRack {
    BodyIndex body;
    Vec3 start = Vec3::Zero();       ///< the pitch line's point at the first tooth's middle [m]
    Vec3 direction = Vec3::UnitX();  ///< along the slide (unit)
    Vec3 normal = Vec3::UnitY();     ///< the way the teeth point, towards the pinion (unit)
    double pitch = 0.0;              ///< tooth pitch [m]
    int teeth = 0;
};

/// A coupler's equation (methods.md, "Couplers"): with the phase
/// ψ = Σ aᵢθᵢ + Σ bⱼsⱼ − offset, Φ = sin(ψ)/scale if an angle takes part, else ψ/scale.
/// Every root of sin ψ holds the ratio (the teeth meshed some whole pitches further on);
/// the offset makes the document's initial pose one. Its one equation is row `equation`.
/// A cam's phase is ψ = σx − f(φ(θ)) − offset (methods.md, "Cams"): its first term is the
/// cam's angle θ, which enters through the law f (periodic, so θ's wrapping leaves it
/// smooth), its second the follower's slide or angle x; sin ψ only for an oscillating one.
struct Coupler {
    std::string name;
    CouplerType type = CouplerType::Linear;
    std::vector<CoupledCoordinate> terms;
    double offset = 0.0;
    double scale = 1.0;  ///< largest |aᵢ| (dimensionless Φ), or largest |bⱼ| (Φ in m)
    /// Gear, belt, rack: pitch radii [m] (the pinion's in radius1).
    double radius1 = 0.0, radius2 = 0.0;
    /// What is drawn: gear wheels, pulleys (with the belt's spans between them, crossed or
    /// open), a pinion and its rack.
    std::vector<CouplerWheel> wheels;
    std::optional<CouplerRack> rack;
    bool crossed = false;
    /// Gear, rack: the teeth's pressure angle [rad]: the tooth force acts along the line of
    /// action, that far from the pitch circles' common tangent.
    double pressureAngle = 0.0;
    /// Cams: the law and the geometry (immutable, shared by copies of the model).
    std::shared_ptr<const Cam> cam;
    int equation = 0;
    /// Term i's part of the phase at its coordinate x, and its first and second derivatives.
    struct TermValue {
        double value = 0.0, slope = 0.0, second = 0.0;
    };
    TermValue term(size_t i, double x) const;
    /// Whether every term is an angle (Φ dimensionless; else Φ is a length).
    bool dimensionless() const {
        if (cam) return terms.back().angular;
        for (const CoupledCoordinate& c : terms)
            if (!c.angular) return false;
        return true;
    }
    /// Whether some term is an angle (Φ = sin ψ / scale).
    bool periodic() const {
        if (cam) return terms.back().angular;
        for (const CoupledCoordinate& c : terms)
            if (c.angular) return true;
        return false;
    }
};

/// An applied force element (see ForceDoc for the meaning of the fields).
struct ForceElement {
    std::string name;
    ForceType type = ForceType::SpringDamper;
    BodyFrame point1, point2;  ///< spring-damper attachment points (origins only)
    double stiffness = 0.0, damping = 0.0, freeLength = 0.0, preload = 0.0;
    JointIndex joint;          ///< rotational spring-damper
    double freeAngle = 0.0;
    BodyIndex body;            ///< body force or torque
    int node = 0;              ///< body force on a beam or solid: the node it acts on
    Vec3 localPoint = Vec3::Zero();
    Vec3 vector = Vec3::Zero();
    std::optional<TimeLaw> law;
    MotorDoc motor;            ///< motors, on `joint`
    bool rotational = true;    ///< motors: a torque about the joint's axis, or a force along it
    /// What the element does (ForceLaw.h); never null in a built model, shared by copies.
    std::shared_ptr<const ForceLaw> forceLaw;
};

/// A unilateral constraint (methods.md, "Stops and impacts"): a scalar x(q) held within
/// [lower, upper] — a joint limit (x the joint's angle [rad] or slide [m]) or a distance
/// stop (x the distance between two points [m]). Each finite bound is a gap function
/// g(q) ≥ 0: x − lower, or upper − x (StopGaps.h).
struct Stop {
    enum class Kind { JointLimit, Distance };
    std::string name;  ///< the joint's name for a joint limit, else the stop's
    Kind kind = Kind::JointLimit;
    JointIndex joint;         ///< joint limits
    bool angular = true;      ///< joint limits: the angle (revolute) or the slide
    BodyFrame point1, point2; ///< distance stops: the two points (origins only)
    double lower = -std::numeric_limits<double>::infinity();
    double upper = std::numeric_limits<double>::infinity();
    double restitution = 0.0;  ///< Newton's coefficient e, in [0, 1]
};

/// Which bound of a stop: its lower (g = x − lower) or its upper (g = upper − x).
enum class StopSide { Lower, Upper };

/// A stop held as an equation (its gap g = 0): its row is `equation`, after the couplers'.
struct EngagedStop {
    int stop = 0;  ///< index into Model::stops
    StopSide side = StopSide::Lower;
    int equation = 0;
};

/// Says which joint (or driver) an equation belongs to and which component it is,
/// so that redundant equations and reactions can be named.
struct EquationLabel {
    std::string owner;      ///< joint or driver name
    std::string component;  ///< e.g. "point x", "axis z1.x2", "driver"
    bool angular = false;   ///< a dimensionless (orientation) equation, else a length
};

/// Coordinates: each body owns a slice of q and of v whose size and meaning its kind gives
/// (BodyFormulation.h; a rigid body has 7 position numbers, centre of mass and unit quaternion,
/// and 6 velocity numbers, centre-of-mass velocity in the global frame and angular
/// velocity in the body frame). The constraint Jacobian Φ_q is taken with respect to the
/// velocity coordinates, so "coordinates" in mobility counts means velocity coordinates.
struct Model {
    std::string name;
    std::string description;
    std::string sourceFile;    ///< file the model came from, if any
    Vec3 gravity = Vec3::Zero();
    std::vector<Body> bodies;  ///< bodies[0] is the ground
    std::vector<Joint> joints;
    std::vector<Driver> drivers;
    std::vector<Coupler> couplers;  ///< their equations follow the drivers'
    std::vector<ForceElement> forces;
    /// Joint limits and distance stops; none of them adds an equation while free.
    std::vector<Stop> stops;
    /// Stops held as equations, rows after the couplers'. Empty in a built model: the run
    /// steps a copy whose list holds the engaged stops (simulation/StopSupervisor.h).
    std::vector<EngagedStop> engagedStops;
    std::vector<EquationLabel> equations;
    std::vector<Marker> markers;
    ExpectedDoc expected;
    /// Characteristic length [m] (size of the mechanism), used to weigh rotations
    /// against translations in rank decisions and minimum-norm steps.
    double lengthScale = 1.0;
    /// The document this model was built from, kept for the editors that make a new
    /// document from a pose (posing/); solvers, plots and exports read the compiled
    /// members above.
    ModelDocument document;

    int bodyCount() const { return static_cast<int>(bodies.size()); }
    int movingBodyCount() const { return bodyCount() - 1; }
    int positionSize() const { return positionSize_; }
    int velocitySize() const { return velocitySize_; }
    int equationCount() const { return static_cast<int>(equations.size()); }
    /// Grübler–Kutzbach count: velocity coordinates − (joint and driver equations).
    int grueblerCount() const { return velocitySize() - equationCount(); }

    /// Offset of body b's slice in q.
    int positionOffset(BodyIndex b) const { return body(b).slice.positionOffset; }
    /// Offset of body b's slice in v.
    int velocityOffset(BodyIndex b) const { return body(b).slice.velocityOffset; }
    /// Size of body b's velocity slice.
    int velocitySliceSize(BodyIndex b) const { return body(b).slice.velocitySize; }
    /// The body whose velocity slice holds coordinate i of v.
    int bodyOfVelocityCoordinate(int i) const { return velocityOwner_[static_cast<size_t>(i)]; }
    /// Gives every body its slices of q and v, in body order, with the sizes its kind
    /// asks for. Called once the bodies are in place.
    void layOutCoordinates();

    std::optional<BodyIndex> findBody(const std::string& name) const;
    std::optional<JointIndex> findJoint(const std::string& name) const;
    const Joint& joint(JointIndex j) const { return joints[static_cast<size_t>(j.value())]; }
    const Body& body(BodyIndex b) const { return bodies[static_cast<size_t>(b.value())]; }

private:
    int positionSize_ = 0, velocitySize_ = 0;
    std::vector<int> velocityOwner_;
};

}  // namespace looplab
