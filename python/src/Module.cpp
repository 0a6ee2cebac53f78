// The compiled part of the Python package `looplab` (python/looplab): models, analyses and
// the stop flag. The package's Python files give it its shape (results with named columns,
// exceptions with locations, a step-by-step session); docs/python.md.
#include "ModelHandle.h"
#include "RunControl.h"
#include "Runs.h"

#include "looplab/Version.h"
#include "looplab/exchange/ModelExport.h"
#include "looplab/integrate/MethodRegistry.h"

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace looplab;
using namespace looplab::python;

namespace {

py::tuple outcome(const LoadOutcome& o) {
    return py::make_tuple(o.model ? py::cast(o.model) : py::none(), diagnosticsList(o.diagnostics), o.explanation,
                          o.report);
}

std::vector<std::string> bodyNames(const ModelHandle& m) {
    std::vector<std::string> names;
    for (int b = 1; b < m.model->bodyCount(); ++b) names.push_back(m.model->bodies[size_t(b)].name);
    return names;
}

py::tuple simulateFromState(const ModelHandle& m, const py::dict& settings, double t, const VecX& q, const VecX& v,
                            py::object progress, std::shared_ptr<StopFlag> stop) {
    if (q.size() != m.model->positionSize() || v.size() != m.model->velocitySize())
        throw py::value_error("q needs " + std::to_string(m.model->positionSize()) + " values and v " +
                              std::to_string(m.model->velocitySize()));
    std::vector<std::string> nodes;
    const reports::SimulationRequest request = simulationRequest(settings, &nodes);
    const RunRecord r = simulateFrom(m, m.document.run, request, nodes, State{t, q, v}, std::move(progress), std::move(stop));
    return py::make_tuple(r.columns, asArray(r.values, r.columns.size()), fromJson(r.summary), r.ok, r.message,
                          r.last.t, r.last.q, r.last.v);
}

py::dict registry() {
    py::list methodNames, integratorNames, parameters;
    for (const ConstraintMethodInfo& c : constraintMethods()) methodNames.append(c.name);
    for (const IntegratorInfo& i : integrators()) integratorNames.append(i.name);
    for (const ParameterInfo& p : methodParameters())
        if (!p.runField)
            parameters.append(py::dict(py::arg("name") = p.fileKey(), py::arg("description") = p.description,
                                       py::arg("range") = p.rangeText(), py::arg("default") = p.defaultValue()));
    return py::dict(py::arg("methods") = methodNames, py::arg("integrators") = integratorNames,
                    py::arg("parameters") = parameters);
}

}  // namespace

PYBIND11_MODULE(_looplab, m) {
    m.doc() = "LoopLab's solver core; use the package `looplab`, which wraps this module.";
    m.attr("__version__") = looplab::version();

    py::class_<StopFlag, std::shared_ptr<StopFlag>>(m, "StopFlag",
        "A flag that ends the runs it is given to after their current step; set() may be called from any thread.")
        .def(py::init<>())
        .def("set", [](StopFlag& f) { f.value.store(true); }, "Ends the runs that watch this flag.")
        .def("clear", [](StopFlag& f) { f.value.store(false); }, "Lets the next run go on.")
        .def_property_readonly("is_set", [](const StopFlag& f) { return f.value.load(); });

    py::class_<ModelHandle, std::shared_ptr<ModelHandle>>(m, "ModelHandle")
        .def_property_readonly("name", [](const ModelHandle& h) { return h.model->name; })
        .def_property_readonly("file", [](const ModelHandle& h) { return h.file; })
        .def_property_readonly("bodies", &bodyNames)
        .def_property_readonly("joints", [](const ModelHandle& h) {
            std::vector<std::string> n;
            for (const Joint& j : h.model->joints) n.push_back(j.name);
            return n;
        })
        .def_property_readonly("drivers", [](const ModelHandle& h) {
            std::vector<std::string> n;
            for (const Driver& d : h.model->drivers) n.push_back(d.name);
            return n;
        })
        .def_property_readonly("mesh_files", [](const ModelHandle& h) {
            // As the built model opens them (the paths the model file gives, resolved).
            std::vector<std::string> files;
            for (const Body& b : h.model->bodies)
                if (b.shape.kind == VisualShape::Kind::Mesh && !b.shape.file.empty()) files.push_back(b.shape.file);
            return files;
        })
        .def_property_readonly("position_size", [](const ModelHandle& h) { return h.model->positionSize(); })
        .def_property_readonly("velocity_size", [](const ModelHandle& h) { return h.model->velocitySize(); })
        .def_property_readonly("initial", [](const ModelHandle& h) {
            return py::make_tuple(h.initial.t, h.initial.q, h.initial.v);
        })
        .def("to_json", [](const ModelHandle& h) { return serializeModelDocument(h.document); });

    // Assembling a large model takes a while: without the GIL.
    m.def("load_file", [](const std::string& path) {
        LoadOutcome o;
        {
            py::gil_scoped_release nogil;
            o = loadFile(path);
        }
        return outcome(o);
    }, py::arg("path"));
    m.def("import_file", [](const std::string& path) {
        LoadOutcome o;
        {
            py::gil_scoped_release nogil;
            o = importFile(path);
        }
        return outcome(o);
    }, py::arg("path"));
    m.def("export_model", [](const ModelHandle& h, const std::string& format) {
        if (format != "mjcf" && format != "urdf") throw py::value_error("format must be mjcf or urdf (got '" + format + "')");
        const ExportResult r = format == "urdf" ? exportUrdf(*h.model, h.initial) : exportMjcf(*h.model, h.initial);
        if (!r.ok()) throw py::value_error(r.error);
        return py::make_tuple(r.text, r.report);
    }, py::arg("model"), py::arg("format"));
    m.def("load_text", [](const std::string& text, const std::string& label) { return outcome(loadText(text, label)); },
          py::arg("text"), py::arg("label"));
    m.def("with_number", [](const ModelHandle& h, const std::string& pointer, double value) {
        return outcome(withNumber(h, pointer, value));
    }, py::arg("model"), py::arg("pointer"), py::arg("value"));
    m.def("check", &check, py::arg("model"), py::arg("linear_algebra"));
    m.def("simulate", &simulate, py::arg("model"), py::arg("settings"), py::arg("progress"), py::arg("stop"));
    m.def("simulate_from", &simulateFromState, py::arg("model"), py::arg("settings"), py::arg("t"), py::arg("q"),
          py::arg("v"), py::arg("progress"), py::arg("stop"));
    m.def("kinematics", &kinematics, py::arg("model"), py::arg("t_end"), py::arg("step"), py::arg("max_wall_time"),
          py::arg("progress"), py::arg("stop"));
    m.def("statics", &statics, py::arg("model"), py::arg("method"), py::arg("tolerance"), py::arg("max_wall_time"));
    m.def("modes", &modes, py::arg("model"), py::arg("count"), py::arg("shift"), py::arg("scaling"),
          py::arg("factorization"), py::arg("statics_method"), py::arg("max_wall_time"));
    m.def("modes_along", &modesAlong, py::arg("model"), py::arg("count"), py::arg("driver"), py::arg("from_"), py::arg("to"),
          py::arg("steps"), py::arg("shift"), py::arg("scaling"), py::arg("factorization"), py::arg("statics_method"),
          py::arg("max_wall_time"), py::arg("progress"), py::arg("stop"));
    m.def("study", &study, py::arg("source"), py::arg("is_text"), py::arg("label"), py::arg("threads"),
          py::arg("progress"), py::arg("stop"));
    m.def("registry", &registry);
}
