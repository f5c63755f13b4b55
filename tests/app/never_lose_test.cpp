// "Never loses a game": what a tester found that crashed, hung, accepted nonsense or destroyed
// files, each run through the real binary. Every refusal is exit 2 with the file (and line) and
// what to do; every file that existed before is byte-for-byte unchanged after.
#include <gtest/gtest.h>
#include <opencv2/videoio.hpp>
#include <sys/mount.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/app/run_command.h"

namespace vedette {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;
using testing::ReadFile;
using testing::RunVedette;
using testing::TestFolder;

using testing::Has;
using testing::kAssets;
using testing::Q;
using testing::Write;
const std::string kSample = kAssets + "/scenes/sample_totsk.yaml";
using testing::kSampleRoster;

// A refusal: exit 2, nothing on stdout, the fragments in stderr.
void ExpectRefused(const CommandResult& r, std::initializer_list<std::string> fragments) {
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.signal, 0);
  EXPECT_TRUE(r.out.empty()) << r.out;
  for (const std::string& f : fragments) EXPECT_TRUE(Has(r.err, f)) << "expected '" << f << "' in: " << r.err.substr(0, 500);
}

std::string OneUnitScene(const std::string& id, const std::string& tags = "[]", const std::string& x = "600") {
  return "bw_mm: 40\n"
         "units:\n"
         "  - {id: " + id + ", side: blue, type: infantry, tags: " + tags + ",\n"
         "     base: {width_mm: 40, depth_mm: 20}, pose: {x_mm: " + x + ", y_mm: 400, heading_deg: 90}}\n";
}

// --- 1. crash: std::regex ran out of stack on a long id or tag ---------------------------------

