#include "engine/engine_metrics.h"

namespace codepayload {

EngineMetrics& engineMetrics() noexcept {
  static EngineMetrics metrics;
  return metrics;
}

}  // namespace codepayload
