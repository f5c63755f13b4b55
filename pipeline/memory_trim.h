#pragma once
// Memory a long game frees goes back to the system. glibc keeps what is freed in its arenas (frames,
// per-frame buffers and label sprites made on one thread and freed on another): over an hour's soak
// (bench/soak_bench) RSS rose by 14 MB in the first 20 minutes while the heap in use stayed flat.
// Free pages are handed back now and then; with it (and the label sprites bounded) an hour of the
// same soak stayed within 108-112 MB (README, "Never losing a game").

namespace vedette::pipeline {

// Calls malloc_trim when `every_s` seconds have passed since the last call that trimmed (process-wide;
// safe from any thread). Returns true when it trimmed.
bool GiveBackFreeMemory(double every_s = 20.0);

}  // namespace vedette::pipeline