TEST(NeverLose, HugeIdOrTagIsRefusedNotACrash) {
  TestFolder dir;
  const std::string id = Write(dir / "id.yaml", OneUnitScene(std::string(40'000, 'A')));
  ExpectRefused(RunVedette("analyze " + Q(id)), {id + ":3:", "at most 64"});
  const std::string tag = Write(dir / "tag.yaml", OneUnitScene("B1", "[" + std::string(300'000, 't') + "]"));
  ExpectRefused(RunVedette("analyze " + Q(tag)), {tag + ":3:", "300000 characters long; at most 64"});
  // The same file as a roster.
  ExpectRefused(RunVedette("print markers --roster " + Q(id) + " --out " + Q(dir / "m.svg")), {id + ":3:", "at most 64"});
}

TEST(NeverLose, HugeBoardSizeIsRefusedNotACrash) {
  TestFolder dir;
  const std::string board = "charuco:" + std::string(100'000, '1') + "x7:30:22:DICT_6X6_250";
  const auto r = RunVedette("print board " + board + " --out " + Q(dir / "b.svg"));
  ExpectRefused(r, {"--board", "must be COLSxROWS"});
  EXPECT_LT(r.err.size(), 1000u) << "the message must not repeat the argument";
}

// --- 2. hang: a 600-byte alias bomb under declarations: settings: ------------------------------

TEST(NeverLose, AliasBombIsRefusedAtOnce) {
  TestFolder dir;
  std::string text = OneUnitScene("B1") + "declarations:\n  settings:\n    a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int i = 1; i < 10; ++i) {
    const std::string p = "*a" + std::to_string(i - 1);
    text += "    a" + std::to_string(i) + ": &a" + std::to_string(i) + " [" + p + "," + p + "," + p + "," + p + "," + p + "," +
            p + "," + p + "," + p + "," + p + "]\n";
  }
  const std::string bomb = Write(dir / "bomb.yaml", text);
  for (const std::string& cmd : {"analyze " + Q(bomb), "measure " + Q(bomb) + " --from B1 --to B1",
                                 "check-move " + Q(bomb) + " --unit B1 --to 600,420,90"}) {
    const auto t0 = std::chrono::steady_clock::now();
    ExpectRefused(RunVedette(cmd), {bomb + ":8:", "aliases", "write the value out"});
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10.0) << cmd;
  }
  const std::string deep = Write(dir / "deep.yaml", OneUnitScene("B1") + "declarations:\n  settings:\n    x: " +
                                                        std::string(100, '[') + std::string(100, ']') + "\n");
  ExpectRefused(RunVedette("analyze " + Q(deep)), {deep + ":7:", "nested more than 64 deep"});
}

// --- 3. nonsense accepted --------------------------------------------------------------------

TEST(NeverLose, AbsurdNumbersAreRefusedWithTheLimit) {
  TestFolder dir;
  const std::string far = Write(dir / "far.yaml", OneUnitScene("B1", "[]", "1e308"));
  ExpectRefused(RunVedette("analyze " + Q(far)), {far + ":4:", "pose.x_mm", "between -100000 and 100000 mm"});
  ExpectRefused(RunVedette("render " + Q(kAssets + "/scenes/totsk_small_table.yaml") + " --camera 100000x100000 --out " +
                           Q(dir / "x.png")),
                {"--camera", "16384 px"});
  EXPECT_FALSE(fs::exists(dir / "x.png"));
  const std::string huge_cam = Write(dir / "huge.yaml", "%YAML:1.0\n---\nimage_width: 200000\nimage_height: 100000\n"
                                     "camera_matrix: !!opencv-matrix\n  rows: 3\n  cols: 3\n  dt: d\n"
                                     "  data: [1000, 0, 500, 0, 1000, 400, 0, 0, 1]\n"
                                     "distortion_coefficients: !!opencv-matrix\n  rows: 1\n  cols: 5\n  dt: d\n"
                                     "  data: [0, 0, 0, 0, 0]\n");
  ExpectRefused(RunVedette("render " + Q(kAssets + "/scenes/totsk_small_table.yaml") + " --calib " + Q(huge_cam) +
                           " --out " + Q(dir / "x.png")),
                {huge_cam, "at most 16384 px"});
  ExpectRefused(RunVedette("dispute --image " + Q(dir / "none.png") + " --calib x --roster " + Q(kSampleRoster) +
                           " --from B1 --to nan,nan"),
                {"--to", "finite"});
  ExpectRefused(RunVedette("check-move " + Q(kSample) + " --unit B4 --to 1e300,460,90"), {"--to", "100000 mm"});
  // Counts that each cost a pass over the picture: 100000 glare patches rendered for hours.
  ExpectRefused(RunVedette("render " + Q(kAssets + "/scenes/totsk_small_table.yaml") + " --camera 640x480 --glare 100000 --out " +
                           Q(dir / "x.png")),
                {"glare_patches", "[0, 64]"});
  ExpectRefused(RunVedette("render " + Q(kAssets + "/scenes/totsk_small_table.yaml") + " --camera 640x480 --occluders 1000000 --out " +
                           Q(dir / "x.png")),
                {"occluders", "[0, 64]"});
  EXPECT_FALSE(fs::exists(dir / "x.png"));
  // A negative frame count ran the whole demo.
  ExpectRefused(RunVedette("demo --headless --frames -1 --out " + Q(dir / "demo")), {"--frames", "not in range 1"});
  EXPECT_FALSE(fs::exists(fs::path(dir / "demo") / "demo.mkv"));
}

TEST(NeverLose, UnknownNamesAreRefusedWithTheValidOnes) {
  ExpectRefused(RunVedette("analyze " + Q(kSample) + " --set nope_key=1"),
                {"--set", "nope_key", "threat_distance", "morale_ranges"});
  ExpectRefused(RunVedette("analyze " + Q(kSample) + " --ruleset kow --set threat_distance=qrs"),
                {"threat_distance", "one_inch_rule, post_combat_back"});
  // A known key still works.
  EXPECT_EQ(RunVedette("analyze " + Q(kSample) + " --set threat_distance=qrs").status, 0);
  ExpectRefused(RunVedette("check-move " + Q(kSample) + " --unit B4 --to 640,460,90 --formation blob"),
                {"--formation", "blob", "line, column"});
  TestFolder dir;
  // A declaration the ruleset does not read (a typing mistake, or another game's word) at its line.
  const std::string wavering = Write(dir / "w.yaml", OneUnitScene("B1") + "declarations:\n  B1: {wavering: true}\n");
  ExpectRefused(RunVedette("analyze " + Q(wavering)), {wavering + ":6:", "B1.wavering", "failed_morale", "general_attached"});
  ExpectRefused(RunVedette("check-move " + Q(wavering) + " --unit B1 --to 600,420,90"), {wavering + ":6:", "B1.wavering"});
  EXPECT_EQ(RunVedette("analyze " + Q(wavering) + " --ruleset geometry").status, 0);  // geometry reads no declarations
  ExpectRefused(RunVedette("process --video v.mkv --calib c.yaml --roster r.yaml --out " + Q(dir / "o.mkv") + " --hide nope"),
                {"--hide", "unknown layer 'nope'", "zoc", "threats"});
  EXPECT_FALSE(fs::exists(dir / "o.mkv"));
}

// --- 4. files destroyed ----------------------------------------------------------------------

TEST(NeverLose, AnOutputThatIsAlsoAnInputIsRefusedEvenWithForce) {
  TestFolder dir;
  const std::string video = Write(dir / "X.mkv", "not really a video, but the player's only copy");
  for (const std::string force : {"", " --force"}) {
    ExpectRefused(RunVedette("process --video " + Q(video) + " --calib c.yaml --roster r.yaml --out " +
                             Q(dir.path().string() + "/./X.mkv") + force),
                  {video, "input", "another name"});
    EXPECT_EQ(ReadFile(video), "not really a video, but the player's only copy");
  }
  // A log that would land on the roster.
  const std::string roster = Write(dir / "r.jsonl", "roster");
  ExpectRefused(RunVedette("process --video v.mkv --calib c.yaml --roster " + Q(roster) + " --log " + Q(roster) + " --force"),
                {"r.jsonl", "input"});
  EXPECT_EQ(ReadFile(roster), "roster");
}

TEST(NeverLose, AMissingFolderIsFoundBeforeAnythingIsWritten) {
  TestFolder dir;
  const std::string keep = Write(dir / "KEEP.mkv", "last week's game");
  ExpectRefused(RunVedette("process --video v.mkv --calib c.yaml --roster r.yaml --out " + Q(keep) + " --log " +
                           Q(dir / "missing/x.jsonl") + " --force"),
                {"missing/x.jsonl", "does not exist"});
  EXPECT_EQ(ReadFile(keep), "last week's game");
  EXPECT_FALSE(fs::exists(dir / "missing"));
}

TEST(NeverLose, ExistingOutputsAreKeptWithoutForce) {
  TestFolder dir;
  const std::string old = "an earlier result";
  const std::string img = Write(dir / "img.png", old), truth = Write(dir / "t.json", old), events = Write(dir / "E.jsonl", old);
  const std::string vid = Write(dir / "v.mkv", old), sheet = Write(dir / "sheet.svg", old), cam = Write(dir / "cam.yaml", old);
  const std::string scene = Write(dir / "s.yaml", old), ev_png = Write(dir / "ev.png", old), rec = Write(dir / "rec.mkv", old);
  fs::create_directory(dir / "demo");
  const std::string demo_mkv = Write(dir / "demo/demo.mkv", old);
  const std::string table = kAssets + "/scenes/totsk_small_table.yaml";
  const std::string clip = kAssets + "/clips/totsk_small.clip.yaml";
  const struct {
    std::string command, file;
  } cases[] = {
      {"render " + Q(table) + " --camera 320x240 --out " + Q(img), img},
      {"render " + Q(table) + " --camera 320x240 --out " + Q(dir / "new.png") + " --truth " + Q(truth), truth},
      {"render " + Q(table) + " --camera 320x240 --out " + Q(dir / "new.png") + " --camera-out " + Q(cam), cam},
      {"track --video " + Q(dir / "none.mkv") + " --calib c.yaml --roster r.yaml --events " + Q(events), events},
      {"process --video " + Q(dir / "none.mkv") + " --calib c.yaml --roster r.yaml --out " + Q(vid), vid},
      {"clip " + Q(clip) + " --video " + Q(vid), vid},
      {"clip " + Q(clip) + " --video " + Q(dir / "new.mkv") + " --truth " + Q(truth), truth},
      {"clip " + Q(clip) + " --video " + Q(dir / "new.mkv") + " --calib-out " + Q(cam), cam},
      {"print markers --roster " + Q(kSampleRoster) + " --out " + Q(sheet), sheet},
      {"print board charuco:5x7:30:22:DICT_6X6_250 --out " + Q(sheet), sheet},
      {"calibrate --board chessboard:9x6:25 --out " + Q(cam) + " " + Q(img), cam},
      {"locate --image " + Q(img) + " --calib c.yaml --roster " + Q(kSampleRoster) + " --scene-out " + Q(scene), scene},
      {"dispute --image " + Q(img) + " --calib c.yaml --roster " + Q(kSampleRoster) + " --from B1 --to B2 --evidence " +
           Q(dir / "ev"),
       ev_png},
      {"live --video " + Q(dir / "none.mkv") + " --calib c.yaml --roster r.yaml --record " + Q(rec), rec},
      {"demo --headless --frames 1 --out " + Q(dir / "demo"), demo_mkv},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.command);
    ExpectRefused(RunVedette(c.command), {c.file, "already exists", "--force"});
    EXPECT_EQ(ReadFile(c.file), old);
  }
  // Nothing was left behind: no new file, no temporary one.
  int files = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir.path())) files += e.is_regular_file();
  EXPECT_EQ(files, 10);
}

// The first of the README's two commands, `scripts/setup.sh demo`, writes demo.mkv and demo.jsonl in
// the project's folder: run again, the demo replaces its own earlier outputs (recognised by the log's
// header, which names the demo's clip) instead of refusing; a demo.jsonl that is anything else is kept.
TEST(NeverLose, TheDemoReplacesOnlyItsOwnEarlierOutputs) {
  TestFolder dir;
  const std::string out = Q(dir / "demo");
  const auto first = RunVedette("demo --headless --frames 2 --out " + out);
  ASSERT_EQ(first.status, 0) << first.err;
  const auto again = RunVedette("demo --headless --frames 3 --out " + out);
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_TRUE(Has(again.err, "replacing the last demo's")) << again.err;
  cv::VideoCapture cap(dir / "demo/demo.mkv", cv::CAP_FFMPEG);
  EXPECT_EQ(static_cast<int>(cap.get(cv::CAP_PROP_FRAME_COUNT)), 3) << "the second run's video";
  // Not the demo's: a log of another clip, then not a log at all.
  const std::string other = Write(dir / "demo/demo.jsonl", R"({"log":"vedette","log_version":2,"source":"my_game.mkv"})" "\n");
  ExpectRefused(RunVedette("demo --headless --frames 2 --out " + out), {"demo.mkv", "already exists", "--force"});
  EXPECT_EQ(ReadFile(other), R"({"log":"vedette","log_version":2,"source":"my_game.mkv"})" "\n");
  Write(dir / "demo/demo.jsonl", "last week's notes");
  ExpectRefused(RunVedette("demo --headless --frames 2 --out " + out), {"demo.mkv", "already exists", "--force"});
  EXPECT_EQ(ReadFile(dir / "demo/demo.jsonl"), "last week's notes");
}

TEST(NeverLose, ForceReplacesAFinishedFileInOnePiece) {
  TestFolder dir;
  const std::string img = Write(dir / "img.png", "an earlier result");
  const std::string table = kAssets + "/scenes/totsk_small_table.yaml";
  const auto r = RunVedette("render " + Q(table) + " --camera 320x240 --out " + Q(img) + " --truth " + Q(dir / "t.json") +
                            " --force");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(ReadFile(img).substr(1, 3), "PNG");
  // Written under a temporary name and renamed: only the two outputs are there.
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir.path())) files += e.is_regular_file();
  EXPECT_EQ(files, 2);
  // --force goes before the command's name too.
  EXPECT_EQ(RunVedette("--force render " + Q(table) + " --camera 320x240 --out " + Q(img)).status, 0);
}

