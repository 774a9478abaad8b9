// jobhost's main(): hands argv to the CLI with the process's standard streams.
// Everything testable lives in cli.cpp and the command files.
#include <iostream>

#include "host/cli/cli.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return jobhost::cli::runCli(args, {std::cout, std::cerr});
}
