#include "ImportFrames.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>

namespace looplab::exchange {

const tinyxml2::XMLElement* xmlRoot(tinyxml2::XMLDocument& xml, const std::string& text, const std::string& file,
                                    const char* rootName, const char* format, ImportResult& out) {
    if (xml.Parse(text.c_str(), text.size()) != tinyxml2::XML_SUCCESS) {
        if (xml.ErrorID() == tinyxml2::XML_ELEMENT_DEPTH_EXCEEDED) {
            // Well-formed, perhaps, but deeper than the XML reader goes (it stops there
            // rather than exhaust the stack): in MJCF that is a chain of nested bodies.
            out.diagnostics.push_back(Diagnostic{
                file, "",
                std::string("elements nested ") + std::to_string(TINYXML2_MAX_ELEMENT_DEPTH) +
                    " deep, deeper than LoopLab reads (in MJCF, a chain of more than " +
                    std::to_string(kMaxNestedMjcfBodies) + " bodies each inside the last)",
                xml.ErrorLineNum(), 0});
            return nullptr;
        }
        out.diagnostics.push_back(Diagnostic{file, "", std::string("not well-formed XML: ") +
                                                           (xml.ErrorStr() ? xml.ErrorStr() : "unreadable"),
                                             xml.ErrorLineNum(), 0});
        return nullptr;
    }
    const tinyxml2::XMLElement* root = xml.RootElement();
    if (!root || std::string(root->Name()) != rootName) {
        out.diagnostics.push_back(Diagnostic{file, "", std::string("not ") + format + " file: its root element is not <" +
                                                           rootName + ">",
                                             root ? root->GetLineNum() : 0, 0});
        return nullptr;
    }
    return root;
}

std::optional<std::vector<double>> parseNumbers(const char* text) {
    std::vector<double> out;
    if (!text) return out;
    const char* s = text;
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') ++s;
        if (!*s) break;
        char* end = nullptr;
        errno = 0;
        const double v = std::strtod(s, &end);
        if (end == s || errno == ERANGE || !std::isfinite(v)) return std::nullopt;
        out.push_back(v);
        s = end;
    }
    return out;
}

Quat fromRollPitchYaw(double roll, double pitch, double yaw) {
    return (Eigen::AngleAxisd(yaw, Vec3::UnitZ()) * Eigen::AngleAxisd(pitch, Vec3::UnitY()) *
            Eigen::AngleAxisd(roll, Vec3::UnitX()))
        .normalized();
}

nlohmann::json quatJson(const Quat& q) { return {q.w(), q.x(), q.y(), q.z()}; }
nlohmann::json vecJson(const Vec3& v) { return {v.x(), v.y(), v.z()}; }

nlohmann::json inertiaJson(const Mat3& I) {
    const Mat3 S = 0.5 * (I + I.transpose());
    return {S(0, 0), S(1, 1), S(2, 2), S(0, 1), S(0, 2), S(1, 2)};
}

void MassProperties::add(double m, const Vec3& c, const Mat3& I, const Mat3& axes) {
    if (!(m > 0.0)) return;
    const double total = mass + m;
    const Vec3 newCentre = (mass * centre + m * c) / total;
    auto shifted = [](double mass, const Vec3& d) {
        return Mat3(mass * (d.squaredNorm() * Mat3::Identity() - d * d.transpose()));
    };
    inertia = inertia + shifted(mass, centre - newCentre) + axes * I * axes.transpose() + shifted(m, c - newCentre);
    mass = total;
    centre = newCentre;
}

std::string meshPath(const std::string& name, const std::string& from) {
    if (name.find("://") != std::string::npos) return {};
    std::filesystem::path p(name);
    if (p.is_relative() && !from.empty()) p = std::filesystem::path(from).parent_path() / p;
    std::string ext = p.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    std::error_code ec;
    if ((ext != ".stl" && ext != ".obj") || !std::filesystem::is_regular_file(p, ec)) return {};
    return std::filesystem::absolute(p, ec).lexically_normal().string();
}

std::string uniqueName(const std::string& wanted, std::unordered_set<std::string>& taken) {
    std::string name = wanted;
    for (int k = 2; taken.count(name); ++k) name = wanted + "_" + std::to_string(k);
    taken.insert(name);
    return name;
}

}  // namespace looplab::exchange
