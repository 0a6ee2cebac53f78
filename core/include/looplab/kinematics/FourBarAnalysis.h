#pragma once
// Recognises a planar four-bar (three moving links and the ground in one loop of four
// revolutes with parallel axes, or two grounded links on revolutes whose coupler is a
// distance joint, a massless rod) and says in words whether it closes and how it moves:
// the reach condition (no link longer than the other three together) and Grashof's
// condition (shortest + longest ≤ sum of the other two: some link turns fully).
// Reference: Norton, Design of Machinery, 5th ed., §2.12.

#include "looplab/model/Model.h"

#include <optional>
#include <string>
#include <vector>

namespace looplab {

struct FourBarLink {
    std::string name;  ///< body name; "ground" for the fixed link; a rod coupler's joint name
    double length = 0.0;  ///< distance between its two pivots, normal to the axes [m]
    bool grounded = false;  ///< pivots on the ground (true for the ground link itself)
};

struct FourBarLinkage {
    /// In loop order: ground, first grounded link (the driven one if any), coupler,
    /// second grounded link.
    std::vector<FourBarLink> links;
    /// The four revolutes in loop order from the ground; for a rod coupler, the first
    /// grounded link's revolute, the distance joint and the other revolute.
    std::vector<std::string> joints;

    /// A link is longer than the other three together: the loop cannot close anywhere.
    bool tooLong() const;
    /// s + l ≤ p + q.
    bool grashof() const;
    /// "coupler 0.95 m is longer than the 0.80 m the other links can span: shorten coupler
    /// below 0.80 m, or …", or how the loop closes at its limit, each with its fix; empty
    /// when the loop can close.
    std::string reachSentence() const;
    /// The Grashof condition with its numbers and what it means for this linkage.
    std::string grashofSentence() const;
    /// Whether the first grounded link (links[1]) can turn a full turn: Grashof, with it
    /// or the ground the shortest link.
    bool firstGroundedLinkTurnsFully() const;
};

/// The four-bar in `model`, or nothing if the model is not one.
std::optional<FourBarLinkage> findPlanarFourBar(const Model& model);

/// Where `model` is a four-bar whose driven link cannot turn fully, why and what to do,
/// as a sentence that leads a failure's message ("The driven link crank cannot turn fully:
/// non-Grashof four-bar: …; give crank a law that stays between its limits …, or change a
/// length …"); empty otherwise.
/// A run of such a model that fails has most likely been driven into a limit, where the
/// solver only sees a loop that no longer closes.
std::string drivenLinkLimitSentence(const Model& model);

}  // namespace looplab
