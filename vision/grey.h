#pragma once
// Grey levels from colour frames, as cv::cvtColor(BGR2GRAY) computes them (the same fixed-point
// weights and rounding, so a crop converted here equals the same crop converted by OpenCV: checked
// for every 24-bit colour). The tracker converts dozens of small crops a frame; under about 576 px
// OpenCV's per-call overhead costs more than the pixels, so those are converted here.
#include <opencv2/core.hpp>

namespace vedette::vision {

// p: one pixel, B, G, R first.
inline uchar GreyOfBgr(const uchar* p) { return uchar((p[0] * 3735 + p[1] * 19235 + p[2] * 9798 + (1 << 14)) >> 15); }

// GreyOfBgr of w pixels of one row, every step-th from src (cn = 3 or 4 bytes a pixel), into dst:
// four at a time in SSE2, the same bytes as the scalar loop.
void GreyOfBgrRow(const uchar* src, int cn, int step, int w, uchar* dst);

// Crops of at least this many pixels go through cv::cvtColor, smaller ones through GreyOfBgrRow.
constexpr int kGreyCropOpenCvFromPx = 576;

// The grey crop r (inside the image) of an 8-bit image with 1, 3 (BGR) or 4 (BGRA) channels: a
// view of a grey image, a new matrix otherwise.
cv::Mat GreyCrop(const cv::Mat& image, const cv::Rect& r);

// A whole frame in grey (cv::cvtColor): the image itself when it is grey already, BGR and BGRA
// converted.
cv::Mat GreyFrame(const cv::Mat& image);

}  // namespace vedette::vision
