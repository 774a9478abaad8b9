// Loading job files: YAML streams or JSON (one Job, an array of Jobs, or a List), each job decoded
// and kept together with its source so later errors can name file:line:column.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "host/common/expected.h"
#include "host/common/source_doc.h"
#include "host/spec/schema_finding.h"
#include "jobhost/job.h"

namespace jobhost {

/// A decoded job and the document it came from; `source.where("spec.tasks[0].replicas")` gives
/// the position of a field, with paths relative to this job (also for jobs inside a List).
struct JobDocument {
  Job job;
  SourceDoc source;
  /// Wrong JSON types and undeclared keys under `spec` (the API server refuses the job for them
  /// before Volcano's webhook runs; admission reports them). Such fields are left unset in `job`.
  std::vector<SchemaFinding> schemaFindings;
};

/// A Kubernetes object of another kind found beside the jobs (a Queue, a ConfigMap, ...).
struct OtherObject {
  std::string apiVersion, kind, name;
  SourceDoc source;
};

/// A named Volcano Queue (scheduling.volcano.sh): a file's Queues declare queues for its jobs.
bool isVolcanoQueue(const OtherObject& o);

/// Decodes every job in `text`. JSON when the first non-space character is '{' or '[', else YAML
/// (multi-document). Each document may be a Job, an array of Jobs, or a List/JobList with `items`.
/// With `others`, an object whose `kind` is not Job is moved there instead of being an error, as
/// `kubectl apply -f` takes a Queue beside a Job. The first decode error wins (wrong types and
/// undeclared keys under `spec` are each job's schemaFindings instead); no job at all is an error
/// unless the file declares a Volcano Queue (a queues file, for the job files after it).
Expected<std::vector<JobDocument>> parseJobs(std::string_view text, std::string file,
                                             std::vector<OtherObject>* others = nullptr);

/// Reads `path` and parses it with parseJobs; positions name `path`.
Expected<std::vector<JobDocument>> loadJobs(const std::string& path, std::vector<OtherObject>* others = nullptr);

}  // namespace jobhost
