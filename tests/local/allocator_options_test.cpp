// The jobhost binary's mimalloc tuning (host/allocator): huge pages and no decommit by default,
// and a MIMALLOC_* variable the user sets wins. mimalloc's verbose start-up lists the options.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace {

std::string startupOptions(const std::string& environment) {
  const std::string command = environment + " MIMALLOC_VERBOSE=1 " JOBHOST_BINARY_DIR "/bin/jobhost --help 2>&1";
  std::string out;
  if (FILE* pipe = ::popen(command.c_str(), "r")) {
    char buffer[4096];
    while (size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
    ::pclose(pipe);
  }
  return out;
}

bool has(const std::string& text, const std::string& line) { return text.find(line + "\n") != std::string::npos; }

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

}  // namespace
