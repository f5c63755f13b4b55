#include "pipeline/sinks.h"

#include <chrono>
#include <iostream>

#include "pipeline/event_log.h"
#include "pipeline/frame_picture.h"
#include "rules/input_error.h"

namespace vedette::pipeline {

RecordingSink::RecordingSink(const RecordingOptions& options, const Pipeline& pipeline)
    : options_(options), pipeline_(pipeline) {
  std::string error;
  if (!options_.annotate.Check(&error)) throw std::invalid_argument("recording options: " + error);
}

void RecordingSink::OnLine(const nlohmann::json& line) {
  if (recorder_) recorder_->Log(line);
  else pending_.push_back(line);
}

void RecordingSink::OnFrame(FrameOutput& out) {
  if (options_.video_path.empty() && options_.log_path.empty()) return;
  if (!recorder_) {
    RecorderOptions ro;
    ro.fps = options_.fps;
    recorder_ = std::make_unique<Recorder>(ro, options_.video_path, options_.log_path, out.image.size());
    recorder_->Log(LogHeaderLine(pipeline_, options_.source_name));
    for (nlohmann::json& j : pending_) recorder_->Log(std::move(j));
    pending_.clear();
  }
  if (!options_.video_path.empty()) {
    // Drawn in one of the recorder's buffers, which is then handed over without another copy.
    const auto t0 = std::chrono::steady_clock::now();
    cv::Mat annotated = recorder_->Buffer();
    out.image.copyTo(annotated);
    AnnotateFrame(options_.annotate, out.frame, pipeline_.intrinsics(), &annotated, &scratch_, &extra_);
    out.timings.overlay_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    out.timings.record_ms += recorder_->Write(std::move(annotated));
  } else {
    out.timings.record_ms += recorder_->Write(out.image, nullptr);
  }
  out.lines[0]["timings_ms"]["overlay"] = out.timings.overlay_ms;
  out.lines[0]["timings_ms"]["record"] = out.timings.record_ms;
  for (const nlohmann::json& j : out.lines) recorder_->Log(j);
}

void RecordingSink::Close(RunSummary* summary) {
  if (!recorder_) return;
  recorder_->Close();  // everything queued is written before the summary says where it is
  if (!summary) return;
  summary->video_path = recorder_->video_path();
  summary->log_path = recorder_->log_path();
  summary->codec = recorder_->codec();
  summary->write_error = recorder_->error();
}

JsonlSink::JsonlSink(const std::string& path, nlohmann::json header)
    : path_(path == "-" ? "" : path), name_(path_.empty() ? "standard output" : path_), header_(std::move(header)) {}

void JsonlSink::Write(const nlohmann::json& line) {
  if (!out_ || !error_.empty()) return;
  *out_ << line.dump() << "\n";
}

void JsonlSink::OnLine(const nlohmann::json& line) {
  Write(line);
  if (out_) out_->flush();
  if (out_ && !*out_ && error_.empty())
    error_ = "disk full or output removed while writing " + name_ + ": kept " + std::to_string(frames_) + " frames";
}

void JsonlSink::OnFrame(FrameOutput& out) {
  if (!out_) {
    if (path_.empty()) {
      out_ = &std::cout;
    } else {
      file_.open(path_);
      if (!file_) throw InputError(path_, 0, "cannot write the events file");
      out_ = &file_;
    }
    Write(header_);
  }
  for (const nlohmann::json& j : out.lines) Write(j);
  out_->flush();
  if (!*out_ && error_.empty())
    error_ = "disk full or output removed while writing " + name_ + ": kept " + std::to_string(frames_) + " frames";
  ++frames_;
}

}  // namespace vedette::pipeline
