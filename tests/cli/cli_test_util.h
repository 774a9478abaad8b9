// Helpers shared by the CLI tests: run the real command table in-process and capture its output,
// write a job or script file into the test's temporary directory.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "host/cli/cli.h"

namespace jobhost::cli {

struct Run {
  int rc;
  std::string out, err;
};

inline Run run(std::vector<std::string> args) {
  std::ostringstream out, err;
  int rc = runCli(args, {out, err});
  return {rc, out.str(), err.str()};
}

inline std::string writeTemp(const std::string& name, const std::string& text) {
  std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace jobhost::cli
