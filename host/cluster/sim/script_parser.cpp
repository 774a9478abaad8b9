// The simulate script parser (yaml-cpp). Strict: unknown keys and wrong types are errors that
// name file:line:column and the field path. Exceptions stay inside this file.
#include <algorithm>
#include <set>

#include <yaml-cpp/yaml.h>

#include "host/cluster/sim/simulation_script.h"
#include "host/common/source_doc.h"
#include "host/spec/duration.h"
#include "host/spec/yaml_doc.h"

namespace jobhost {
namespace {

struct ScriptError {
  std::string message;
};

class Parser {
 public:
  explicit Parser(std::string file) : file_(std::move(file)) {}

  SimulationScript parse(const YAML::Node& root) {
    SimulationScript s;
    s.file = file_;
    if (!root || root.IsNull()) return s;
    expectMap(root, "");
    allowKeys(root, "", {"cluster", "defaults", "pods", "missingPvcs", "events", "until"});
    if (auto n = root["cluster"]) s.cluster = cluster(n, "cluster");
    if (auto n = root["defaults"]) s.defaults = applyOverride(s.defaults, behaviour(n, "defaults"));
    if (auto n = root["pods"]) pods(n, s);
    if (auto n = root["missingPvcs"]) missingPvcs(n, s);
    if (auto n = root["events"]) events(n, s);
    if (auto n = root["until"]) s.untilMs = duration(n, "until");
    return s;
  }

 private:
  std::string where(const YAML::Node& n) const {
    YAML::Mark m = n.Mark();
    std::string at = file_;
    if (m.line >= 0) at += ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
    return at;
  }
  [[noreturn]] void fail(const YAML::Node& n, const std::string& field, const std::string& what) const {
    throw ScriptError{where(n) + ": " + (field.empty() ? "script" : field) + ": " + what};
  }
  /// A mapping key: a plain scalar (a list or mapping as a key is an error, not a bad conversion).
  std::string key(const YAML::Node& k, const std::string& field) const {
    if (!k.IsScalar()) fail(k, field, "expected a name as the key");
    return k.Scalar();
  }
  /// yaml-cpp keeps every entry of a mapping that names a key twice (and `n[key]` finds the first).
  void noDuplicateKeys(const YAML::Node& n, const std::string& field) const {
    std::set<std::string> seen;
    for (const auto& kv : n) {
      std::string k = key(kv.first, field);
      if (!seen.insert(k).second) fail(kv.first, childPath(field, k), "duplicate key");
    }
  }
  void expectMap(const YAML::Node& n, const std::string& field) const {
    if (!n.IsMap()) fail(n, field, "expected a mapping");
  }
  void allowKeys(const YAML::Node& n, const std::string& field, std::initializer_list<const char*> keys) const {
    noDuplicateKeys(n, field);
    for (const auto& kv : n) {
      std::string k = kv.first.Scalar();
      if (std::none_of(keys.begin(), keys.end(), [&](const char* a) { return k == a; })) {
        std::string allowed;
        for (const char* a : keys) allowed += std::string(allowed.empty() ? "" : ", ") + a;
        fail(kv.first, childPath(field, k), "unknown key (allowed: " + allowed + ")");
      }
    }
  }
  std::string scalar(const YAML::Node& n, const std::string& field) const {
    if (!n.IsScalar()) fail(n, field, "expected a scalar value");
    return n.Scalar();
  }
  int64_t integer(const YAML::Node& n, const std::string& field, int64_t min, int64_t max) const {
    std::string text = scalar(n, field);
    try {
      size_t used = 0;
      long long v = std::stoll(text, &used);
      if (used == text.size() && v >= min && v <= max) return v;
    } catch (const std::exception&) {
    }
    fail(n, field, "expected an integer between " + std::to_string(min) + " and " + std::to_string(max) + ", got \"" +
                       text + "\"");
  }
  int64_t duration(const YAML::Node& n, const std::string& field) const {
    std::string text = scalar(n, field);
    auto d = parseGoDuration(text);
    std::optional<int64_t> ms;
    if (d) ms = d->ms;
    if (!ms || *ms < 0) fail(n, field, "expected a duration such as 1s, 500ms, 2m or 1h30m, got \"" + text + "\"");
    return *ms;
  }
  Quantity quantity(const YAML::Node& n, const std::string& field) const {
    std::string text = scalar(n, field), why;
    auto q = Quantity::parse(text, &why);
    if (!q) fail(n, field, "expected a resource quantity such as 8, 500m or 32Gi: " + why);
    if (q->milliValue() < 0) fail(n, field, "must not be negative, got \"" + text + "\"");
    return *q;
  }

  SimBackendConfig cluster(const YAML::Node& n, const std::string& field) const {
    expectMap(n, field);
    allowKeys(n, field, {"nodes", "cpu", "memory", "gpu"});
    SimBackendConfig c;
    if (auto v = n["nodes"]) c.nodes = static_cast<int>(integer(v, field + ".nodes", 1, 100000));
    if (auto v = n["cpu"]) c.cpu = quantity(v, field + ".cpu");
    if (auto v = n["memory"]) c.memory = quantity(v, field + ".memory");
    if (auto v = n["gpu"]) c.gpu = integer(v, field + ".gpu", 0, 1 << 20);
    return c;
  }

