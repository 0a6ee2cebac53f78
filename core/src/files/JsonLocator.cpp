#include "files/JsonLocator.h"

#include <set>

namespace looplab::json_input {

std::string pointerToken(const std::string& key) {
    std::string t;
    for (char c : key) {
        if (c == '~')
            t += "~0";
        else if (c == '/')
            t += "~1";
        else
            t += c;
    }
    return t;
}

void lineColumn(const std::string& text, std::size_t byte, int& line, int& column) {
    line = 1;
    column = 1;
    for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
}

namespace {

// Builds the JSON tree like json::parse(), but without exceptions, and keeps what a
// useful diagnostic needs when the text is rejected: the position and, for a number that
// does not fit in a double, the JSON pointer of the value being read.
class TreeBuilder {
public:
    explicit TreeBuilder(json& root) : dom_(root, true) {}

    bool null() { return value(dom_.null()); }
    bool boolean(bool v) { return value(dom_.boolean(v)); }
    bool number_integer(json::number_integer_t v) { return value(dom_.number_integer(v)); }
    bool number_unsigned(json::number_unsigned_t v) { return value(dom_.number_unsigned(v)); }
    bool number_float(json::number_float_t v, const json::string_t& s) {
        return value(dom_.number_float(v, s));
    }
    bool string(json::string_t& v) { return value(dom_.string(v)); }
    bool binary(json::binary_t& v) { return value(dom_.binary(v)); }
    bool start_object(std::size_t n) {
        path_.push_back({false, 0, {}});
        return dom_.start_object(n);
    }
    bool key(json::string_t& k) {
        path_.back().key = k;
        return dom_.key(k);
    }
    bool end_object() {
        path_.pop_back();
        return value(dom_.end_object());
    }
    bool start_array(std::size_t n) {
        path_.push_back({true, 0, {}});
        return dom_.start_array(n);
    }
    bool end_array() {
        path_.pop_back();
        return value(dom_.end_array());
    }
    bool parse_error(std::size_t position, const std::string& token,
                     const nlohmann::detail::exception& e) {
        failed_ = true;
        position_ = position;
        id_ = e.id;
        token_ = token;
        what_ = e.what();
        pointer_ = pointer();
        return false;
    }

    bool failed() const { return failed_; }
    std::size_t position() const { return position_; }
    int id() const { return id_; }
    const std::string& token() const { return token_; }
    const std::string& what() const { return what_; }
    const std::string& errorPointer() const { return pointer_; }

private:
    struct Level {
        bool array;
        std::size_t index;  // next element of an array
        std::string key;    // last key of an object
    };

    // A complete value was read: an array moves on to its next element.
    bool value(bool ok) {
        if (!path_.empty() && path_.back().array) ++path_.back().index;
        return ok;
    }

    // JSON pointer (RFC 6901) of the value being read.
    std::string pointer() const {
        std::string p;
        for (const Level& l : path_) {
            p += '/';
            if (l.array) {
                p += std::to_string(l.index);
                continue;
            }
            p += pointerToken(l.key);
        }
        return p;
    }

    nlohmann::detail::json_sax_dom_parser<json> dom_;
    std::vector<Level> path_;
    bool failed_ = false;
    std::size_t position_ = 0;
    int id_ = 0;
    std::string token_, what_, pointer_;
};

}  // namespace

bool parseJson(const std::string& text, const std::string& file, const char* numbersOf, json& root,
               Diagnostics& diags) {
    TreeBuilder builder(root);
    if (json::sax_parse(text, &builder) && !builder.failed()) return true;
    Diagnostic d;
    d.file = file;
    if (builder.id() == 406) {
        // json::out_of_range 406: a number beyond the range of a double.
        std::string number = builder.token();
        if (number.size() > 40) number = number.substr(0, 37) + "...";
        const std::string& where = builder.errorPointer();
        d.message = "number " + number + " at " + (where.empty() ? "the top level" : where) +
                    " is too large: " + numbersOf + "'s numbers must be smaller in magnitude than about 1.8e308";
    } else {
        // Keep nlohmann's description, drop its internal error-number prefix.
        const std::string& what = builder.what();
        const auto pos = what.find("parse error");
        d.message =
            "JSON syntax error: " + (pos == std::string::npos ? what : what.substr(pos));
    }
    // The lexer has read up to the end of the offending token.
    const std::size_t byte = builder.position();
    lineColumn(text, byte > 0 ? byte - 1 : 0, d.line, d.column);
    diags.push_back(d);
    return false;
}

void JsonLocator::error(const std::string& where, const std::string& what) {
    Diagnostic d;
    d.file = file_;
    d.location = where;
    d.message = what;
    diags_.push_back(d);
}

bool JsonLocator::object(const json& j, const std::string& where, const std::vector<std::string>& allowed) {
    if (!j.is_object()) {
        error(where, "expected an object, found " + typeName(j));
        return false;
    }
    const std::set<std::string> ok(allowed.begin(), allowed.end());
    bool good = true;
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (!ok.count(it.key())) {
            error(where + "/" + pointerToken(it.key()), "unknown field '" + it.key() + "'");
            good = false;
        }
    }
    return good;
}

const json* JsonLocator::field(const json& obj, const char* key, const std::string& where, bool required) {
    auto it = obj.find(key);
    if (it == obj.end()) {
        if (required) error(where + "/" + key, std::string("missing required field '") + key + "'");
        return nullptr;
    }
    return &*it;
}

bool JsonLocator::number(const json& obj, const char* key, const std::string& where, double& out, bool required) {
    const json* v = field(obj, key, where, required);
    if (!v) return false;
    if (!v->is_number()) {
        error(where + "/" + key, "expected a number, found " + typeName(*v));
        return false;
    }
    out = v->get<double>();
    return true;
}

bool JsonLocator::optionalNumber(const json& obj, const char* key, const std::string& where,
                                 std::optional<double>& out) {
    double x = 0.0;
    if (!number(obj, key, where, x)) return false;
    out = x;
    return true;
}

bool JsonLocator::text(const json& obj, const char* key, const std::string& where, std::string& out, bool required) {
    const json* v = field(obj, key, where, required);
    if (!v) return false;
    if (!v->is_string()) {
        error(where + "/" + key, "expected a string, found " + typeName(*v));
        return false;
    }
    out = v->get<std::string>();
    return true;
}

}  // namespace looplab::json_input
