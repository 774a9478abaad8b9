// Per-job /etc/hosts: every pod hostname (<hostname>, <hostname>.<subdomain>, and the cluster FQDN)
// and every Service name that selects a pod, mapped to the pods' loopback addresses. The file only
// grows, by appending, so the inode bind-mounted into running pods sees pods created later.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "host/common/expected.h"
#include "jobhost/objects.h"
#include "jobhost/pod.h"

namespace jobhost::local {

/// The pod's hostname: spec.hostname, else its name (Kubernetes).
std::string podHostname(const Pod& pod);
/// hostname, hostname.subdomain, hostname.subdomain.<ns>.svc(.cluster.local) when a subdomain is set.
std::vector<std::string> podHostNames(const Pod& pod);
/// name, name.<ns>, name.<ns>.svc, name.<ns>.svc.cluster.local.
std::vector<std::string> serviceHostNames(const Service& service);
/// A Service with a non-empty selector selects pods of its namespace carrying every selector label.
bool selects(const Service& service, const Pod& pod);

class HostsFile {
 public:
  /// Creates (or truncates) `path` with the localhost lines.
  static Expected<HostsFile> create(const std::string& path);
  /// Appends "<address> <names...>" unless that exact line was written already.
  Status add(const std::string& address, const std::vector<std::string>& names);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::set<std::string> lines_;
};

}  // namespace jobhost::local
