// jobhost's main(): hands argv to the CLI with the process's standard streams.
// Everything testable lives in cli.cpp and the command files.
#include <cstdio>
#include <iostream>

#include "host/cli/cli.h"
#include "host/common/log.h"
#include "host/plugin/call_deadline.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  int code = jobhost::cli::runCli(args, {std::cout, std::cerr});
  if (jobhost::deadline::anyQuarantined()) {
    // A plugin thread is still stuck inside plugin code: running the plugins' static destructors
    // could block on it (or free what it uses), so leave without them once output is flushed.
    std::cout.flush();
    std::cerr.flush();
    spdlog::apply_all([](const std::shared_ptr<spdlog::logger>& l) { l->flush(); });
    std::_Exit(code);
  }
  return code;
}
