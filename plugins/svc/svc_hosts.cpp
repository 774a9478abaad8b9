// Volcano's GenerateHosts and host naming for the svc plugin.
// Pure functions of the job spec.
#include "svc_hosts.h"

#include <cctype>

namespace svc {

std::string subdomainOf(const jobhost::Job& job, const jobhost::TaskSpec& task) {
  const auto& sub = task.template_.spec.subdomain;
  return sub.empty() ? job.metadata.name : sub;
}

std::string podHost(const jobhost::Job& job, const jobhost::TaskSpec& task, int32_t index) {
  std::string host = task.template_.spec.hostname;
  if (host.empty()) host = job.metadata.name + "-" + task.name + "-" + std::to_string(index);
  return host + "." + subdomainOf(job, task);
}

std::vector<std::string> taskHosts(const jobhost::Job& job, const jobhost::TaskSpec& task) {
  std::vector<std::string> hosts;
  for (int32_t i = 0; i < task.replicas; ++i) {
    hosts.push_back(podHost(job, task, i));
    if (!task.template_.spec.hostname.empty()) break;
  }
  return hosts;
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

namespace {
std::string join(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
  return out;
}
}  // namespace

std::map<std::string, std::string> hostsData(const jobhost::Job& job) {
  std::map<std::string, std::string> data;
  for (const auto& task : job.spec.tasks) {
    const auto hosts = taskHosts(job, task);
    data[hostKey(task.name) + ".host"] = join(hosts, "\n");
    data["VC_" + envKey(task.name) + "_HOSTS"] = join(hosts, ",");
    data["VC_" + envKey(task.name) + "_NUM"] = std::to_string(hosts.size());
  }
  return data;
}

}  // namespace svc
