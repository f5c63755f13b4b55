// Freed memory goes back to the system (pipeline/memory_trim.h): a heap left fragmented by a burst
// of small allocations (a long game's frames and buffers) shrinks in RSS once trimmed, and trimming
// happens at most once per period however often the frame loop asks.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "pipeline/memory_trim.h"

namespace vedette::pipeline {
namespace {

double RssMb() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmRSS:", 0) == 0) return std::atof(line.c_str() + 6) / 1024.0;
  return 0;
}

TEST(MemoryTrim, AtMostOncePerPeriod) {
  EXPECT_TRUE(GiveBackFreeMemory(0.0));
  EXPECT_FALSE(GiveBackFreeMemory(3600.0));
}

TEST(MemoryTrim, AFragmentedHeapShrinks) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "ASan's allocator keeps freed memory in quarantine: nothing to give back";
#endif
  // 64 MB in 1 KB blocks, then all but every 64th freed: the survivors pin the heap's top, so only
  // trimming (not the allocator's own release at the top) can give the free pages in between back.
  std::vector<char*> blocks(64 * 1024);
  for (char*& b : blocks) {
    b = static_cast<char*>(std::malloc(1000));
    b[0] = 1;
    for (int i = 0; i < 1000; i += 256) b[i] = 1;  // touched: resident
  }
  for (size_t i = 0; i < blocks.size(); ++i)
    if (i % 64 != 0) std::free(blocks[i]);
  const double before = RssMb();
  ASSERT_TRUE(GiveBackFreeMemory(0.0));
  const double after = RssMb();
  for (size_t i = 0; i < blocks.size(); i += 64) std::free(blocks[i]);
  EXPECT_LT(after, before - 30) << "RSS " << before << " MB before trimming, " << after << " after";
}

}  // namespace
}  // namespace vedette::pipeline
