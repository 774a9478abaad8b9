// Kubernetes' field names per pod template struct: PodSpec, Container (also init and ephemeral
// containers), Volume (every volume source), VolumeMount and ResourceRequirements.
#include "host/admission/pod_field_names.h"

#include <algorithm>
#include <iterator>

namespace jobhost {
namespace {

constexpr std::string_view kPodSpec[] = {
    "activeDeadlineSeconds", "affinity", "automountServiceAccountToken", "containers", "dnsConfig", "dnsPolicy",
    "enableServiceLinks", "ephemeralContainers", "hostAliases", "hostIPC", "hostNetwork", "hostPID", "hostUsers",
    "hostname", "hostnameOverride", "imagePullSecrets", "initContainers", "nodeName", "nodeSelector", "os", "overhead",
    "preemptionPolicy", "priority", "priorityClassName", "readinessGates", "resourceClaims", "resources",
    "restartPolicy", "runtimeClassName", "schedulerName", "schedulingGates", "securityContext", "serviceAccount",
    "serviceAccountName", "setHostnameAsFQDN", "shareProcessNamespace", "subdomain", "terminationGracePeriodSeconds",
    "tolerations", "topologySpreadConstraints", "volumes", "workloadRef"};

constexpr std::string_view kContainer[] = {
    "args", "command", "env", "envFrom", "image", "imagePullPolicy", "lifecycle", "livenessProbe", "name", "ports",
    "readinessProbe", "resizePolicy", "resources", "restartPolicy", "restartPolicyRules", "securityContext",
    "startupProbe", "stdin", "stdinOnce", "terminationMessagePath", "terminationMessagePolicy", "tty",
    "volumeDevices", "volumeMounts", "workingDir"};

constexpr std::string_view kVolume[] = {
    "name", "awsElasticBlockStore", "azureDisk", "azureFile", "cephfs", "cinder", "configMap", "csi", "downwardAPI",
    "emptyDir", "ephemeral", "fc", "flexVolume", "flocker", "gcePersistentDisk", "gitRepo", "glusterfs", "hostPath",
    "image", "iscsi", "nfs", "persistentVolumeClaim", "photonPersistentDisk", "portworxVolume", "projected",
    "quobyte", "rbd", "scaleIO", "secret", "storageos", "vsphereVolume"};

constexpr std::string_view kVolumeMount[] = {
    "mountPath", "mountPropagation", "name", "readOnly", "recursiveReadOnly", "subPath", "subPathExpr"};

constexpr std::string_view kResourceRequirements[] = {"claims", "limits", "requests"};

template <size_t N>
bool among(const std::string_view (&names)[N], std::string_view key) {
  return std::find(std::begin(names), std::end(names), key) != std::end(names);
}

}  // namespace

bool declaredByKubernetes(PodStruct kind, std::string_view key) {
  switch (kind) {
    case PodStruct::PodSpec: return among(kPodSpec, key);
    case PodStruct::Container: return among(kContainer, key);
    case PodStruct::Volume: return among(kVolume, key);
    case PodStruct::VolumeMount: return among(kVolumeMount, key);
    case PodStruct::ResourceRequirements: return among(kResourceRequirements, key);
  }
  return false;
}

}  // namespace jobhost
