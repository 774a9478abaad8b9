// Strict parsing of the host config: unknown keys, wrong types and bad values are errors that
// name file:line:column and the JSON path. Semantic checks (duplicates, names) happen here too.
#include "host/config/config.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "host/common/source_doc.h"
#include "host/config/default_config.h"
#include "host/spec/duration.h"
#include "host/workload/k8s_names.h"

namespace jobhost {
namespace {

using Value = rapidjson::Value;

class Parser {
 public:
  explicit Parser(const SourceDoc& doc) : doc_(doc) {}

  std::string fail(const std::string& path, const std::string& message) {
    if (error_.empty())
      error_ = doc_.where(path) + ": " + (path.empty() ? "config" : path) + ": " + message;
    return error_;
  }
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }

  bool object(const Value& v, const std::string& path, std::initializer_list<const char*> keys) {
    if (!v.IsObject()) return (fail(path, "must be an object"), false);
    for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
      std::string key = it->name.GetString();
      bool known = false;
      std::string list;
      for (const char* k : keys) {
        known |= key == k;
        list += list.empty() ? k : std::string(", ") + k;
      }
      if (!known)
        return (fail(childPath(path, key), "unknown key \"" + key + "\"; allowed here: " + list), false);
    }
    return true;
  }
  bool string(const Value& v, const std::string& path, std::string& out) {
    if (!v.IsString()) return (fail(path, "must be a string"), false);
    out.assign(v.GetString(), v.GetStringLength());
    if (out.find('\0') != std::string::npos)
      return (fail(path, "must not contain a NUL character (\\u0000); remove it"), false);
    return true;
  }
  bool boolean(const Value& v, const std::string& path, bool& out) {
    if (!v.IsBool()) return (fail(path, "must be true or false"), false);
    out = v.GetBool();
    return true;
  }
  bool integer(const Value& v, const std::string& path, int64_t min, int64_t max, int64_t& out) {
    if (!v.IsInt64()) return (fail(path, "must be an integer"), false);
    out = v.GetInt64();
    if (out < min || out > max)
      return (fail(path, "must be between " + std::to_string(min) + " and " + std::to_string(max)), false);
    return true;
  }
  bool strings(const Value& v, const std::string& path, std::vector<std::string>& out) {
    if (!v.IsArray()) return (fail(path, "must be an array of strings"), false);
    for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
      std::string s;
      if (!string(v[i], indexPath(path, i), s)) return false;
      out.push_back(std::move(s));
    }
    return true;
  }
  bool quantity(const Value& v, const std::string& path, std::optional<Quantity>& out) {
    std::string text;
    if (v.IsNumber())
      text = v.IsInt64() ? std::to_string(v.GetInt64()) : std::to_string(v.GetDouble());
    else if (!string(v, path, text))
      return false;
    std::string why;
    out = Quantity::parse(text, &why);
    if (!out) return (fail(path, why), false);
    return true;
  }
  bool duration(const Value& v, const std::string& path, Duration& out) {
    std::string text;
    if (!string(v, path, text)) return false;
    auto d = parseGoDuration(text);
    if (!d || d->ms < 0)
      return (fail(path, "must be a non-negative duration such as \"30s\" or \"500ms\" (\"0\" disables it)"), false);
    out = *d;
    return true;
  }
  const SourceDoc& doc() const { return doc_; }

 private:
  const SourceDoc& doc_;
  std::string error_;
};

bool nonEmpty(Parser& p, const std::string& path, const std::vector<std::string>& aliases) {
  for (size_t a = 0; a < aliases.size(); ++a)
    if (aliases[a].empty()) return (p.fail(indexPath(path, a), "an alias must not be empty"), false);
  return true;
}

bool parsePlugin(Parser& p, const Value& v, const std::string& path, PluginEntry& e, bool& ownTimeout) {
  if (!p.object(v, path, {"name", "path", "required", "activation", "args", "aliases", "callTimeout"})) return false;
  e.where = p.doc().where(path);
  for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
    std::string key = it->name.GetString(), kp = childPath(path, key);
    const Value& x = it->value;
    bool ok = true;
    if (key == "name") ok = p.string(x, kp, e.name);
    else if (key == "path") ok = p.string(x, kp, e.path);
    else if (key == "required") ok = p.boolean(x, kp, e.required);
    else if (key == "args") ok = p.strings(x, kp, e.args);
    else if (key == "aliases") ok = p.strings(x, kp, e.aliases) && nonEmpty(p, kp, e.aliases);
    else if (key == "callTimeout") ok = ownTimeout = p.duration(x, kp, e.callTimeout);
    else if (key == "activation") {
      std::string a;
      ok = p.string(x, kp, a);
      if (ok && a == "job") e.activation = Activation::Job;
      else if (ok && a == "always") e.activation = Activation::Always;
      else if (ok) ok = (p.fail(kp, "must be \"job\" or \"always\", not \"" + a + "\""), false);
    }
    if (!ok) return false;
  }
  if (e.name.empty() && e.path.empty())
    return (p.fail(path, "needs \"name\" (looked up along pluginPath) or \"path\""), false);
  return true;
}

