// The documentation is tested: every command of README.md and docs/GETTING_STARTED.md runs, in
// order, against the sample files the project ships, with a synthetic camera where a command names
// a webcam (doc_commands.h). A documented command that stops working fails here. The guide's run is
// also the end-to-end test of the player's path (print, calibrate, check, roster, live, process,
// dispute): what it writes is checked against the synthetic camera's truth.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "calibration/camera_model.h"
#include "calibration/roster.h"
#include "calibration/synthetic_views.h"
#include "tests/app/run_command.h"
#include "tests/docs/doc_commands.h"

namespace vedette::testing {
namespace {

namespace fs = std::filesystem;

const std::string kSource = VEDETTE_SOURCE_DIR;
// The board docs/GETTING_STARTED.md prints and calibrates with.
const char* kGuideBoard = "charuco:5x7:30:22:DICT_6X6_250";

std::string ReadText(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A folder of the test's own, removed with it.
struct TempFolder {
  fs::path path;
  explicit TempFolder(const std::string& name)
      : path(fs::temp_directory_path() / ("vedette_docs_" + name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempFolder() { fs::remove_all(path); }
};

int Shell(const std::string& command) {
  const int raw = std::system(command.c_str());
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

std::string Tail(const std::string& s, size_t n = 3000) { return s.size() > n ? "..." + s.substr(s.size() - n) : s; }

// The synthetic webcam the documents' `--camera 0` is replaced by: the sample table
// (assets/clips/totsk_small.clip.yaml) and a calibration board, through one lens.
class DocsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    camera_dir_ = new TempFolder("camera");
    const fs::path d = camera_dir_->path;
    const auto r = RunVedette("clip " + kSource + "/assets/clips/totsk_small.clip.yaml --video " + (d / "table.mkv").string() +
                              " --truth " + (d / "table.truth.jsonl").string() + " --calib-out " +
                              (d / "true_cam.yaml").string());
    ASSERT_EQ(r.status, 0) << r.err;
    camera_.table = (d / "table.mkv").string();
    camera_.board = (d / "board.avi").string();
    WriteBoardVideo(camera_.board, (d / "true_cam.yaml").string());
  }
  static void TearDownTestSuite() {
    delete camera_dir_;
    camera_dir_ = nullptr;
  }
  static void WriteBoardVideo(const std::string& path, const std::string& true_camera);

  // Runs every command of the document in `workspace` (which sees the project's assets/ as its
  // own), stopping at the first that fails.
  static void RunDocument(const std::string& relative_path, const fs::path& workspace) {
    for (const char* shipped : {"assets", "tests"}) fs::create_directory_symlink(kSource + "/" + shipped, workspace / shipped);
    const auto commands = CommandsInMarkdown(ReadText(kSource + "/" + relative_path), relative_path);
    ASSERT_GE(commands.size(), 3u) << relative_path << " shows no commands to run";
    const bool display = std::getenv("DISPLAY") != nullptr;
    for (const DocCommand& c : commands) {
      std::string run = ForTest(c.text, VEDETTE_BINARY, camera_);
      if (SubcommandOf(c.text) == "live" && !display) run = "xvfb-run -a " + run;
      const fs::path out = workspace / ".out", err = workspace / ".err";
      const int status = Shell("cd '" + workspace.string() + "' && HOME='" + workspace.string() + "' timeout 600 " + run +
                               " >'" + out.string() + "' 2>'" + err.string() + "' </dev/null");
      ASSERT_EQ(status, 0) << c.file << ":" << c.line << ": `" << c.text << "` failed (exit " << status
                           << ")\nran: " << run << "\nstdout:\n" << Tail(ReadText(out)) << "\nstderr:\n" << Tail(ReadText(err));
    }
  }

  static TempFolder* camera_dir_;
  static CameraVideos camera_;
};

TempFolder* DocsTest::camera_dir_ = nullptr;
CameraVideos DocsTest::camera_;

void DocsTest::WriteBoardVideo(const std::string& path, const std::string& true_camera) {
  const auto r = RunVedette(std::string("render-board ") + kGuideBoard + " --calib " + true_camera + " --video " + path);
  ASSERT_EQ(r.status, 0) << r.err;
}

TEST(DocCommands, ShellBlocksAreReadInOrderWithContinuationsAndWithoutTheSetUp) {
  const std::string md =
      "text\n```sh\n# a comment\nvedette analyze a.yaml\n\nvedette measure a.yaml \\\n  --from B1 --to R1\n"
      "bash scripts/setup.sh test\n```\n```yaml\nvedette not: a command\n```\n```text\nvedette usage LINE\n```\n"
      "```bash\nvedette live --camera 0 --calib c.yaml\n```\n";
  const auto c = CommandsInMarkdown(md, "X.md");
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].text, "vedette analyze a.yaml");
  EXPECT_EQ(c[0].line, 4);
  EXPECT_EQ(c[1].text, "vedette measure a.yaml --from B1 --to R1");
  EXPECT_EQ(c[1].line, 6);
  EXPECT_EQ(c[2].text, "vedette live --camera 0 --calib c.yaml");
  EXPECT_EQ(c[2].line, 17);
}

TEST(DocCommands, AWebcamBecomesTheSyntheticCameraAndRenderKeepsItsImageSize) {
  const CameraVideos cam{"/c/board.mkv", "/c/table.mkv"};
  EXPECT_EQ(ForTest("vedette calibrate --camera 0 --board B --out cam.yaml", "/bin/v", cam),
            "/bin/v calibrate --video /c/board.mkv --board B --out cam.yaml");
  EXPECT_EQ(ForTest("vedette check --camera 1 --calib cam.yaml", "/bin/v", cam), "/bin/v check --video /c/table.mkv --calib cam.yaml");
  EXPECT_EQ(ForTest("vedette live --camera 0 --calib c.yaml", "/bin/v", cam, 12),
            "/bin/v live --video /c/table.mkv --calib c.yaml --frames 12 --fast");
  EXPECT_EQ(ForTest("vedette render s.yaml --camera 1920x1080 --out a.png", "/bin/v", cam),
            "/bin/v render s.yaml --camera 1920x1080 --out a.png");
  EXPECT_EQ(SubcommandOf("vedette print markers --roster r.yaml"), "print");
  EXPECT_EQ(SubcommandOf("ls -l"), "");
}

TEST_F(DocsTest, EveryCommandOfTheReadmeRuns) {
  TempFolder ws("readme");
  RunDocument("README.md", ws.path);
}

// The last line of a JSONL file that has `key`.
nlohmann::json LastLineWith(const fs::path& jsonl, const std::string& key) {
  std::ifstream in(jsonl);
  std::string line;
  nlohmann::json last;
  while (std::getline(in, line)) {
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_object() && j.contains(key)) last = j;
  }
  return last;
}

// The player's path, end to end, on the guide's own commands: what each step wrote is checked
// against the synthetic camera's truth.
TEST_F(DocsTest, TheGettingStartedGuideRunsAndEachStepComesOutRight) {
  TempFolder ws("guide");
  RunDocument("docs/GETTING_STARTED.md", ws.path);
  if (HasFatalFailure()) return;
  const fs::path& w = ws.path;
  const fs::path cam = camera_dir_->path;

  // 1. The sheet holds the roster's 16 markers (four anchors and twelve units).
  const std::string svg = ReadText(w / "markers.svg");
  EXPECT_NE(svg.find("B1"), std::string::npos);
  EXPECT_NE(svg.find("anchor 3"), std::string::npos);

  // 2. The lens calibrated from the board video is the synthetic webcam's: no camera pose can
  // absorb what is left of the difference over the picture.
  const calib::CameraIntrinsics truth = calib::LoadIntrinsics((cam / "true_cam.yaml").string());
  const calib::CameraIntrinsics calibrated = calib::LoadIntrinsics((w / "cam.yaml").string());
  const calib::ModelDifference lens = calib::CompareCameraModels(truth, calibrated);
  EXPECT_LT(lens.planar_rms_px, 0.3) << "lens model error over the image, px";
  EXPECT_NEAR(calibrated.camera_matrix(0, 0), truth.camera_matrix(0, 0), 0.01 * truth.camera_matrix(0, 0));

  // 3. The rosters written from what the camera saw: the drafted one has a unit per marker at the
  // printed size, the checked one keeps the sample roster's units.
  const Scene sample = calib::LoadRoster(kSource + "/assets/rosters/totsk_small.yaml");
  const Scene drafted = calib::LoadRoster((w / "my_roster.yaml").string());
  EXPECT_EQ(drafted.units.size(), sample.units.size());
  for (const Unit& u : drafted.units) EXPECT_NEAR(u.marker->size_mm, 18.0, 0.5) << u.id;
  const Scene checked = calib::LoadRoster((w / "checked_roster.yaml").string());
  ASSERT_EQ(checked.units.size(), sample.units.size());
  for (const Unit& u : sample.units) {
    const Unit* c = checked.FindUnit(u.id);
    ASSERT_NE(c, nullptr) << u.id;
    EXPECT_EQ(c->marker->id, u.marker->id) << u.id;
  }

  // 4. The live window's recording log saw every unit.
  const nlohmann::json live = LastLineWith(w / "game.jsonl", "units");
  ASSERT_TRUE(live.is_object()) << "game.jsonl has no frame line";
  int seen = 0;
  for (const auto& u : live["units"]) seen += u.contains("x_mm");
  EXPECT_EQ(seen, 12);

  // 5. The dispute: B2 and R2 face each other front to front, 200 mm apart at the start.
  const std::string evidence = ReadText(w / "b2_r2.json");
  const auto dispute = nlohmann::json::parse(evidence, nullptr, false);
  ASSERT_FALSE(dispute.is_discarded()) << evidence;
  const nlohmann::json& d = dispute.contains("dispute") ? dispute["dispute"] : dispute;
  // Its uncertainty is honest (the truth within 3 sigma) and small enough to call a 1 BW rule.
  const double distance = d["distance_mm"].get<double>(), sigma = d["sigma_mm"].get<double>();
  EXPECT_NEAR(distance, 200.0, 0.6) << evidence;
  EXPECT_LT(std::abs(distance - 200.0), 3 * sigma) << evidence;
  EXPECT_LT(sigma, 1.0) << evidence;

  // 6. The whole video through `process` with the guide's calibration and roster: every pose at
  // the end within a millimetre and half a degree of the truth, and B2's advance judged.
  const auto r = RunVedette("process --video " + camera_.table + " --calib " + (w / "cam.yaml").string() + " --roster " +
                            (w / "checked_roster.yaml").string() + " --ruleset totsk --log " + (w / "replay.jsonl").string() +
                            " --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json last = LastLineWith(w / "replay.jsonl", "units");
  const nlohmann::json truth_last = LastLineWith(cam / "table.truth.jsonl", "units");
  for (const auto& t : truth_last["units"]) {
    const auto u = std::find_if(last["units"].begin(), last["units"].end(), [&](const auto& x) { return x["id"] == t["id"]; });
    ASSERT_NE(u, last["units"].end()) << t["id"];
    if (!t.contains("x_mm")) continue;
    ASSERT_TRUE(u->contains("x_mm")) << t["id"] << " not placed";
    EXPECT_NEAR((*u)["x_mm"].get<double>(), t["x_mm"].get<double>(), 1.0) << t["id"];
    EXPECT_NEAR((*u)["y_mm"].get<double>(), t["y_mm"].get<double>(), 1.0) << t["id"];
    EXPECT_NEAR(std::remainder((*u)["heading_deg"].get<double>() - t["heading_deg"].get<double>(), 360.0), 0.0, 0.5) << t["id"];
  }
  bool judged = false;
  std::ifstream log(w / "replay.jsonl");
  for (std::string line; std::getline(log, line);) {
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.value("event", "") == "move" && j.value("unit", "") == "B2") {
      judged = true;
      EXPECT_EQ(j["classification"], nlohmann::json::array({"straight_ahead"})) << line;
      EXPECT_TRUE(j["legal"].get<bool>()) << line;
      EXPECT_NEAR(j["distance_mm"].get<double>(), 40.0, 1.0) << line;
    }
  }
  EXPECT_TRUE(judged) << "no move of B2 in the log";
}

// Every subcommand `vedette --help` lists is shown running in a document, so none goes untried.
TEST(Docs, EverySubcommandIsShownInADocument) {
  const auto help = RunVedette("--help");
  ASSERT_EQ(help.status, 0);
  std::set<std::string> shown;
  for (const char* doc : {"README.md", "docs/GETTING_STARTED.md"})
    for (const DocCommand& c : CommandsInMarkdown(ReadText(kSource + "/" + doc), doc)) shown.insert(SubcommandOf(c.text));
  std::istringstream lines(help.out);
  std::string line;
  bool in_list = false;
  int listed = 0;
  while (std::getline(lines, line)) {
    if (line.rfind("Subcommands:", 0) == 0) in_list = true;
    else if (in_list && line.size() > 2 && line[0] == ' ' && line[1] == ' ' && line[2] != ' ') {  // not a wrapped line
      std::istringstream words(line);
      std::string name;
      words >> name;
      ++listed;
      EXPECT_TRUE(shown.count(name)) << "`vedette " << name << "` appears in no command of README.md or docs/GETTING_STARTED.md";
    }
  }
  EXPECT_GE(listed, 10) << help.out;
}

}  // namespace
}  // namespace vedette::testing
