// Sleeping on a 32-bit atomic with Linux futexes. Unlike std::atomic::wait (libstdc++ yields the
// processor in a loop first) a waiter goes straight to sleep: no context switch that does nothing.
#pragma once

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>

namespace jobhost {

/// Sleeps while `word` holds `expected` (returns at once if it does not; may return spuriously).
inline void futexWait(std::atomic<uint32_t>& word, uint32_t expected) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), FUTEX_WAIT_PRIVATE, expected, nullptr, nullptr, 0);
}

/// Wakes up to `count` threads sleeping on `word`.
inline void futexWake(std::atomic<uint32_t>& word, int count = 1) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), FUTEX_WAKE_PRIVATE, count, nullptr, nullptr, 0);
}

}  // namespace jobhost
