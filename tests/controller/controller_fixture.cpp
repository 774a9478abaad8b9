// ControllerTest fixture implementation.
#include "controller_fixture.h"

namespace jobhost::testing {

Job makeJob(const std::string& name, const std::vector<TaskDef>& tasks) {
  Job job;
  job.metadata.name = name;
  job.metadata.namespace_ = "default";
  job.spec.queue = "default";
  job.spec.schedulerName = "volcano";
  job.spec.maxRetry = 3;
  for (const auto& t : tasks) {
    TaskSpec task;
    task.name = t.name;
    task.replicas = t.replicas;
    task.minAvailable = t.minAvailable;
    task.maxRetry = 3;
    task.policies = t.policies;
    Container c;
    c.name = "main";
    c.image = "busybox";
    task.template_.spec.containers.push_back(c);
    task.template_.spec.restartPolicy = "Never";
    job.spec.minAvailable += t.minAvailable ? *t.minAvailable : t.replicas;
    job.spec.tasks.push_back(std::move(task));
  }
  return job;
}

LifecyclePolicy onEvent(const std::string& event, const std::string& action, std::optional<int64_t> timeoutMs) {
  LifecyclePolicy p;
  p.event = event;
  p.action = action;
  if (timeoutMs) p.timeout = Duration{*timeoutMs};
  return p;
}

LifecyclePolicy onExitCode(int32_t code, const std::string& action) {
  LifecyclePolicy p;
  p.exitCode = code;
  p.action = action;
  return p;
}

PodBehaviour runs(int64_t runForMs, int32_t exitCode, int64_t startAfterMs) {
  PodBehaviour b;
  b.startAfterMs = startAfterMs;
  b.runForMs = runForMs;
  b.exitCode = exitCode;
  return b;
}

PodBehaviour runsForever(int64_t startAfterMs) {
  PodBehaviour b;
  b.startAfterMs = startAfterMs;
  b.runForMs = std::nullopt;
  return b;
}

ControllerTest::~ControllerTest() {
  if (controller) controller->stop();
  controller.reset();
}

void ControllerTest::start(int workers, int maxRequeue) {
  sim = std::make_unique<SimCluster>(clock, cluster);
  sim->setBehaviour([this](const Pod& pod, int incarnation) {
    auto it = behaviours_.find(pod.metadata.name);
    if (it == behaviours_.end() || incarnation > static_cast<int>(it->second.size())) return defaults;
    return it->second[static_cast<size_t>(incarnation) - 1];
  });
  ControllerConfig config;
  config.workers = workers;
  config.maxRequeue = maxRequeue;
  config.forwardingQueues = forwardingQueues;
  controller = std::make_unique<Controller>(config, clock, *sim, *plugins);
  if (observe)
    controller->setObserver([this](const HandledRequest& r) {
      {
        std::lock_guard lock(mutex_);
        handled_.push_back(r);
      }
      if (alsoObserve) alsoObserve(r);
    });
  driver_ = std::make_unique<SimDriver>(clock, *sim, *controller);
  controller->start();
}

void ControllerTest::submit(const Job& job) {
  jobName = job.metadata.name;
  ns = job.metadata.namespace_;
  ASSERT_TRUE(controller->submitJob(job).isOk());
  settle();
}

void ControllerTest::command(const std::string& action, const std::string& task, const std::string& pod,
                             const std::string& partition) {
  ASSERT_TRUE(controller->issueCommand(Command{ns, jobName, action, task, pod, partition}).isOk());
  settle();
}

JobStatus ControllerTest::status() {
  auto job = controller->getJob(ns, jobName);
  return job ? job->status : JobStatus{};
}

std::vector<HandledRequest> ControllerTest::take() {
  std::lock_guard lock(mutex_);
  std::vector<HandledRequest> out;
  out.swap(handled_);
  return out;
}

std::vector<HandledRequest> ControllerTest::takeEvent(const std::string& event) {
  std::vector<HandledRequest> out;
  for (auto& r : take())
    if (r.request.event == event) out.push_back(std::move(r));
  return out;
}

void ControllerTest::run(const Job& job, TimeMs until) {
  submit(job);
  runTo(until);
  ASSERT_EQ(phase(), JobPhase::Running);
  take();
}

void ControllerTest::sendPodGroupPhase(PodGroup pg, const std::string& from, const std::string& to) {
  pg.status.phase = to;
  ClusterEvent ev;
  ev.type = ClusterEvent::Type::PodGroupUpdated;
  ev.podGroup = std::make_shared<PodGroup>(std::move(pg));
  ev.oldPodGroupPhase = from;
  controller->listener().onClusterEvents(std::span(&ev, 1));
  settle();
}

HandledRequest ControllerTest::issue(const std::string& action, const std::string& task, const std::string& pod,
                                     const std::string& partition) {
  command(action, task, pod, partition);
  auto lines = takeEvent("CommandIssued");
  EXPECT_EQ(lines.size(), 1u);
  return lines.empty() ? HandledRequest{} : lines[0];
}

}  // namespace jobhost::testing
