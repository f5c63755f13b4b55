// vedette detect --image IMG (--dict NAME | --dict-file YML) [--json]
// The raw markers in one image: IDs and corners (OpenCV's order, pixels).
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "app/command.h"
#include "app/still_input.h"
#include "calibration/dictionary.h"
#include "rules/input_error.h"
#include "vision/detect.h"

namespace vedette::app {
namespace {

struct DetectArgs {
  std::string image, dict, dict_file;
  double min_side_px = 0, max_side_px = 0;
  bool json = false, no_edge_refinement = false;
};

void SetupDetect(CLI::App& root) {
  auto args = std::make_shared<DetectArgs>();
  CLI::App* cmd = root.add_subcommand("detect", "Find ArUco markers in an image: IDs and corners in pixels");
  cmd->add_option("--image", args->image, "Image file (any format OpenCV reads)")->required();
  cmd->add_option("--dict", args->dict, "Predefined dictionary, e.g. DICT_4X4_50 (or a custom dictionary file)");
  cmd->add_option("--dict-file", args->dict_file, "Custom dictionary in OpenCV's FileStorage format (wins over --dict)");
  cmd->add_option("--min-side-px", args->min_side_px, "Smallest marker side to look for, px (default 8)");
  cmd->add_option("--max-side-px", args->max_side_px, "Largest marker side to look for, px (default 2000)");
  cmd->add_flag("--no-edge-refinement", args->no_edge_refinement, "Keep OpenCV's sub-pixel corners (no edge-line fit)");
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] {
    if (args->dict.empty() && args->dict_file.empty()) throw InputError("detect", 0, "give --dict NAME or --dict-file FILE");
    const cv::Ptr<cv::aruco::Dictionary> dict = !args->dict_file.empty() ? calib::LoadDictionaryFile(args->dict_file)
                                                                          : calib::ResolveDictionary(args->dict);
    const cv::Mat image = cv::imread(args->image, cv::IMREAD_GRAYSCALE);
    if (image.empty()) throw InputError(args->image, 0, "cannot read the image (missing file or unknown format)");
    CheckPictureSize(image.size(), args->image, {16, 16}, "a picture with a marker in it");
    vision::DetectorOptions o;
    if (args->min_side_px > 0) o.min_marker_side_px = args->min_side_px;
    if (args->max_side_px > 0) o.max_marker_side_px = args->max_side_px;
    o.edge_refinement = !args->no_edge_refinement;
    if (std::string error; !o.Check(&error)) throw InputError("detect", 0, error);
    vision::Detections d = vision::DetectMarkers(o, image, *dict);
    std::sort(d.markers.begin(), d.markers.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    if (args->json) {
      nlohmann::json j;
      j["image"] = args->image;
      j["image_size"] = {image.cols, image.rows};
      j["markers"] = nlohmann::json::array();
      for (const auto& m : d.markers) {
        nlohmann::json c = nlohmann::json::array();
        for (const auto& p : m.corners_px) c.push_back({p.x, p.y});
        j["markers"].push_back({{"id", m.id}, {"corners", c}});
      }
      j["duplicate_ids"] = d.duplicate_ids;
      j["ms"] = d.ms;
      std::cout << j.dump(2) << "\n";
      return;
    }
    std::cout << d.markers.size() << " markers in " << args->image << " (" << image.cols << "x" << image.rows << ", "
              << int(d.ms + 0.5) << " ms)\n";
    for (const auto& m : d.markers) {
      char line[256];
      std::snprintf(line, sizeof line, "  %4d  (%.2f, %.2f) (%.2f, %.2f) (%.2f, %.2f) (%.2f, %.2f)\n", m.id,
                    m.corners_px[0].x, m.corners_px[0].y, m.corners_px[1].x, m.corners_px[1].y, m.corners_px[2].x,
                    m.corners_px[2].y, m.corners_px[3].x, m.corners_px[3].y);
      std::cout << line;
    }
    if (!d.duplicate_ids.empty()) {
      std::cout << "  same ID at two spots:";
      for (int id : d.duplicate_ids) std::cout << " " << id;
      std::cout << "\n";
    }
  });
}

VEDETTE_COMMAND("detect", SetupDetect);

}  // namespace
}  // namespace vedette::app
