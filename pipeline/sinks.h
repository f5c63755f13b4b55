#pragma once
// Where frames go after RunFrame (pipeline/frame_loop.h): a recording (the annotated video and the
// event log beside it) and a JSON-lines stream (`vedette track`'s output).
#include <fstream>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "overlay/annotate.h"
#include "pipeline/frame_loop.h"
#include "pipeline/recorder.h"

namespace vedette::pipeline {

struct RecordingOptions {
  std::string video_path;   // .mkv (mp4v) or .avi (MJPG); "" = no video
  std::string log_path;     // JSONL; "" = no log
  overlay::AnnotateOptions annotate;
  double fps = 30;          // written into the video container
  std::string source_name;  // for the log's header line
};

// Opens its files with the first frame (its size is the video's), logs the header line first;
// draws each frame's overlay description on a copy of the frame (the picture the window shows)
// and writes it with the frame's log lines.
class RecordingSink : public FrameSink {
 public:
  RecordingSink(const RecordingOptions& options, const Pipeline& pipeline);
  void OnFrame(FrameOutput& out) override;
  void OnLine(const nlohmann::json& line) override;  // kept until the files open
  // Drawn with the next frames too (the live window's measured gap), and the layers shown.
  void SetExtraPrimitives(std::vector<DrawPrimitive> extra) { extra_ = std::move(extra); }
  void SetLayers(const overlay::LayerVisibility& layers) { options_.annotate.layers = layers; }
  // Waits for everything queued and closes the files; fills the summary's file fields.
  void Close(RunSummary* summary);
  bool open() const { return recorder_ != nullptr; }

 private:
  RecordingOptions options_;
  const Pipeline& pipeline_;
  std::unique_ptr<Recorder> recorder_;
  overlay::AnnotateScratch scratch_;
  std::vector<DrawPrimitive> extra_;
  std::vector<nlohmann::json> pending_;
};

// One JSON line per log line, flushed per frame (a crash loses at most the frame in flight). The
// file is opened with the first frame in hand (a video that yields none leaves an existing file as
// it was). A failed write ends the stream: error() says what happened.
class JsonlSink : public FrameSink {
 public:
  // path "" or "-": standard output.
  JsonlSink(const std::string& path, nlohmann::json header);
  void OnFrame(FrameOutput& out) override;   // throws InputError when the file cannot be opened
  void OnLine(const nlohmann::json& line) override;
  const std::string& error() const { return error_; }
  bool opened() const { return out_ != nullptr; }

 private:
  void Write(const nlohmann::json& line);
  std::string path_, name_;
  std::ofstream file_;
  std::ostream* out_ = nullptr;
  nlohmann::json header_;
  int frames_ = 0;
  std::string error_;
};

}  // namespace vedette::pipeline
