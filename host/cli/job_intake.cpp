// Job intake shared by validate, render, simulate and run: defaults first (CREATE mutation), then
// admission; each finding is located in the user's file through the job's SourceDoc.
#include "host/cli/job_intake.h"

#include "host/plugin/plugin_validation.h"

#include <ostream>

namespace jobhost::cli {

namespace {

bool isVolcanoQueue(const OtherObject& o) {
  return o.kind == "Queue" && o.apiVersion.rfind("scheduling.volcano.sh/", 0) == 0 && !o.name.empty();
}

/// The admission config with the file's Queues added (or replacing the config's of that name),
/// as if the file had been applied; a note for every object that is not a Job.
AdmissionConfig withFileQueues(const AdmissionConfig& admission, const std::vector<OtherObject>& others,
                               std::ostream& notes) {
  AdmissionConfig out = admission;
  for (const auto& o : others) {
    const std::string where = o.source.where("kind");
    if (!isVolcanoQueue(o)) {
      notes << where << ": note: skipped " << o.kind << " \"" << o.name << "\" (" << o.apiVersion
            << "): only Volcano Jobs and Queues are read from job files\n";
      continue;
    }
    QueueConfig q{o.name, stringAt(o.source.doc, {"status", "state"}), stringAt(o.source.doc, {"spec", "parent"})};
    if (q.state.empty()) q.state = "Open";
    std::erase_if(out.queues, [&](const QueueConfig& c) { return c.name == q.name; });
    notes << where << ": note: queue \"" << q.name << "\" (" << q.state << ", parent "
          << (q.parent.empty() ? "root" : q.parent) << ") declared for this file's jobs\n";
    out.queues.push_back(std::move(q));
  }
  return out;
}

}  // namespace

Expected<std::vector<AdmittedJob>> admitJobFile(const std::string& path, const HostConfig& config,
                                                const AdmissionConfig& admission, std::ostream& notes) {
  std::vector<OtherObject> others;
  auto docs = loadJobs(path, &others);
  if (!docs) return Expected<std::vector<AdmittedJob>>::failure(docs.error());
  const AdmissionConfig withQueues = withFileQueues(admission, others, notes);
  std::vector<AdmittedJob> out;
  out.reserve(docs->size());
  for (auto& doc : *docs) {
    AdmittedJob a{std::move(doc), {}, {}};
    a.defaults = mutateJob(a.document.job, MutationConfig{config.schedulerNames});
    a.admission = validateJobCreate(a.document.job, withQueues);
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

std::optional<HostSetup> loadHostSetup(const Args& args, Streams io, int* exitCode) {
  *exitCode = kConfigError;
  auto config = loadConfig(args, io);
  if (!config) return std::nullopt;
  std::vector<std::string> warnings;
  auto registry = Registry::load(*config, &warnings);
  if (!registry) {
    io.err << "jobhost: plugin load failed: " << registry.error() << "\n";
    return std::nullopt;
  }
  for (const auto& w : warnings) io.err << "warning: " << w << "\n";
  HostSetup host{std::move(*config), *registry, {}};
  host.admission = admissionConfig(host.config, *host.registry);
  *exitCode = kOk;
  return host;
}

std::optional<AdmittedJob> admitSingleJob(const std::string& command, const std::string& path,
                                          const HostSetup& host, Streams io, int* exitCode) {
  auto jobs = admitJobFile(path, host.config, host.admission, io.err);
  if (!jobs) {
    io.err << jobs.error() << "\n";
    *exitCode = kInputError;
    return std::nullopt;
  }
  if (jobs->size() != 1) {
    io.err << "jobhost " << command << ": " << path << " holds " << jobs->size() << " jobs; " << command
           << " takes exactly one\n";
    *exitCode = kInputError;
    return std::nullopt;
  }
  AdmittedJob& job = jobs->front();
  printFindings(job, io.err);
  if (!job.admission.allowed) {
    io.err << "jobhost " << command << ": job " << jobKey(job.document.job) << " rejected by admission\n";
    *exitCode = kRejected;
    return std::nullopt;
  }
  *exitCode = kOk;
  return std::move(job);
}

std::string jobKey(const Job& job) { return job.metadata.namespace_ + "/" + job.metadata.name; }

}  // namespace jobhost::cli
