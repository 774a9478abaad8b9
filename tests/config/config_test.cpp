// Host config parsing: defaults, every section, and errors that carry file:line:column, the JSON
// path and what to change.
#include "host/config/config.h"

#include <gtest/gtest.h>

namespace jobhost {
namespace {

TEST(Config, BuiltInDefaultEnablesEveryShippedPlugin) {
  auto c = defaultHostConfig();
  ASSERT_TRUE(c) << c.error();
  std::vector<std::string> names;
  for (const auto& p : c->plugins) names.push_back(p.name);
  EXPECT_EQ(names, (std::vector<std::string>{"env", "svc", "ssh", "torch", "mpi", "tensorflow", "ray", "hcclrank", "coscheduling"}));
  EXPECT_EQ(c->plugins[3].aliases, (std::vector<std::string>{"pytorch"}));
  EXPECT_EQ(c->controller.workers, 3);
  EXPECT_EQ(c->controller.maxRequeue, 15);
  EXPECT_EQ(c->controller.maxPodsPerJob, 100000);
  ASSERT_EQ(c->queues.size(), 1u);
  EXPECT_EQ(c->queues[0].name, "default");
}

TEST(Config, ParsesEverySection) {
  auto c = parseHostConfig(R"({
    "pluginPath": ["plugins", "/opt/jobhost"],
    "plugins": [{"name": "torch", "aliases": ["pytorch"], "args": ["--port=1"], "required": false,
                 "activation": "always"},
                {"path": "/x/libjobhost_foo.so"}],
    "extensionPoints": {"mlPolicy": {"disabled": ["*"], "enabled": ["torch"]}},
    "queues": [{"name": "research", "state": "Closed", "parent": "root"},
               {"name": "burst", "extendClusters": [{"name": "cloud", "weight": 2, "capacity": {"cpu": "8"}}]}],
    "schedulerNames": ["kube-batch"],
    "priorityClasses": {"high": 1000},
    "controller": {"workers": 2, "maxRequeue": -1, "maxPodsPerJob": 0},
    "backend": {"local": {"workDir": "/tmp/w", "cpu": "4", "memory": "8Gi", "gpu": 1,
                          "gracePeriodSeconds": 2, "isolation": "none"},
                "sim": {"nodes": 2, "cpu": 16, "memory": "64Gi", "gpu": 8}}
  })", "/etc/jobhost/config.json");
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(c->baseDir, "/etc/jobhost");
  EXPECT_EQ(c->pluginPath, (std::vector<std::string>{"plugins", "/opt/jobhost"}));
  EXPECT_FALSE(c->plugins[0].required);
  EXPECT_EQ(c->plugins[0].activation, Activation::Always);
  EXPECT_EQ(c->plugins[0].args, (std::vector<std::string>{"--port=1"}));
  EXPECT_EQ(c->plugins[0].where, "/etc/jobhost/config.json:3:17");
  EXPECT_EQ(c->plugins[1].path, "/x/libjobhost_foo.so");
  EXPECT_EQ(c->extensionPoints["mlPolicy"].disabled, (std::vector<std::string>{"*"}));
  ASSERT_EQ(c->queues.size(), 3u);  // "default" is always there
  EXPECT_EQ(c->queues[0].name, "default");
  EXPECT_EQ(c->queues[1].state, "Closed");
  EXPECT_FALSE(c->queues[1].extendClusters);
  EXPECT_TRUE(c->queues[2].extendClusters);
  EXPECT_EQ(c->schedulerNames[0], "kube-batch");
  EXPECT_EQ(c->priorityClasses["high"], 1000);
  EXPECT_EQ(c->controller.workers, 2);
  EXPECT_EQ(c->controller.maxRequeue, -1);
  EXPECT_EQ(c->controller.maxPodsPerJob, 0);
  EXPECT_EQ(c->local.memory->toString(), "8Gi");
  EXPECT_EQ(c->local.cpu->milliValue(), 4000);
  EXPECT_EQ(*c->local.gpu, 1);
  EXPECT_EQ(c->local.isolation, "none");
  EXPECT_EQ(c->sim.nodes, 2);
  EXPECT_EQ(c->sim.cpu.milliValue(), 16000);
  EXPECT_EQ(c->sim.gpu, 8);
}

struct BadCase {
  const char* json;
  const char* error;
};

TEST(Config, ErrorsNameFileLinePathAndFix) {
  const BadCase cases[] = {
      {"{\n  \"plugins\": [\n    {\"nme\": \"env\"}\n  ]\n}",
       "c.json:3:6: plugins[0].nme: unknown key \"nme\"; allowed here: name, path, required, activation, args, aliases, callTimeout"},
      {"{\"plugins\": [{\"name\": 3}]}", "c.json:1:15: plugins[0].name: must be a string"},
      {"{\"plugins\": [{\"name\": \"a\", \"activation\": \"sometimes\"}]}",
       "c.json:1:28: plugins[0].activation: must be \"job\" or \"always\", not \"sometimes\""},
      {"{\"plugins\": [{}]}", "c.json:1:14: plugins[0]: needs \"name\" (looked up along pluginPath) or \"path\""},
      {R"({"plugins": [{"name": "env\u0000x"}]})",
       "c.json:1:15: plugins[0].name: must not contain a NUL character (\\u0000); remove it"},
      {R"({"plugins": [{"name": "env", "aliases": ["a", ""]}]})", "c.json:1:47: plugins[0].aliases[1]: an alias must not be empty"},
      {"{\"plugins\": [{\"name\": \"a\"}, {\"name\": \"b\", \"aliases\": [\"a\"]}]}",
       "c.json:1:29: plugins[1]: plugin name \"a\" is configured twice; each plugin and alias may appear once"},
      {"{\"controller\": {\"workers\": 0}}", "c.json:1:17: controller.workers: must be between 1 and 256"},
      {"{\"controller\": {\"workers\": \"2\"}}", "c.json:1:17: controller.workers: must be an integer"},
      {"{\"controller\": {\"maxPodsPerJob\": -1}}",
       "c.json:1:17: controller.maxPodsPerJob: must be between 0 and 2147483647"},
      {"{\"extensionPoints\": {\"mlpolicy\": {}}}",
       "c.json:1:22: extensionPoints.mlpolicy: unknown extension point \"mlpolicy\"; allowed: validation, "
       "mlPolicy, podGroupPolicy, podNetwork, componentBuild, status, jobHooks"},
      {"{\"extensionPoints\": {\"mlPolicy\": {\"enabled\": [\"ghost\"]}}}",
       "c.json:1:22: extensionPoints.mlPolicy: names plugin \"ghost\", which is not in \"plugins\""},
      {"{\"backend\": {\"local\": {\"memory\": \"8GB\"}}}",
       "c.json:1:24: backend.local.memory: quantity \"8GB\" is invalid (unknown suffix); use a number with an "
       "optional suffix such as 500m, 2Gi or 1.5"},
      {"{\"queues\": [{\"name\": \"q\", \"state\": \"open\"}]}", "c.json:1:27: queues[0].state: must be Open, Closed or Closing"},
      {R"({"queues": [{"name": "q", "extendClusters": "cloud"}]})",
       "c.json:1:27: queues[0].extendClusters: must be an array of {name, weight, capacity}"},
      {R"({"queues": [{"name": "q", "extendClusters": [{"weight": 1}]}]})",
       "c.json:1:46: queues[0].extendClusters[0].name: needs the cluster's non-empty name"},
      {R"({"queues": [{"name": "q", "extendClusters": [{"name": "c", "region": "eu"}]}]})",
       "c.json:1:60: queues[0].extendClusters[0].region: unknown key \"region\"; allowed here: name, weight, capacity"},
      {R"({"queues": [{"name": "q", "extendClusters": [{"name": "c", "weight": -1}]}]})",
       "c.json:1:60: queues[0].extendClusters[0].weight: must be between 0 and 2147483647"},
      {R"({"queues": [{"name": "q", "state": "Closed"}, {"name": "q"}]})",
       "c.json:1:48: queues[1].name: queue \"q\" is already defined at queues[0]; define each queue once"},
      {R"({"queues": [{"name": "Bad_Name"}]})",
       "c.json:1:14: queues[0].name: \"Bad_Name\" is not a valid queue name: a lowercase RFC 1123 subdomain must "
       "consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric "
       "character (e.g. 'example.com', regex used for validation is "
       "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"},
      {R"({"queues": [{"name": "root"}]})",
       "c.json:1:14: queues[0].name: \"root\" is the queue every hierarchy starts from; name the queue otherwise"},
      {R"({"queues": [{"name": "q", "parent": "q"}]})",
       "c.json:1:27: queues[0].parent: queue \"q\" cannot be its own parent"},
      {R"({"queues": [{"name": "q", "parent": "nope"}]})",
       "c.json:1:27: queues[0].parent: names queue \"nope\", which is not defined; define it under \"queues\" or use "
       "\"root\""},
      {R"({"queues": [{"name": "x", "parent": "a"}, {"name": "a", "parent": "b"}, {"name": "b", "parent": "a"}]})",
       "c.json:1:27: queues[0].parent: the parents of queue \"x\" go round in a loop at \"a\"; the parents must lead "
       "to \"root\""},
      {"{\"plugins\": [}", "c.json:1:14: invalid JSON: Invalid value."},
      {"[]", "c.json:1:1: config: must be an object"},
      {"{\"colour\": 1}",
       "c.json:1:2: colour: unknown key \"colour\"; allowed here: pluginPath, plugins, extensionPoints, queues, "
       "schedulerNames, priorityClasses, controller, backend, pluginCallTimeout"},
  };
  for (const auto& c : cases) {
    auto r = parseHostConfig(c.json, "c.json");
    ASSERT_FALSE(r) << c.json;
    EXPECT_EQ(r.error(), c.error) << c.json;
  }
}

TEST(Config, MissingFileNamesTheFile) {
  auto r = loadHostConfig("/nonexistent/jobhost.json");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "/nonexistent/jobhost.json: cannot read file: No such file or directory");
  auto directory = loadHostConfig("/tmp");
  ASSERT_FALSE(directory);
  EXPECT_EQ(directory.error(), "/tmp: is a directory; name a file in it");
}

}  // namespace
}  // namespace jobhost
