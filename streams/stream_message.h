#pragma once
// The messages of the live JSON stream (docs/STREAM.md; docs/stream.schema.json is their schema
// and the tests validate every message against it). Each is one JSON object with "type" and
// "stream_version":
//   hello      sent first to each client: the table, the sides and their colours, the roster's
//              units (bases, markers), the terrain: what does not change during a run; and the
//              last 50 event and declare lines so far (recent_events), for a spectator who joins late
//   frame      one per camera frame: the log's frame line (units with pose, sigma and state; the
//              required tests; the frame's events with their move verdicts) as pipeline/event_log.h
//              writes it, the declarations made with it, the verdicts on the picture and the
//              overlay description in table mm
//   heartbeat  once a second, also while no frame comes (a paused camera)
// Version 1 (this one).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "pipeline/pipeline.h"
#include "rules/drawing.h"

namespace vedette::streams {

inline constexpr int kStreamVersion = 1;

nlohmann::json HelloMessage(const pipeline::Pipeline& pipeline, const std::string& source);

// `lines`: the frame's log lines (pipeline::FrameLines); `between`: lines made since the last
// frame (declarations from the live window's menu).
nlohmann::json FrameMessage(const pipeline::PipelineFrame& frame, const std::vector<nlohmann::json>& lines,
                            const std::vector<nlohmann::json>& between);

nlohmann::json HeartbeatMessage(long frames, int clients, double unix_s);

// {"kind","style","layer","points_mm":[[x,y]..],"text"?,"colour"?("#rrggbbaa"),"filled"?,"dashed"?,"unit"?}
nlohmann::json PrimitiveJson(const DrawPrimitive& p);

// "#rrggbb" of 0xRRGGBBAA.
std::string HexColour(std::uint32_t rgba);

}  // namespace vedette::streams