  PodBehaviourOverride behaviour(const YAML::Node& n, const std::string& field) const {
    expectMap(n, field);
    allowKeys(n, field, {"startAfter", "readyAfter", "runFor", "exitCode", "restarts"});
    PodBehaviourOverride o;
    if (auto v = n["startAfter"]) o.startAfterMs = duration(v, field + ".startAfter");
    if (auto v = n["readyAfter"]) o.readyAfterMs = duration(v, field + ".readyAfter");
    if (auto v = n["runFor"]) {
      if (v.IsScalar() && v.Scalar() == "forever")
        o.runForMs = std::optional<int64_t>();
      else
        o.runForMs = std::optional<int64_t>(duration(v, field + ".runFor"));
    }
    if (auto v = n["exitCode"]) o.exitCode = static_cast<int32_t>(integer(v, field + ".exitCode", -2147483648LL, 2147483647LL));
    if (auto v = n["restarts"]) {
      if (!v.IsSequence()) fail(v, field + ".restarts", "expected a list such as [{at: 3s}]");
      std::vector<int64_t> at;
      for (size_t i = 0; i < v.size(); ++i) {
        std::string f = indexPath(field + ".restarts", i);
        expectMap(v[i], f);
        allowKeys(v[i], f, {"at"});
        if (!v[i]["at"]) fail(v[i], f + ".at", "required");
        at.push_back(duration(v[i]["at"], f + ".at"));
      }
      std::sort(at.begin(), at.end());
      o.restartsAtMs = std::move(at);
    }
    return o;
  }

  void pods(const YAML::Node& n, SimulationScript& s) const {
    expectMap(n, "pods");
    noDuplicateKeys(n, "pods");
    for (const auto& kv : n) {
      std::string name = kv.first.Scalar();
      std::string field = childPath("pods", name);
      s.podWhere[name] = where(kv.first);
      auto& list = s.pods[name];
      if (kv.second.IsMap()) {
        list.push_back(behaviour(kv.second, field));
      } else if (kv.second.IsSequence()) {
        for (size_t i = 0; i < kv.second.size(); ++i) list.push_back(behaviour(kv.second[i], indexPath(field, i)));
      } else {
        fail(kv.second, field, "expected a mapping or a list of mappings (one per incarnation)");
      }
    }
  }

  void missingPvcs(const YAML::Node& n, SimulationScript& s) const {
    if (!n.IsSequence()) fail(n, "missingPvcs", "expected a list of claim names such as [shared-data]");
    for (size_t i = 0; i < n.size(); ++i) {
      const std::string field = indexPath("missingPvcs", i);
      std::string claim = scalar(n[i], field);
      if (claim.empty()) fail(n[i], field, "must not be empty");
      if (s.claimMissing(claim)) fail(n[i], field, "\"" + claim + "\" is listed twice");
      s.missingPvcs.emplace_back(std::move(claim), where(n[i]));
    }
  }