bool parsePoints(Parser& p, const Value& v, const std::string& path, HostConfig& c) {
  if (!v.IsObject()) return (p.fail(path, "must be an object"), false);
  for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
    std::string key = it->name.GetString(), kp = childPath(path, key);
    const auto& keys = extensionPointKeys();
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      std::string list;
      for (const auto& k : keys) list += (list.empty() ? "" : ", ") + k;
      return (p.fail(kp, "unknown extension point \"" + key + "\"; allowed: " + list), false);
    }
    if (!p.object(it->value, kp, {"enabled", "disabled"})) return false;
    PointSelection sel;
    for (auto m = it->value.MemberBegin(); m != it->value.MemberEnd(); ++m) {
      std::string mk = m->name.GetString();
      if (!p.strings(m->value, childPath(kp, mk), mk == "enabled" ? sel.enabled : sel.disabled))
        return false;
    }
    c.extensionPoints[key] = std::move(sel);
  }
  return true;
}

bool parseBackend(Parser& p, const Value& v, const std::string& path, HostConfig& c) {
  if (!p.object(v, path, {"local", "sim"})) return false;
  if (v.HasMember("local")) {
    const Value& l = v["local"];
    std::string lp = childPath(path, "local");
    if (!p.object(l, lp, {"workDir", "cpu", "memory", "gpu", "gracePeriodSeconds", "isolation"}))
      return false;
    for (auto it = l.MemberBegin(); it != l.MemberEnd(); ++it) {
      std::string key = it->name.GetString(), kp = childPath(lp, key);
      int64_t n = 0;
      bool ok = true;
      if (key == "workDir") ok = p.string(it->value, kp, c.local.workDir);
      else if (key == "cpu") ok = p.quantity(it->value, kp, c.local.cpu);
      else if (key == "memory") ok = p.quantity(it->value, kp, c.local.memory);
      else if (key == "gpu") ok = p.integer(it->value, kp, 0, 1 << 20, n), c.local.gpu = n;
      else if (key == "gracePeriodSeconds")
        ok = p.integer(it->value, kp, 0, 3600, n), c.local.gracePeriodSeconds = static_cast<int>(n);
      else if (key == "isolation") {
        ok = p.string(it->value, kp, c.local.isolation);
        const std::string& iso = c.local.isolation;
        if (ok && iso != "auto" && iso != "native" && iso != "bwrap" && iso != "none")
          ok = (p.fail(kp, "must be \"auto\", \"native\", \"bwrap\" or \"none\""), false);
      }
      if (!ok) return false;
    }
  }
  if (v.HasMember("sim")) {
    const Value& s = v["sim"];
    std::string sp = childPath(path, "sim");
    if (!p.object(s, sp, {"nodes", "cpu", "memory", "gpu"})) return false;
    for (auto it = s.MemberBegin(); it != s.MemberEnd(); ++it) {
      std::string key = it->name.GetString(), kp = childPath(sp, key);
      int64_t n = 0;
      std::optional<Quantity> q;
      bool ok = true;
      if (key == "nodes") ok = p.integer(it->value, kp, 1, 100000, n), c.sim.nodes = static_cast<int>(n);
      else if (key == "gpu") ok = p.integer(it->value, kp, 0, 1 << 20, n), c.sim.gpu = n;
      else if ((ok = p.quantity(it->value, kp, q))) (key == "cpu" ? c.sim.cpu : c.sim.memory) = *q;
      if (!ok) return false;
    }
  }
  return true;
}

/// A Queue's spec.extendClusters: [{name, weight, capacity}], as Volcano's Cluster type.
bool parseExtendClusters(Parser& p, const Value& v, const std::string& path, bool& any) {
  if (!v.IsArray()) return (p.fail(path, "must be an array of {name, weight, capacity}"), false);
  for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
    const std::string cp = indexPath(path, i);
    if (!p.object(v[i], cp, {"name", "weight", "capacity"})) return false;
    std::string name;
    int64_t weight = 0;
    if (!v[i].HasMember("name") || !p.string(v[i]["name"], childPath(cp, "name"), name) || name.empty())
      return (p.fail(childPath(cp, "name"), "needs the cluster's non-empty name"), false);
    if (v[i].HasMember("weight") && !p.integer(v[i]["weight"], childPath(cp, "weight"), 0, 2147483647, weight))
      return false;
    if (v[i].HasMember("capacity") && !v[i]["capacity"].IsObject())
      return (p.fail(childPath(cp, "capacity"), "must be an object of resource quantities"), false);
  }
  any = v.Size() > 0;
  return true;
}

