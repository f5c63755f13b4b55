// live.ini as read back: unusable lines are skipped, never refused and never let through.
#include <gtest/gtest.h>

#include "ui/live_settings.h"

namespace vedette::ui {
namespace {

TEST(LiveSettingsFile, ReadsWhatItWrites) {
  const LiveSettings s = ParseLiveSettings("top_down = 1\ntext_size = 1.5\ncamera_view = 2 640 360\n");
  EXPECT_TRUE(s.top_down);
  EXPECT_DOUBLE_EQ(s.text_size, 1.5);
  EXPECT_TRUE(s.camera_view.centred);
  EXPECT_DOUBLE_EQ(s.camera_view.zoom, 2);
  EXPECT_DOUBLE_EQ(s.camera_view.centre.x, 640);
}

// Found by tests/fuzz/live_settings_fuzz: "inf" and "nan" read as numbers and made a view that
// drew nothing.
TEST(LiveSettingsFile, NonFiniteOrAbsurdViewsAreSkipped) {
  for (const char* view : {"inf 1 2", "nan 1 2", "1 nan 2", "1 2 inf", "0 1 2", "-1 1 2", "1e9 1 2", "1 2"}) {
    const LiveSettings s = ParseLiveSettings(std::string("camera_view = ") + view + "\ntable_view = " + view + "\n");
    EXPECT_FALSE(s.camera_view.centred) << view;
    EXPECT_FALSE(s.table_view.centred) << view;
  }
  EXPECT_DOUBLE_EQ(ParseLiveSettings("text_size = nan\n").text_size, 1.0);
  EXPECT_DOUBLE_EQ(ParseLiveSettings("text_size = 1e400\n").text_size, 1.0);
}

}  // namespace
}  // namespace vedette::ui
