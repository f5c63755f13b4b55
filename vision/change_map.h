#pragma once
// The tracker's change map: where the picture changed since the last frame, read from a sparse grid
// of samples, and the connected regions of change nobody explains yet (a unit put down, a hand).
#include <vector>

#include <opencv2/core.hpp>

namespace vedette::vision {

// The grey level (vision/grey.h weights) of every step-th pixel of every step-th row, nearest
// sample; image 8-bit with 1, 3 or 4 channels. Reading only the sampled pixels is what makes the
// change map cheap at 4K: a resize reads (and a colour conversion converts) far more than it keeps.
cv::Mat SampleGrey(const cv::Mat& image, int step);

// 255 where two sampled frames differ by more than `levels`; *fraction: the share of such samples.
cv::Mat ChangeMask(const cv::Mat& now, const cv::Mat& before, double levels, double* fraction);

// The mask pooled 2 x 2 (a pooled cell is set when any of its samples is): the components of
// change are labelled at this resolution, a quarter of the work of labelling the map itself.
cv::Mat Pool2(const cv::Mat& mask);

// The bounding boxes (cells of `mask`) of the 8-connected components of the mask dilated by one
// cell (3 x 3), as cv::dilate + cv::connectedComponentsWithStats give them, in no particular order.
// Change is sparse: this visits the set cells only, where OpenCV labels every cell (it was a tenth
// of a tracked frame).
std::vector<cv::Rect> ChangeComponents(const cv::Mat& mask);

}  // namespace vedette::vision
