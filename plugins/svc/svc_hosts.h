// Host names of a Volcano job's pods as the svc plugin publishes them (Volcano's GenerateHosts):
// per-task host lists, the `<job>-svc` ConfigMap data, and the env-key spelling of a task name.
#pragma once

#include <jobhost/jobhost.h>

#include <map>
#include <string>

namespace svc {

/// `<hostname>.<subdomain>` of pod `index` of `task`: hostname is the template's or
/// `<job>-<task>-<index>`, subdomain the template's or the job name.
std::string podHost(const jobhost::Job& job, const jobhost::TaskSpec& task, int32_t index);
/// The template's subdomain, or the job name.
const std::string& subdomainOf(const jobhost::Job& job, const jobhost::TaskSpec& task);
/// The task name with '-' replaced by '_' (ConfigMap key prefix); upper-cased for env names.
std::string hostKey(const std::string& taskName);
std::string envKey(const std::string& taskName);
/// Data of the `<job>-svc` ConfigMap: `<t>.host`, `VC_<T>_HOSTS`, `VC_<T>_NUM` for every task, where
/// a task's hosts are one per replica, or a single one when the template sets a hostname.
std::map<std::string, std::string> hostsData(const jobhost::Job& job);

/// OnPodCreate makes a pod's name its hostname (unless the template sets one), and a hostname has
/// at most 63 characters: for each task whose last pod name is longer, a warning naming the first
/// such pod, which the API server would refuse. Volcano's webhook checks the pod name only for the
/// index that is the task's position, so it admits such a job.
void warnLongHostnames(const jobhost::Job& job, jobhost::ValidationResult& out);

}  // namespace svc
