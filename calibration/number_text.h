#pragma once
// Numbers as the calibration reports print them.
#include <string>

#include <opencv2/core/utility.hpp>

namespace vedette::calib {

// `value` with `digits` decimals ("0.42").
inline std::string Fixed(double value, int digits = 2) { return cv::format("%.*f", digits, value); }

}  // namespace vedette::calib
