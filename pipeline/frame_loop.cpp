#include "pipeline/frame_loop.h"

#include <cstdio>
#include <sstream>

#include "pipeline/event_log.h"
#include "pipeline/memory_trim.h"

namespace vedette::pipeline {

bool RunFrame(FrameSource& source, Pipeline& pipeline, const std::vector<FrameSink*>& sinks) {
  cv::Mat image;
  double t = 0;
  if (!source.Next(&image, &t)) return false;
  std::vector<Declaration> declared;
  for (const auto& d : source.declarations()) declared.push_back({d.unit, d.key, d.value, "script"});
  const PipelineFrame& f = pipeline.Process(image, t, declared);
  std::vector<nlohmann::json> lines = FrameLines(f, pipeline.options().ruleset);
  FrameOutput out{f, image, lines, f.timings};
  for (FrameSink* s : sinks) s->OnFrame(out);
  GiveBackFreeMemory();
  return true;
}

SummarySink::SummarySink(int units_in_roster) { s_.units_in_roster = units_in_roster; }

void SummarySink::OnFrame(FrameOutput& out) {
  for (size_t i = 1; i < out.lines.size(); ++i) OnLine(out.lines[i]);
  for (const vision::TrackedUnit& u : out.frame.track.units)
    if (u.measured) seen_[u.id] = true;
  s_.frames_registered += out.frame.track.registration.ok;
  StageTimings t = out.timings;
  t.total_ms = t.track_ms + t.scene_ms + t.judge_ms + t.rules_ms + t.overlay_ms + t.record_ms;
  for (auto [sum, v] : {std::pair{&s_.mean.track_ms, t.track_ms}, {&s_.mean.scene_ms, t.scene_ms},
                        {&s_.mean.judge_ms, t.judge_ms}, {&s_.mean.rules_ms, t.rules_ms},
                        {&s_.mean.overlay_ms, t.overlay_ms}, {&s_.mean.record_ms, t.record_ms},
                        {&s_.mean.total_ms, t.total_ms}})
    *sum += v;
  last_ = t;
  ++s_.frames;
}

void SummarySink::OnLine(const nlohmann::json& line) {
  if (!line.contains("event")) return;
  ++s_.events;
  ++s_.event_counts[line["event"].get<std::string>()];
}

RunSummary SummarySink::Finish(const Findings& last, int corrupt_frames) const {
  RunSummary s = s_;
  s.corrupt_frames = corrupt_frames;
  s.units_seen = static_cast<int>(seen_.size());
  if (s.frames > 0) {
    const double n = s.frames;
    for (double* v : {&s.mean.track_ms, &s.mean.scene_ms, &s.mean.judge_ms, &s.mean.rules_ms, &s.mean.overlay_ms,
                      &s.mean.record_ms, &s.mean.total_ms})
      *v /= n;
  }
  for (const RequiredTest& t : last.tests) ++s.tests_by_kind[t.kind];
  s.tests_required = static_cast<int>(last.tests.size());
  return s;
}

namespace {
template <class Map>
std::string Counts(const Map& m) {
  std::string s;
  for (const auto& [k, n] : m) s += (s.empty() ? "" : ", ") + k + " " + std::to_string(n);
  return s.empty() ? "" : " (" + s + ")";
}
}  // namespace

std::string SummaryText(const RunSummary& s) {
  std::ostringstream o;
  char buf[256];
  std::snprintf(buf, sizeof buf, "%d frames in %.1f s (%.1f fps)%s\n", s.frames, s.seconds,
                s.seconds > 0 ? s.frames / s.seconds : 0.0,
                s.corrupt_frames ? (", " + std::to_string(s.corrupt_frames) + " corrupt frames skipped").c_str() : "");
  o << buf;
  if (s.stopped_by_signal) o << "stopped by a signal: the recording was closed cleanly after the last frame\n";
  o << "units: " << s.units_seen << " of " << s.units_in_roster << " seen\n";
  o << "events: " << s.events << Counts(s.event_counts) << "\n";
  o << "tests required at the end: " << s.tests_required << Counts(s.tests_by_kind) << "\n";
  std::snprintf(buf, sizeof buf,
                "per frame: track %.1f ms, moves %.1f ms, rules %.1f ms, overlay %.1f ms, record %.1f ms, total %.1f ms\n",
                s.mean.track_ms, s.mean.judge_ms, s.mean.rules_ms, s.mean.overlay_ms, s.mean.record_ms, s.mean.total_ms);
  o << buf;
  if (!s.video_path.empty()) o << "video: " << s.video_path << " (" << s.codec << ")\n";
  if (!s.log_path.empty()) o << "log: " << s.log_path << "\n";
  if (!s.write_error.empty()) o << "WRITE FAILED: " << s.write_error << "\n";
  return o.str();
}

}  // namespace vedette::pipeline
