#include "pipeline/memory_trim.h"

#include <malloc.h>

#include <atomic>
#include <chrono>

namespace vedette::pipeline {

bool GiveBackFreeMemory(double every_s) {
  using Clock = std::chrono::steady_clock;
  static std::atomic<Clock::rep> last{Clock::now().time_since_epoch().count()};
  const Clock::rep now = Clock::now().time_since_epoch().count();
  Clock::rep seen = last.load();
  const auto due = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(every_s)).count();
  if (now - seen < due || !last.compare_exchange_strong(seen, now)) return false;
  malloc_trim(0);
  return true;
}

}  // namespace vedette::pipeline
