#include "export/OffscreenSceneRenderer.h"

#include "overlays/TracePolyline.h"
#include "viewport/GroundGrid.h"
#include "viewport/SceneActors.h"

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkLightKit.h>
#include <vtkNew.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkUnsignedCharArray.h>

#include <X11/Xlib.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <cstdlib>
#include <cstring>

namespace looplab::ui {

namespace {
// Trace colours, in the order traces are added: distinct from the example bodies' red,
// blue and green.
const Eigen::Vector3d kTraceColors[] = {{0.95, 0.55, 0.05}, {0.6, 0.2, 0.7}, {0.05, 0.6, 0.65}, {0.45, 0.3, 0.1}};
}  // namespace

namespace {

// One connection to the X server for the whole process, handed to every render window.
// VTK aborts the process when it cannot open a display itself, so the connection is
// opened here first, where failing is an answer. Kept open, it also keeps the server
// from resetting between two renderers (an X server resets when its last client leaves,
// and connections made during the reset fail): the command-line tool and the tests have
// no other connection.
Display* sharedDisplay() {
    static Display* display = nullptr;
    if (display) return display;
    const char* name = std::getenv("DISPLAY");
    if (!name || !*name) return nullptr;
    for (int attempt = 0; attempt < 5 && !display; ++attempt) {
        display = XOpenDisplay(name);
        if (!display) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return display;
}

}  // namespace

std::string OffscreenSceneRenderer::displayProblem() {
    const char* name = std::getenv("DISPLAY");
    if (!name || !*name)
        return "rendering needs an X server (VTK renders through GLX) and DISPLAY is not set: run under "
               "xvfb-run -a, or on a desktop";
    if (!sharedDisplay()) return std::string("cannot open the X display '") + name + "': run under xvfb-run -a";
    return {};
}

struct OffscreenSceneRenderer::Private {
    vtkSmartPointer<vtkRenderWindow> window = vtkSmartPointer<vtkRenderWindow>::New();
    vtkNew<vtkRenderer> renderer;
    std::unique_ptr<SceneActors> actors;
    GroundGrid grid;
    vtkNew<vtkTextActor> caption;
    std::vector<std::unique_ptr<TracePolyline>> traces;
    std::vector<std::vector<Eigen::Vector3d>> tracePoints;
    std::vector<int> traceCounts;
    std::vector<std::uint8_t> picture;
    vtkNew<vtkUnsignedCharArray> pixels;
    int width = 0, height = 0;
};

OffscreenSceneRenderer::OffscreenSceneRenderer(int width, int height) : d_(std::make_unique<Private>()) {
    d_->width = width;
    d_->height = height;
    vtkRenderWindow* window = d_->window;
    // Not owned by the window, so VTK neither opens (and aborts on failure) nor closes it.
    if (Display* display = sharedDisplay()) window->SetDisplayId(display);
    window->SetOffScreenRendering(1);
    window->SetShowWindow(false);
    // As in the workbench's view: multisampling costs several times the frame time under
    // software OpenGL.
    window->SetMultiSamples(0);
    window->SetSize(width, height);
    window->AddRenderer(d_->renderer);
    vtkRenderer* renderer = d_->renderer;
    renderer->GradientBackgroundOn();
    renderer->SetBackground(0.62, 0.66, 0.73);   // bottom, as VtkViewport
    renderer->SetBackground2(0.92, 0.93, 0.95);  // top
    renderer->AutomaticLightCreationOff();
    vtkNew<vtkLightKit> lights;
    lights->AddLightsToRenderer(renderer);
    d_->actors = std::make_unique<SceneActors>(renderer);
    renderer->AddActor(d_->grid.actor());
    vtkTextProperty* text = d_->caption->GetTextProperty();
    // Sized to the picture so that the caption reads alike in a thumbnail and in HD.
    text->SetFontSize(std::max(12, height / 22));
    text->SetColor(0.08, 0.08, 0.1);
    text->SetBackgroundColor(1.0, 1.0, 1.0);
    text->SetBackgroundOpacity(0.8);
    text->SetJustificationToLeft();
    text->SetVerticalJustificationToTop();
    d_->caption->SetDisplayPosition(std::max(6, height / 60), height - std::max(6, height / 60));
    d_->caption->SetVisibility(false);
    renderer->AddViewProp(d_->caption);
}

OffscreenSceneRenderer::~OffscreenSceneRenderer() {
    d_->traces.clear();
    d_->actors.reset();
    d_->window->Finalize();
}

int OffscreenSceneRenderer::width() const { return d_->width; }
int OffscreenSceneRenderer::height() const { return d_->height; }
vtkRenderer* OffscreenSceneRenderer::renderer() { return d_->renderer; }
SceneActors& OffscreenSceneRenderer::actors() { return *d_->actors; }

void OffscreenSceneRenderer::fitCamera(const double bounds[6], int up) {
    const double extent[3] = {bounds[1] - bounds[0], bounds[3] - bounds[2], bounds[5] - bounds[4]};
    const int thinnest = int(std::min_element(extent, extent + 3) - extent);
    if (up == thinnest) up = thinnest == 2 ? 1 : 2;
    double toward[3] = {0, 0, 0}, viewUp[3] = {0, 0, 0};
    toward[thinnest] = 1.0;
    viewUp[up] = 1.0;
    vtkCamera* camera = d_->renderer->GetActiveCamera();
    camera->SetFocalPoint(0, 0, 0);
    camera->SetPosition(toward);
    camera->SetViewUp(viewUp);
    d_->grid.fit(bounds, up);
    d_->renderer->ResetCamera(const_cast<double*>(bounds));
}

void OffscreenSceneRenderer::copyCamera(vtkCamera* camera, int up) {
    d_->renderer->GetActiveCamera()->DeepCopy(camera);
    double b[6];
    if (d_->actors->bounds(b)) {
        d_->grid.fit(b, up);
        d_->renderer->ResetCameraClippingRange();
    }
}

void OffscreenSceneRenderer::setGridVisible(bool visible) { d_->grid.actor()->SetVisibility(visible); }

bool OffscreenSceneRenderer::gridBounds(double bounds[6]) const {
    if (d_->grid.spacing() <= 0.0) return false;
    d_->grid.actor()->GetBounds(bounds);
    return true;
}

void OffscreenSceneRenderer::setCaption(const std::string& text) {
    d_->caption->SetInput(text.c_str());
    d_->caption->SetVisibility(!text.empty());
}

void OffscreenSceneRenderer::setScene(const Scene& scene) {
    d_->actors->setScene(scene);
    for (size_t i = 0; i < d_->traces.size(); ++i) {
        const int count = i < d_->traceCounts.size() ? d_->traceCounts[i] : -1;
        d_->traces[i]->setPoints(d_->tracePoints[i], count);
    }
}

void OffscreenSceneRenderer::setTraces(const std::vector<std::vector<Eigen::Vector3d>>& traces) {
    d_->traces.clear();
    d_->tracePoints = traces;
    const double dot = std::max(0.004, d_->actors->jointGlyphSize() * 0.35);
    for (size_t i = 0; i < traces.size(); ++i) {
        auto line = std::make_unique<TracePolyline>(d_->renderer, kTraceColors[i % std::size(kTraceColors)]);
        line->setStyle(2.5, dot);
        line->setPoints(traces[i]);
        d_->traces.push_back(std::move(line));
    }
}

void OffscreenSceneRenderer::setTraceCounts(const std::vector<int>& counts) { d_->traceCounts = counts; }

const std::vector<std::uint8_t>& OffscreenSceneRenderer::render() {
    Private& d = *d_;
    d.renderer->ResetCameraClippingRange();
    d.window->Render();
    // VTK's rows run bottom to top.
    d.window->GetPixelData(0, 0, d.width - 1, d.height - 1, 0, d.pixels, 0);
    d.picture.resize(size_t(d.width) * size_t(d.height) * 3);
    const std::uint8_t* src = d.pixels->GetPointer(0);
    const size_t row = size_t(d.width) * 3;
    for (int y = 0; y < d.height; ++y)
        std::memcpy(d.picture.data() + size_t(y) * row, src + size_t(d.height - 1 - y) * row, row);
    return d.picture;
}

}  // namespace looplab::ui
