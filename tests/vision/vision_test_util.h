#pragma once
// Shared by the vision tests: the folder of OpenCV's aruco tutorial photos in the real test data.
#include <string>

namespace vedette::vision::testing {

// tests/data/realdata/aruco/, with the trailing slash (see tests/data/realdata/SOURCES.md).
inline const std::string kAruco = std::string(VEDETTE_REALDATA) + "/aruco/";

}  // namespace vedette::vision::testing
