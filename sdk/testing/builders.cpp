// Test builders: jobs, tasks, containers, pipeline pod sets and pods with the annotations and
// labels plugins read (Volcano's createJobPod, spec §6.1).
#include "jobhost/testing/builders.h"

namespace jobhost::testing {

Container container(std::string name, std::vector<EnvVar> env) {
  Container c;
  c.name = std::move(name);
  c.image = "busybox";
  c.env = std::move(env);
  return c;
}

TaskSpec task(std::string name, int32_t replicas, std::vector<Container> containers) {
  TaskSpec t;
  t.name = std::move(name);
  t.replicas = replicas;
  t.template_.spec.containers = std::move(containers);
  return t;
}

Job job(std::string name, std::vector<TaskSpec> tasks, std::map<std::string, std::vector<std::string>> plugins) {
  Job j;
  j.metadata.name = std::move(name);
  j.metadata.namespace_ = "team-a";
  j.metadata.uid = "uid-1";
  j.spec.tasks = std::move(tasks);
  j.spec.plugins = std::move(plugins);
  return j;
}

RuntimeInfo runtimeInfo(const Job& job) {
  RuntimeInfo info(job);
  for (const auto& t : job.spec.tasks) {
    PodSet set;
    set.name = t.name;
    set.count = t.replicas;
    set.initContainers = t.template_.spec.initContainers;
    set.containers = t.template_.spec.containers;
    set.volumes = t.template_.spec.volumes;
    info.podSets.push_back(std::move(set));
  }
  return info;
}

Pod pod(const Job& job, const std::string& taskName, int32_t index) {
  const TaskSpec* t = job.findTask(taskName);
  Pod p;
  p.metadata.name = job.metadata.name + "-" + taskName + "-" + std::to_string(index);
  p.metadata.namespace_ = job.metadata.namespace_;
  for (auto* m : {&p.metadata.annotations, &p.metadata.labels}) {
    (*m)[std::string(keys::TaskSpec)] = taskName;
    (*m)[std::string(keys::TaskIndex)] = std::to_string(index);
    (*m)[std::string(keys::JobName)] = job.metadata.name;
  }
  if (t != nullptr) p.spec = t->template_.spec;
  return p;
}

Pod pod(const Job& job, const PodSet& set, int32_t index) {
  Pod p = pod(job, set.name, index);
  p.spec.initContainers = set.initContainers;
  p.spec.containers = set.containers;
  p.spec.volumes = set.volumes;
  return p;
}

}  // namespace jobhost::testing
