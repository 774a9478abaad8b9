// Strict field validation inside the pod template: a key Kubernetes does not declare (a typo such
// as `comand`) is refused at its line as on Volcano; every field Kubernetes declares is accepted.
#include <gtest/gtest.h>

#include "tests/cli/cli_test_util.h"

namespace jobhost::cli {
namespace {

TEST(PodTemplateFields, TyposAreUnknownFieldsAtTheirLine) {
  auto file = writeTemp("typos.yaml", R"YAML(apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata:
  name: typos
spec:
  tasks:
    - name: worker
      replicas: 1
      template:
        spec:
          restartPolicyy: Never
          initContainers:
            - {name: init, image: busybox, command: ["true"], imagePullPolicyy: Always}
          containers:
            - name: main
              image: busybox
              comand: [sh, -c, "echo hi"]
              resources: {limts: {cpu: 1}}
              volumeMounts: [{name: data, mountPath: /data, readonly: true}]
          volumes:
            - {name: data, emptyDir: {}, hostPth: {path: /tmp}}
)YAML");
  auto r = run({"validate", file});
  EXPECT_EQ(r.rc, kRejected) << r.out;
  const std::string at = "spec.tasks[0].template.spec.";
  EXPECT_EQ(r.out, file + ": job default/typos: rejected (6 errors)\n" +  //
                       file + ":11:27: " + at + "restartPolicyy: unknown field \"" + at + "restartPolicyy\"\n" +
                       file + ":13:81: " + at + "initContainers[0].imagePullPolicyy: unknown field \"" + at +
                       "initContainers[0].imagePullPolicyy\"\n" +
                       file + ":17:23: " + at + "containers[0].comand: unknown field \"" + at + "containers[0].comand\"\n" +
                       file + ":18:34: " + at + "containers[0].resources.limts: unknown field \"" + at +
                       "containers[0].resources.limts\"\n" +
                       file + ":19:71: " + at + "containers[0].volumeMounts[0].readonly: unknown field \"" + at +
                       "containers[0].volumeMounts[0].readonly\"\n" +
                       file + ":21:51: " + at + "volumes[0].hostPth: unknown field \"" + at + "volumes[0].hostPth\"\n");
}

// Fields jobhost keeps as unmodelled JSON still have Kubernetes' types: the API server refuses a
// value of the wrong type there as for any other field.
TEST(PodTemplateFields, UnmodelledFieldsOfTheWrongTypeAreRefusedAsTheApiServerDoes) {
  auto file = writeTemp("wrong-types.yaml", R"YAML(apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata:
  name: wrong-types
spec:
  tasks:
    - name: worker
      replicas: 1
      template:
        spec:
          affinity: hello
          tolerations: 5
          priority: 2.5
          nodeSelector: null
          containers:
            - {name: main, image: busybox, command: ["true"], tty: "yes"}
)YAML");
  auto r = run({"validate", file});
  EXPECT_EQ(r.rc, kRejected) << r.out;
  const std::string at = "spec.tasks[0].template.spec.";
  auto finding = [&](const std::string& where, const std::string& field, const std::string& got, const std::string& type) {
    return file + ":" + where + ": " + at + field + ": Invalid value: \"" + got + "\": " + at + field +
           " in body must be of type " + type + ": \"" + got + "\"\n";
  };
  EXPECT_EQ(r.out.substr(0, r.out.find(file + ": on Volcano:")),
            file + ": job default/wrong-types: rejected (4 errors)\n" +
                finding("16:68", "containers[0].tty", "string", "boolean") +
                finding("11:21", "affinity", "string", "object") + finding("13:21", "priority", "number", "integer") +
                finding("12:24", "tolerations", "integer", "array"));
}

TEST(PodTemplateFields, FieldsKubernetesDeclaresButJobhostDoesNotModelAreAccepted) {
  auto file = writeTemp("declared.yaml", R"YAML(apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata:
  name: declared
spec:
  tasks:
    - name: worker
      replicas: 1
      template:
        spec:
          activeDeadlineSeconds: 600
          affinity: {nodeAffinity: {}}
          automountServiceAccountToken: false
          dnsConfig: {nameservers: [1.1.1.1]}
          enableServiceLinks: false
          hostAliases: [{ip: 10.0.0.1, hostnames: [db]}]
          hostIPC: false
          hostPID: false
          imagePullSecrets: [{name: regcred}]
          nodeSelector: {disk: ssd}
          os: {name: linux}
          preemptionPolicy: PreemptLowerPriority
          readinessGates: [{conditionType: example.com/ready}]
          runtimeClassName: runc
          securityContext: {runAsUser: 1000}
          serviceAccountName: trainer
          setHostnameAsFQDN: false
          shareProcessNamespace: false
          terminationGracePeriodSeconds: 30
          tolerations: [{key: gpu, operator: Exists, effect: NoSchedule}]
          topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway}]
          containers:
            - name: main
              image: busybox
              imagePullPolicy: IfNotPresent
              command: [sh, -c, "echo hi"]
              envFrom: [{configMapRef: {name: settings, optional: true}}]
              lifecycle: {preStop: {exec: {command: [sleep, "1"]}}}
              livenessProbe: {exec: {command: ["true"]}}
              readinessProbe: {tcpSocket: {port: 8080}}
              startupProbe: {httpGet: {path: /, port: 8080}}
              securityContext: {allowPrivilegeEscalation: false}
              stdin: false
              stdinOnce: false
              tty: false
              terminationMessagePath: /dev/termination-log
              terminationMessagePolicy: File
              resources: {requests: {cpu: 1}, limits: {cpu: 1}}
              volumeMounts: [{name: data, mountPath: /data, mountPropagation: None, subPathExpr: "$(POD)"}]
          volumes:
            - {name: data, hostPath: {path: /tmp}}
)YAML");
  auto r = run({"validate", file});
  EXPECT_EQ(r.rc, kOk) << r.out;
  EXPECT_EQ(r.out.rfind(file + ": job default/declared: valid\n", 0), 0u) << r.out;
  EXPECT_FALSE(contains(r.out, "unknown field")) << r.out;
}

}  // namespace
}  // namespace jobhost::cli
