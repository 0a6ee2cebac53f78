#pragma once
// The editable description of a mechanism. It is what model files hold and what the
// workbench's editors change; it is plain data with names instead of indices, and may
// be invalid. ModelBuilder compiles it into an immutable Model or a list of diagnostics.

#include "looplab/model/CamLaw.h"
#include "looplab/model/TimeLaw.h"
#include "looplab/common/Types.h"
#include "looplab/model/VisualShape.h"

#include <map>
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace looplab {

/// A rigid body. Its frame has its origin at the centre of mass.
struct BodyDoc {
    std::string name;
    double mass = 1.0;                        ///< kg
    Mat3 inertia = Mat3::Identity();          ///< kg·m², about the centre of mass, body frame
    Vec3 position = Vec3::Zero();             ///< initial centre of mass, global frame [m]
    Quat orientation = Quat::Identity();      ///< initial orientation, body to global
    Vec3 velocity = Vec3::Zero();             ///< initial centre-of-mass velocity, global [m/s]
    Vec3 angularVelocity = Vec3::Zero();      ///< initial angular velocity, global [rad/s]
    VisualShape shape;
    /// kg/m³. When set, mass and inertia follow from the shape filled with this density
    /// (ShapeMassProperties.h) and the typed mass and inertia are not used; unset, the
    /// typed mass and inertia are the user's override.
    std::optional<double> density;
};

/// A frame fixed on a body, given in the body frame.
struct MarkerDoc {
    std::string name;
    std::string body;                     ///< body name, or "ground"
    Vec3 position = Vec3::Zero();         ///< origin in body frame [m]
    Quat orientation = Quat::Identity();  ///< marker axes in body frame
};

enum class JointType {
    Revolute,     ///< rotation about the common z axis
    Prismatic,    ///< translation along the common z axis
    Spherical,    ///< coincident points
    Cylindrical,  ///< rotation about and translation along z
    Universal,    ///< coincident points, z of frame 1 ⟂ z of frame 2
    Fixed,        ///< no relative motion
    Planar,       ///< frame 2 moves in the x–y plane of frame 1
    Distance,     ///< the two origins stay a fixed distance apart (massless rod)
    PointOnLine,  ///< origin 2 stays on the z axis of frame 1
    PointOnPlane, ///< origin 2 stays in the x–y plane of frame 1
    Screw         ///< a cylindrical whose slide follows its turn: s = lead · θ/2π
};

/// File name of a joint type ("revolute", "point_on_line", ...).
const char* jointTypeName(JointType type);
/// Every joint type, in the order of the enumeration.
std::vector<JointType> jointTypes();
bool jointTypeFromName(const std::string& name, JointType& type);

/// A joint between two bodies. Either by two markers (marker1 on the first body, marker2
/// on the second), or by the two bodies and a global point and axis at the initial
/// configuration, from which the joint frames on both bodies are derived.
struct JointDoc {
    std::string name;
    JointType type = JointType::Revolute;
    bool byMarkers = false;
    std::string marker1, marker2;
    std::string body1, body2;
    Vec3 point = Vec3::Zero();           ///< global joint point (point on body 1 for distance)
    Vec3 axis = Vec3::UnitZ();           ///< global joint axis (plane normal, line direction)
    Vec3 axis2 = Vec3::Zero();           ///< universal: second body's axis; zero: a perpendicular
    Vec3 point2 = Vec3::Zero();          ///< distance: point on body 2 (global, initial)
    std::optional<double> length;        ///< distance: rod length; default the initial distance
    std::optional<double> lead;          ///< screw: advance per turn [m]; negative for a left-hand thread
    /// The range the joint's coordinate keeps [rad or m], lower then upper (kept from URDF
    /// and MJCF and written back to them). Enforced as end stops on a revolute's angle and a
    /// prismatic's or cylindrical's slide (Stop in Model.h); data on other joint types.
    std::optional<std::array<double, 2>> limits;
    /// Coefficient of restitution of the limits' impacts, in [0, 1]; unset: kDefaultRestitution.
    std::optional<double> restitution;
};

/// Restitution of a limit or stop that gives none: 0, a stop that holds what strikes it
/// (a door stop, a mechanism's end stop), so that a limit never adds a bounce the user did
/// not ask for (docs/model-format.md).
inline constexpr double kDefaultRestitution = 0.0;

/// A distance stop: the distance between a point on body 1 and a point on body 2 is held
/// within [min, max]. Only max: a rope or chain (taut or slack); only min: the contact of
/// two balls (min the sum of their radii); both: a sleeve with two ends.
struct StopDoc {
    std::string name;
    std::string body1, body2;
    Vec3 point1 = Vec3::Zero(), point2 = Vec3::Zero();  ///< global, at the initial configuration [m]
    std::optional<double> min, max;                      ///< [m]
    std::optional<double> restitution;                   ///< in [0, 1]; unset: kDefaultRestitution
};

/// A rheonomic constraint: a revolute's angle or a prismatic's displacement follows a law.
struct DriverDoc {
    std::string name;
    std::string joint;
    TimeLaw law;
};

/// A coupler: one equation tying joints' coordinates together (methods.md, "Couplers"). A
/// revolute's or cylindrical's coordinate is its angle, a prismatic's its displacement.
enum class CouplerType {
    Gear,          ///< two revolutes on a common body in mesh: teeth or pitch radii
    RackAndPinion, ///< a revolute (the pinion) and a prismatic (the rack) on a common body
    Belt,          ///< two revolutes on a common body, pulleys of two radii, open or crossed
    Linear,        ///< Σ cᵢ xᵢ = const over two or three joints (Adams' COUPLER)
    Cam            ///< a cam's revolute and its follower's prismatic or revolute: lift = f(cam angle)
};

/// What touches a cam: a point (knife edge), a roller whose centre follows the pitch curve,
/// or a flat face square to a translating follower's slide.
enum class CamFollower { KnifeEdge, Roller, FlatFace };

const char* camFollowerName(CamFollower follower);
bool camFollowerFromName(const std::string& name, CamFollower& follower);

/// A cam's law and follower as written (methods.md, "Cams"). Angles in degrees; lifts in
/// metres for a translating follower (a prismatic joint), in degrees for an oscillating
/// one (a revolute joint).
struct CamDoc {
    CamFollower follower = CamFollower::Roller;
    double rollerRadius = 0.0;  ///< roller followers [m]
    /// The follower's point that rides on the cam: the knife's tip, the roller's centre, or
    /// a point of the flat face; global, at the initial configuration [m].
    Vec3 followerPoint = Vec3::Zero();
    /// The law's angle at the initial configuration [deg]: the follower's lift there is the
    /// law's at this angle.
    double startAngle = 0.0;
    /// Segments end to end over one turn (their angles sum to 360°, their lifts to zero) …
    std::vector<CamSegment> segments;  ///< angle [deg], lift [m or deg]
    /// … or a table of (angle [deg], lift) through which a periodic cubic spline passes …
    std::vector<std::pair<double, double>> table;
    /// … or the cam's profile, a closed polygon of global points at the initial
    /// configuration [m] (translating followers): the lift is where the follower meets it.
    std::vector<Vec3> profile;
};

const char* couplerTypeName(CouplerType type);
bool couplerTypeFromName(const std::string& name, CouplerType& type);

struct CouplerDoc {
    std::string name;
    CouplerType type = CouplerType::Gear;
    /// Gear and belt: the two revolutes; rack and pinion: the pinion's revolute, then the
    /// rack's prismatic; linear: two or three joints.
    std::vector<std::string> joints;
    std::optional<int> teeth1, teeth2;       ///< gear: tooth counts
    std::optional<double> radius1, radius2;  ///< gear, belt: pitch radii [m]; rack: radius1
    bool internal = false;                   ///< gear: the second wheel is a ring (annulus)
    bool crossed = false;                    ///< belt: crossed (the pulleys turn opposite ways)
    std::optional<double> pressureAngle;     ///< gear, rack: the teeth's pressure angle [deg], 20 if not given
    std::vector<double> coefficients;        ///< linear: one per joint (per rad or per m)
    CamDoc cam;                              ///< cam: the cam's revolute, then the follower's joint
};

enum class ForceType {
    SpringDamper,            ///< point-to-point, along the line between two points
    RotationalSpringDamper,  ///< about a revolute joint's axis
    BodyForce,               ///< force on a body at a body point, global direction
    BodyTorque,              ///< torque on a body, global direction
    DcMotor,                 ///< a DC motor through a gear on a joint's coordinate
    TableMotor               ///< a torque–speed curve through a gear on a joint's coordinate
};

/// A motor on a revolute or cylindrical joint (a torque about its axis) or on a prismatic
/// joint (a force along it), through a gear: the motor turns at ω_m = n ẋ for the joint's
/// rate ẋ and the joint gets n η times the motor's torque (methods.md, "Motors").
struct MotorDoc {
    /// DC motor: supply voltage [V] as a law of time.
    TimeLaw voltage;
    /// DC motor: torque constant k [N·m/A], equal to the back-emf constant [V·s/rad].
    double torqueConstant = 0.0;
    /// DC motor: armature resistance R [Ω].
    double resistance = 0.0;
    /// n: motor speed per joint rate [1; rad/m on a prismatic joint, e.g. 2π/lead of a screw].
    double gearRatio = 1.0;
    /// η of the gear, in (0, 1]: the joint gets n η τ_m.
    double efficiency = 1.0;
    /// Table motor: (motor speed [rad/s], motor torque [N·m]) with speeds rising; linear
    /// between points, the end torques held beyond them.
    std::vector<std::pair<double, double>> table;
};

const char* forceTypeName(ForceType type);
bool forceTypeFromName(const std::string& name, ForceType& type);

/// An applied force element.
struct ForceDoc {
    std::string name;
    ForceType type = ForceType::SpringDamper;
    // Spring-damper: the two attachment points, global at the initial configuration.
    std::string body1, body2;
    Vec3 point1 = Vec3::Zero(), point2 = Vec3::Zero();
    double stiffness = 0.0;              ///< N/m, or N·m/rad
    double damping = 0.0;                ///< N·s/m, or N·m·s/rad
    std::optional<double> freeLength;    ///< m; default the initial length
    double preload = 0.0;                ///< N (or N·m) added at the free length, along extension
    // Rotational spring-damper.
    std::string joint;
    double freeAngle = 0.0;              ///< rad
    // Body force or torque: vector (global) scaled by law(t) if a law is given.
    std::string body;
    Vec3 localPoint = Vec3::Zero();      ///< application point in the body frame
    Vec3 vector = Vec3::Zero();          ///< N or N·m, global frame
    std::optional<TimeLaw> law;
    // Motors: on `joint` above.
    MotorDoc motor;
};

// --- beams (BeamMesh.h, methods.md "Flexible beams") ---

/// Linear elastic material of a beam.
struct MaterialDoc {
    double youngModulus = 0.0;  ///< E [Pa]
    double poissonRatio = 0.3;  ///< ν [1]; checked, unused by the cable element (no shear, no torsion)
    double density = 0.0;       ///< ρ [kg/m³]
    /// Stiffness-proportional structural damping β [s] (0: none): a vibration of frequency
    /// ω decays with the damping ratio ζ = βω/2 (AncfCableElement.h, HexahedronElement.h).
    double stiffnessDamping = 0.0;
};

/// Cross-section of a beam: a rectangle, a circle, or the area and second moment directly.
struct SectionDoc {
    enum class Shape { Rectangle, Circle, Direct };
    Shape shape = Shape::Rectangle;
    double width = 0.0, height = 0.0;  ///< rectangle [m]; I = width·height³/12
    double radius = 0.0;               ///< circle [m]; I = π r⁴/4
    double area = 0.0;                 ///< direct: A [m²]
    double inertia = 0.0;              ///< direct: I [m⁴]
};

/// Most elements a beam may have: its mass matrix is assembled from 144 numbers an element
/// (100 000 elements: 230 MB while it is assembled).
inline constexpr int kMaxBeamElements = 100000;

/// A straight beam from `from` to `to` meshed with `elements` equal ANCF cable elements.
/// Its nodes are named "<name>.node<k>" (k = 0 at `from`), with "<name>.root" and
/// "<name>.tip" for the first and the last; joints and nodal forces name them as bodies.
struct BeamDoc {
    std::string name;
    Vec3 from = Vec3::Zero(), to = Vec3::UnitX();  ///< undeformed end points, global [m]
    int elements = 1;
    MaterialDoc material;
    SectionDoc section;
    double preload = 0.0;  ///< axial force in the undeformed beam [N], tension positive
};

// --- end beams ---

// --- solids (SolidMesh.h, methods.md "Solid elements") ---

/// Most elements a solid box may have (its stiffness is assembled from 576 numbers an
/// element: 200 000 elements take about 1.8 GB while the tangent stiffness is assembled).
inline constexpr int kMaxSolidElements = 200000;

/// A box of nx × ny × nz equal 8-node hexahedra of a St. Venant–Kirchhoff material
/// (material.poisson_ratio is used). Its nodes are named "<name>.node<i>_<j>_<k>" (grid
/// indices from the corner `origin`), its faces "<name>.xmin", "<name>.xmax", ... are node
/// sets; joints and nodal forces name nodes and node sets as bodies.
struct SolidDoc {
    std::string name;
    Vec3 origin = Vec3::Zero();     ///< the corner with the smallest coordinates [m]
    Vec3 size = Vec3::Ones();       ///< edge lengths along x, y, z [m]
    int elements[3] = {1, 1, 1};    ///< nx, ny, nz
    MaterialDoc material;
};

// --- end solids ---

/// A node set named in the file: beam and solid nodes by their names, usable wherever a
/// solid's face (a node set the mesh makes) is: held by a spherical or fixed joint (a pin
/// per node), or loaded by a body force (the resultant shared equally among the nodes).
struct NodeSetDoc {
    std::string name;
    std::vector<std::string> nodes;
};

/// Facts a model states about itself, checked by tests and by `looplab-cli check`.
struct ExpectedDoc {
    std::optional<int> dof;
    std::optional<int> redundant;
};

/// How the model is meant to be run: what the workbench's run panel shows when the model
/// opens, so an example opens ready to play. Every field is optional; an unset one keeps
/// the workbench's own setting. Names are those of MethodRegistry.h.
struct RunSettingsDoc {
    std::optional<std::string> method;      ///< constraint method ("projection", ...)
    std::optional<std::string> integrator;  ///< integrator ("dopri5", "bdf", ...)
    std::optional<double> tEnd;             ///< s, end time
    std::optional<double> rtol, atol;       ///< integrator tolerances
    std::optional<double> step;             ///< s, fixed or initial step
    std::optional<double> outputStep;       ///< s between recorded frames
    std::optional<double> pace;             ///< simulated s per wall-clock s; 0 = as fast as possible
    /// How flexible members start ("rest", "consistent", "equilibrium": StartMotion.h); unset:
    /// consistent.
    std::optional<std::string> start;
    /// The methods' and integrators' own parameters by their registry key ("hht-alpha",
    /// "penalty-factor", ...: methodParameters() in MethodRegistry.h), in the file with
    /// underscores ("hht_alpha").
    std::map<std::string, double> parameters;
    std::optional<double> parameter(const std::string& key) const {
        const auto it = parameters.find(key);
        return it == parameters.end() ? std::nullopt : std::optional<double>(it->second);
    }
    bool empty() const {
        return !method && !integrator && !tEnd && !rtol && !atol && !step && !outputStep && !pace && !start &&
               parameters.empty();
    }
};

/// Where the 3D view looks from when the model opens.
struct CameraDoc {
    Vec3 position = Vec3(0, 0, 1);    ///< eye [m], global
    Vec3 focalPoint = Vec3::Zero();   ///< point looked at [m], global
    Vec3 viewUp = Vec3::UnitY();      ///< direction that is up on screen
    bool parallel = false;            ///< orthographic projection
    std::optional<double> parallelScale;  ///< orthographic: half the view height [m]
};

/// A point whose path the workbench draws when the model opens (a coupler curve): a
/// marker's origin, or a point fixed on a body.
struct TraceDoc {
    std::string marker;         ///< a marker's name; empty: `body` and `point`
    std::string body;           ///< body name ("ground" gives a fixed point)
    Vec3 point = Vec3::Zero();  ///< in the body frame, relative to its origin [m]
};

/// The whole editable model.
struct ModelDocument {
    std::string name;
    std::string description;
    Vec3 gravity = Vec3::Zero();  ///< m/s², global
    std::vector<BodyDoc> bodies;
    std::vector<MarkerDoc> markers;
    std::vector<JointDoc> joints;
    std::vector<DriverDoc> drivers;
    std::vector<CouplerDoc> couplers;
    std::vector<ForceDoc> forces;
    std::vector<StopDoc> stops;  ///< distance stops (joint limits are the joints')
    std::vector<BeamDoc> beams;  ///< bodies of kind Beam, after the rigid bodies
    std::vector<SolidDoc> solids;  ///< bodies of kind Solid, after the beams
    std::vector<NodeSetDoc> nodeSets;  ///< node sets of beam and solid nodes
    ExpectedDoc expected;
    RunSettingsDoc run;              ///< run settings saved with the model
    std::optional<CameraDoc> camera;  ///< the view saved with the model
    std::vector<TraceDoc> traces;     ///< points traced when the model opens
};

/// Name reserved for the fixed ground body.
inline constexpr const char* kGroundName = "ground";

}  // namespace looplab
