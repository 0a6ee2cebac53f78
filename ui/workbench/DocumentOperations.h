#pragma once
// Structural edits of a ModelDocument that keep its name references consistent: bodies
// and joints are referred to by name, so renaming or deleting one must also update or
// remove whatever refers to it. Pure functions on plain data, shared by the tree's
// context menu, the property editor and the tests.

#include "looplab/ModelDocument.h"

#include <string>
#include <vector>

namespace looplab::ui {

/// The four kinds of items the model tree lists.
enum class ItemKind { Body, Joint, Driver, Force };

/// One item of the document: its kind and index in the matching vector.
struct ItemRef {
    ItemKind kind = ItemKind::Body;
    int index = -1;
    bool valid() const { return index >= 0; }
    bool operator==(const ItemRef& o) const { return kind == o.kind && index == o.index; }
    bool operator!=(const ItemRef& o) const { return !(*this == o); }
};

/// Number of items of a kind.
int itemCount(const ModelDocument& doc, ItemKind kind);
/// Name of an item; empty if the reference is out of range.
std::string itemName(const ModelDocument& doc, ItemRef item);
/// A name of the form "<base>", "<base>_2", ... that no item of the kind uses (and never
/// "ground" for bodies).
std::string uniqueName(const ModelDocument& doc, ItemKind kind, const std::string& base);

/// Appends a new item with sensible defaults (a joint connects ground to the first body,
/// a driver drives the first revolute joint); returns its reference.
ItemRef addItem(ModelDocument& doc, ItemKind kind);
/// Appends a copy of the item under a new unique name; returns the copy's reference.
ItemRef duplicateItem(ModelDocument& doc, ItemRef item);
/// Renames an item and every reference to it. Returns false (and changes nothing) if
/// the name is empty, reserved or already used by another item of the kind.
bool renameItem(ModelDocument& doc, ItemRef item, const std::string& newName);

/// What removing an item also removes.
struct Dependants {
    std::vector<std::string> joints, drivers, forces, markers;
    bool empty() const { return joints.empty() && drivers.empty() && forces.empty() && markers.empty(); }
};
/// Items that refer to `item` directly or through a removed joint or marker.
Dependants dependantsOf(const ModelDocument& doc, ItemRef item);
/// Removes the item and its dependants.
void removeItem(ModelDocument& doc, ItemRef item);

}  // namespace looplab::ui
