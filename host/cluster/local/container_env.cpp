// Environment resolution and $(VAR) expansion for local containers (see container_env.h).
// Secret values pass through here into the child's environment only; nothing is logged.
#include "host/cluster/local/container_env.h"

#include <map>

#include <rapidjson/document.h>

namespace jobhost::local {
namespace {

using EnvList = std::vector<std::pair<std::string, std::string>>;

void setVar(EnvList& env, const std::string& name, std::string value) {
  for (auto& [n, v] : env)
    if (n == name) {
      v = std::move(value);
      return;
    }
  env.emplace_back(name, std::move(value));
}

std::optional<std::string> findVar(const EnvList& env, const std::string& name) {
  for (const auto& [n, v] : env)
    if (n == name) return v;
  return std::nullopt;
}

// metadata.labels['key'] -> key
std::optional<std::string> bracketKey(const std::string& path, const std::string& prefix) {
  if (path.rfind(prefix + "['", 0) != 0 || path.size() < prefix.size() + 4 || path.compare(path.size() - 2, 2, "']") != 0)
    return std::nullopt;
  return path.substr(prefix.size() + 2, path.size() - prefix.size() - 4);
}

Expected<std::string> fieldValue(const FieldSelector& ref, const EnvInputs& in) {
  const Pod& pod = *in.pod;
  const std::string& p = ref.fieldPath;
  if (p == "metadata.name") return pod.metadata.name;
  if (p == "metadata.namespace") return pod.metadata.namespace_;
  if (p == "metadata.uid") return pod.metadata.uid;
  if (p == "spec.nodeName") return in.nodeName;
  if (p == "spec.serviceAccountName") return std::string("default");
  if (p == "status.podIP" || p == "status.podIPs") return in.podIP;
  if (p == "status.hostIP" || p == "status.hostIPs") return std::string("127.0.0.1");
  for (const auto* prefix : {"metadata.labels", "metadata.annotations"}) {
    if (auto key = bracketKey(p, prefix)) {
      const auto& map = std::string(prefix) == "metadata.labels" ? pod.metadata.labels : pod.metadata.annotations;
      auto it = map.find(*key);
      return it == map.end() ? std::string() : it->second;
    }
  }
  return Expected<std::string>::failure("fieldRef \"" + p + "\" is not supported");
}

Expected<std::string> resourceValue(const ResourceFieldSelector& ref, const Container& c, const EnvInputs& in) {
  const bool limit = ref.resource.rfind("limits.", 0) == 0;
  const std::string name = ref.resource.substr(ref.resource.find('.') + 1);
  if (name != "cpu" && name != "memory")
    return Expected<std::string>::failure("resourceFieldRef \"" + ref.resource + "\" is not supported");
  const ResourceList& list = limit ? c.resources.limits : c.resources.requests;
  int64_t milli = 0;
  if (auto it = list.find(name); it != list.end()) {
    milli = it->second.milliValue();
  } else if (limit) {
    milli = name == "cpu" ? in.nodeCapacity.cpuMilli : in.nodeCapacity.memoryBytes * 1000;
  }
  const int64_t divisor = ref.divisor && !ref.divisor->isZero() ? ref.divisor->milliValue() : 1000;
  return std::to_string((milli + divisor - 1) / divisor);
}

Expected<std::optional<std::string>> keyValue(const KeySelector& ref, bool secret, const EnvInputs& in) {
  using R = Expected<std::optional<std::string>>;
  std::optional<std::map<std::string, std::string>> data;
  if (secret) {
    if (auto s = in.objects.secret(ref.name)) data = s->data;
  } else if (auto cm = in.objects.configMap(ref.name)) {
    data = cm->data;
  }
  const std::string what = std::string(secret ? "secret" : "configmap") + " \"" + ref.name + "\"";
  if (!data) {
    if (ref.optional.value_or(false)) return std::optional<std::string>();
    return R::failure(what + " not found");
  }
  auto it = data->find(ref.key);
  if (it == data->end()) {
    if (ref.optional.value_or(false)) return std::optional<std::string>();
    return R::failure(what + " has no key \"" + ref.key + "\"");
  }
  return std::optional<std::string>(it->second);
}

// envFrom (kept in Container::unknown as JSON): every key of each ConfigMap/Secret, with prefix.
Status applyEnvFrom(const Container& c, const EnvInputs& in, EnvList& env) {
  for (const auto& [key, json] : c.unknown) {
    if (key != "envFrom") continue;
    rapidjson::Document doc;
    doc.Parse(json.c_str());
    if (doc.HasParseError() || !doc.IsArray()) return Status::error("envFrom is not a list");
    for (const auto& source : doc.GetArray()) {
      if (!source.IsObject()) continue;
      const std::string prefix =
          source.HasMember("prefix") && source["prefix"].IsString() ? source["prefix"].GetString() : "";
      for (const char* kind : {"configMapRef", "secretRef"}) {
        if (!source.HasMember(kind) || !source[kind].IsObject()) continue;
        const auto& ref = source[kind];
        const std::string name = ref.HasMember("name") && ref["name"].IsString() ? ref["name"].GetString() : "";
        const bool optional = ref.HasMember("optional") && ref["optional"].IsBool() && ref["optional"].GetBool();
        std::optional<std::map<std::string, std::string>> data;
        if (std::string(kind) == "secretRef") {
          if (auto s = in.objects.secret(name)) data = s->data;
        } else if (auto cm = in.objects.configMap(name)) {
          data = cm->data;
        }
        if (!data) {
          if (optional) continue;
          return Status::error(std::string(kind == std::string("secretRef") ? "secret" : "configmap") + " \"" + name +
                               "\" (envFrom) not found");
        }
        for (const auto& [k, v] : *data) setVar(env, prefix + k, v);
      }
    }
  }
  return Status::ok();
}

}  // namespace

std::string expandVariables(const std::string& text,
                            const std::function<std::optional<std::string>(const std::string&)>& lookup) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$' || i + 1 >= text.size()) {
      out += text[i];
      continue;
    }
    if (text[i + 1] == '$') {
      out += '$';
      ++i;
    } else if (text[i + 1] == '(') {
      const size_t close = text.find(')', i + 2);
      if (close == std::string::npos) {
        out += text.substr(i);
        break;
      }
      const std::string name = text.substr(i + 2, close - i - 2);
      auto value = lookup(name);
      out += value ? *value : text.substr(i, close - i + 1);
      i = close;
    } else {
      out += '$';
    }
  }
  return out;
}