bool parseQueues(Parser& p, const Value& v, const std::string& path, HostConfig& c) {
  if (!v.IsArray()) return (p.fail(path, "must be an array of {name, state, parent, extendClusters}"), false);
  for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
    std::string qp = indexPath(path, i);
    if (!p.object(v[i], qp, {"name", "state", "parent", "extendClusters"})) return false;
    QueueConfig q;
    for (auto it = v[i].MemberBegin(); it != v[i].MemberEnd(); ++it) {
      std::string key = it->name.GetString();
      if (key == "extendClusters") {
        if (!parseExtendClusters(p, it->value, childPath(qp, key), q.extendClusters)) return false;
        continue;
      }
      std::string& target = key == "name" ? q.name : key == "state" ? q.state : q.parent;
      if (!p.string(it->value, childPath(qp, key), target)) return false;
    }
    if (q.name.empty()) return (p.fail(qp, "needs a non-empty \"name\""), false);
    if (q.state != "Open" && q.state != "Closed" && q.state != "Closing")
      return (p.fail(childPath(qp, "state"), "must be Open, Closed or Closing"), false);
    c.queues.push_back(std::move(q));
  }
  return true;
}

/// Queues as the API server and Volcano's queue webhook would take them: object names, each once,
/// and a hierarchy that reaches "root" from every queue (a parent that exists, no cycle).
bool checkQueues(Parser& p, const std::vector<QueueConfig>& queues) {
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < queues.size(); ++i) {
    const std::string path = indexPath("queues", i);
    if (auto problems = k8s::isDNS1123Subdomain(queues[i].name); !problems.empty())
      return (p.fail(childPath(path, "name"), "\"" + queues[i].name + "\" is not a valid queue name: " + problems[0]),
              false);
    if (queues[i].name == "root")
      return (p.fail(childPath(path, "name"), "\"root\" is the queue every hierarchy starts from; name the queue otherwise"),
              false);
    if (auto [at, fresh] = index.emplace(queues[i].name, i); !fresh)
      return (p.fail(childPath(path, "name"), "queue \"" + queues[i].name + "\" is already defined at queues[" +
                                                  std::to_string(at->second) + "]; define each queue once"),
              false);
  }
  for (size_t i = 0; i < queues.size(); ++i) {
    const std::string parentPath = childPath(indexPath("queues", i), "parent");
    const std::string& parent = queues[i].parent;
    if (parent.empty() || parent == "root") continue;
    if (parent == queues[i].name)
      return (p.fail(parentPath, "queue \"" + parent + "\" cannot be its own parent"), false);
    if (!index.count(parent))
      return (p.fail(parentPath, "names queue \"" + parent + "\", which is not defined; define it under \"queues\" or "
                                 "use \"root\""),
              false);
    std::set<std::string> seen{queues[i].name};
    for (std::string up = parent; index.count(up) != 0; up = queues[index.at(up)].parent)
      if (!seen.insert(up).second)
        return (p.fail(parentPath, "the parents of queue \"" + queues[i].name + "\" go round in a loop at \"" + up +
                                       "\"; the parents must lead to \"root\""),
                false);
  }
  return true;
}

bool checkSemantics(Parser& p, HostConfig& c) {
  std::set<std::string> names;
  for (size_t i = 0; i < c.plugins.size(); ++i) {
    const auto& e = c.plugins[i];
    std::vector<std::string> all = e.aliases;
    if (!e.name.empty()) all.push_back(e.name);
    for (const auto& n : all)
      if (!names.insert(n).second)
        return (p.fail(indexPath("plugins", i), "plugin name \"" + n +
                                                    "\" is configured twice; each plugin and alias may appear once"),
                false);
  }
  for (const auto& [point, sel] : c.extensionPoints)
    for (const auto& list : {sel.enabled, sel.disabled})
      for (const auto& n : list)
        if (n != "*" && !names.count(n))
          return (p.fail(childPath("extensionPoints", point),
                         "names plugin \"" + n + "\", which is not in \"plugins\""),
                  false);
  if (!checkQueues(p, c.queues)) return false;
  if (std::none_of(c.queues.begin(), c.queues.end(), [](auto& q) { return q.name == "default"; }))
    c.queues.insert(c.queues.begin(), QueueConfig{"default", "Open", ""});
  return true;
}

}  // namespace

