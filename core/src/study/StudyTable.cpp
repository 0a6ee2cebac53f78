#include "looplab/study/StudyTable.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace looplab {

namespace {

std::string number(double x) {
    if (!std::isfinite(x)) return {};
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", x);
    return buf;
}

// One line per row: a reason's line breaks become "; ", and a field with a comma or a
// quote is quoted (RFC 4180).
std::string csvField(const std::string& s) {
    std::string flat;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\r') continue;
        if (s[i] == '\n') {
            if (i + 1 < s.size()) flat += "; ";
            continue;
        }
        flat += s[i];
    }
    if (flat.find_first_of(",\"") == std::string::npos) return flat;
    std::string q = "\"";
    for (char c : flat) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

bool splitCsv(const std::string& line, std::vector<std::string>& fields) {
    fields.clear();
    std::string f;
    bool quoted = false, wasQuoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                f += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                f += c;
            }
        } else if (c == '"' && f.empty() && !wasQuoted) {
            quoted = wasQuoted = true;
        } else if (c == ',') {
            fields.push_back(f);
            f.clear();
            wasQuoted = false;
        } else {
            f += c;
        }
    }
    if (quoted) return false;
    fields.push_back(f);
    return true;
}

bool parseNumber(const std::string& s, double& x, bool allowEmpty) {
    if (s.empty()) {
        x = NAN;
        return allowEmpty;
    }
    char* end = nullptr;
    errno = 0;
    x = std::strtod(s.c_str(), &end);
    return end && *end == '\0' && std::isfinite(x);
}

}  // namespace

std::vector<std::string> studyValueColumns(const StudyDescription& study) {
    std::vector<std::string> c;
    if (study.analysis.type == StudyAnalysisType::Simulate) {
        c.push_back("singular_configurations");
        c.push_back("branch_changes");
    }
    for (const StudyOutput& o : study.outputs) c.push_back(o.column());
    return c;
}

std::string studyHeader(const StudyDescription& study) {
    std::string h = "case";
    for (const StudyParameter& p : study.parameters) h += "," + csvField(p.name);
    h += ",ok,assembled";
    for (const std::string& c : studyValueColumns(study)) h += "," + csvField(c);
    return h + ",reason";
}

std::string formatStudyRow(const StudyRow& row) {
    std::string s = std::to_string(row.index);
    for (double p : row.parameters) s += "," + number(p);
    s += row.ok ? ",1" : ",0";
    s += row.assembled ? ",1" : ",0";
    for (double v : row.values) s += "," + number(v);
    return s + "," + csvField(row.reason);
}

bool parseStudyRow(const StudyDescription& study, const std::string& line, StudyRow& row, std::string* error) {
    std::vector<std::string> f;
    const size_t nv = studyValueColumns(study).size(), np = study.parameters.size();
    if (!splitCsv(line, f) || f.size() != 1 + np + 2 + nv + 1) {
        *error = "expected " + std::to_string(1 + np + 2 + nv + 1) + " fields";
        return false;
    }
    char* end = nullptr;
    row.index = std::strtol(f[0].c_str(), &end, 10);
    if (f[0].empty() || *end != '\0' || row.index < 0) {
        *error = "the case number '" + f[0] + "' is not a case number";
        return false;
    }
    row.parameters.assign(np, NAN);
    for (size_t i = 0; i < np; ++i)
        if (!parseNumber(f[1 + i], row.parameters[i], false)) {
            *error = "parameter '" + study.parameters[i].name + "' is not a number";
            return false;
        }
    const std::string& ok = f[1 + np], & as = f[2 + np];
    if ((ok != "0" && ok != "1") || (as != "0" && as != "1")) {
        *error = "ok and assembled must be 0 or 1";
        return false;
    }
    row.ok = ok == "1";
    row.assembled = as == "1";
    row.values.assign(nv, NAN);
    for (size_t i = 0; i < nv; ++i)
        if (!parseNumber(f[3 + np + i], row.values[i], true)) {
            *error = "value " + std::to_string(i + 1) + " is not a number";
            return false;
        }
    row.reason = f.back();
    return true;
}

}  // namespace looplab