// --- 5. a full disk is not a success ---------------------------------------------------------

// A short synthetic clip of the sample table (small, so the test stays fast).
void MakeClip(const TestFolder& dir) {
  const std::string script = Write(dir / "c.clip.yaml", "roster: " + kAssets + "/scenes/totsk_small_table.yaml\n"
                                   "fps: 10\nduration_s: 0.5\n"
                                   "camera: {image_size: [480, 320], tilt_deg: 0, horizontal_fov_deg: 68, margin: 0.03}\n"
                                   "render: {supersample: 1}\n");
  const auto r = RunVedette("clip " + Q(script) + " --video " + Q(dir / "c.mkv") + " --calib-out " + Q(dir / "cam.yaml"));
  ASSERT_EQ(r.status, 0) << r.err;
}

TEST(NeverLose, ALogThatCannotBeWrittenFailsTheRun) {
  TestFolder dir;
  ASSERT_NO_FATAL_FAILURE(MakeClip(dir));
  const std::string inputs = "--video " + Q(dir / "c.mkv") + " --calib " + Q(dir / "cam.yaml") + " --roster " + Q(kSampleRoster);
  // /dev/full takes the open and refuses every write with ENOSPC, as a full disk does.
  const auto p = RunVedette("process " + inputs + " --log /dev/full --force --quiet");
  EXPECT_NE(p.status, 0);
  EXPECT_TRUE(Has(p.err, "disk full or output removed while writing /dev/full: kept")) << p.err;
  const auto t = RunVedette("track " + inputs + " --events /dev/full --force --quiet");
  EXPECT_NE(t.status, 0);
  EXPECT_TRUE(Has(t.err, "disk full or output removed while writing /dev/full: kept")) << t.err;
}

