// Volcano's GenerateHosts and host naming for the svc plugin.
// Pure functions of the job spec; host lists are built in place, without per-host strings.
#include "svc_hosts.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace svc {
namespace {

// Appends `<hostname>.<subdomain>` of pod `index`, growing `out` at most once.
void appendPodHost(std::string& out, const jobhost::Job& job, const jobhost::TaskSpec& task, int32_t index) {
  const std::string& host = task.template_.spec.hostname;
  const std::string& subdomain = subdomainOf(job, task);
  char digits[16];
  const size_t digitCount =
      host.empty() ? static_cast<size_t>(std::to_chars(digits, digits + sizeof digits, index).ptr - digits) : 0;
  const size_t hostSize = host.empty() ? job.metadata.name.size() + task.name.size() + 2 + digitCount : host.size();
  out.reserve(out.size() + hostSize + 1 + subdomain.size());
  if (host.empty()) {
    out.append(job.metadata.name).push_back('-');
    out.append(task.name).push_back('-');
    out.append(digits, digitCount);
  } else {
    out.append(host);
  }
  out.push_back('.');
  out.append(subdomain);
}

}  // namespace

const std::string& subdomainOf(const jobhost::Job& job, const jobhost::TaskSpec& task) {
  const auto& sub = task.template_.spec.subdomain;
  return sub.empty() ? job.metadata.name : sub;
}

std::string podHost(const jobhost::Job& job, const jobhost::TaskSpec& task, int32_t index) {
  std::string host;
  appendPodHost(host, job, task, index);
  return host;
}

std::string hostKey(const std::string& taskName) {
  std::string key = taskName;
  for (char& c : key)
    if (c == '-') c = '_';
  return key;
}

std::string envKey(const std::string& taskName) {
  std::string key = hostKey(taskName);
  for (char& c : key) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return key;
}

std::map<std::string, std::string> hostsData(const jobhost::Job& job) {
  std::map<std::string, std::string> data;
  for (const auto& task : job.spec.tasks) {
    // One host per replica, or a single one when the template sets a hostname.
    int32_t hosts = std::max(task.replicas, 0);
    if (!task.template_.spec.hostname.empty()) hosts = std::min(hosts, 1);
    std::string lines, commas;  // the hosts joined by '\n' and by ','
    for (int32_t i = 0; i < hosts; ++i) {
      if (i > 0) {
        lines.push_back('\n');
        commas.push_back(',');
      }
      const size_t from = lines.size();
      appendPodHost(lines, job, task, i);
      if (i == 0) {  // every host is about as long as the first
        lines.reserve(static_cast<size_t>(hosts) * (lines.size() + 2));
        commas.reserve(lines.capacity());
      }
      commas.append(lines, from);
    }
    const std::string env = "VC_" + envKey(task.name);
    data.insert_or_assign(hostKey(task.name) + ".host", std::move(lines));
    data.insert_or_assign(env + "_HOSTS", std::move(commas));
    data.insert_or_assign(env + "_NUM", std::to_string(hosts));
  }
  return data;
}

void warnLongHostnames(const jobhost::Job& job, jobhost::ValidationResult& out) {
  constexpr size_t kMaxHostname = 63;  // a DNS-1123 label
  for (size_t t = 0; t < job.spec.tasks.size(); ++t) {
    const jobhost::TaskSpec& task = job.spec.tasks[t];
    if (!task.template_.spec.hostname.empty() || task.replicas <= 0) continue;
    const std::string prefix = job.metadata.name + "-" + task.name + "-";
    const std::string last = prefix + std::to_string(task.replicas - 1);
    if (last.size() <= kMaxHostname) continue;
    int64_t first = 0;  // the first index whose pod name is too long
    while ((prefix + std::to_string(first)).size() <= kMaxHostname) first = first == 0 ? 10 : first * 10;
    const std::string pod = prefix + std::to_string(first);
    out.warnings.push_back("spec.tasks[" + std::to_string(t) + "].replicas: pod \"" + pod + "\" has a " +
                           std::to_string(pod.size()) +
                           "-character name, which the svc plugin makes its hostname; a hostname has at most 63, "
                           "so the API server refuses the task's pods from index " +
                           std::to_string(first) + " on (shorten the job or task name)");
  }
}

}  // namespace svc
