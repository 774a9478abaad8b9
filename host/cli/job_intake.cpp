// Job intake shared by validate, render, simulate and run: the file's Queues, ConfigMaps and
// Secrets, then each job's defaults (CREATE mutation) and admission, located in the user's file.
#include "host/cli/job_intake.h"

#include "host/admission/create_naming.h"
#include "host/plugin/plugin_validation.h"
#include "host/spec/object_decode.h"

#include <algorithm>
#include <map>
#include <ostream>
#include <set>

namespace jobhost::cli {

namespace {

/// ConfigMaps and Secrets a job file declares, by namespace (run creates them).
using Declared = std::map<std::string, Components>;

/// Decodes a ConfigMap or Secret into `objects` under its namespace, which it returns.
Expected<std::string> declareObject(const OtherObject& o, std::map<std::string, Components>& objects) {
  using R = Expected<std::string>;
  if (o.kind == "ConfigMap") {
    auto cm = decodeConfigMap(o.source);
    if (!cm) return R::failure(cm.error());
    std::string ns = cm->metadata.namespace_;
    objects[ns].configMaps.push_back(std::move(*cm));
    return ns;
  }
  auto secret = decodeSecret(o.source);
  if (!secret) return R::failure(secret.error());
  std::string ns = secret->metadata.namespace_;
  objects[ns].secrets.push_back(std::move(*secret));
  return ns;
}

/// A Queue whose spec.extendClusters lists a cluster.
bool hasExtendClusters(const rapidjson::Value& queue) {
  auto spec = queue.FindMember("spec");
  if (spec == queue.MemberEnd() || !spec->value.IsObject()) return false;
  auto clusters = spec->value.FindMember("extendClusters");
  return clusters != spec->value.MemberEnd() && clusters->value.IsArray() && !clusters->value.Empty();
}

/// Reads the file's other objects as if the file had been applied, with a note for each: Queues
/// join `admission` (replacing one of that name). An error names the field of a ConfigMap or Secret
/// the API server would reject.
Expected<Declared> readDeclared(AdmissionConfig& admission, const std::vector<OtherObject>& others,
                                std::ostream& notes) {
  Declared out;
  for (const auto& o : others) {
    const std::string where = o.source.where("kind");
    if (o.kind == "ConfigMap" || o.kind == "Secret") {
      auto ns = declareObject(o, out);
      if (!ns) return Expected<Declared>::failure(ns.error());
      notes << where << ": note: " << o.kind << " \"" << o.name << "\" declared for this file's jobs (namespace "
            << *ns << ")\n";
      continue;
    }
    if (!isVolcanoQueue(o)) {
      notes << where << ": note: skipped " << o.kind << " \"" << o.name << "\" (" << o.apiVersion
            << "): only Volcano Jobs, Queues, ConfigMaps and Secrets are read from job files\n";
      continue;
    }
    QueueConfig q{o.name, stringAt(o.source.doc, {"status", "state"}), stringAt(o.source.doc, {"spec", "parent"})};
    if (q.state.empty()) q.state = "Open";
    q.extendClusters = hasExtendClusters(o.source.doc);
    std::erase_if(admission.queues, [&](const QueueConfig& c) { return c.name == q.name; });
    notes << where << ": note: queue \"" << q.name << "\" (" << q.state << ", parent "
          << (q.parent.empty() ? "root" : q.parent) << (q.extendClusters ? ", extendClusters: jobs forwarded" : "")
          << ") declared for this file's jobs\n";
    admission.queues.push_back(std::move(q));
  }
  return out;
}

/// Names the job as the API server does on create (metadata.generateName, with a note), then runs
/// admission. The API server's naming errors reject the job and come first, as the first causes of
/// its 422 Invalid answer; then the spec's schema findings (wrong types, undeclared keys), which
/// alone stand for admission since nothing after the API server's checks would see the job; else
/// admission's findings when there is a name to admit (on a cluster the webhook would not run at all).
AdmissionResult admitNamed(JobDocument& doc, const AdmissionConfig& admission, std::ostream& notes) {
  ObjectMeta& meta = doc.job.metadata;
  const std::string generateName = stringAt(doc.source.doc, {"metadata", "generateName"});
  const bool generating = meta.name.empty() && !generateName.empty();
  auto namingErrors = nameOnCreate(meta, generateName);
  AdmissionResult result;
  if (generating && !meta.name.empty() && namingErrors.empty())
    notes << doc.source.where("metadata.generateName") << ": note: the job is named \"" << meta.name
          << "\" from metadata.generateName, as the API server names it on create\n";
  if (!doc.schemaFindings.empty())
    result = refuseBySchema(doc.schemaFindings);
  else if (!meta.name.empty())
    result = validateJobCreate(doc.job, admission);
  if (namingErrors.empty()) return result;
  result.allowed = false;
  result.errors.insert(result.errors.begin(), namingErrors.begin(), namingErrors.end());
  result.invalidCauses.insert(result.invalidCauses.begin(), namingErrors.begin(), namingErrors.end());
  if (result.refusedBefore != ApiServerStage::FieldValidation) result.refusedBefore = ApiServerStage::ObjectValidation;
  return result;
}

/// Whether the job document carries a status with something in it.
bool declaresStatus(const rapidjson::Value& root) {
  auto it = root.FindMember("status");
  if (it == root.MemberEnd() || it->value.IsNull()) return false;
  return !(it->value.IsObject() && it->value.MemberCount() == 0);
}

/// kubectl's answer to the API server's 422 Invalid (cmd/util checkErr with MultilineError): one
/// cause on the line, several as "* " lines below it; repeated causes are shown once.
void printInvalid(const AdmittedJob& job, std::ostream& out) {
  std::vector<std::string> causes;
  for (const auto& e : job.admission.invalidCauses) {
    std::string cause = e.field + ": " + e.message;
    if (std::find(causes.begin(), causes.end(), cause) == causes.end()) causes.push_back(std::move(cause));
  }
  out << job.document.source.file << ": on Volcano: The Job \"" << job.document.job.metadata.name << "\" is invalid:";
  if (causes.size() == 1) {
    out << " " << causes.front() << "\n";
    return;
  }
  out << "\n";
  for (const auto& c : causes) out << "* " << c << "\n";
}

}  // namespace

Expected<std::vector<AdmittedJob>> admitJobFile(const std::string& path, const HostConfig& config,
                                                AdmissionConfig& admission, std::ostream& notes) {
  using R = Expected<std::vector<AdmittedJob>>;
  std::vector<OtherObject> others;
  auto docs = loadJobs(path, &others);
  if (!docs) return R::failure(docs.error());
  auto declared = readDeclared(admission, others, notes);
  if (!declared) return R::failure(declared.error());
  std::vector<AdmittedJob> out;
  out.reserve(docs->size());
  std::set<std::string> jobNamespaces;
  for (auto& doc : *docs) {
    AdmittedJob a{std::move(doc), {}, {}, {}, false};
    if (declaresStatus(a.document.source.doc)) {  // Volcano's Job has a status subresource
      notes << a.document.source.where("status") << ": note: status is dropped: the API server ignores it on "
            << "create, so the job starts in phase Pending as on a cluster\n";
      a.document.job.status = JobStatus{};
    }
    a.defaults = mutateJob(a.document.job, MutationConfig{config.schedulerNames});
    a.admission = admitNamed(a.document, admission, notes);
    a.forwarded = std::any_of(admission.queues.begin(), admission.queues.end(), [&](const QueueConfig& q) {
      return q.extendClusters && q.name == a.document.job.spec.queue;
    });
    jobNamespaces.insert(a.document.job.metadata.namespace_);
    if (auto it = declared->find(a.document.job.metadata.namespace_); it != declared->end())
      a.objects = it->second;
    out.push_back(std::move(a));
  }
  for (const auto& [ns, objects] : *declared)
    if (!jobNamespaces.count(ns))
      notes << path << ": note: no job of this file runs in namespace " << ns << ", so jobhost run does not create "
            << "its ConfigMaps and Secrets; set their metadata.namespace to the job's\n";
  return out;
}

void printFindings(const AdmittedJob& job, std::ostream& out) {
  for (const auto& e : job.admission.errors)
    out << job.document.source.where(e.field) << ": " << e.field << ": " << e.message << "\n";
  // What kubectl would show, word for word. The API server refuses a job before the webhook runs
  // when a field is undeclared, the name or the CRD schema is wrong, or the VAP denies it; only
  // the 422 Invalid answer's wording is reproduced, the other two print no line.
  const ApiServerStage stage = job.admission.refusedBefore;
  if (stage == ApiServerStage::ObjectValidation && !job.admission.invalidCauses.empty())
    printInvalid(job, out);
  else if (stage == ApiServerStage::None && !job.admission.message.empty())
    out << job.document.source.file << ": on Volcano: admission webhook \"validatejob.volcano.sh\" denied the request: "
        << job.admission.message << "\n";
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
  AdmissionConfig admission = host.admission;
  auto jobs = admitJobFile(path, host.config, admission, io.err);
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
