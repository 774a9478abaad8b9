// The jobhost binary's mimalloc tuning (host/allocator): huge pages, no decommit and an arena by
// default, and a MIMALLOC_* variable the user sets wins. mimalloc's verbose start-up lists the
// options; its statistics count the memory it reserved from the OS (none while the arena serves).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace {

/// The output of `jobhost --help` (its exit status appended) with `prefix` before the command.
std::string run(const std::string& prefix) {
  const std::string command = prefix + " " JOBHOST_BINARY_DIR "/bin/jobhost --help 2>&1; echo \"exit $?\"";
  std::string out;
  if (FILE* pipe = ::popen(command.c_str(), "r")) {
    char buffer[4096];
    while (size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
    ::pclose(pipe);
  }
  return out;
}

std::string startupOptions(const std::string& environment) { return run(environment + " MIMALLOC_VERBOSE=1"); }

/// mimalloc's exit statistics: the "reserved:" row (memory mapped from the OS) begins with its peak.
std::string statistics(const std::string& prefix) { return run(prefix + " MIMALLOC_SHOW_STATS=1"); }

bool has(const std::string& text, const std::string& line) { return text.find(line + "\n") != std::string::npos; }
bool reservedFromOs(const std::string& stats) {
  const size_t row = stats.find("  reserved:");
  return row != std::string::npos && stats.compare(row, 22, "  reserved:      0    ") != 0;
}

TEST(AllocatorOptions, HugePagesAndNoDecommitByDefault) {
  const std::string out = startupOptions("env");
  EXPECT_TRUE(has(out, "mimalloc: option 'large_os_pages': 1")) << out;
  EXPECT_TRUE(has(out, "mimalloc: option 'allow_decommit': 0")) << out;
}

TEST(AllocatorOptions, TheUsersEnvironmentWins) {
  const std::string out = startupOptions("MIMALLOC_LARGE_OS_PAGES=0 MIMALLOC_ALLOW_DECOMMIT=1");
  EXPECT_TRUE(has(out, "mimalloc: option 'large_os_pages': 0")) << out;
  EXPECT_TRUE(has(out, "mimalloc: option 'allow_decommit': 1")) << out;
}

TEST(AllocatorOptions, TheArenaServesAllocationsSoNothingIsReservedFromTheOs) {
  const std::string stats = statistics("env");
  ASSERT_TRUE(has(stats, "exit 0")) << stats;
  EXPECT_FALSE(reservedFromOs(stats)) << stats;
}

TEST(AllocatorOptions, AllowingDecommitLeavesTheArenaOut) {
  const std::string stats = statistics("MIMALLOC_ALLOW_DECOMMIT=0");
  ASSERT_TRUE(has(stats, "exit 0")) << stats;
  EXPECT_TRUE(reservedFromOs(stats)) << stats;
}

TEST(AllocatorOptions, WithoutAddressSpaceForTheArenaTheBinaryStillRuns) {
  // 4 GB of address space cannot hold the 8 GiB arena: mimalloc maps from the OS as before.
  const std::string stats = statistics("ulimit -v 4000000;");
  EXPECT_TRUE(has(stats, "exit 0")) << stats;
  EXPECT_NE(stats.find("usage: jobhost <command>"), std::string::npos) << stats;
  EXPECT_TRUE(reservedFromOs(stats)) << stats;
}

}  // namespace
