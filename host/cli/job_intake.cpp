// Job intake shared by validate, render, simulate and run: defaults first (CREATE mutation), then
// admission; each finding is located in the user's file through the job's SourceDoc.
#include "host/cli/job_intake.h"

#include <ostream>

namespace jobhost::cli {

Expected<std::vector<AdmittedJob>> admitJobFile(const std::string& path, const HostConfig& config,
                                                const AdmissionConfig& admission) {
  auto docs = loadJobs(path);
  if (!docs) return Expected<std::vector<AdmittedJob>>::failure(docs.error());
  std::vector<AdmittedJob> out;
  out.reserve(docs->size());
  for (auto& doc : *docs) {
    AdmittedJob a{std::move(doc), {}, {}};
    a.defaults = mutateJob(a.document.job, MutationConfig{config.schedulerNames});
    a.admission = validateJobCreate(a.document.job, admission);
    out.push_back(std::move(a));
  }
  return out;
}

void printFindings(const AdmittedJob& job, std::ostream& out) {
  for (const auto& e : job.admission.errors)
    out << job.document.source.where(e.field) << ": " << e.field << ": " << e.message << "\n";
  for (const auto& w : job.admission.warnings)
    out << job.document.source.file << ": warning: " << w << "\n";
}

std::string jobKey(const Job& job) { return job.metadata.namespace_ + "/" + job.metadata.name; }

}  // namespace jobhost::cli
