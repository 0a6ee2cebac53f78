#pragma once
// Whether a beam, solid or node set of the document would build, asked of the model builder itself
// so that the property editor refuses a value with the loader's own reason and location
// ("/beams/0/material/young_modulus: Young's modulus must be positive (got -5)"). Only
// the member is built, without the rest of the model, so a fault elsewhere (an
// unconnected joint being set up) does not block editing it.

#include "document/DocumentOperations.h"

#include "looplab/model/Diagnostic.h"

#include <optional>

namespace looplab::ui {

/// The first reason the beam or solid `item` of `doc` does not build, located as in the
/// whole document; nullopt if it builds, or if `item` is not a beam or solid of `doc`.
std::optional<Diagnostic> flexibleMemberProblem(const ModelDocument& doc, ItemRef item);

/// The first reason the node set `item` of `doc` does not build (an empty name, one taken
/// by another set, a body, a node or a face, no nodes, an unknown node, a node listed
/// twice), located as in the whole document ("/node_sets/1/nodes/2"); nullopt if it
/// builds, or if `item` is not a node set of `doc`. The bodies, meshes and node sets are
/// built without the joints and forces, which do not decide whether a set is valid.
std::optional<Diagnostic> nodeSetProblem(const ModelDocument& doc, ItemRef item);

}  // namespace looplab::ui