  void events(const YAML::Node& n, SimulationScript& s) const {
    if (!n.IsSequence()) fail(n, "events", "expected a list of events");
    static const std::set<std::string> kCommands = {"AbortJob",    "ResumeJob",   "RestartJob",     "TerminateJob",
                                                    "CompleteJob", "RestartTask", "RestartPod", "RestartPartition"};
    for (size_t i = 0; i < n.size(); ++i) {
      const YAML::Node e = n[i];
      std::string field = indexPath("events", i);
      expectMap(e, field);
      allowKeys(e, field, {"at", "evict", "command", "task", "pod", "partition", "loseNode", "restoreNode", "createPvc"});
      if (!e["at"]) fail(e, field + ".at", "required (virtual time from submit, e.g. 12s)");
      ScriptEvent ev;
      ev.index = i;
      ev.atMs = duration(e["at"], field + ".at");
      const char* kind = nullptr;
      static constexpr const char* kOneOf = "needs exactly one of evict, command, loseNode, restoreNode, createPvc";
      for (const char* k : {"evict", "command", "loseNode", "restoreNode", "createPvc"})
        if (e[k]) {
          if (kind != nullptr) fail(e, field, kOneOf);
          kind = k;
        }
      if (kind == nullptr) fail(e, field, kOneOf);
      ev.where = where(e[kind]);
      if (auto v = e["evict"]) {
        ev.kind = ScriptEvent::Kind::Evict;
        ev.pod = scalar(v, field + ".evict");
      } else if (auto v = e["createPvc"]) {
        ev.kind = ScriptEvent::Kind::CreatePvc;
        ev.claim = scalar(v, field + ".createPvc");
      } else if (auto c = e["command"]) {
        ev.kind = ScriptEvent::Kind::Command;
        ev.command = scalar(c, field + ".command");
        if (!kCommands.count(ev.command))
          fail(c, field + ".command",
               "unknown command \"" + ev.command +
                   "\" (AbortJob ResumeJob RestartJob TerminateJob CompleteJob RestartTask RestartPod RestartPartition)");
        // The target keys each command takes: RestartTask task:, RestartPod pod: (and its task:, if
        // given), RestartPartition task: and partition:; the job-wide commands none.
        const bool takesTask = ev.command == "RestartTask" || ev.command == "RestartPod" || ev.command == "RestartPartition";
        const bool takesPod = ev.command == "RestartPod";
        const bool takesPartition = ev.command == "RestartPartition";
        auto target = [&](const char* key, bool takes, std::string& into) {
          auto v = e[key];
          if (!v) return;
          if (!takes) fail(v, field + "." + key, ev.command + " takes no " + key + ":");
          into = scalar(v, field + "." + key);
          if (into.empty()) fail(v, field + "." + key, "must not be empty");
        };
        target("task", takesTask, ev.task);
        target("pod", takesPod, ev.pod);
        target("partition", takesPartition, ev.partition);
        if (ev.command == "RestartTask" && ev.task.empty()) fail(e, field + ".task", "RestartTask needs task:");
        if (ev.command == "RestartPod" && ev.pod.empty()) fail(e, field + ".pod", "RestartPod needs pod:");
        if (ev.command == "RestartPartition" && (ev.task.empty() || ev.partition.empty()))
          fail(e, field, "RestartPartition needs task: and partition:");
        if (takesPartition) {
          // Partition ids are the decimal `volcano.sh/partition-id` label values: index / partitionSize.
          const bool number = ev.partition.size() <= 9 && std::all_of(ev.partition.begin(), ev.partition.end(),
                                                                       [](char ch) { return ch >= '0' && ch <= '9'; });
          if (!number || (ev.partition.size() > 1 && ev.partition[0] == '0'))
            fail(e["partition"], field + ".partition",
                 "expected a partition number such as 0 or 1, got \"" + ev.partition + "\"");
        }
      } else {
        ev.kind = std::string_view(kind) == "loseNode" ? ScriptEvent::Kind::LoseNode : ScriptEvent::Kind::RestoreNode;
        ev.node = static_cast<int>(integer(e[kind], field + "." + kind, 0, 100000));
      }
      if (ev.kind != ScriptEvent::Kind::Command && (e["task"] || e["partition"] || e["pod"]))
        fail(e, field, "task:, pod: and partition: belong to command events");
      s.events.push_back(std::move(ev));
    }
    std::stable_sort(s.events.begin(), s.events.end(),
                     [](const ScriptEvent& a, const ScriptEvent& b) { return a.atMs < b.atMs; });
  }

  std::string file_;
};

}  // namespace

PodBehaviour applyOverride(PodBehaviour b, const PodBehaviourOverride& o) {
  if (o.startAfterMs) b.startAfterMs = *o.startAfterMs;
  if (o.readyAfterMs) b.readyAfterMs = *o.readyAfterMs;
  if (o.runForMs) b.runForMs = *o.runForMs;
  if (o.exitCode) b.exitCode = *o.exitCode;
  if (o.restartsAtMs) b.restartsAtMs = *o.restartsAtMs;
  return b;
}

bool SimulationScript::claimMissing(const std::string& claim) const {
  return std::any_of(missingPvcs.begin(), missingPvcs.end(), [&](const auto& m) { return m.first == claim; });
}

PodBehaviour SimulationScript::behaviourFor(const std::string& podName, int incarnation) const {
  auto it = pods.find(podName);
  if (it == pods.end() || incarnation < 1 || static_cast<size_t>(incarnation) > it->second.size()) return defaults;
  return applyOverride(defaults, it->second[static_cast<size_t>(incarnation) - 1]);
}

Expected<SimulationScript> parseSimulationScript(std::string_view text, const std::string& file) {
  auto documents = loadYamlNodes(text, file);
  if (!documents) return Expected<SimulationScript>::failure(documents.error());
  if (documents->size() > 1) {
    const YAML::Mark second = (*documents)[1].Mark();
    return Expected<SimulationScript>::failure(file + ":" + std::to_string(second.line + 1) + ":" +
                                               std::to_string(second.column + 1) +
                                               ": a script is one YAML document, and this is a second one; merge "
                                               "them or remove the extra \"---\"");
  }
  try {
    return Parser(file).parse(documents->empty() ? YAML::Node() : (*documents)[0]);
  } catch (const ScriptError& e) {
    return Expected<SimulationScript>::failure(e.message);
  } catch (const YAML::Exception& e) {
    std::string where = file;
    if (e.mark.line >= 0) where += ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1);
    return Expected<SimulationScript>::failure(where + ": invalid YAML: " + e.msg);
  }
}

Expected<SimulationScript> loadSimulationScript(const std::string& path) {
  Expected<std::string> text = readFile(path);
  if (!text) return Expected<SimulationScript>::failure(text.error());
  return parseSimulationScript(*text, path);
}

}  // namespace jobhost
