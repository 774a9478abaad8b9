// Test inputs for the shipped plugins: the real .so loaded through the production loader, and
// Volcano-shaped jobs, pipeline pod sets and pods (as createJobPod builds them, spec §6.1).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "host/common/expected.h"
#include "host/plugin/loader.h"
#include "jobhost/jobhost.h"

namespace jobhost::plugintest {

/// Loads lib/jobhost/plugins/libjobhost_<name>.so of this build with jobhost::loadPlugin.
Expected<LoadedPlugin> loadShipped(const std::string& name, std::vector<std::string> defaultArgs = {});

Container container(std::string name, std::vector<EnvVar> env = {});
/// A task of `replicas` pods whose template has `containers` (default: one container "main").
TaskSpec task(std::string name, int32_t replicas, std::vector<Container> containers = {container("main")});
/// Job `name` in namespace "team-a" with UID "uid-1", its tasks and spec.plugins.
Job job(std::string name, std::vector<TaskSpec> tasks, std::map<std::string, std::vector<std::string>> plugins);

/// The pipeline's starting RuntimeInfo: one pod set per task, in task order.
RuntimeInfo runtimeInfo(const Job& job);
/// Pod `<job>-<task>-<index>` from the task template, with the task-spec, task-index and job-name
/// annotations and labels.
Pod pod(const Job& job, const std::string& task, int32_t index);
/// The same pod with containers, init containers and volumes taken from a pipeline pod set.
Pod pod(const Job& job, const PodSet& set, int32_t index);

/// "NAME=value", or "NAME<-configMap:<cm>/<key>" for a configMapKeyRef, one per env var in order.
std::vector<std::string> envOf(const Container& container);

}  // namespace jobhost::plugintest
