// Helpers for admission tests: a standard AdmissionConfig and the result's errors as pairs.
// Also the long Kubernetes/Volcano message constants several admission tests compare against.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "host/admission/admission.h"

namespace jobhost::testing_admission {

using Errors = std::vector<std::pair<std::string, std::string>>;

/// Queue "default" (Open); known plugins svc, ssh, mpi, env.
inline AdmissionConfig standardConfig() {
  AdmissionConfig c;
  c.queues = {QueueConfig{"default", "Open", ""}};
  c.knownPlugin = [](const std::string& n) { return n == "svc" || n == "ssh" || n == "mpi" || n == "env"; };
  return c;
}

inline Errors errorsOf(const AdmissionResult& r) {
  Errors out;
  for (const auto& e : r.errors) out.emplace_back(e.field, e.message);
  return out;
}

inline const std::string kValidLists =
    " valid events are [* PodFailed PodEvicted PodPending Unknown TaskCompleted TaskFailed JobUpdated], valid "
    "actions are [AbortJob RestartJob RestartTask RestartPod RestartPartition TerminateJob CompleteJob ResumeJob];";

inline const std::string kQualifiedRegex =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
    "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
    "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

inline const std::string kSubdomainRegex =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
    "start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

}  // namespace jobhost::testing_admission
