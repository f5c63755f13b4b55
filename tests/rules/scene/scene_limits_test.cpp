// "Never loses a game": scene and roster files built to crash, hang or mislead the loader are
// refused at once with the file, the line and the limit that applies.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "rules/scene/scene_io.h"
#include "rules/yaml_file.h"
#include "rules/yaml_reader.h"

namespace vedette {
namespace {

// One unit whose fields are spliced in: `id`, `tags` (a YAML list) and the pose's x.
std::string OneUnit(const std::string& id, const std::string& tags = "[]", const std::string& x = "600") {
  return "bw_mm: 40\n"
         "units:\n"
         "  - {id: " + id + ", side: blue, type: infantry, tags: " + tags + ",\n"
         "     base: {width_mm: 40, depth_mm: 20}, pose: {x_mm: " + x + ", y_mm: 400, heading_deg: 90}}\n";
}

// Returns the error for `text` (which must be refused) and checks its file and line.
InputError Refusal(const std::string& text, int line, const SceneLoadOptions& options = {}) {
  try {
    ParseScene(text, "bad.yaml", options);
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "bad.yaml");
    EXPECT_EQ(e.line(), line) << e.what();
    return e;
  }
  ADD_FAILURE() << "accepted";
  return InputError("", 0, "");
}

bool Has(const InputError& e, const std::string& fragment) {
  return std::string(e.what()).find(fragment) != std::string::npos;
}

// Crash found by the tester: std::regex recursed once per character of a 40,000-character id.
TEST(SceneLimits, HugeUnitIdIsRefusedWithTheLimitNotACrash) {
  const InputError e = Refusal(OneUnit(std::string(40'000, 'A')), 3);
  EXPECT_TRUE(Has(e, "40000 characters long; at most 64")) << e.what();
  EXPECT_LT(std::string(e.what()).size(), 300u) << "the message must not repeat the id";
  // ... and a roster (no poses) takes the same path.
  Refusal(OneUnit(std::string(40'000, 'A')), 3, SceneLoadOptions{.require_poses = false});
}

TEST(SceneLimits, HugeTagIsRefusedWithTheLimitNotACrash) {
  const InputError e = Refusal(OneUnit("B1", "[" + std::string(300'000, 'a') + "]"), 3);
  EXPECT_TRUE(Has(e, "300000 characters long; at most 64")) << e.what();
}

TEST(SceneLimits, IdsAndTagsAtTheLimitStillLoad) {
  const std::string id(kMaxNameLength, 'A');
  const Scene s = ParseScene(OneUnit(id, "[" + std::string(kMaxNameLength, 'b') + "]"), "ok.yaml");
  EXPECT_EQ(s.units.at(0).id, id);
  // The character classes are the ones the regexes had.
  EXPECT_EQ(ParseScene(OneUnit("B-1.x_2"), "ok.yaml").units.at(0).id, "B-1.x_2");
  EXPECT_TRUE(Has(Refusal(OneUnit("'B 1'"), 3), "may only hold letters"));
  EXPECT_TRUE(Has(Refusal(OneUnit("B1", "[light-ish]"), 3), "must be a word"));
}

// Hang found by the tester: a 600-byte "billion laughs" under declarations: settings:.
TEST(SceneLimits, AliasBombIsRefusedAtOnce) {
  std::string text = OneUnit("B1") + "declarations:\n  settings:\n    a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int i = 1; i < 10; ++i) {
    const std::string p = "*a" + std::to_string(i - 1);
    text += "    a" + std::to_string(i) + ": &a" + std::to_string(i) + " [" + p + "," + p + "," + p + "," + p + "," + p +
            "," + p + "," + p + "," + p + "," + p + "]\n";
  }
  ASSERT_LT(text.size(), 1200u);
  const auto t0 = std::chrono::steady_clock::now();
  const InputError e = Refusal(text, 8);  // the first alias
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 1.0);
  EXPECT_TRUE(Has(e, "aliases (*name) are not accepted")) << e.what();
}

// Slow input found by the camera file's fuzzer (CI): yaml-cpp starts empty documents for ever at a
// ',' that begins a line, a million of them before the node limit stopped it (seconds under ASan).
TEST(SceneLimits, ACommaThatStartsALineIsRefusedAtOnceNotLooped) {
  const auto t0 = std::chrono::steady_clock::now();
  const InputError e = Refusal("\n,--\n" + OneUnit("B1"), 2);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 0.05);
  EXPECT_TRUE(Has(e, "cannot be read past here")) << e.what();
  EXPECT_THROW(ParseYamlText(",", "r.yaml"), InputError);
}

// YAML::Load reads the first document only: the rest of a file after a '---' would be lost unseen.
TEST(SceneLimits, ASecondDocumentIsRefusedNotDropped) {
  const InputError e = Refusal(OneUnit("B1") + "---\n" + OneUnit("B2"), 5);
  EXPECT_TRUE(Has(e, "a second YAML document")) << e.what();
  ParseScene("---\n" + OneUnit("B1"), "ok.yaml");  // one document with its start marker is fine
}

// Crash found by the scene fuzzer's long run: a declaration key holding control characters was read,
// and the writer, which went through yaml-cpp's reader again, threw out of SceneToYaml.
TEST(SceneLimits, ControlCharactersAreRefusedAndEscapedOnesWrittenBack) {
  const InputError e = Refusal(OneUnit("B1") + "declarations:\n  B1: {sta\x0f\x0bte: shaken}\n", 6);
  EXPECT_TRUE(Has(e, "control character 0x0F is not text")) << e.what();
  // Written as escapes they are text: read, written and read back the same.
  const Scene s = ParseScene(OneUnit("B1") + "declarations:\n  B1: {\"sta\\x0fte\": \"a\\x0bb\", n: 0.1, t: \"true\"}\n", "ok.yaml");
  const Scene again = ParseScene(SceneToYaml(s), "written.yaml");
  const auto& d = again.declarations.units.at("B1");
  EXPECT_EQ(d.at("sta\x0fte").value, "a\x0b" "b");
  EXPECT_EQ(d.at("n").value, 0.1);
  EXPECT_EQ(d.at("t").value, "true") << "a string stays a string";
}

TEST(SceneLimits, DeepNestingIsRefusedWithTheLimit) {
  const std::string deep = std::string(200, '[') + "1" + std::string(200, ']');
  const InputError e = Refusal(OneUnit("B1") + "declarations:\n  settings:\n    x: " + deep + "\n", 7);
  EXPECT_TRUE(Has(e, "nested more than 64 deep")) << e.what();
  // Ruleset and clip files read through the same gate.
  EXPECT_THROW(ParseYamlText("a: " + deep, "r.yaml"), InputError);
}

// Nonsense accepted: 1e308 mm became "inf mm" in every report.
TEST(SceneLimits, AbsurdNumbersAreRefusedWithTheLimit) {
  EXPECT_TRUE(Has(Refusal(OneUnit("B1", "[]", "1e308"), 4), "between -100000 and 100000 mm")) ;
  EXPECT_TRUE(Has(Refusal(OneUnit("B1", "[]", ".inf"), 4), "finite"));
  EXPECT_TRUE(Has(Refusal(OneUnit("B1", "[]", ".nan"), 4), "finite"));
  EXPECT_TRUE(Has(Refusal("bw_mm: 1e9\nunits: []\n", 1), "at most 100000 mm"));
  EXPECT_TRUE(Has(Refusal("bw_mm: 40\ntable: {width_mm: 1e12, depth_mm: 900}\nunits: []\n", 2), "at most 100000 mm"));
  EXPECT_TRUE(Has(Refusal("bw_mm: 40\nunits: []\nterrain:\n  - {id: w, type: woods, polygon: [[0,0],[1e300,0],[0,5]]}\n", 4),
                  "between -100000 and 100000 mm"));
  EXPECT_TRUE(Has(Refusal("bw_mm: 40\nunits: []\nanchors:\n  - {marker: 1, x_mm: 0, y_mm: -2e5}\n", 4), "100000"));
  EXPECT_TRUE(Has(Refusal("bw_mm: 40\nunits: []\ndeclarations:\n  settings: {threat_distance_bw: 1e300}\n", 4), "1e9"));
  // A big but real table (100 m) still loads.
  EXPECT_NO_THROW(ParseScene(OneUnit("B1", "[]", "99999.5"), "ok.yaml"));
}

}  // namespace
}  // namespace vedette