Expected<EnvList> containerEnv(const Container& container, const EnvInputs& in) {
  EnvList env = in.base;
  EnvList own;  // what $(VAR) in env values may refer to: the container's variables defined so far
  if (Status st = applyEnvFrom(container, in, own); !st) return Expected<EnvList>::failure(st.message());
  for (const auto& var : container.env) {
    auto lookup = [&](const std::string& n) { return findVar(own, n); };
    if (!var.valueFrom) {
      setVar(own, var.name, expandVariables(var.value, lookup));
      continue;
    }
    const EnvVarSource& from = *var.valueFrom;
    auto fail = [&](const std::string& why) { return Expected<EnvList>::failure("env " + var.name + ": " + why); };
    if (from.fieldRef) {
      auto v = fieldValue(*from.fieldRef, in);
      if (!v) return fail(v.error());
      setVar(own, var.name, *v);
    } else if (from.resourceFieldRef) {
      auto v = resourceValue(*from.resourceFieldRef, container, in);
      if (!v) return fail(v.error());
      setVar(own, var.name, *v);
    } else if (from.configMapKeyRef || from.secretKeyRef) {
      const bool secret = !from.configMapKeyRef;
      auto v = keyValue(secret ? *from.secretKeyRef : *from.configMapKeyRef, secret, in);
      if (!v) return fail(v.error());
      if (*v) setVar(own, var.name, **v);
    }
  }
  for (auto& [n, v] : own) setVar(env, n, std::move(v));
  return env;
}

std::vector<std::string> containerArgv(const Container& container, const EnvList& env) {
  auto lookup = [&](const std::string& n) { return findVar(env, n); };
  std::vector<std::string> argv;
  for (const auto* list : {&container.command, &container.args})
    for (const auto& a : *list) argv.push_back(expandVariables(a, lookup));
  return argv;
}

}  // namespace jobhost::local
