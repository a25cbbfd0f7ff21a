// libFuzzer target: arbitrary bytes as a trace file. The loader must either
// return a Trace or throw std::runtime_error; a trace it accepts must then
// be safe for what the viewer does first with it: index the programs and
// findings, lay out every buffer and place every memory event's lanes.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "model_event_cells.h"
#include "model_layout.h"
#include "model_trace_index.h"
#include "trace.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::shared_ptr<const tl::Trace> trace;
  try {
    trace = std::make_shared<const tl::Trace>(tl::trace_from_json(std::string(reinterpret_cast<const char*>(data), size)));
  } catch (const std::runtime_error&) {
    return 0;  // the documented way to reject a file
  }
  const viz::TraceIndex index(trace);
  for (size_t p = 0; p < trace->programs.size(); ++p) {
    (void)index.status(trace->programs[p].pid);
    for (size_t e = 0; e < trace->programs[p].events.size(); ++e) {
      (void)index.findings_at(static_cast<int>(p), static_cast<int>(e));
      const tl::Event& ev = trace->programs[p].events[e];
      if (ev.buffer < 0) continue;
      const viz::GridLayout layout = viz::default_layout(trace->buffers[static_cast<size_t>(ev.buffer)]);
      (void)viz::cell_runs(viz::map_event(ev, layout));
    }
  }
  for (const tl::Finding& f : trace->findings)
    for (const tl::FindingExample& x : f.examples) (void)index.status(x.pid);
  return 0;
}
