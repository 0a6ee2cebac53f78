#include "looplab/posing/PosingModel.h"

namespace looplab {

BuildResult buildPosingModel(const Model& model) {
    ModelDocument doc = model.document;
    doc.drivers.clear();
    return buildModel(doc, model.sourceFile);
}

}  // namespace looplab
