// The event panel's words (pipeline/event_words.h): every event type of the log said for a player,
// never as JSON; a move says what its verdict on the picture says.
#include <gtest/gtest.h>

#include "pipeline/event_words.h"

namespace vedette::pipeline {
namespace {

using nlohmann::json;

TEST(EventWords, EveryEventTypeInWords) {
  EXPECT_EQ(EventWords(json::parse(R"j({"event":"move","frame":79,"unit":"B1","distance_mm":19.2,
      "says":"B1 wheel, 19 mm: test Move including a wheel, pass 67 %","classification":["wheel"]})j")),
            "[79] B1 wheel, 19 mm: test Move including a wheel, pass 67 %");
  EXPECT_EQ(EventWords(json::parse(R"j({"event":"move","frame":3,"unit":"R","distance_mm":42.4,"note":"not judged"})j")),
            "[3] R moved 42 mm (not judged)");
  EXPECT_EQ(EventWords(json::parse(R"j({"event":"group_move","frame":5,"units":["B2","B3"],"group_allowed":false})j")),
            "[5] B2, B3 moved together: not one group move");
  EXPECT_EQ(EventWords(json::parse(R"j({"event":"lifted","frame":9,"unit":"R2","at":{"x_mm":380.2,"y_mm":599.6,"heading_deg":90}})j")),
            "[9] R2 lifted off the table at (380, 600) mm");
  EXPECT_EQ(EventWords(json::parse(R"j({"event":"occluded","frame":12,"unit":"B4","at":{"x_mm":450,"y_mm":200}})j")),
            "[12] B4 hidden (a hand?) at (450, 200) mm: its last pose is kept");
  EXPECT_EQ(EventWords(json::parse(R"j({"event":"unknown_marker","frame":1,"marker":33})j")),
            "[1] marker 33 is not in the roster: ignored");
  EXPECT_EQ(EventWords(json::parse(R"j({"event":"camera_moved","frame":40,"shift_px":12.34,"rotation_deg":0.4})j")),
            "[40] the camera moved (12.3 px, 0.40 deg): the table is registered again");
  EXPECT_EQ(EventWords(json::parse(R"j({"event":"declare","frame":7,"unit":"R2","key":"state","value":"routed","source":"live window"})j")),
            "[7] R2 state: routed (live window)");
  EXPECT_EQ(EventWords(json::parse(R"j({"event":"declare","frame":20,"unit":"G","key":"firing","value":true,
      "source":"rules: G charged from the front by C: artillery automatically begin firing (seed 79)"})j")),
            "[20] G firing: true (G charged from the front by C: artillery automatically begin firing (seed 79))");
  EXPECT_EQ(EventWords(json::parse(R"j({"event":"declare","frame":0,"unit":"","key":"active_side","value":"red","source":"script"})j")),
            "[0] active_side: red (script)");
}

TEST(EventWords, UnknownOrDamagedLinesStillSaySomething) {
  EXPECT_EQ(EventWords(json::parse(R"j({"event":"teleported","frame":2,"unit":"X"})j")), "[2] teleported X");
  EXPECT_EQ(EventWords(json::parse(R"j({"event":"lifted","unit":"X","at":"nowhere"})j")), "[?] X lifted off the table");
  EXPECT_EQ(EventWords(json::parse(R"j({"event":"camera_moved","frame":1,"shift_px":"a lot"})j")),
            "[1] the camera moved (? px, ? deg): the table is registered again");
}

// The units panel says what the tracker knows in words, not the log's identifiers.
TEST(TrackingWords, EveryStateInWords) {
  for (const char* state : {"unseen", "seen", "moving", "at_rest", "occluded", "lifted", "removed"}) {
    const std::string w = TrackingWords(state);
    EXPECT_EQ(w.find('_'), std::string::npos) << state << " -> " << w;
    EXPECT_FALSE(w.empty()) << state;
  }
  EXPECT_EQ(TrackingWords("at_rest"), "at rest");
}

}  // namespace
}  // namespace vedette::pipeline