const std::vector<std::string>& extensionPointKeys() {
  static const std::vector<std::string> keys = {"validation",   "mlPolicy",       "podGroupPolicy",
                                                "podNetwork",   "componentBuild", "status",
                                                "jobHooks"};
  return keys;
}

Expected<HostConfig> parseHostConfig(std::string_view text, const std::string& file) {
  auto parsed = parseJsonDoc(text, file);
  if (!parsed) return Expected<HostConfig>::failure(parsed.error());
  const SourceDoc& doc = *parsed;
  Parser p(doc);
  HostConfig c;
  c.file = file;
  c.baseDir = std::filesystem::path(file).parent_path().string();
  const Value& root = doc.doc;
  if (!p.object(root, "", {"pluginPath", "plugins", "extensionPoints", "queues", "schedulerNames",
                           "priorityClasses", "controller", "backend", "pluginCallTimeout"}))
    return Expected<HostConfig>::failure(p.error());
  std::vector<bool> ownTimeout;  // per plugin entry: whether it set its own callTimeout
  for (auto it = root.MemberBegin(); it != root.MemberEnd() && !p.failed(); ++it) {
    std::string key = it->name.GetString();
    const Value& v = it->value;
    if (key == "pluginCallTimeout") {
      p.duration(v, key, c.pluginCallTimeout);
    } else if (key == "pluginPath") {
      p.strings(v, key, c.pluginPath);
    } else if (key == "plugins") {
      if (!v.IsArray()) {
        p.fail(key, "must be an array of plugin entries");
        break;
      }
      for (rapidjson::SizeType i = 0; i < v.Size() && !p.failed(); ++i) {
        PluginEntry e;
        bool own = false;
        if (!parsePlugin(p, v[i], indexPath(key, i), e, own)) break;
        c.plugins.push_back(std::move(e));
        ownTimeout.push_back(own);
      }
    } else if (key == "extensionPoints") {
      parsePoints(p, v, key, c);
    } else if (key == "queues") {
      parseQueues(p, v, key, c);
    } else if (key == "schedulerNames") {
      p.strings(v, key, c.schedulerNames);
    } else if (key == "priorityClasses") {
      if (!v.IsObject()) {
        p.fail(key, "must be an object of name: integer value");
        break;
      }
      for (auto m = v.MemberBegin(); m != v.MemberEnd() && !p.failed(); ++m) {
        int64_t n = 0;
        if (p.integer(m->value, childPath(key, m->name.GetString()), -2000000000, 1000000000, n))
          c.priorityClasses[m->name.GetString()] = static_cast<int32_t>(n);
      }
    } else if (key == "controller") {
      if (!p.object(v, key, {"workers", "maxRequeue", "maxPodsPerJob"})) break;
      int64_t n = 0;
      if (v.HasMember("workers") && p.integer(v["workers"], "controller.workers", 1, 256, n))
        c.controller.workers = static_cast<int>(n);
      if (v.HasMember("maxRequeue") && p.integer(v["maxRequeue"], "controller.maxRequeue", -1, 1000000, n))
        c.controller.maxRequeue = static_cast<int>(n);
      if (v.HasMember("maxPodsPerJob") && p.integer(v["maxPodsPerJob"], "controller.maxPodsPerJob", 0, 2147483647, n))
        c.controller.maxPodsPerJob = n;
    } else if (key == "backend") {
      parseBackend(p, v, key, c);
    }
  }
  if (!p.failed()) checkSemantics(p, c);
  if (p.failed()) return Expected<HostConfig>::failure(p.error());
  for (size_t i = 0; i < c.plugins.size(); ++i)
    if (ownTimeout[i])
      c.plugins[i].ownCallTimeout = true;
    else
      c.plugins[i].callTimeout = c.pluginCallTimeout;
  if (c.queues.empty()) c.queues.push_back(QueueConfig{"default", "Open", ""});
  return c;
}

Expected<HostConfig> loadHostConfig(const std::string& path) {
  auto text = readFile(path);
  if (!text) return Expected<HostConfig>::failure(text.error());
  return parseHostConfig(*text, path);
}

Expected<HostConfig> defaultHostConfig() {
  auto c = parseHostConfig(kDefaultConfigJson, "<built-in default config>");
  if (c) c->baseDir.clear();
  return c;
}

}  // namespace jobhost
