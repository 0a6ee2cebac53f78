#pragma once
// The kinds of items the model tree lists, and one descriptor per kind with everything
// that differs between them and is not an editor: their names in the window, the lists of
// the document and of the model file that hold them, the names they share with other
// kinds, how other items refer to them, how a new item starts. Code that would switch on
// the kind looks it up instead, so a new kind is one entry of the table in ItemKinds.cpp
// (and, in the workbench, its editor); a table indexed by the kind that misses an entry
// does not compile.

#include "looplab/model/ModelDocument.h"
#include "looplab/files/ModelFile.h"

#include <array>
#include <cstddef>
#include <string>

namespace looplab::ui {

/// The kinds of items the model tree lists. Beams and solids are bodies too (they share
/// the bodies' names), but each is a mesh with fields of its own. A node set names nodes
/// of the beams and solids; joints and forces hold it as they hold a body.
/// The tree lists the groups in this order.
enum class ItemKind { Body, Joint, Driver, Force, Beam, Solid, NodeSet, Coupler };
/// How many kinds there are. A kind added after the last must be named here: the enum
/// cannot count itself, and the tables indexed by the kind check their size against this.
inline constexpr int kItemKindCount = static_cast<int>(ItemKind::Coupler) + 1;

/// One item of the document: its kind and index in the matching vector.
struct ItemRef {
    ItemKind kind = ItemKind::Body;
    int index = -1;
    bool valid() const { return index >= 0; }
    bool operator==(const ItemRef& o) const { return kind == o.kind && index == o.index; }
    bool operator!=(const ItemRef& o) const { return !(*this == o); }
};

/// The items among which a name must be unique, as the model builder resolves names.
enum class NameScope {
    Bodies,          ///< rigid bodies, beams and solids; never "ground", nor a node set's name
    EquationOwners,  ///< joints, drivers and couplers
    Forces,
    NodeSets,  ///< never "ground", a body's, a node's or a face's name either
};

/// Where other items name an item of the kind, so that renaming or removing it reaches them.
enum class ReferredAs {
    Nothing,
    /// Where joints and forces name a body; a rigid body, beam or solid (NameScope::Bodies)
    /// also by markers, traces and node sets' nodes.
    Body,
    /// By drivers, forces and couplers.
    Joint,
};

struct ItemKindDescriptor {
    ItemKind kind;
    /// Lower case, in "Add node set".
    const char* singular;
    /// Heading of the property editor, "Node set".
    const char* title;
    /// The tree's group, "Node sets".
    const char* groupTitle;
    /// New items are called "<base>", "<base>_2", ...
    const char* baseName;
    /// The model file's list, as the loader's diagnostics locate its items: "node_sets".
    const char* fileList;
    /// The status bar's reason when append() refuses; null where it never does.
    const char* cannotAdd;
    NameScope nameScope;
    ReferredAs referredAs;
    /// A mesh: its nodes and faces are named "<name>.<member>" ("beam.tip", "box.xmin").
    bool namedMembers;

    int (*count)(const ModelDocument& doc);
    const std::string& (*name)(const ModelDocument& doc, size_t index);
    void (*setName)(ModelDocument& doc, size_t index, const std::string& name);
    /// Appends a copy of item `index` called `name`.
    void (*duplicate)(ModelDocument& doc, size_t index, const std::string& name);
    void (*erase)(ModelDocument& doc, size_t index);
    /// Appends a new item called `name` with the defaults addItem() describes; false, and
    /// nothing appended, when the document cannot hold one yet.
    bool (*append)(ModelDocument& doc, const std::string& name, const LoadedModel* loaded);
};

/// The descriptor of a kind; `kind` must be one of the enumerators.
const ItemKindDescriptor& describe(ItemKind kind);
/// Every kind's descriptor, in ItemKind's order.
const std::array<ItemKindDescriptor, kItemKindCount>& itemKindDescriptors();

/// Whether a table with one entry per kind (each with a `kind` member) holds every kind at
/// its own position, so that it can be indexed by the kind: such a table states this in a
/// static_assert next to it.
template <typename Entry, size_t N>
constexpr bool coversItemKinds(const std::array<Entry, N>& table)
{
    if (N != static_cast<size_t>(kItemKindCount))
        return false;
    for (size_t k = 0; k < N; ++k)
        if (table[k].kind != static_cast<ItemKind>(k))
            return false;
    return true;
}

}  // namespace looplab::ui
