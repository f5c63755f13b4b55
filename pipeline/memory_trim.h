#pragma once
// Memory a long game frees goes back to the system. glibc keeps what is freed in its arenas (frames,
// per-frame buffers and label sprites made on one thread and freed on another): over an hour's soak
// (bench/soak_bench) RSS rose by 14 MB in the first 20 minutes while the heap in use stayed flat.
// Free pages are handed back now and then; with it, 20 minutes of the same soak stayed within
// 105-111 MB from the first report on (the plateau is reached in the first minutes, not lowered).

namespace vedette::pipeline {

// Calls malloc_trim when `every_s` seconds have passed since the last call that trimmed (process-wide;
// safe from any thread). Returns true when it trimmed.
bool GiveBackFreeMemory(double every_s = 20.0);

}  // namespace vedette::pipeline
