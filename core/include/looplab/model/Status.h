#pragma once
// The one shape in which every solver step says whether it worked: ok, or a reason a
// user can act on, with the joints involved when the reason is about some of them.
// Results that carry numbers as well (assembly, kinematic and dynamic runs, statics,
// modes, modes along a motion) extend it, so every caller reads one `ok` and one
// `message`; those start as not ok (Status(false)) until the analysis says otherwise.

#include <string>
#include <utility>
#include <vector>

namespace looplab {

struct Status {
    bool ok = true;
    std::string message;              ///< why not; empty when ok
    std::vector<std::string> joints;  ///< joints and drivers the failure is about, if any

    Status() = default;
    explicit Status(bool isOk) : ok(isOk) {}

    static Status failure(std::string why, std::vector<std::string> joints = {}) {
        Status s;
        s.ok = false;
        s.message = std::move(why);
        s.joints = std::move(joints);
        return s;
    }
};

}  // namespace looplab
