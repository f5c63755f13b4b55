#pragma once
// The picture a recording keeps of one pipeline frame: the overlay description drawn through the
// camera (overlay/annotate.h) and a status line, so the video shows what the live window shows.
#include <string>

#include <opencv2/core.hpp>

#include "calibration/camera_model.h"
#include "overlay/annotate.h"
#include "pipeline/pipeline.h"

namespace vedette::pipeline {

// The whole annotated frame for a pipeline result: overlay (when the table is registered) and the
// status line; `extra` drawn with the frame's primitives (the live window's measured gap). Returns
// the time it took, ms (the caller puts it into the frame's timings).
double AnnotateFrame(const overlay::AnnotateOptions& options, const PipelineFrame& frame, const calib::CameraIntrinsics& intrinsics,
                     cv::Mat* bgr, overlay::AnnotateScratch* scratch, const std::vector<DrawPrimitive>* extra = nullptr);

// One line of status: "frame 12  t 0.80 s  units 19 on table (1 hidden), 1 lifted  tests 3  anchors 4  rms 0.21 px"
// ("hidden": occluded, kept at its last pose; no count is shown when it is 0).
std::string StatusLine(const PipelineFrame& frame);

}  // namespace vedette::pipeline
