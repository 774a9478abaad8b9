// Job intake for the CLI commands: read a job file, apply Volcano's defaults, admit each job with
// the host's rules and Validation plugins, and print findings as file:line:column: field: message.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "host/admission/admission.h"
#include "host/admission/mutation.h"
#include "host/cli/cli.h"
#include "host/plugin/registry.h"
#include "host/spec/job_loader.h"

namespace jobhost::cli {

struct AdmittedJob {
  JobDocument document;  // the defaulted job and its source positions
  std::vector<PatchOp> defaults;
  AdmissionResult admission;
  Components objects;  // the file's ConfigMaps and Secrets in the job's namespace (run creates them)
  bool forwarded = false;  // its queue has spec.extendClusters: syncJob marks it for forwarding (§5.2)
};

/// Loads every job of `path`, mutates and validates each. Fails only when the file cannot be read
/// or parsed, or when a ConfigMap or Secret in it is invalid (the message names file:line:column).
/// Queues the file declares (Volcano `Queue` objects) join `admission`'s, replacing one of the same
/// name, so a later file admitted with it sees them as after `kubectl apply -f a -f b`; ConfigMaps
/// and Secrets go with the jobs of their namespace; other kinds are skipped. Each gets a line on `notes`.
Expected<std::vector<AdmittedJob>> admitJobFile(const std::string& path, const HostConfig& config,
                                                AdmissionConfig& admission, std::ostream& notes);

/// One line per error: "<file>:<line>:<col>: <field>: <message>"; then the answer kubectl would show
/// on Volcano, word for word: the webhook's denial, or, when the name or the CRD schema is wrong, the
/// API server's 422 Invalid (none when strict decoding or the VAP refuses the job); then warnings.
void printFindings(const AdmittedJob& job, std::ostream& out);

/// The config (--config or the built-in default) and its loaded plugins.
struct HostSetup {
  HostConfig config;
  std::shared_ptr<Registry> registry;
  AdmissionConfig admission;  // refers to *registry
};

/// Loads config and plugins for `command`, printing errors and optional-plugin warnings to
/// io.err. On failure returns nullopt and sets *exitCode (kConfigError).
std::optional<HostSetup> loadHostSetup(const Args& args, Streams io, int* exitCode);

/// For commands that take exactly one admitted job (run, simulate): loads `path`, requires one
/// job that passes admission, prints findings to io.err. On failure returns nullopt and sets
/// *exitCode (kInputError for unreadable files or several jobs, kRejected for admission).
std::optional<AdmittedJob> admitSingleJob(const std::string& command, const std::string& path,
                                          const HostSetup& host, Streams io, int* exitCode);

/// The job's "<namespace>/<name>".
std::string jobKey(const Job& job);

}  // namespace jobhost::cli
