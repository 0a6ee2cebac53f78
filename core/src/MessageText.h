#pragma once
// Pieces of the messages the solvers put into a Status, shared so that every method words
// times and numbers alike.

#include <cstdio>
#include <sstream>
#include <string>

namespace looplab::message {

/// "t = 0.1234 s".
inline std::string at(double t) {
    std::ostringstream o;
    o << "t = " << t << " s";
    return o.str();
}

/// printf-style text with up to two numbers.
inline std::string format(const char* fmt, double a, double b = 0.0) {
    char buf[320];
    std::snprintf(buf, sizeof buf, fmt, a, b);
    return buf;
}

}  // namespace looplab::message