TEST(NeverLose, AVideoOnAFullDiskFailsTheRun) {
  TestFolder dir;
  const fs::path mount = dir.path() / "small";
  fs::create_directory(mount);
  if (::mount("tmpfs", mount.c_str(), "tmpfs", 0, "size=512k") != 0)
    GTEST_SKIP() << "cannot mount a small tmpfs here (needs root or CAP_SYS_ADMIN): the full-disk video case is not run";
  const auto r = RunVedette("demo --headless --frames 40 --out " + Q(mount.string()));
  // What was written before the disk filled still plays: the encoder finished the file.
  cv::VideoCapture cap((mount / "demo.mkv").string(), cv::CAP_FFMPEG);
  int played = 0;
  for (cv::Mat f; cap.isOpened() && cap.read(f);) ++played;
  cap.release();
  ::umount2(mount.c_str(), MNT_DETACH);
  EXPECT_GT(played, 0) << "the recording of what was written plays";
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_TRUE(Has(r.err, "disk full or output removed while writing " + (mount / "demo").string())) << r.err;
  EXPECT_TRUE(Has(r.err, "kept")) << r.err;
}

// --- 6. quiet ----------------------------------------------------------------------------------

TEST(NeverLose, LibraryWarningsAreSilencedUnlessVerbose) {
  TestFolder dir;
  const std::string fake = Write(dir / "fake.mkv", "this is a text file, not a video\n");
  const std::string cam = dir / "cam.yaml";
  ASSERT_EQ(RunVedette("render " + Q(kAssets + "/scenes/totsk_small_table.yaml") + " --camera 320x240 --out " +
                       Q(dir / "x.png") + " --camera-out " + Q(cam)).status, 0);
  const auto r = RunVedette("track --video " + Q(fake) + " --calib " + Q(cam) + " --roster " + Q(kSampleRoster) + " --quiet");
  EXPECT_NE(r.status, 0);
  // Only Vedette's own lines: each starts with "vedette".
  std::istringstream lines(r.err);
  for (std::string line; std::getline(lines, line);)
    EXPECT_EQ(line.rfind("vedette", 0), 0u) << "a library's message leaked: " << r.err;
}

TEST(NeverLose, AnOpenCvFailureIsOneSentence) {
  TestFolder dir;
  // An image format OpenCV has no writer for: its exception reaches main.
  const auto r = RunVedette("render " + Q(kAssets + "/scenes/totsk_small_table.yaml") + " --camera 64x48 --out " +
                            Q(dir / "x.xyz"));
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(Has(r.err, "vedette: OpenCV failed in ")) << r.err;
  EXPECT_TRUE(Has(r.err, "could not find a writer")) << r.err;
  EXPECT_FALSE(Has(r.err, "terminate")) << r.err;
  EXPECT_TRUE(fs::is_empty(dir.path())) << "neither the image nor its temporary file may be left";
}

}  // namespace
}  // namespace vedette
