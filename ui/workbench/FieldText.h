#pragma once
// Text the property editor's fields share (PropertyEditor.cpp, ItemFields.cpp).

#include <QString>

#include <string>

namespace looplab::ui {

inline QString str(const std::string& s) { return QString::fromStdString(s); }

/// JSON pointer of a field, as the loader reports it: "/bodies/0/orientation".
inline std::string pointer(const char* list, size_t index, const char* field)
{
    return std::string("/") + list + "/" + std::to_string(index) + "/" + field;
}

/// The choice of no law in a driver's or force's law row.
inline constexpr const char* kNoLaw = "none";

}  // namespace looplab::ui
