#pragma once
// The event log (JSON lines), made here and nowhere else from the pipeline's typed records, so
// `live`, `process`, `track` and `demo` write the same lines for the same frames.
//
// A log starts with a header line {"log":"vedette","log_version":2,"ruleset","roster","units"};
// then, per frame, the frame line, one "declare" line per declaration made with it, and one line
// per event. Wall-clock fields ("ms", "timings_ms") are the only ones that differ between runs.
//
// Version 2 (this one): the header line; move verdicts judged by the user's ruleset settings.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "pipeline/log_version.h"
#include "pipeline/pipeline.h"


namespace vedette::pipeline {


nlohmann::json LogHeaderLine(const Pipeline& pipeline, const std::string& source);

// {"x_mm","y_mm","heading_deg"} rounded to 0.001.
nlohmann::json PoseJson(const Pose& p);

// The frame line: {"frame","t","units":[{"id","x_mm","y_mm","heading_deg","sigma_mm","sigma_deg",
// "vx_mm_s","vy_mm_s","state","since_t"?}],"registration":{"ok","anchors_seen","rms_px"},"ms",
// "tests":[{"unit","kind","reason","total","p_success","odds"}],"events":[event lines],
// "timings_ms":{"track","judge","rules","overlay","record"}}. A unit never seen has no pose fields.
nlohmann::json FrameLine(const PipelineFrame& frame);

// {"event":type,"frame","t","unit"?,...}: a move carries from/to/path and its verdict
// ("ruleset","turn_side","second_move","classification","legal","illegal_reason"?,"tests","text",
// or "note" when not judged); a group move its members and whether they may count as one.
nlohmann::json EventLine(const FrameEvent& e, int frame, double t, const std::string& ruleset);

// {"event":"declare","frame","t","unit","key","value","source"}
nlohmann::json DeclareLine(const Declaration& d, int frame, double t);

// Every line of a frame in order: the frame line, its declarations, its events.
std::vector<nlohmann::json> FrameLines(const PipelineFrame& frame, const std::string& ruleset);

}  // namespace vedette::pipeline
