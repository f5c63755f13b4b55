#pragma once
// Turning the files a user passes to `vedette calibrate` into board views: images are read and
// searched one by one; videos are sampled by themselves for sharp frames spread over time and over
// the image.
#include <string>
#include <vector>

#include "calibration/board_detection.h"
#include "calibration/board_spec.h"

namespace vedette::calib {

struct VideoSamplingOptions {
  int max_views = 30;              // views kept per video
  int candidates_per_view = 3;     // time slices searched per kept view (more: better spread, slower)
  double min_relative_sharpness = 0.5;  // frames below this share of the video's 90th-percentile sharpness are skipped
  int sharpness_width_px = 640;    // frames are shrunk to this width to measure sharpness (speed)
  bool Check(std::string* error) const;
};

// Whether a path names a video (by its extension: .mp4 .mkv .avi .mov .webm .m4v .mpg .mpeg .wmv).
bool IsVideoPath(const std::string& path);

// Reads an image (InputError naming the file when it is missing or not an image) and finds the
// board in it.
BoardView ViewFromImage(const BoardDetectionOptions& options, const BoardSpec& spec, const std::string& path);

// Samples a video: the sharpest frame of each of max_views x candidates_per_view equal time slices
// (skipping blurred ones), the board searched in each, then views chosen greedily so that each adds
// image regions (a 6x4 grid) at board scales (3 sizes) not yet covered, up to max_views. Sources
// read "video.mp4#frame 123". Throws InputError naming the file when it cannot be opened or read.
std::vector<BoardView> ViewsFromVideo(const BoardDetectionOptions& options, const VideoSamplingOptions& sampling,
                                      const BoardSpec& spec, const std::string& path);

}  // namespace vedette::calib
