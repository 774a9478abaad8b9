// Lifecycle-policy validation with Volcano's stop rules, messages and go-multierror formatting.
// Allowed events/actions are the webhook's maps, printed in a fixed order.
#include "host/admission/policy_validation.h"

#include <algorithm>
#include <set>

#include "host/admission/go_text.h"

namespace jobhost {
namespace {

bool contains(const std::vector<std::string>& list, std::string_view s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

std::string at(std::string_view prefix, size_t i, std::string_view field = {}) {
  std::string out(prefix);
  out += "[" + std::to_string(i) + "]";
  if (!field.empty()) out.append(".").append(field);
  return out;
}

// One event of a policy with the field it came from: events[k] first, then event (as Go's
// getEventList appends policy.Event to policy.Events), duplicates dropped.
struct EventRef {
  std::string_view name;
  std::string field;
};

std::vector<EventRef> eventList(const LifecyclePolicy& p, const std::string& policyPath) {
  std::vector<EventRef> out;
  auto add = [&](std::string_view ev, std::string field) {
    for (const auto& e : out)
      if (e.name == ev) return;
    out.push_back({ev, std::move(field)});
  };
  for (size_t k = 0; k < p.events.size(); ++k) add(p.events[k], policyPath + ".events[" + std::to_string(k) + "]");
  if (!p.event.empty()) add(p.event, policyPath + ".event");
  return out;
}

}  // namespace

const std::vector<std::string>& validPolicyEvents() {
  static const std::vector<std::string> kEvents = {"*", "PodFailed", "PodEvicted", "PodPending",
                                                   "Unknown", "TaskCompleted", "TaskFailed", "JobUpdated"};
  return kEvents;
}

const std::vector<std::string>& validPolicyActions() {
  static const std::vector<std::string> kActions = {"AbortJob", "RestartJob", "RestartTask", "RestartPod",
                                                    "RestartPartition", "TerminateJob", "CompleteJob", "ResumeJob"};
  return kActions;
}

std::string validPoliciesSuffix() {
  return " valid events are " + gotext::slice(validPolicyEvents()) + ", valid actions are " +
         gotext::slice(validPolicyActions()) + ";";
}

PolicyCheck validatePolicies(const std::vector<LifecyclePolicy>& policies, std::string_view volcanoPath,
                             std::string_view fieldPrefix) {
  std::vector<std::string> errors;
  PolicyCheck out;
  auto fail = [&](std::string goError, std::string field, std::string message) {
    errors.push_back(std::move(goError));
    out.findings.push_back({std::move(field), std::move(message)});
  };
  std::set<std::string, std::less<>> seenEvents;
  std::set<int32_t> seenExitCodes;

  for (size_t i = 0; i < policies.size(); ++i) {
    const LifecyclePolicy& p = policies[i];
    const std::string path = at(fieldPrefix, i);
    const bool hasEvent = !p.event.empty() || !p.events.empty();
    if (hasEvent && p.exitCode) {
      const std::string msg = "must not specify event and exitCode simultaneously";
      fail(msg, path, msg);
      break;
    }
    if (!hasEvent && !p.exitCode) {
      const std::string msg = "either event and exitCode should be specified";
      fail(msg, path, msg);
      break;
    }
    if (hasEvent) {
      bool stop = false;
      for (const auto& ev : eventList(p, path)) {
        if (!contains(validPolicyEvents(), ev.name)) {
          const std::string body = "Invalid value: " + gotext::quote(ev.name) + ": invalid policy event";
          fail(std::string(volcanoPath) + ": " + body, ev.field, body);
          stop = true;
        } else if (!contains(validPolicyActions(), p.action)) {
          const std::string body = "Invalid value: " + gotext::quote(p.action) + ": invalid policy action";
          fail(std::string(volcanoPath) + ": " + body, path + ".action", body);
          stop = true;
        } else if (!seenEvents.insert(std::string(ev.name)).second) {
          const std::string msg = "duplicate event " + std::string(ev.name) + "  across different policy";
          fail(msg, ev.field, msg);
          stop = true;
        }
        if (stop) break;
      }
      if (stop) break;
    } else {
      if (*p.exitCode == 0) {
        const std::string msg = "0 is not a valid error code";
        fail(msg, path + ".exitCode", msg);
        break;
      }
      if (!seenExitCodes.insert(*p.exitCode).second) {
        const std::string msg = "duplicate exitCode " + std::to_string(*p.exitCode);
        fail(msg, path + ".exitCode", msg);
        break;
      }
    }
  }
  if (seenEvents.count("*") && seenEvents.size() > 1) {
    const std::string msg = "if there's * here, no other policy should be here";
    fail(msg, std::string(fieldPrefix), msg);
  }
  out.error = gotext::multierror(errors);
  return out;
}

}  // namespace jobhost
