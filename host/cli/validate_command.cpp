// `jobhost validate JOB...`: admission only — defaults, Volcano's rules and every Validation
// plugin — printing each error with file:line:column and field path; exit 0 only if all pass
// (4 when a file could not be read or parsed, else 1 when a job was rejected).
#include <ostream>

#include "host/cli/cli.h"
#include "host/cli/job_intake.h"

namespace jobhost::cli {

int validateCommand(const Args& args, Streams io) {
  if (args.positionals.empty()) {
    io.err << "jobhost validate: give at least one job file\n";
    return kUsage;
  }
  int rc = kOk;
  auto host = loadHostSetup(args, io, &rc);
  if (!host) return rc;
  const HostConfig* config = &host->config;
  AdmissionConfig admission = host->admission;  // gathers the Queues of each file for the next
  bool allPassed = true, allRead = true;
  for (const auto& file : args.positionals) {
    auto jobs = admitJobFile(file, *config, admission, io.out);
    if (!jobs) {
      io.out << jobs.error() << "\n";
      allRead = false;
      continue;
    }
    for (const auto& job : *jobs) {
      const std::string who = file + ": job " + jobKey(job.document.job);
      if (job.admission.allowed) {
        io.out << who << ": valid\n";
        for (const auto& d : job.defaults) io.out << "  default " << d.path << " = " << d.value << "\n";
        printFindings(job, io.out);
      } else {
        allPassed = false;
        io.out << who << ": rejected (" << job.admission.errors.size() << " error"
               << (job.admission.errors.size() == 1 ? "" : "s") << ")\n";
        printFindings(job, io.out);
      }
    }
  }
  if (!allRead) return kInputError;
  return allPassed ? kOk : kRejected;
}

}  // namespace jobhost::cli
